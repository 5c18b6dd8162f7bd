// Searching: starting a search of the position set, following its progress, cancelling it,
// and the result's summary. What else a finished search shows (the tree, the PV steps, the
// profile button, Sargon's move in a game) and what a stopped one means to a game are
// main.js's, handed in to setupSearch.

import { $, escapeHtml, fmtTime, fmtSeconds } from "./util.js";
import { PAGE, game, state } from "./state.js";
import { api } from "./api.js";
import { updateUrl } from "./url.js";
import { otherSide, scoreHtml, scoreLegend, sideToMove } from "./score.js";

let shown = () => {};   // (status, selectPath): a search is done and its result shown
let stopped = () => {}; // (status): a search was cancelled or failed

export function setupSearch(onShown, onStopped) {
  shown = onShown;
  stopped = onStopped;
  $("search").addEventListener("click", () => startSearch());
  $("cancel").addEventListener("click", async () => {
    if (state.searchId == null) return;
    try { await api("POST", `/api/search/${state.searchId}/cancel`); } catch (e) { /* over already */ }
  });
}

// A search of the position set with the settings chosen, or of `request` ({fen, engine,
// depth, book}: a search the game made, opened again).
export async function startSearch(selectPath, request) {
  $("search-error").textContent = "";
  $("result").innerHTML = "";
  $("compare-result").innerHTML = "";
  $("divergence").hidden = true;
  const body = request ? { ...request, page: PAGE } : { fen: state.posFen, engine: $("engine").value,
    depth: Number($("depth").value), book: $("book").checked, page: PAGE };
  let s;
  try {
    s = await api("POST", "/api/search", body);
  } catch (e) {
    $("search-error").textContent = e.message;
    return;
  }
  updateUrl();
  watch(s, selectPath);
}

function watch(s, selectPath) {
  if (state.source) state.source.close();
  state.searchId = s.id;
  if (s.state === "done") { showSearch(s, selectPath); return; }
  $("cancel").disabled = false;
  $("search").disabled = true;
  const source = new EventSource(`/api/search/${s.id}/progress`);
  state.source = source;
  source.onmessage = (ev) => {
    const st = JSON.parse(ev.data);
    if (st.state === "waiting") {
      $("progress").textContent = `waiting for a free worker: place ${st.place ?? "?"} in line`;
    } else if (st.state === "running") {
      $("progress").textContent = `searching: ${st.nodes.toLocaleString()} nodes, ${st.events.toLocaleString()} events, ${fmtTime(st.elapsed_ms)}`;
    } else {
      source.close();
      state.source = null;
      $("cancel").disabled = true;
      $("search").disabled = false;
      if (st.state === "done") showSearch(st, selectPath);
      else if (st.state === "cancelled") $("progress").textContent = "cancelled";
      else { $("progress").textContent = ""; $("search-error").textContent = st.error; }
      if (st.state !== "done") stopped(st);
    }
  };
  source.onerror = () => {
    // The server went away, or the stream ended: ask once what became of the search.
    source.close();
    state.source = null;
    $("cancel").disabled = true;
    $("search").disabled = false;
  };
}

function showSearch(s, selectPath) {
  performance.mark("search-shown"); // the bench measures from here to the tree drawn
  state.search = s;
  const r = s.result;
  $("progress").textContent = `${s.partial ? "partial" : "done"}: ${s.nodes.toLocaleString()} nodes, ${s.events.toLocaleString()} events, ${fmtTime(s.elapsed_ms)}`;
  const rows = [];
  const engine = r.engine === "emulator" ? `original (Z80, ROM ${r.rom})` : r.engine === "port" ? "port (Rust)" : `<code id="engine-name">${escapeHtml(r.engine)}</code>`;
  rows.push(["engine", engine]);
  // Stopped at the node budget: the tree it built, marked, and no result.
  if (s.partial) rows.push(["partial", `<span class="error" id="partial-note">${escapeHtml(s.partial)}</span>`]);
  else if (r.no_legal_move) rows.push(["result", r.result]);
  else {
    rows.push(["best move", `<b id="best-move">${r.best_san}</b> (${r.best_uci})${r.from_book ? " from the book" : ""}`]);
    if (!r.from_book) {
      const side = sideToMove(s.request.fen);
      rows.push(["score", `<span id="result-score">${scoreHtml(r.sargon_score, r.score_pawns, side, "the side to move", `the replies (${otherSide(side)})`)} pawns for ${side}, the side to move</span>${r.mate ? ", mates" : ""}`]);
    }
    rows.push(["PV", `<span id="pv-san">${r.pv_san.join(" ")}</span>`]);
  }
  rows.push(["nodes", `${(r.nodes_created ?? s.nodes).toLocaleString()}`]);
  if (r.wall_ms != null) rows.push(["time", fmtTime(Math.round(r.wall_ms))]);
  if (r.trs80_seconds != null) rows.push(["TRS-80", `${fmtSeconds(r.trs80_seconds)} on a 1.77 MHz TRS-80 Model I (${r.z80_instructions.toLocaleString()} Z80 instructions)`]);
  $("result").innerHTML = "<table>" + rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("") + "</table>" +
    (r.from_book && !game.on ? bookNote() : r.from_book || r.no_legal_move ? "" : scoreLegend("for the side to move (the command line's `sargon analyze` writes the same)"));
  if (r.from_book && !game.on) $("search-no-book").addEventListener("click", () => { $("book").checked = false; startSearch(); });
  shown(s, selectPath);
}

// A book move is played without a search: say so, and offer the search itself (not in a
// game, where Sargon's book move is simply its move).
function bookNote() {
  return `<div id="book-note" class="book-note"><b>A book move:</b> Sargon plays it from its opening book, ` +
    `without searching, so there is no tree to explore. ` +
    `<button id="search-no-book" class="primary" title="Untick 'book' and search this position">Search without the book</button></div>`;
}
