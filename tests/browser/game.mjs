// A game against Sargon in the explorer, in a real browser (Debian's chromium, headless,
// playwright-core). Run by tests/it/serve_browser_game.rs as
//   node tests/browser/game.mjs URL OUT_DIR CHROMIUM EXPECT_ROM(0|1)
// It plays as Black against the port at depth 2 (the board turned round), looks into the
// tree mid-game and comes back to play on, steps through the game with ←/→/Home/End from
// the board and from the move list, opens the search behind one of Sargon's moves, checks
// the eval bar, the score graph, the arrows and the PGN's players, and reloads the
// permalink to find the game again. The screenshots it leaves in OUT_DIR are the ones
// docs/explorer.md shows.
import { launch, watchProblems, reporter } from "./harness.mjs";
import assert from "node:assert/strict";

const [url, outDir, executablePath] = process.argv.slice(2);
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const browser = await launch(executablePath);
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const problems = [];
// No refused load is expected here: every console error is a problem.
const watch = (p) => watchProblems(p, problems, { refusedLoads: false });
watch(page);
const ok = reporter("game");
const shot = (name) => page.screenshot({ path: `${outDir}/${name}` });

// The page's view of the game, read from what it shows.
const plies = () => page.$$eval("#game-moves a.mv", (as) => as.length);
const boardFen = () => page.getAttribute("#board", "data-fen");
const bannerShown = () => page.isVisible("#view-banner");
const currentPly = () => page.$eval("#game-moves", (l) => l.querySelector(".mv.current")?.dataset.ply ?? null);
const liveFen = () => page.inputValue("#position-text");
async function legalMoves(fen) {
  return page.evaluate(async (text) => (await (await fetch("/api/position", { method: "POST", body: JSON.stringify({ text }) })).json()).legal, fen);
}
async function waitForMyMove(n) {
  await page.waitForFunction((n) => document.getElementById("play-status").textContent.endsWith("your move") &&
    document.querySelectorAll("#game-moves a.mv").length === n, n, { timeout: 60000 });
}
// One of these moves, the first legal one, clicked on the board: the piece, then its target.
async function playOneOf(candidates, n) {
  const legal = (await legalMoves(await liveFen())).map((m) => m.uci);
  const uci = candidates.find((c) => legal.includes(c)) || legal[0];
  await page.click(`rect[data-sq="${uci.slice(0, 2)}"]`);
  const targets = await page.$$eval("#board circle.target", (c) => c.length);
  assert.ok(targets > 0, `no legal-target hints after picking ${uci.slice(0, 2)}`);
  assert.equal(await page.$$eval("#board rect.picked", (r) => r.length), 1);
  await page.click(`rect[data-sq="${uci.slice(2, 4)}"]`);
  await waitForMyMove(n);
  return uci;
}

