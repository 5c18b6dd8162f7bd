// The explorer of `sargon serve` in a real browser: Debian's chromium, headless, driven by
// playwright-core. Run by tests/serve_browser.rs as
//   node tests/browser/explorer.mjs URL OUT_DIR CHROMIUM EXPECT_ROM(0|1) EXEC UCI
// where EXEC and UCI are the other ports the server offers (`serve --engine`): our own port
// behind `exec:` and `uci:`.
// It does what a newcomer does (set a position, search, open nodes, follow the PV, compare
// the engines, make a mistake) and checks what the page shows after each step; the
// screenshots it leaves in OUT_DIR are the ones docs/explorer.md shows.
import { launch, watchProblems, reporter } from "./harness.mjs";
import assert from "node:assert/strict";

const [url, outDir, executablePath, expectRom, execName, uciName] = process.argv.slice(2);
const ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

const browser = await launch(executablePath);
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const problems = [];
watchProblems(page, problems);
const ok = reporter("explorer");
const shot = (name) => page.screenshot({ path: `${outDir}/${name}` });
const api = (path) => page.evaluate(async (p) => (await fetch(p)).json(), path);

try {
  await page.goto(url);
  await page.waitForSelector("#board svg");
  assert.equal(await page.getAttribute("#board", "data-fen"),
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  ok("the start position is drawn");

  // A bad FEN: the error in place, with the command line's words.
  await page.fill("#position-text", "rnbqkbnr/ppp w");
  await page.click("#set-position");
  await page.waitForFunction(() => document.getElementById("position-error").textContent !== "");
  const error = await page.textContent("#position-error");
  assert.match(error, /^invalid FEN `rnbqkbnr\/ppp w`: field 1 \(board\)/);
  await shot("explorer-error.png");
  ok("a bad FEN is refused inline");

  // Moves clicked on the board: e2 then e4.
  await page.click("#start");
  await page.waitForFunction(() => document.getElementById("position-error").textContent === "");
  await page.click('rect[data-sq="e2"]');
  await page.click('rect[data-sq="e4"]');
  await page.waitForFunction(() => document.getElementById("board").dataset.fen.startsWith("rnbqkbnr/pppppppp/8/8/4P3/"));
  ok("a move clicked on the board is played");

  // The Italian, searched to depth 3 on the port.
  await page.fill("#position-text", ITALIAN);
  await page.click("#set-position");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, ITALIAN);
  await page.selectOption("#engine", "port");
  await page.fill("#depth", "3");
  await page.click("#search");
  await page.waitForSelector("#best-move", { timeout: 60000 });
  const best = await page.textContent("#best-move");
  const pvSan = (await page.textContent("#pv-san")).split(" ");
  assert.equal(best, pvSan[0]);
  await page.waitForSelector(".node.in-pv");
  const rootRows = await page.$$eval('.node[role="treeitem"]', (rows) => rows.length);
  assert.ok(rootRows > 20, `only ${rootRows} rows`);
  ok(`the search ends with ${best}, PV ${pvSan.join(" ")}, ${rootRows - 1} root moves`);

  // Open the PV: click its ply-1 node, open it, click its ply-2 node; the board follows.
  const status = await api(`/api/search/1`);
  const pvNodes = status.pv_nodes;
  await page.click(`.node[data-id="${pvNodes[0]}"] .label`);
  await page.click(`.node[data-id="${pvNodes[0]}"] .tw`);
  await page.waitForSelector(`.node[data-id="${pvNodes[1]}"]`);
  await page.click(`.node[data-id="${pvNodes[1]}"] .label`);
  const node = await api(`/api/search/1/node/${pvNodes[1]}`);
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, node.fen);
  assert.match(await page.textContent("#node-detail"), /alpha-beta/);
  // Score bytes are written as the listing writes them.
  assert.match(await page.textContent("#node-detail"), new RegExp(`score0x${node.eval.byte} \\${node.eval.pawns} pawns for (White|Black) \\(evaluation`));
  assert.match(await page.textContent(`.node[data-id="${pvNodes[1]}"] .byte`), new RegExp(`^0x${node.eval.byte}$`));
  assert.match(page.url(), new RegExp(`node=${node.path.join(",")}`));
  await shot("explorer-search.png");
  ok(`clicking a PV node shows its position (${node.path_labels.join(" ")})`);

  // Sargon's memory at that node, on both engines side by side.
  await page.click("#memory");
  await page.waitForSelector("#memory-verdict", { timeout: 60000 });
  assert.equal(await page.textContent("#memory-verdict"),
    expectRom === "1" ? "the same bytes on both engines" : "the original is not available: the port's memory alone");
  assert.equal(await page.$$eval(".memory table.bytes", (t) => t.length), expectRom === "1" ? 2 : 1);
  await page.locator("#tree-panel").screenshot({ path: `${outDir}/explorer-memory.png` });
  ok("Sargon's memory at a node");

  // Keyboard: Backspace to the parent, Down to the next row, Right opens, Left closes.
  await page.focus("#tree");
  await page.keyboard.press("Backspace");
  await page.waitForSelector(`.node.selected[data-id="${pvNodes[0]}"]`);
  await page.keyboard.press("ArrowLeft"); // closes it
  await page.waitForFunction((id) => document.querySelector(`.node[data-id="${id}"]`).parentElement.querySelector(".kids").hidden, pvNodes[0]);
  await page.keyboard.press("ArrowRight"); // opens it
  await page.keyboard.press("ArrowRight"); // its first child
  const firstChild = (await api(`/api/search/1/node/${pvNodes[0]}`)).children[0].id;
  await page.waitForSelector(`.node.selected[data-id="${firstChild}"]`);
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction((id) => document.querySelector(".node.selected").dataset.id !== String(id), firstChild);
  ok("keyboard navigation");

  // Find a node by its move path.
  await page.fill("#find-path", node.path.join(" "));
  await page.click("#find");
  await page.waitForSelector(`.node.selected[data-id="${pvNodes[1]}"]`);
  await page.fill("#find-path", "a7a5 h2h4 a1a1");
  await page.click("#find");
  await page.waitForFunction(() => document.getElementById("find-error").textContent.includes("not a node"));
  ok("find by path, and its error");

  // The PV, rebuilt step by step: each step marks its node in the tree.
  const steps = (await api(`/api/search/1/pv-steps`)).steps;
  for (let i = 0; i < steps.length; i++) {
    await page.click("#pv-next");
    await page.waitForSelector(`.node.stepped[data-id="${steps[i].node}"]`);
  }
  assert.equal(await page.$$eval(".pv-steps li.current", (l) => l.length), 1);
  await shot("explorer-pv.png");
  ok(`the PV replay walks ${steps.length} steps`);

  // The link holds the view: reload, and the same node is selected again.
  const link = page.url();
  await page.goto(link);
  await page.waitForSelector(`.node.selected[data-id="${steps[steps.length - 1].node}"]`, { timeout: 60000 });
  ok("a reloaded link reopens the search at its node");

  // Compare the engines (with a ROM), or see why it is off.
  if (expectRom === "1") {
    await page.click("#compare");
    await page.waitForSelector("#compare-verdict", { timeout: 120000 });
    assert.equal(await page.textContent("#compare-verdict"), "0 divergences");
    // And the original's own search, with its TRS-80 time.
    await page.selectOption("#engine", "emulator");
    await page.fill("#depth", "2");
    await page.click("#search");
    await page.waitForFunction(() => document.getElementById("result").textContent.includes("TRS-80"), null, { timeout: 120000 });
    await shot("explorer-compare.png");
    ok("compare: 0 divergences; the original's search shows its TRS-80 time");
    // Inside the original: the profile, then a routine's listing from the user's copy.
    await page.click("#profile");
    await page.waitForSelector(".profile .bar-row", { timeout: 120000 });
    // Only the bars are pictured: the listing is the user's own copy, not for docs/.
    await page.locator("#profile-view").screenshot({ path: `${outDir}/explorer-profile.png` });
    await page.click('.profile .bar-row[data-routine="POINTS"]');
    await page.waitForFunction(() => document.getElementById("listing").textContent.startsWith("; routine POINTS"));
    assert.ok((await page.$$eval("#listing .port", (l) => l.length)) > 0);
    ok("the profile's bars, and a routine's listing with the port's links");
  } else {
    assert.equal(await page.isDisabled("#compare"), true);
    assert.match(await page.textContent("#engine-reason"), /needs your own copy/);
    ok("without a ROM, the original and Compare are off with the reason");
  }

  // The models of "A Window into Sargon", on the port and (with a ROM) the original.
  for (const engine of expectRom === "1" ? ["port", "emulator"] : ["port"]) {
    await page.selectOption("#models-engine", engine);
    await page.click("#models-run");
    await page.waitForSelector("#model-pv", { timeout: 60000 });
    const tabs = await page.$$eval("#models-tabs button", (b) => b.length);
    assert.equal(tabs, 5);
    assert.equal(await page.$$eval("#model .mnode", (n) => n.length), 14);
    await page.click('#models-tabs button[data-n="3"]');
    await page.waitForSelector('#models-tabs button.current[data-n="3"]');
    assert.ok((await page.$$eval("#model .intercept", (n) => n.length)) > 0);
    ok(`the five models run on the ${engine}`);
  }
  await page.locator("#models-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${outDir}/explorer-models.png`, fullPage: true });

  // A game against Sargon on the port: two moves each, then the PGN, read back by the server.
  await page.click("#start");
  await page.waitForFunction(() => document.getElementById("board").dataset.fen.startsWith("rnbqkbnr/pppppppp/8/8/8/8/"));
  await page.selectOption("#engine", "port");
  await page.fill("#depth", "2");
  await page.click("#play-box summary");
  await page.selectOption("#play-side", "white");
  await page.click("#new-game");
  const move = async (from, to, plies) => {
    await page.click(`rect[data-sq="${from}"]`);
    await page.click(`rect[data-sq="${to}"]`);
    await page.waitForFunction((n) => document.getElementById("play-status").textContent.endsWith("your move") &&
      document.getElementById("game-moves").textContent.split(" ").filter((w) => !/^\d+\.$/.test(w)).length === n, plies, { timeout: 60000 });
  };
  await move("e2", "e4", 2);
  await move("g1", "f3", 4);
  await page.click("#pgn-export");
  const pgn = await page.inputValue("#pgn-out");
  assert.match(pgn, /\[White "Human"\]/);
  // Each move is followed by a comment naming who played it.
  assert.match(pgn.replace(/\s+/g, " "), /1\. e4 \{Human\} 1\.\.\. \S+ \{Sargon \(port, depth 2\)[^}]*\} 2\. Nf3 \{Human\} 2\.\.\. \S+ \{Sargon[^}]*\} \*/);
  const back = await page.evaluate(async (text) => (await fetch("/api/pgn", { method: "POST", body: JSON.stringify({ pgn: text }) })).json(), pgn);
  assert.equal(back.positions.length, 5, JSON.stringify(back));
  await shot("explorer-play.png");
  ok(`a game against Sargon: ${pgn.split("\n").pop() || pgn.trim().split("\n").pop()}`);
  if (expectRom === "1") {
    // At 1978 pace on the original: Sargon waits a fraction of its TRS-80 time.
    await page.selectOption("#engine", "emulator");
    await page.fill("#depth", "1");
    await page.check("#pace");
    await page.fill("#pace-fraction", "0.1");
    await page.click("#new-game");
    await page.click('rect[data-sq="b1"]');
    await page.click('rect[data-sq="c3"]');
    await page.waitForFunction(() => document.getElementById("play-status").textContent.includes("the TRS-80 took"), null, { timeout: 60000 });
    await page.waitForFunction(() => document.getElementById("play-status").textContent.endsWith("your move"), null, { timeout: 60000 });
    ok("1978 pace on the original");
    await page.click("#resign");
  }

  // Another person's port (ours behind exec:), chosen by its name: its search opens as a
  // tree, the port's own. The UCI port is offered but cannot search: it has no trace.
  if (!(await page.isDisabled("#resign"))) await page.click("#resign");
  const offered = await page.$$eval("#engine option", (os) => os.map((o) => [o.value, o.disabled, o.title]));
  assert.deepEqual(offered.map(([v]) => v), ["port", "emulator", execName, uciName]);
  assert.equal(offered[2][1], false);
  assert.equal(offered[3][1], true);
  assert.match(offered[3][2], /^a search in the explorer needs a trace of its search, which the engine `uci:/);
  await page.fill("#position-text", ITALIAN);
  await page.click("#set-position");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, ITALIAN);
  await page.selectOption("#engine", execName);
  await page.fill("#depth", "3");
  // The page's state is its modules' own: the search's id is read from the server's answer.
  const started = page.waitForResponse((r) => r.url().endsWith("/api/search") && r.request().method() === "POST");
  await page.click("#search");
  await page.waitForFunction((n) => document.getElementById("engine-name")?.textContent === n, execName, { timeout: 60000 });
  assert.equal(await page.textContent("#best-move"), best);
  assert.deepEqual((await page.textContent("#pv-san")).split(" "), pvSan);
  // The tree's rows come after the result (the root's children are asked for): wait for
  // them, then compare.
  await page.waitForFunction((n) => document.querySelectorAll('.node[role="treeitem"]').length >= n, rootRows, { timeout: 30000 })
    .catch(() => {});
  const execRows = await page.$$eval('.node[role="treeitem"]', (rows) => rows.length);
  assert.equal(execRows, rootRows);
  const execId = (await (await started).json()).id;
  const execPv = (await api(`/api/search/${execId}`)).pv_nodes;
  assert.deepEqual(execPv, pvNodes);
  await page.click(`.node[data-id="${execPv[0]}"] .label`);
  await page.click(`.node[data-id="${execPv[0]}"] .tw`);
  await page.waitForSelector(`.node[data-id="${execPv[1]}"]`);
  await page.click(`.node[data-id="${execPv[1]}"] .label`);
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, node.fen);
  await page.click("#memory");
  await page.waitForSelector("#memory-note", { timeout: 60000 });
  assert.match(await page.textContent("#memory-note"), /^this search was made by `exec:/);
  await shot("explorer-exec.png");
  await page.locator("#tree-panel").screenshot({ path: `${outDir}/explorer-exec-memory.png` });
  // The models need hooks: the exec: port is offered there but cannot be chosen.
  assert.deepEqual(await page.$eval("#models-engine option:nth-child(3)", (o) => [o.value, o.disabled]), [execName, true]);
  ok(`another port behind exec: searches as a tree (${best}, PV ${pvSan.join(" ")}, ${execRows - 1} root moves)`);

  // Cancel a long search.
  await page.selectOption("#engine", "port");
  await page.fill("#depth", "9");
  await page.click("#search");
  await page.waitForFunction(() => document.getElementById("progress").textContent.startsWith("searching"));
  await page.click("#cancel");
  await page.waitForFunction(() => document.getElementById("progress").textContent === "cancelled");
  ok("a long search is cancelled");

  assert.deepEqual(problems, []);
  console.log("explorer: passed");
} catch (e) {
  await shot("explorer-failure.png").catch(() => {});
  console.error(e);
  console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
}
