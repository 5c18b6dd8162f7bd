// Compare: the original and the port searched side by side from the position set, event by
// event, and where they first part shown on the board; each engine's move, score and time.
// The comparison waits its turn with the searches, shows its progress, and can be cancelled.

import { $, escapeHtml, fmtTime } from "./util.js";
import { state } from "./state.js";
import { showOther } from "./board.js";
import { scoreHtml, sideToMove } from "./score.js";
import { runJob, cancelJob, newJob, describeJob } from "./jobs.js";

let running = null;

// Each engine's answer: its move, its score as the command line writes it, its time.
function enginesTable(c, side) {
  const row = (label, e) => {
    if (!e) return "";
    const move = e.best_san ? `<b>${escapeHtml(e.best_san)}</b> (${escapeHtml(e.best)})` : e.stopped ? "stopped first" : "none";
    return `<tr data-engine="${escapeHtml(e.engine)}"><td>${label}</td><td class="compare-move">${move}</td>` +
      `<td class="compare-score">${e.score_byte == null ? "" : scoreHtml(e.score_byte, e.score_pawns, side, "the side to move")}</td>` +
      `<td class="compare-time">${fmtTime(e.elapsed_ms)}</td></tr>`;
  };
  return `<table id="compare-engines"><tr><th></th><th>move</th><th>score</th><th>time</th></tr>` +
    row("original", c.emulator) + row("port", c.port) + `</table>`;
}

export function setupCompare() {
  $("compare-cancel").addEventListener("click", () => {
    if (running) cancelJob(running);
  });
  $("compare").addEventListener("click", async () => {
    const out = $("compare-result");
    const fen = state.posFen;
    const depth = Number($("depth").value);
    const job = newJob("compare");
    running = job;
    $("compare").disabled = true;
    $("compare-cancel").hidden = false;
    out.innerHTML = `<span id="compare-progress">comparing the original and the port to depth ${depth}...</span>`;
    const progress = (st) => {
      const p = $("compare-progress");
      if (p) p.textContent = `comparing the original and the port to depth ${depth}: ${describeJob(st, "events")}`;
    };
    try {
      const c = await runJob("POST", "/api/compare", { fen, depth, book: $("book").checked, job }, job, progress);
      const cached = c.cached ? " (kept from an earlier comparison)" : "";
      if (!c.divergence) {
        out.innerHTML = `<span class="ok" id="compare-verdict">0 divergences</span>: ${c.events.toLocaleString()} events compared, original and port alike (${fmtTime(c.elapsed_ms)})${cached}` +
          enginesTable(c, sideToMove(fen));
      } else {
        const d = c.divergence;
        out.innerHTML = `<span class="error" id="compare-verdict">1 divergence</span> at event ${d.index.toLocaleString()} (after ${c.events.toLocaleString()} equal events)${cached}` +
          `<table><tr><td>original</td><td><code>${escapeHtml(d.emulator)}</code></td></tr><tr><td>port</td><td><code>${escapeHtml(d.port)}</code></td></tr>` +
          `<tr><td>path</td><td>${d.path.join(" ") || "(root)"}</td></tr></table>` + enginesTable(c, sideToMove(fen));
        // Shown as a view the page returns from, like a tree node: a game is not lost to it.
        showOther(d.fen, "The position where the engines part");
        $("board-caption").textContent = "the position where the engines part";
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
