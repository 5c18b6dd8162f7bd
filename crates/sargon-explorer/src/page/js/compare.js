// Compare: the original and the port (or a port given to `sargon serve --engine exec:...`)
// searched side by side from the position set, event by event; each engine's move, score
// and time. Where they first part opens as a node of the original's search in the tree,
// both engines' events side by side, with a way into the step view at that event. The
// comparison waits its turn with the searches, shows its progress, and can be cancelled.

import { $, escapeHtml, fmtTime } from "./util.js";
import { state } from "./state.js";
import { startSearch } from "./search.js";
import { stepToEvent } from "./step.js";
import { scoreHtml, sideToMove } from "./score.js";
import { runJob, cancelJob, newJob, describeJob } from "./jobs.js";

let running = null;

// Each engine's answer: its move, its score as the command line writes it, its time.
function enginesTable(c, side, other) {
  const row = (label, e) => {
    if (!e) return "";
    const move = e.best_san ? `<b>${escapeHtml(e.best_san)}</b> (${escapeHtml(e.best)})` : e.stopped ? "stopped first" : "none";
    return `<tr data-engine="${escapeHtml(e.engine)}"><td>${label}</td><td class="compare-move">${move}</td>` +
      `<td class="compare-score">${e.score_byte == null ? "" : scoreHtml(e.score_byte, e.score_pawns, side, "the side to move")}</td>` +
      `<td class="compare-time">${fmtTime(e.elapsed_ms)}</td></tr>`;
  };
  return `<table id="compare-engines"><tr><th></th><th>move</th><th>score</th><th>time</th></tr>` +
    row("original", c.emulator) + row(engineLabel(other), c.port) + `</table>`;
}

// An engine's name as a heading: an exec: command can be long, so it is cut, whole on hover.
function engineLabel(name) {
  const cut = name.length > 36 ? name.slice(0, 34) + "\u2026" : name;
  return `<span class="engine-label" title="${escapeHtml(name)}">${escapeHtml(cut)}</span>`;
}

// Where the engines part, beside the tree: the two events side by side, and the step view
// of the original's run to that event.
function showDivergence(d, other) {
  const box = $("divergence");
  box.hidden = false;
  box.innerHTML = `<b>Where the original and ${engineLabel(other)} part</b>: event ${d.index.toLocaleString()} of the trace, ` +
    `at ${d.path.length ? `the node <code>${escapeHtml(d.path.join(" "))}</code> (selected below)` : "the root"}` +
    `<table id="divergence-events"><tr><th>original</th><th>${engineLabel(other)}</th></tr>` +
    `<tr><td><code id="divergence-original">${escapeHtml(d.emulator)}</code></td><td><code id="divergence-other">${escapeHtml(d.port)}</code></td></tr></table>` +
    `<div class="row-buttons"><button id="divergence-step" title="Run the original's search on the emulator to where this event arises, and step from there">Step the original to this event</button></div>`;
  $("divergence-step").addEventListener("click", () => stepToEvent(d.index));
}

export function setupCompare() {
  $("compare-cancel").addEventListener("click", () => {
    if (running) cancelJob(running);
  });
  $("compare").addEventListener("click", async () => {
    const out = $("compare-result");
    const fen = state.posFen;
    const depth = Number($("depth").value);
    const book = $("book").checked;
    const engine = $("compare-engine").value;
    const other = engine === "port" ? "the port" : engine;
    const job = newJob("compare");
    running = job;
    $("compare").disabled = true;
    $("compare-cancel").hidden = false;
    out.innerHTML = `<span id="compare-progress">comparing the original and ${engineLabel(other)} to depth ${depth}...</span>`;
    const progress = (st) => {
      const p = $("compare-progress");
      if (p) p.textContent = `comparing the original and ${other} to depth ${depth}: ${describeJob(st, "events")}`;
    };
    try {
      const c = await runJob("POST", "/api/compare", { fen, depth, book, engine, job }, job, progress);
      const cached = c.cached ? " (kept from an earlier comparison)" : "";
      if (!c.divergence) {
        out.innerHTML = `<span class="ok" id="compare-verdict">0 divergences</span>: ${c.events.toLocaleString()} events compared, original and ${engineLabel(other)} alike (${fmtTime(c.elapsed_ms)})${cached}` +
          enginesTable(c, sideToMove(fen), other);
      } else {
        const d = c.divergence;
        // The original's search opens in the tree at the node where they part (this clears
        // the page's results, so the comparison's are written after).
        $("engine").value = "emulator";
        startSearch(d.path.join(" "), { fen, engine: "emulator", depth, book });
        out.innerHTML = `<span class="error" id="compare-verdict">1 divergence</span> at event ${d.index.toLocaleString()} (after ${c.events.toLocaleString()} equal events)${cached}` +
          `<table><tr><td>original</td><td><code>${escapeHtml(d.emulator)}</code></td></tr><tr><td>${engineLabel(other)}</td><td><code>${escapeHtml(d.port)}</code></td></tr>` +
          `<tr><td>path</td><td>${d.path.join(" ") || "(root)"}</td></tr></table>` + enginesTable(c, sideToMove(fen), other);
        showDivergence(d, other);
      }
    } catch (e) {
      out.innerHTML = `<span class="error" id="compare-error">${escapeHtml(e.message)}</span>`;
    } finally {
      if (running === job) running = null;
      $("compare").disabled = false;
      $("compare-cancel").hidden = true;
    }
  });
}
