// The position set by the person: from the text box, a PGN game or a move on the board. A
// new position clears the search shown, which was of another.

import { $, escapeHtml } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { updateUrl } from "./url.js";

// A position set by the person: the board, the text box, the URL.
export async function setPosition(text, keepSearch) {
  $("position-error").textContent = "";
  try {
    const pos = await api("POST", "/api/position", { text });
    state.posFen = pos.fen;
    state.fen = pos.fen;
    state.gameEnd = pos.game_end;
    state.legal = pos.legal;
    state.rootLegal = pos.legal;
    state.from = null;
    state.arrows = [];
    state.lastMove = null;
    state.view = null;
    $("position-text").value = pos.fen;
    let caption = `${pos.turn === "white" ? "White" : "Black"} to move, ${pos.legal.length} legal moves`;
    if (pos.book_position) caption += "; a book position (Sargon answers from its book unless 'book' is off)";
    if (pos.representable) caption += `; Sargon cannot search it: ${pos.representable}`;
    if (pos.notices.length) caption += `; note: ${pos.notices.join("; ")}`;
    $("board-caption").textContent = caption;
    drawBoard();
    if (!keepSearch) { clearSearch(); updateUrl(); }
    return true;
  } catch (e) {
    $("position-error").textContent = e.message;
    return false;
  }
}

// A new position: the search shown was of another.
function clearSearch() {
  if (state.source) { state.source.close(); state.source = null; }
  state.search = null; state.searchId = null; state.selected = null; state.pv = null;
  state.rows.clear();
  $("tree").innerHTML = ""; $("node-detail").innerHTML = ""; $("icicle").innerHTML = ""; $("tree-legend").innerHTML = ""; $("result").innerHTML = "";
  $("progress").textContent = ""; $("pv-steps").innerHTML = ""; $("compare-result").innerHTML = "";
  $("search").disabled = false; $("cancel").disabled = true;
  ["pv-first", "pv-prev", "pv-next"].forEach((b) => $(b).disabled = true);
}

// The position's buttons: the start position, the text box, a PGN game's positions.
export function setupPosition() {
  $("start").addEventListener("click", () => setPosition("startpos"));
  $("set-position").addEventListener("click", () => setPosition($("position-text").value));
  $("position-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); setPosition($("position-text").value); }
  });
  $("read-pgn").addEventListener("click", async () => {
    const box = $("pgn-moves");
    box.textContent = "";
    try {
      const g = await api("POST", "/api/pgn", { pgn: $("pgn-text").value });
      box.innerHTML = `<div class="sub">${escapeHtml(g.players)}${g.games > 1 ? ` (the first of ${g.games} games)` : ""}: pick a position</div>` +
        g.positions.map((p, i) => `<a data-i="${i}">${i === 0 ? "start" : escapeHtml(p.san)}</a>`).join(" ");
      box.querySelectorAll("a").forEach((a) => a.addEventListener("click", () => {
        box.querySelectorAll("a").forEach((b) => b.classList.remove("current"));
        a.classList.add("current");
        setPosition(g.positions[Number(a.dataset.i)].fen);
      }));
    } catch (e) {
      box.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
    }
  });
}