try {
  await page.goto(url);
  await page.waitForSelector("#board svg");
  // The board as people know it: coordinates on its edge, a-h and 1-8.
  const coords = await page.$$eval("#board text.coord", (t) => t.map((x) => x.textContent).sort().join(""));
  assert.equal(coords, "12345678abcdefgh");
  await page.selectOption("#engine", "port");
  await page.fill("#depth", "2");
  await page.uncheck("#book"); // every one of Sargon's moves searched, so each has a score
  // Before any game, a search: its best move and line as arrows, its score in the bar.
  await page.click("#search");
  await page.waitForSelector("#best-move", { timeout: 60000 });
  await page.waitForSelector("#board polygon.arrow.best");
  const line = (await page.textContent("#pv-san")).split(" ");
  assert.equal(await page.$$eval("#board polygon.arrow", (a) => a.length), line.length);
  assert.equal(await page.$$eval("#board polygon.arrow.pv", (a) => a.length), line.length - 1);
  assert.notEqual(await page.getAttribute("#evalbar", "data-pawns"), "");
  assert.ok(!(await bannerShown()));
  ok(`a search's arrows (${line.join(" ")}) and score`);
  await page.click("#play-box summary");
  await page.selectOption("#play-side", "black");
  await page.click("#new-game");
  await waitForMyMove(1);
  assert.equal(await page.getAttribute("#board", "data-flipped"), "1");
  // Turned round: a8 in the bottom right-hand corner.
  const a8 = await page.$eval('rect[data-sq="a8"]', (r) => [Number(r.getAttribute("x")), Number(r.getAttribute("y"))]);
  assert.deepEqual(a8, [315, 315]);
  assert.equal(await page.$$eval("#board rect.last-move", (r) => r.length), 2);
  ok("playing Black turns the board; Sargon's first move is highlighted");

  await playOneOf(["e7e5", "d7d5", "g8f6"], 3);
  await playOneOf(["b8c6", "g8f6", "d7d6"], 5);
  ok("two moves each");

  // Mid-game, a node of Sargon's last search: the board shows it, a banner says so, a
  // click on the board says why it does not move, and "Back to the game" returns.
  const live = await boardFen();
  // (Not the PV's first node: that is the move Sargon played, the game's position.)
  await page.waitForSelector(".node.in-pv:not([data-id='0'])");
  await page.click("#tree > div > .kids > div > .node:not(.in-pv) .label");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen !== f, live);
  assert.ok(await bannerShown());
  assert.match(await page.textContent("#view-what"), /^A node of the search: after /);
  assert.equal(await page.$$eval("#board polygon.arrow.node", (a) => a.length), 1);
  await page.click('rect[data-sq="e2"]');
  assert.match(await page.textContent("#board-notice"), /Back to the game/);
  await shot("explorer-game-black.png");
  await page.click("#back-to-game");
  assert.equal(await boardFen(), live);
  assert.ok(!(await bannerShown()));
  // "Searched position" too is a view the page comes back from.
  await page.click("#back-root");
  await page.waitForFunction(() => document.getElementById("view-what").textContent === "The position Sargon searched");
  assert.equal(await page.$$eval("#board polygon.arrow.best", (a) => a.length), 1);
  await page.click("#back-to-game");
  await playOneOf(["f8c5", "f8e7", "d7d6", "a7a6"], 7);
  ok("after looking into the tree mid-game, back to the game and on");

  // ←/→/Home/End from the board.
  const n = await plies();
  await page.focus("#board");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await currentPly(), String(n - 1));
  assert.ok(await bannerShown());
  await page.keyboard.press("Home");
  assert.equal(await boardFen(), START);
  assert.equal(await currentPly(), null);
  await page.keyboard.press("ArrowRight");
  assert.equal(await currentPly(), "1");
  assert.equal(await page.$$eval("#board rect.last-move", (r) => r.length), 2);
  await page.keyboard.press("End");
  assert.equal(await boardFen(), await liveFen());
  assert.ok(!(await bannerShown()));
  // From the move list, after a click on a move.
  await page.click('#game-moves a.mv[data-ply="3"]');
  assert.equal(await currentPly(), "3");
  await page.focus("#game-moves");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await currentPly(), "5");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await currentPly(), "4");
  // Not while typing: the arrows move the caret in a text box.
  await page.focus("#find-path");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await currentPly(), "4");
  await page.focus("#game-moves");
  await page.keyboard.press("End");
  assert.equal(await boardFen(), await liveFen());
  ok("←/→/Home/End from the board and the move list");

  // The eval bar and the graph: a score for each of Sargon's moves, for White.
  const sargonMoves = await page.$$eval("#game-moves a.mv.sargon", (as) => as.length);
  assert.equal(sargonMoves, 4);
  const points = await page.$$eval("#score-graph circle.point title", (t) => t.map((x) => x.textContent));
  assert.equal(points.length, sargonMoves);
  for (const p of points) assert.match(p, /pawns for White \(0x[0-9a-f]{2} = [+\u2212]?\d+\.\d\d pawns for White \(Sargon\)/);
  const barPawns = await page.getAttribute("#evalbar", "data-pawns");
  assert.notEqual(barPawns, "");
  assert.match(await page.textContent("#score-graph .graph-note"), /in pawns for White/);
  // After Sargon's move, the line it expects is drawn (its PV's next moves).
  assert.ok(await page.$$eval("#board polygon.arrow.pv", (a) => a.length) >= 1);
  ok(`the eval bar (${barPawns} for White) and the graph (${points.length} points), the arrows`);

  // One of Sargon's moves opens the search that chose it: its position, its tree, its move.
  const firstSan = await page.textContent('#game-moves a.mv[data-ply="1"]');
  const firstUci = (await page.evaluate(() => new URLSearchParams(location.search).get("moves"))).split(",")[0].split("~")[0];
  await page.click('#game-moves a.tree-link[data-ply="1"]');
  await page.waitForFunction(() => document.getElementById("view-what").textContent === "The position Sargon searched", null, { timeout: 60000 });
  assert.equal(await boardFen(), START);
  assert.equal(await page.textContent("#best-move"), firstSan);
  assert.equal(await page.$eval("#board polygon.arrow.best", (a) => a.dataset.uci), firstUci);
  await page.waitForSelector('.node.selected[data-id="0"]');
  await page.click("#back-to-game");
  // From the keyboard too: Enter on the link of Sargon's second move.
  await page.focus('#game-moves a.tree-link[data-ply="3"]');
  await page.keyboard.press("Enter");
  const ucis = (await page.evaluate(() => new URLSearchParams(location.search).get("moves"))).split(",").map((t) => t.split("~")[0]);
  const afterTwo = await page.evaluate(async (text) => (await (await fetch("/api/position", { method: "POST", body: JSON.stringify({ text }) })).json()).fen,
    `startpos moves ${ucis[0]} ${ucis[1]}`);
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f &&
    document.getElementById("view-what").textContent === "The position Sargon searched", afterTwo, { timeout: 60000 });
  await page.click("#back-to-game");
  ok(`Sargon's first move, ${firstSan}, opens its search`);

  // The PGN names who played each move.
  await page.click("#pgn-export");
  const pgn = await page.inputValue("#pgn-out");
  assert.match(pgn, /\[White "Sargon \(port, depth 2\)"\]/);
  assert.match(pgn, /\[Black "Human"\]/);
  const comments = pgn.split("\n\n")[1].match(/\{[^}]*\}/g);
  assert.equal(comments.length, n);
  comments.forEach((c, i) => assert.match(c, i % 2 === 0 ? /^\{Sargon \(port, depth 2\): 0x[0-9a-f]{2} = / : /^\{Human\}$/));
  const back = await page.evaluate(async (text) => (await fetch("/api/pgn", { method: "POST", body: JSON.stringify({ pgn: text }) })).json(), pgn);
  assert.equal(back.positions.length, n + 1, JSON.stringify(back));
  ok(`the PGN names each move's player (${comments.length} comments), and the server reads it back`);

  // The permalink: a new page on the same address finds the same game, turned round.
  const link = page.url();
  const listed = await page.textContent("#game-moves");
  const again = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  watch(again);
  await again.goto(link);
  await again.waitForFunction((t) => document.getElementById("game-moves").textContent === t &&
    document.getElementById("play-status").textContent.endsWith("your move"), listed, { timeout: 60000 });
  assert.equal(await again.getAttribute("#board", "data-flipped"), "1");
  assert.equal(await again.getAttribute("#board", "data-fen"), await liveFen());
  assert.equal(await again.$$eval("#score-graph circle.point", (c) => c.length), points.length);
  await again.click("#pgn-export");
  const pgnAgain = await again.inputValue("#pgn-out");
  assert.equal(pgnAgain.split("\n\n")[1], pgn.split("\n\n")[1]);
  await again.close();
  ok("the permalink restores the game");

  // A game as White, with the book: Sargon's book moves have no score, its others do.
  await page.click("#resign");
  await page.click("#start");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, START);
  // A position set after the game is the link's, not the game.
  assert.equal(new URL(page.url()).searchParams.get("moves"), null);
  await page.check("#book");
  await page.selectOption("#play-side", "white");
  await page.click("#new-game");
  assert.equal(await page.getAttribute("#board", "data-flipped"), "0");
  await playOneOf(["e2e4"], 2);
  await playOneOf(["g1f3"], 4);
  await playOneOf(["f1c4", "f1b5", "d2d4"], 6);
  await playOneOf(["b1c3", "d2d3", "e1g1"], 8);
  await page.click("#pgn-export");
  assert.match(await page.inputValue("#pgn-out"), /1\.\.\. \S+ \{Sargon \(port, depth 2\): from the book, no search\}/);
  await page.evaluate(() => {
    getSelection().removeAllRanges();
    document.activeElement.blur();
    const out = document.getElementById("pgn-out");
    out.scrollTop = out.scrollHeight; // the moves and their comments, not the tags
    window.scrollTo(0, 0);
  });
  await shot("explorer-game.png");
  ok("a game as White, the book's moves unscored");

  assert.deepEqual(problems, []);
  console.log("game: passed");
} catch (e) {
  await shot("game-failure.png").catch(() => {});
  console.error(e);
  console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
}
