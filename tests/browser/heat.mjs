// The heat of the listing (issue 37, item 4), in Debian's chromium driven by playwright-core.
// Run by tests/it/serve_browser_heat.rs as
//   node tests/browser/heat.mjs URL OUT_DIR CHROMIUM EXPECT_ROM(0|1) ALTERED_EXEC_ENGINE
// With a ROM: the Italian searched to depth 2 on the original and profiled; a routine's
// listing has each instruction coloured by how often it ran (a count on every line, the
// colour of the scale, the count on hover, a legend), and POINTS's first instruction ran
// as often as POINTS was called. Compare with a port behind exec: that alters one event
// opens the divergence as a node of the tree with both events, and its button the step
// view at that event, whose listing carries the heat too; a stepping session waiting for
// a worker says so. The screenshot explorer-heat.png has the listing's text
// blanked (the user's copy of Sargon's code is not for docs/), its colours kept. Without a
// ROM: the profile button is off.
import { launch, watchProblems, reporter, setPosition, search } from "./harness.mjs";
import assert from "node:assert/strict";

const [url, outDir, executablePath, expectRom, altered] = process.argv.slice(2);
const ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

const browser = await launch(executablePath);
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const problems = [];
watchProblems(page, problems);
const ok = reporter("heat");

// Open a routine's listing from the profile's bars and wait for its heat.
async function listing(routine) {
  await page.click(`.profile .bar-row[data-routine="${routine}"]`);
  await page.waitForFunction((r) => document.getElementById("listing").textContent.startsWith(`; routine ${r}`)
    && document.querySelector("#listing .heat"), routine);
  return page.$$eval("#listing .heat", (spans) => spans.map((s) => ({
    count: Number(s.dataset.count),
    address: parseInt(s.textContent.slice(2, 6), 16),
    background: s.style.background,
    tip: s.getAttribute("title") || s.dataset.tip,
  })));
}

