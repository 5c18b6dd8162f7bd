// The explorer as a server that governs its work, in a real browser (issue 36, part 3).
// Run by tests/it/serve_browser_governed.rs as
//   node tests/browser/governed.mjs URL OUT_DIR CHROMIUM EXPECT_ROM(0|1)
// A page of another origin that frames the explorer is refused by the browser; the page
// works under its own Content-Security-Policy with no violation; the depth box says each
// engine's practical limit; a search past the node budget shows its partial tree; and,
// with the user's ROM, Compare shows both engines' moves,
// scores and times, its progress, and its Cancel stops it (explorer-compare-engines.png),
// and a profile asked while the one worker is busy says it waits.
import { launch, watchProblems, reporter } from "./harness.mjs";
import assert from "node:assert/strict";
import http from "node:http";

const [url, outDir, executablePath, expectRom] = process.argv.slice(2);
const ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

const browser = await launch(executablePath);
const ok = reporter("governed");

try {
  // 1. Framed by a page of another origin: the browser refuses to show it.
  // Served by a second tiny server on another loopback port (another origin; a data: page
  // would be kept from loopback addresses by Chromium whatever the explorer said).
  const framing = http.createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<title>framer</title><iframe id="f" src="${url}" width="800" height="600"></iframe>`);
  });
  await new Promise((resolve) => framing.listen(0, "127.0.0.1", resolve));
  const framer = await browser.newPage();
  await framer.goto(`http://localhost:${framing.address().port}/`);
  await framer.waitForTimeout(1500);
  const framed = framer.frames().find((f) => f !== framer.mainFrame());
  assert.ok(framed, "the iframe exists");
  // Chromium shows its error page in the frame instead of the explorer.
  const inside = await framed.$("#board").catch(() => null);
  assert.equal(inside, null, `the explorer drew inside another page's frame (${framed.url()})`);
  console.log(`governed: the frame holds ${framed.url()}`);
  await framer.close();
  framing.close();
  ok("a page of another origin that frames the explorer is refused");

  // 2. The page itself, under its own policy: no violation while it works.
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  watchProblems(page, problems);
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  await page.waitForSelector("#board svg");

  // 3. The depth box: the engine's practical limit, and a warning past it.
  await page.selectOption("#engine", "port");
  await page.fill("#depth", "3");
  await page.dispatchEvent("#depth", "input");
  assert.match(await page.textContent("#depth-limit"), /up to 5/);
  await page.fill("#depth", "7");
  await page.dispatchEvent("#depth", "input");
  assert.match(await page.textContent("#depth-limit"), /past 5/);
  await page.fill("#depth", "3");
  await page.dispatchEvent("#depth", "input");
  ok("the depth box says the engine's practical limit");

  // A search runs under the page's policy; past the server's node budget (`--keep-nodes
  // 3000`; this search makes 4,701 nodes) it shows the tree it built, marked partial.
  await page.fill("#position-text", ITALIAN);
  await page.click("#set-position");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, ITALIAN);
  await page.click("#search");
  await page.waitForSelector("#partial-note", { timeout: 60000 });
  assert.match(await page.textContent("#partial-note"), /partial tree: the search was stopped at 3000 nodes/);
  assert.match(await page.textContent("#progress"), /^partial: /);
  const rows = await page.$$eval('.node[role="treeitem"]', (r) => r.length);
  assert.ok(rows > 5, `only ${rows} rows in the partial tree`);
  assert.equal(await page.$("#best-move"), null);
  ok(`a search past the node budget shows its partial tree (${rows - 1} root moves)`);
  await page.fill("#depth", "2");
  await page.click("#search");
  await page.waitForSelector("#best-move", { timeout: 60000 });
  ok("a search within the budget has its move");

  if (expectRom === "1") {
    // 4. Compare: progress while it runs, then each engine's move, score and time.
    // At the depth of the search shown, so that the picture agrees with itself.
    await page.fill("#depth", "2");
    // (Its progress is checked on the deeper comparison below: this one may be over
    // before the page's first look at the job.)
    await page.click("#compare");
    await page.waitForSelector("#compare-engines", { timeout: 120000 });
    assert.match(await page.textContent("#compare-verdict"), /0 divergences/);
    for (const engine of ["emulator", "port"]) {
      const row = `#compare-engines tr[data-engine="${engine}"]`;
      assert.match(await page.textContent(`${row} .compare-move`), /^\S+ \([a-h][1-8][a-h][1-8]/);
      // Written as every score of the page is: the byte, then pawns, the side on hover.
      assert.match(await page.textContent(`${row} .compare-score`), /^0x[0-9a-f]{2} [+\-−]?\d+\.\d+$/);
      assert.match(await page.getAttribute(`${row} .compare-score .score`, "title"), /pawns for Black, the side to move$/);
      assert.match(await page.textContent(`${row} .compare-time`), /\d+(\.\d)? m?s/);
    }
    assert.equal(await page.isVisible("#compare-cancel"), false);
    await page.locator("#compare-result").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${outDir}/explorer-compare-engines.png` });
    ok("compare shows both engines' moves, scores and times");

    // 5. Cancel: a deeper comparison is stopped, and nothing runs after it.
    await page.fill("#depth", "5");
    await page.click("#compare");
    await page.waitForFunction(() => /running/.test(document.getElementById("compare-progress")?.textContent ?? ""), null, { timeout: 30000 });
    assert.equal(await page.isVisible("#compare-cancel"), true);
    ok("compare shows its progress");
    await page.click("#compare-cancel");
    await page.waitForSelector("#compare-error", { timeout: 30000 });
    assert.match(await page.textContent("#compare-error"), /cancelled/);
    await page.waitForFunction(async () => {
      const e = await (await fetch("/api/engines")).json();
      return e.running === 0 && e.waiting === 0;
    }, null, { timeout: 10000, polling: 200 });
    ok("compare's Cancel stops it");

    // 6. The server has one worker (`--jobs 1`): a profile asked while a comparison holds
    // it waits, and the page says so; once the comparison is cancelled, the profile runs.
    await page.evaluate((fen) => {
      window.__background = fetch("/api/compare", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ fen, depth: 5, book: true, job: "background" }),
      });
    }, ITALIAN);
    await page.waitForFunction(async () => {
      const r = await fetch("/api/jobs/background");
      return r.ok && (await r.json()).state === "running";
    }, null, { timeout: 30000, polling: 100 });
    await page.click("#profile");
    await page.waitForFunction(() => /waiting for a free worker, next/.test(document.getElementById("profile-view").textContent), null, { timeout: 10000 });
    const engines = await page.evaluate(async () => (await fetch("/api/engines")).json());
    assert.deepEqual([engines.running, engines.waiting], [1, 1]);
    await page.evaluate(() => fetch("/api/jobs/background/cancel", { method: "POST" }));
    await page.waitForSelector("#profile-view .bar-row", { timeout: 120000 });
    ok("a profile waits its turn behind a comparison, and says so");
  } else {
    console.log("governed: compare skipped (no ROM)");
  }

  const violations = await page.evaluate(() => window.__violations);
  assert.deepEqual(violations, [], `CSP violations: ${violations.join(" | ")}`);
  assert.deepEqual(problems, []);
  ok("no policy violation and no console error");
  console.log("governed: passed");
} finally {
  await browser.close();
}
