// The explorer's views for a newcomer (issue 36, "Scores anyone can read", the drawn subtree
// and the layouts), in Debian's chromium driven by playwright-core. Run by
// tests/it/serve_browser_views.rs as
//   node tests/browser/views.mjs URL OUT_DIR CHROMIUM EXPECT_ROM(0|1)
// It clicks Search first (the start position, the book ticked), reads every mark's
// explanation on hover, checks that each view states the score convention once, reads the
// memory view's moment, clicks a model node, draws and filters the subtree, and measures
// the page at 390, 1024 and 1400 px. Screenshots go to OUT_DIR.
import { launch, watchProblems, reporter } from "./harness.mjs";
import assert from "node:assert/strict";

const [url, outDir, executablePath, expectRom] = process.argv.slice(2);
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const browser = await launch(executablePath);
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const problems = [];
watchProblems(page, problems);
const ok = reporter("views");
const api = (path) => page.evaluate(async (p) => (await fetch(p)).json(), path);
const count = (sel) => page.$$eval(sel, (els) => els.length);

// The explanation shown when the pointer rests on an element.
async function hoverText(locator) {
  await page.mouse.move(0, 0);
  await locator.scrollIntoViewIfNeeded();
  await locator.hover();
  await page.waitForFunction(() => { const t = document.getElementById("tip"); return t && !t.hidden && t.textContent; });
  return page.textContent("#tip");
}

// A byte and its pawns agree: 0x80 is even, 8 steps a pawn, smaller better.
function checkScore(text, what) {
  const m = text.match(/^0x([0-9a-f]{2}) ([+-]\d+\.\d{2,3})$/);
  assert.ok(m, `${what}: "${text}" is not "0xNN +P.PP"`);
  return { byte: parseInt(m[1], 16), pawns: Number(m[2]) };
}

// Layouts: no horizontal scroll at 390, 1024 and 1400 px; at 390 the panels stack and the
// board fits the screen. The window is left at 1400 px.
async function checkLayouts(when) {
  for (const width of [1024, 390, 1400]) {
    await page.setViewportSize({ width, height: 900 });
    await page.mouse.move(0, 0);
    const m = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
      board: document.querySelector("#board svg").getBoundingClientRect().width,
      lefts: [...document.querySelectorAll("main > section")].map((s) => Math.round(s.getBoundingClientRect().left)),
    }));
    assert.ok(m.scroll <= m.inner, `${width} px ${when}: the page is ${m.scroll} px wide, the window ${m.inner}`);
    assert.ok(m.board <= m.inner, `${width} px ${when}: the board is ${m.board} px wide`);
    if (width === 390) assert.equal(new Set(m.lefts).size, 1, `390 px: the panels stack (${m.lefts})`);
    ok(`${width} px ${when}: no horizontal scroll (${m.scroll} <= ${m.inner}), the board ${Math.round(m.board)} px`);
  }
}

