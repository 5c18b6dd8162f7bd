// Stepping the original in the explorer (issue 37), in Debian's chromium driven by
// playwright-core. Run by tests/it/serve_browser_step.rs as
//   node tests/browser/step.mjs URL OUT_DIR CHROMIUM EXPECT_ROM(0|1)
// With a ROM: the Italian searched to depth 2 on the original, a node selected in the tree,
// the stepping session opened there; steps forward and back by instruction restore the
// registers and bytes shown, "over" a CALL lands after it, "event" stops at the next event,
// changed bytes are marked; the page leaving closes the session. Without one, the panel's
// button says why it is off. The screenshot explorer-step.png has the listing and the
// instruction blanked (the user's copy of Sargon's code is not for docs/).
import { launch, watchProblems, reporter, setPosition, search } from "./harness.mjs";
import assert from "node:assert/strict";

const [url, outDir, executablePath, expectRom] = process.argv.slice(2);
const ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

const browser = await launch(executablePath);
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const problems = [];
watchProblems(page, problems);
const ok = reporter("step");

// What the panel shows of the machine: registers, flags, stack, variables, board, position.
const shown = () => page.evaluate(() => ({
  where: document.getElementById("step-where").textContent.split("·")[0],
  registers: [...document.querySelectorAll("#step-registers td")].map((td) => td.textContent).join(" "),
  stack: document.getElementById("step-stack").textContent,
  variables: [...document.querySelectorAll("#step-variables .val")].map((td) => td.textContent).join(" "),
  board: [...document.querySelectorAll("#step-board td")].map((td) => td.textContent).join(""),
  instruction: document.getElementById("step-instruction").textContent,
}));

// Click a step button and wait for the panel to show the move's answer.
async function click(by, back = false) {
  const answered = page.waitForResponse((r) => /\/api\/step\/\d+\/move$/.test(r.url()));
  await page.click(`#step-buttons button[data-by="${by}"]${back ? '[data-back="1"]' : ":not([data-back])"}`);
  const a = await (await answered).json();
  await page.waitForFunction((p) => document.getElementById("step-where")?.textContent.includes(` ${p.toLocaleString("en-US")} of`), a.position);
  return a;
}

try {
  await page.goto(url);
  await page.waitForSelector("#board svg");
  await setPosition(page, ITALIAN);
  if (expectRom !== "1") {
    await search(page, { engine: "port", depth: 2 });
    assert.equal(await page.isDisabled("#step-open"), true);
    assert.match(await page.getAttribute("#step-open", "title"), /^Needs the original/);
    ok("without a ROM the step button is off and says why");
  } else {
    await search(page, { engine: "emulator", depth: 2, book: false, timeout: 120000 });
    await page.waitForSelector('.node[role="treeitem"]');
    // The third root move selected; the session opens where it is created.
    const third = await page.$$eval('.node[role="treeitem"]', (rows) => rows[3].dataset.id);
    await page.click(`.node[data-id="${third}"] .label`);
    assert.equal(await page.isDisabled("#step-open"), false);
    const opened = page.waitForResponse((r) => r.url().endsWith("/api/step"));
    await page.click("#step-open");
    const s = await (await opened).json();
    await page.waitForSelector("#step-where");
    assert.ok(s.event_texts.some((t) => t.startsWith("created")), JSON.stringify(s.event_texts));
    assert.match(await page.textContent("#step-events"), /created/);
    ok(`the session opens at node ${third}, where it is created (instruction ${s.position})`);

    // N forward then N back: the same registers, flags, stack, variables and board shown.
    for (const n of [1, 3, 8]) {
      const before = await shown();
      for (let i = 0; i < n; i++) await click("instruction");
      const ahead = await shown();
      assert.notDeepEqual(ahead.registers, before.registers);
      for (let i = 0; i < n; i++) await click("instruction", true);
      assert.deepEqual(await shown(), before, `${n} forward and back`);
      ok(`${n} instruction(s) forward then back restore what is shown`);
    }

    // Over the next unconditional CALL: after it, the same stack.
    let a = await click("instruction");
    for (let i = 0; i < 400 && !(a.instruction.startsWith("CALL ") && !a.instruction.includes(",")); i++) a = await click("instruction");
    assert.ok(a.instruction.startsWith("CALL "), "a CALL within 400 instructions");
    const over = await click("over");
    assert.equal(over.registers.pc, a.registers.pc + 3);
    assert.equal(over.registers.sp, a.registers.sp);
    assert.equal(await page.textContent("#step-stack"), (await shown()).stack);
    ok(`over the CALL at ${a.registers.pc.toString(16)}: ${over.position - a.position} instructions run`);

    // To the next event: its text shown; a step that writes memory has its bytes marked.
    const e = await click("event");
    assert.ok(e.event_texts.length > 0);
    assert.match(await page.textContent("#step-events"), new RegExp(e.event_texts[0].split(" ")[0]));
    assert.ok(e.changed > 0 && (await page.$$eval("#step-view .changed", (l) => l.length)) > 0, "changed bytes marked");
    ok(`the next event (${e.event_texts[0]}) and ${e.changed} changed bytes marked`);
    const back = await click("event", true);
    assert.ok(back.position < e.position);
    ok("back to the previous event");

    // The listing line of PC is the current one, with the port's citation beside it.
    await page.waitForFunction(() => document.querySelector("#step-listing .current"));
    const current = await page.textContent("#step-listing .current");
    assert.ok(current.includes(back.registers.pc.toString(16).toUpperCase().padStart(4, "0")), current);
    ok("the listing shows PC's line");

    // The picture for docs/: the user's copy of the code blanked.
    await page.evaluate(() => {
      document.getElementById("step-listing").textContent = "(the listing of your own copy shows here)";
      document.getElementById("step-instruction").textContent = "(the instruction at PC)";
    });
    await page.locator("#step-panel").screenshot({ path: `${outDir}/explorer-step.png` });

    // The page leaving closes the session.
    const id = s.id;
    await page.goto("about:blank");
    const probe = await browser.newPage();
    await probe.goto(url);
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = await probe.evaluate(async (p) => (await fetch(p)).status === 404, `/api/step/${id}`);
      if (!gone) await probe.waitForTimeout(100);
    }
    assert.ok(gone, "the session was closed when its page left");
    ok("the page leaving closes its session");
  }
  assert.deepEqual(problems, []);
  console.log("step: passed");
} finally {
  await browser.close();
}
