// Sargon's memory at the selected tree node, on both engines side by side: the ply's
// variables, the board bytes and the move list, with the bytes that differ marked.

import { $, escapeHtml } from "./util.js";
import { state } from "./state.js";
import { moverAt, otherSide, scoreHtml, scoreLegend } from "./score.js";
import { runJob, newJob, describeJob } from "./jobs.js";

// The memory button: Sargon's memory at the selected node, on both engines, side by side.
export function setupMemory() {
  $("memory").addEventListener("click", async () => {
    const view = $("memory-view");
    if (state.selected == null) return;
    view.textContent = "running the search again up to this node on each engine...";
    try {
      const m = await runJob("GET", `/api/search/${state.searchId}/node/${state.selected}/memory`, undefined, newJob("memory"),
        (st) => { view.textContent = `running the search again up to this node on each engine: ${describeJob(st)}`; });
      const sides = [["original (Z80)", m.emulator], ["port (Rust)", m.port]];
      const other = (i) => sides[1 - i][1];
      const node = state.rows.get(state.selected)?.node;
      mover = node && node.ply ? moverAt(state.search.request.fen, node.ply) : null;
      view.innerHTML = moment(node) + sides.map(([name, snap], i) => memoryColumn(name, snap, other(i), i === 0 ? m.emulator_reason : null)).join("") +
        `<div id="memory-verdict" class="${m.same === false ? "error" : "ok"}" style="flex-basis:100%">` +
        (m.same === null ? "the original is not available: the port's memory alone" : m.same ? "the same bytes on both engines" : "the engines' memories differ (marked)") + "</div>" +
        (m.note ? `<div id="memory-note" class="note" style="flex-basis:100%">${escapeHtml(m.note)}</div>` : "");
    } catch (e) {
      view.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
    }
  });
}

// Where the snapshot is taken, said once above both columns: the reader of BOARDA must
// know it holds the position before the node's move, not after.
function moment(node) {
  if (!node || node.id === 0) {
    return `<div id="memory-moment" class="note moment">The root has no evaluation: its move list is read when GENMOV has made it (hook point <code>movegen.done</code>).</div>`;
  }
  const label = escapeHtml(node.label);
  return `<div id="memory-moment" class="note moment">Read at ${label}'s evaluation: hook point <code>alphabeta</code> ` +
    `(FM37 in the listing), where Sargon compares the node's score with the bound two plies up. UNMOVE has already run ` +
    `there, so BOARDA holds the position <b>before</b> ${label} (the board shows it after). The move list is its ply's, ` +
    `read when GENMOV made it (<code>movegen.done</code> at the parent); "one ply up" is read at the best test (<code>best.test</code>).</div>` +
    scoreLegend(`for ${mover}, who played ${label} (one ply up: for ${otherSide(mover)}, who moved there)`);
}

let mover = null; // the side that made the selected node's move

// PIECES' order in Sargon's board byte: 1 pawn .. 6 king; bit 7 black.
const SARGON_PIECE = ["", "p", "n", "b", "r", "q", "k"];

// A score byte as Sargon's listing writes it (the API gives two hex digits), with its pawns.
// The byte one ply up is in the view of the side that moved there, the other side.
function score(byte, what, oneUp) {
  if (byte == null) return byte;
  const side = mover ? (oneUp ? otherSide(mover) : mover) : "the side that moved";
  return scoreHtml(byte, null, side, what);
}

function memoryColumn(name, snap, other, reason) {
  if (!snap) return `<div><h3>${name}</h3><div class="note">${escapeHtml(reason || "the search never reached this node")}</div></div>`;
  let t = `<div><h3>${name}</h3>`;
  const field = (label, key, value) => {
    const differs = other && other[key] !== snap[key] ? " class=\"differs\"" : "";
    return `<tr><td>${label}</td><td${differs}>${value ?? "-"}</td></tr>`;
  };
  if (snap.evaluated) {
    t += "<table>" + field("NPLY", "nply", snap.nply) + field("PLYMAX", "plymax", snap.plymax) + field("COLOR", "color", snap.color) +
      field("score", "score", score(snap.score, "the node's score")) + field("two plies up", "two_plies_up", score(snap.two_plies_up, "the bound two plies up")) +
      field("one ply up", "one_ply_up", score(snap.one_ply_up, "the best so far one ply up", true)) + "</table>";
    t += "<div class=\"sub\">BOARDA, 120 bytes (10 per row, a1 at 21):</div><table class=\"bytes\">";
    for (let row = 11; row >= 0; row--) {
      t += "<tr>";
      for (let col = 0; col < 10; col++) {
        const i = row * 10 + col, hex = snap.board.slice(2 * i, 2 * i + 2), b = parseInt(hex, 16);
        const cls = [];
        if (b === 0xff) cls.push("border");
        else if (b & 7) cls.push("piece");
        if (other && other.board && other.board.slice(2 * i, 2 * i + 2) !== hex) cls.push("differs");
        const kind = SARGON_PIECE[b & 7];
        const title = b === 0xff ? "border" : kind ? `${b & 0x80 ? "black" : "white"} ${kind}${b & 8 ? ", has moved" : ""}` : "empty";
        t += `<td class="${cls.join(" ")}" title="${i}: ${title}">${hex}</td>`;
      }
      t += "</tr>";
    }
    t += "</table>";
  } else {
    t += `<div class="note">not evaluated: only its ply's move list</div>`;
  }
  const moves = snap.moves.map((m) => `${m.uci}<span class="sub">/${m.flags}</span>`).join(" ");
  const movesDiffer = other && JSON.stringify(other.moves) !== JSON.stringify(snap.moves) ? " differs" : "";
  t += `<div class="sub">the ply's move list as GENMOV left it (${snap.moves.length} moves, move/flags):</div><div class="moves${movesDiffer}">${moves}</div>`;
  return t + "</div>";
}