try {
  await page.goto(url);
  await page.waitForSelector("#board svg");
  assert.equal(await page.getAttribute("#board", "data-fen"), START);
  await page.selectOption("#engine", "port");
  await page.fill("#depth", "3");

  // 1. The first click: Search on the start position, the book ticked.
  assert.equal(await page.isChecked("#book"), true);
  await page.click("#search");
  await page.waitForSelector("#book-note", { timeout: 60000 });
  assert.match(await page.textContent("#book-note"), /A book move:.*without searching/);
  const started = page.waitForResponse((r) => r.url().endsWith("/api/search") && r.request().method() === "POST");
  await page.click("#search-no-book");
  const id = (await (await started).json()).id;
  await page.waitForSelector("#result-score", { timeout: 60000 });
  assert.equal(await page.isChecked("#book"), false);
  assert.equal(await count("#book-note"), 0);
  const status = await api(`/api/search/${id}`);
  assert.equal(status.request.book, false);
  assert.ok(status.nodes > 1000, `the search without the book made ${status.nodes} nodes`);
  await page.waitForFunction(() => document.querySelectorAll(".node").length > 20);
  ok(`Search on the start position with the book says "book move" and offers the search, which makes ${status.nodes} nodes`);

  // 2. One score convention: the byte as the listing writes it, then pawns for a named side.
  const result = await page.textContent("#result-score");
  const r = checkScore(await page.textContent("#result-score .score"), "the result");
  assert.equal(r.byte, status.result.sargon_score);
  assert.match(result, /pawns for White, the side to move$/);
  assert.doesNotMatch(await page.textContent("#result"), /byte [0-9a-f]{2}\b|\[[0-9a-f]{2}\]/);
  assert.equal(await count("#result .score-legend"), 1);
  assert.equal(await count("#tree-legend .score-legend"), 1);
  assert.match(await page.textContent("#tree-legend"), /ply 1: White, ply 2: Black/);
  for (const text of await page.$$eval("#tree .node .score", (s) => s.map((e) => e.textContent))) {
    const s = checkScore(text, "a tree row");
    assert.equal(s.pawns, (0x80 - s.byte) / 8, `a tree row's byte and pawns disagree: ${text}`);
  }
  ok(`the result (${result}) and the tree write scores one way, the convention stated once in each`);

  // 3. Every mark explained on hover. Find a node with each mark (through the API, two
  // plies deep), open the outline to it, and hover the mark.
  const want = {
    ".order": /order of evaluation/,
    ".score": /^Sargon's score byte 0x[0-9a-f]{2} .*pawns for (White|Black), who played /,
    ".badge.new_best": /^new best: .*best test/,
    ".badge.discard": /^discard: .*dropped/,
    ".badge.cutoff": /^cutoff: .*alpha-beta/,
    ".badge.star": /best so far/,
    ".badge.pv": /principal variation/,
    ".status.refuted": /^refuted: one of its replies caused a cutoff.*\(by evaluation \d+\)/,
    ".below": /subtree/,
  };
  const markOf = (n) => [
    n.eval && ".order", n.eval && ".score", n.eval && `.badge.${n.eval.decision}`,
    n.best_so_far && ".badge.star", n.in_pv && ".badge.pv", n.status.kind === "refuted" && ".status.refuted",
    n.children_count && ".below"].filter(Boolean);
  const found = {};
  let frontier = [{ id: 0, path: [] }];
  for (let ply = 0; ply < 3 && Object.keys(found).length < Object.keys(want).length; ply++) {
    const next = [];
    for (const at of frontier) {
      const n = await api(`/api/search/${status.id}/node/${at.id}`);
      for (const c of n.children) {
        const path = [...at.path, c.uci];
        for (const m of markOf(c)) if (!found[m]) found[m] = { id: c.id, path };
        if (c.children_count) next.push({ id: c.id, path });
      }
      if (Object.keys(found).length === Object.keys(want).length) break;
    }
    frontier = next.slice(0, 12);
  }
  assert.deepEqual(Object.keys(found).sort(), Object.keys(want).sort(), "a node with each mark");
  for (const [mark, expected] of Object.entries(want)) {
    await page.fill("#find-path", found[mark].path.join(" "));
    await page.click("#find");
    await page.waitForSelector(`.node.selected[data-id="${found[mark].id}"]`);
    const text = await hoverText(page.locator(`.node[data-id="${found[mark].id}"] ${mark}`));
    assert.match(text, expected, `the explanation of ${mark}`);
    console.log(`views: ${mark} says "${text}"`);
  }
  // The detail of a node says its scores the same way.
  const detail = await page.textContent("#node-detail");
  assert.doesNotMatch(detail, /\[0x/);
  // From the keyboard: the filter's explanation when Tab brings focus to it; a click on
  // what a tooltip explains hides the tooltip.
  await page.mouse.move(0, 0);
  await page.click("#find-path");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.waitForFunction(() => { const t = document.getElementById("tip"); return t && !t.hidden; });
  assert.match(await page.textContent("#tip"), /^Hide the refuted nodes/);
  await page.mouse.move(0, 0);
  await page.click("#find");
  await page.click("#find");
  assert.equal(await page.isVisible("#tip"), false);
  // For the picture: the outline scrolled back to the left, a score's explanation shown.
  await page.locator("#tree-panel").scrollIntoViewIfNeeded();
  await page.$eval("#tree", (t) => { t.scrollLeft = 0; });
  await hoverText(page.locator(`.node[data-id="${found[".score"].id}"] .score`));
  await page.screenshot({ path: `${outDir}/explorer-marks.png`, clip: await page.locator("#tree-panel").boundingBox() });
  ok("every mark of the tree explains itself on hover");

  // 4. The drawn subtree: the root's, refuted nodes dimmed; the filter hides them in both
  // views; a box clicked selects its node in the outline.
  await page.click('.node[data-id="0"] .label');
  await page.waitForSelector('#icicle g.box[data-id="0"]');
  const boxes = await count("#icicle g.box");
  const refutedBoxes = await count("#icicle g.box.refuted");
  assert.ok(boxes > 20 && refutedBoxes > 0, `${boxes} boxes, ${refutedBoxes} refuted`);
  assert.equal(await page.$eval("#icicle g.box.refuted", (g) => getComputedStyle(g).opacity), "0.35");
  const visibleRefuted = () => page.$$eval("#tree .refuted > .node", (rows) => rows.filter((r) => r.offsetParent !== null).length);
  assert.ok(await visibleRefuted() > 0);
  await page.locator("#tree-panel").screenshot({ path: `${outDir}/explorer-subtree.png` });
  await page.check("#hide-refuted");
  assert.equal(await count("#icicle g.box.refuted"), 0);
  assert.equal(await visibleRefuted(), 0);
  assert.ok(await count("#icicle g.box") < boxes);
  await page.uncheck("#hide-refuted");
  assert.equal(await count("#icicle g.box.refuted"), refutedBoxes);
  assert.ok(await visibleRefuted() > 0);
  // A grandchild's box: the outline opens its parent and selects it.
  const grandchild = await page.$eval("#icicle g.box:not(.refuted) rect[x='185.5']", (r) => r.parentNode.dataset.id)
    .catch(() => page.$eval("#icicle g.box:not(.refuted):not([data-id='0'])", (g) => g.dataset.id));
  await page.click(`#icicle g.box[data-id="${grandchild}"] rect`, { force: true });
  await page.waitForSelector(`.node.selected[data-id="${grandchild}"]`);
  assert.ok(await page.isVisible(`.node.selected[data-id="${grandchild}"]`));
  ok(`the subtree is drawn (${boxes} boxes, ${refutedBoxes} refuted, dimmed), the filter hides refuted nodes in both views, a box selects node ${grandchild}`);

  // 5. The memory view names its moment, and BOARDA is the position before the node's move.
  const first = found[".badge.pv"];
  await page.fill("#find-path", first.path.slice(0, 1).join(" "));
  await page.click("#find");
  const pvFirst = status.pv_nodes[0];
  await page.waitForSelector(`.node.selected[data-id="${pvFirst}"]`);
  const move = (await api(`/api/search/${status.id}/node/${pvFirst}`)).uci;
  await page.click("#memory");
  await page.waitForSelector("#memory-moment", { timeout: 60000 });
  const moment = await page.textContent("#memory-moment");
  assert.match(moment, /hook point alphabeta \(FM37 in the listing\).*UNMOVE has already run.*BOARDA holds the position before/);
  assert.equal(await count("#memory-view .score-legend"), 1);
  // Sargon's board: a1 is byte 21, ten bytes a rank.
  const index = (sq) => 21 + (Number(sq[1]) - 1) * 10 + (sq.charCodeAt(0) - 97);
  const cells = await page.$$eval("#memory-view table.bytes", (tables, [from, to]) => tables.map((t) => {
    const cell = (i) => [...t.querySelectorAll("td")].find((td) => (td.title || td.dataset.tip || "").startsWith(`${i}:`));
    return [cell(from).textContent, cell(to).textContent];
  }), [index(move.slice(0, 2)), index(move.slice(2, 4))]);
  assert.equal(cells.length, expectRom === "1" ? 2 : 1);
  for (const [from, to] of cells) {
    assert.notEqual(from, "00", `the moving piece is still on ${move.slice(0, 2)}`);
    assert.equal(to, "00", `${move.slice(2, 4)} is still empty`);
  }
  for (const text of await page.$$eval("#memory-view .score", (s) => s.map((e) => e.textContent))) checkScore(text, "the memory view");
  // The node's story and its memory write the same bytes: the bound two plies up and the
  // best so far one ply up, each as Sargon's memory holds it.
  const byteOf = (sel, label) => page.$$eval(sel, (rows, l) => rows.filter((r) => r.cells[0].textContent === l)
    .map((r) => r.querySelector(".byte").textContent), label);
  const storyUp = await byteOf("#node-detail tr", "best test"), storyBound = await byteOf("#node-detail tr", "alpha-beta");
  assert.equal(storyUp.length, 1);
  assert.deepEqual(await byteOf("#memory-view table:not(.bytes) tr", "one ply up"), cells.map(() => storyUp[0]));
  assert.deepEqual(await byteOf("#memory-view table:not(.bytes) tr", "two plies up"), cells.map(() => storyBound[0]));
  ok(`the memory view names its moment, and BOARDA (${cells.length} engine(s)) holds the position before ${move}`);

  // 6. Layouts, with a search shown (and again below with the models drawn).
  await checkLayouts("with a search shown");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${outDir}/explorer-narrow.png` });
  await page.setViewportSize({ width: 1400, height: 900 });

  // 7. The models: a board for each position, and a click on a node sets the board.
  await page.selectOption("#models-engine", "port");
  await page.click("#models-run");
  await page.waitForSelector("#model-boards .mboard svg", { timeout: 120000 });
  const nodes = await count("#model .mnode");
  assert.equal(await count("#model-boards .mboard svg.mini"), nodes + 1);
  const key = "AG";
  const fen = await page.getAttribute(`#model-boards .mboard[data-key="${key}"] svg`, "aria-label");
  await page.click(`#model .mnode[data-key="${key}"]`);
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, fen);
  assert.equal(await count(`#model .mnode.current[data-key="${key}"]`), 1);
  assert.equal(await count("#model .score-legend"), 1);
  assert.match(await hoverText(page.locator(`#model .mnode[data-key="${key}"] .thresholds`)), /alpha-beta bound two plies up/);
  await page.mouse.move(0, 0);
  await page.locator("#models-panel").screenshot({ path: `${outDir}/explorer-models.png` });
  ok(`the models draw ${nodes + 1} boards, and clicking node ${key} sets the board to ${fen}`);

  await checkLayouts("with the models drawn");

  // 8. In a game, Sargon's book move is simply its move: no offer to search without the book.
  await page.click("#start");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, START);
  await page.check("#book");
  await page.click("#play-box summary");
  await page.selectOption("#play-side", "black");
  await page.click("#new-game");
  await page.waitForFunction(() => /from the book/.test(document.getElementById("result").textContent), null, { timeout: 60000 });
  assert.equal(await count("#book-note"), 0);
  ok("in a game, Sargon's book move makes no offer");
  assert.deepEqual(problems, []);
  console.log("views: passed");
} catch (e) {
  await page.screenshot({ path: `${outDir}/views-failure.png`, fullPage: true }).catch(() => {});
  console.error(e);
  console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
}