try {
  await page.goto(url);
  await page.waitForSelector("#board svg");
  await setPosition(page, ITALIAN);
  if (expectRom !== "1") {
    await search(page, { engine: "port", depth: 2 });
    assert.equal(await page.isDisabled("#profile"), true);
    ok("without a ROM the profile button is off");
  } else {
    await search(page, { engine: "emulator", depth: 2, book: false, timeout: 120000 });
    const profiled = page.waitForResponse((r) => /\/profile(\?|$)/.test(r.url()));
    await page.click("#profile");
    const p = await (await profiled).json();
    await page.waitForSelector(".profile .bar-row", { timeout: 120000 });
    const sum = p.executions.reduce((a, e) => a + e.count, 0);
    assert.equal(sum, p.totals.instructions);

    // POINTS: every instruction line carries its count; the first ran once a call.
    const lines = await listing("POINTS");
    const points = p.rows.find((r) => r.routine === "POINTS");
    assert.equal(lines[0].address, points.address);
    assert.equal(lines[0].count, points.calls);
    const byAddress = new Map(p.executions.map((e) => [e.address, e.count]));
    for (const l of lines) assert.equal(l.count, byAddress.get(l.address) || 0, JSON.stringify(l));
    ok(`POINTS's ${lines.length} instructions carry their counts; the first ran ${points.calls} times, once a call`);
    // Coloured where run, plain where not; the count on hover.
    for (const l of lines) assert.equal(l.background !== "", l.count > 0, JSON.stringify(l));
    assert.match(lines[0].tip, new RegExp(`^run ${points.calls.toLocaleString("en-US")} times in this search`));
    ok("the heat marks are drawn: run lines coloured, the count in each line's title");
    assert.equal(await page.isVisible("#heat-legend"), true);
    assert.match(await page.textContent("#heat-legend"), /run once.*times.*not run/);
    ok("the legend is shown");

    // The hottest line of ATTACK, hovered: the page's tooltip says its count.
    const attack = await listing("ATTACK");
    const hottest = attack.reduce((a, l) => (l.count > a.count ? l : a));
    const distinct = new Set(attack.filter((l) => l.count > 0).map((l) => l.background));
    assert.ok(distinct.size >= 3, `several heats in ATTACK: ${[...distinct]}`);
    const index = attack.indexOf(hottest);
    await page.hover(`#listing .heat >> nth=${index}`);
    await page.waitForSelector("#tip", { state: "visible" });
    assert.match(await page.textContent("#tip"), new RegExp(`^run ${hottest.count.toLocaleString("en-US")} times`));
    ok(`hovering ATTACK's hottest line shows its count (${hottest.count})`);

    // The picture for docs/: POINTS again, each line's text replaced by its count (the
    // code is the user's own copy), its heat kept, a line hovered.
    const again = await listing("POINTS");
    await page.evaluate(() => {
      const pre = document.getElementById("listing");
      for (const node of [...pre.childNodes]) {
        if (node.nodeType === Node.TEXT_NODE) node.textContent = node.textContent.replace(/[^\n]/g, "");
        else if (!node.classList.contains("heat")) node.textContent = "";
        else node.textContent = Number(node.dataset.count) ? `  ${Number(node.dataset.count).toLocaleString("en-US")}` : "  not run";
      }
      pre.insertAdjacentHTML("afterbegin", "<span class=\"note\">(POINTS in the listing of your own copy, its text blanked for this picture: each line's count)</span>");
      pre.scrollTop = 0;
    });
    // A line near the top, so that the pane does not scroll to it.
    const near = again.slice(0, 12).reduce((a, l) => (l.count > a.count ? l : a));
    await page.hover(`#listing .heat >> nth=${again.indexOf(near)}`);
    await page.waitForSelector("#tip", { state: "visible" });
    await page.locator("#inside-panel").screenshot({ path: `${outDir}/explorer-heat.png` });
    await page.mouse.move(0, 0);

    // Compare with a port behind exec: that alters one event of its trace: the divergence
    // opens as a node of the original's tree, the two events side by side.
    await page.selectOption("#compare-engine", altered);
    const compared = page.waitForResponse((r) => r.url().endsWith("/api/compare"));
    const searched = page.waitForResponse((r) => r.url().endsWith("/api/search") && r.request().method() === "POST");
    await page.click("#compare");
    const c = await (await compared).json();
    assert.equal(c.divergences, 1, JSON.stringify(c));
    const d = c.divergence;
    await page.waitForSelector("#divergence:not([hidden])");
    assert.equal(await page.textContent("#divergence-original"), d.emulator);
    assert.equal(await page.textContent("#divergence-other"), d.port);
    await page.waitForFunction((path) => {
      const sel = document.querySelector(".node.selected");
      return sel && document.getElementById("progress").textContent.startsWith("done") && path.every((m) => document.getElementById("node-detail").textContent.includes(m));
    }, d.path, { timeout: 60000 });
    assert.match(await page.textContent("#compare-verdict"), /1 divergence/);
    // The node selected is the one at the divergence's path, in the original's search.
    const searchAnswer = await (await searched).json();
    assert.equal(searchAnswer.request.engine, "emulator");
    const node = await page.evaluate(async ([id, path]) => (await fetch(`/api/search/${id}/find?path=${encodeURIComponent(path)}`)).json(), [searchAnswer.id, d.path.join(" ")]);
    assert.equal(await page.getAttribute(".node.selected", "data-id"), String(node.id));
    ok("compare with the altered exec: port opens its divergence as a node of the tree");
    await page.mouse.move(0, 0);
    await page.locator("#tree-panel").screenshot({ path: `${outDir}/explorer-divergence.png` });

    // From there, the step view of the original's run, standing where that event arises.
    const opened = page.waitForResponse((r) => r.url().endsWith("/api/step"));
    await page.click("#divergence-step");
    const st = await (await opened).json();
    assert.equal(st.event_texts[d.index - st.events_before], d.emulator, JSON.stringify(st.event_texts));
    await page.waitForSelector("#step-events");
    assert.ok((await page.textContent("#step-events")).includes(d.emulator));
    ok("the step view opened from the divergence stands at that event");
    // The search was profiled: the step view's listing carries the heat too.
    await page.waitForSelector("#step-listing .step-heat");
    const marks = await page.$$eval("#step-listing .step-heat", (l) => l.map((s) => Number(s.dataset.count)));
    const pc = st.registers.pc;
    const here = await page.getAttribute("#step-listing .current .step-heat", "data-count");
    assert.equal(Number(here), byAddress.get(pc) || 0);
    assert.ok(Number(here) > 0 && marks.length > 3, JSON.stringify(marks));
    ok(`the step view's listing shows the heat (PC's instruction ran ${here} times)`);

    // Governed: a session holds one of the server's workers while open. Another page
    // holds the second (x) and a third waits in line (y); stepping again here gives this
    // page's worker to y, so this page waits, and says where it is in line, until x closes.
    await page.waitForSelector("#step-slot");
    const workers = st.workers;
    assert.match(await page.textContent("#step-slot"), new RegExp(`holds one of the server's ${workers} worker`));
    if (workers === 2) {
      const probe = await browser.newPage();
      await probe.goto(url);
      const x = await probe.evaluate(async (id) => (await (await fetch("/api/step", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ search: id, page: "x" }) })).json()), searchAnswer.id);
      await probe.evaluate((id) => {
        window.y = fetch("/api/step", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ search: id, page: "y", job: "step-y" }) }).then((r) => r.json());
      }, searchAnswer.id);
      await probe.waitForFunction(async () => (await fetch("/api/jobs/step-y")).status === 200);
      await page.click("#step-open");
      await page.waitForFunction(() => /a stepping session needs a worker of the server: waiting for a free worker/.test(document.getElementById("step-waiting")?.textContent || ""), null, { timeout: 30000 });
      const waiting = await page.textContent("#step-waiting");
      await probe.evaluate(async (id) => fetch(`/api/step/${id}/close`, { method: "POST" }), x.id);
      await page.waitForSelector("#step-where", { timeout: 60000 });
      await probe.evaluate(async () => fetch(`/api/step/${(await window.y).id}/close`, { method: "POST" }));
      await probe.close();
      ok(`a session waits for a worker, and says so ("${waiting}"), until another closes`);
    }
  }
  assert.deepEqual(problems, []);
  console.log("heat: passed");
} catch (e) {
  console.log(`heat: FAILED ${e.stack || e}`);
  for (const p of problems) console.log(p);
  process.exitCode = 1;
} finally {
  await browser.close();
}
