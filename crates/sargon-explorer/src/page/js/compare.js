// Compare: the original and the port searched side by side from the position set, event by
// event, and where they first part shown on the board.

import { $, escapeHtml, fmtTime } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { drawBoard } from "./board.js";

export function setupCompare() {
  $("compare").addEventListener("click", async () => {
    const out = $("compare-result");
    const fen = state.posFen;
    out.innerHTML = `comparing the original and the port to depth ${$("depth").value}...`;
    try {
      const c = await api("POST", "/api/compare", { fen, depth: Number($("depth").value), book: $("book").checked });
      if (!c.divergence) {
        out.innerHTML = `<span class="ok" id="compare-verdict">0 divergences</span>: ${c.events.toLocaleString()} events compared, original and port alike (${fmtTime(c.elapsed_ms)})`;
      } else {
        const d = c.divergence;
        out.innerHTML = `<span class="error" id="compare-verdict">1 divergence</span> at event ${d.index.toLocaleString()} (after ${c.events.toLocaleString()} equal events)` +
          `<table><tr><td>original</td><td><code>${escapeHtml(d.emulator)}</code></td></tr><tr><td>port</td><td><code>${escapeHtml(d.port)}</code></td></tr>` +
          `<tr><td>path</td><td>${d.path.join(" ") || "(root)"}</td></tr></table>`;
        state.fen = d.fen; state.arrow = null; drawBoard();
        $("board-caption").textContent = "the position where the engines part";
      }
    } catch (e) {
      out.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
    }
  });
}
