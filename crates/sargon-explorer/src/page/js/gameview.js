// Looking through the game: the move list (numbered, in SAN, each move a link to its
// position, each of Sargon's with a link to the search that chose it), ←/→/Home/End
// wherever the focus is (but in a text box or the tree, which have keys of their own), the
// eval bar and the score graph. The game itself is played in game.js.

import { $, escapeHtml } from "./util.js";
import { game, state } from "./state.js";
import { arrowOf, backToLive, drawBoard, lineArrows, setBackToLive, showOther } from "./board.js";
import { drawEvalBar, drawGraph, moveLabel, scoreWords } from "./evalbar.js";
import { startSearch } from "./search.js";

function who(m) {
  return m.by === "sargon" ? `Sargon (${m.engine}, depth ${m.depth}${m.fromBook ? ", book" : ""})` : "Human";
}

function moveListHtml() {
  const at = game.at ?? game.moves.length;
  const parts = [];
  game.moves.forEach((m, i) => {
    const label = moveLabel(i), number = label.match(/^\d+\.+/)[0];
    const whiteMove = !number.endsWith("...");
    if (whiteMove) parts.push(`<span class="num">${number}</span>`);
    else if (i === 0) parts.push(`<span class="num">${number.replace("...", ".")}</span><span class="cell skip">\u2026</span>`);
    let cell = `<a class="mv ${m.by}${i + 1 === at ? " current" : ""}" data-ply="${i + 1}" title="${escapeHtml(`${label} by ${who(m)}${m.by === "sargon" ? `: ${scoreWords(m)}` : ""}`)}">${escapeHtml(m.san)}</a>`;
    if (m.by === "sargon") {
      cell += `<a class="tree-link" data-ply="${i + 1}" data-depth="${m.depth}" title="${escapeHtml(`Open the search that chose ${label} (${m.engine}, depth ${m.depth}) in the tree`)}" role="button" tabindex="0" aria-label="its search"></a>`;
    }
    parts.push(`<span class="cell">${cell}</span>`);
  });
  if (game.result !== "*") parts.push(`<span class="result">${game.result}</span>`);
  return parts.join(" ");
}

// The move list, the graph and the eval bar, after any change to the game or the ply shown.
export function renderGame(status) {
  $("game-panel").hidden = game.moves.length === 0 && !game.on;
  $("game-moves").innerHTML = moveListHtml();
  if (status !== undefined) $("play-status").textContent = status;
  $("pgn-export").disabled = game.moves.length === 0;
  // The current move in sight, scrolling the list only (never the page under the person).
  const list = $("game-moves"), current = list.querySelector(".mv.current");
  if (current && (current.offsetTop < list.scrollTop || current.offsetTop > list.scrollTop + list.clientHeight - 20)) {
    list.scrollTop = current.offsetTop - list.clientHeight / 2;
  }
  drawGraph(goToPly);
  drawEvalBar();
}

// What the board shows at the game's current position: the last move, and Sargon's
// expected line after its own move.
function liveDecoration() {
  game.at = null;
  const last = game.moves[game.moves.length - 1];
  if (last && last.fen === state.posFen) {
    state.lastMove = arrowOf(last.uci);
    if (last.by === "sargon" && last.pv) state.arrows = lineArrows(last.pv.slice(1), "pv");
  }
  renderGame();
}

// The game's current position on the board, after a move.
export function showGameNow() {
  liveDecoration();
  drawBoard();
}

// Show the position after `k` plies of the game (0: its start; all of them: the game now).
export function goToPly(k) {
  const n = game.moves.length;
  if (!n) return;
  k = Math.max(0, Math.min(n, k));
  if (k === n) { backToLive(); return; }
  const fen = k === 0 ? game.startFen : game.moves[k - 1].fen;
  const prev = game.moves[k - 1], next = game.moves[k];
  // Before a move of Sargon's: its best move and line; after one: the line it expected.
  let arrows = [];
  if (next && next.by === "sargon" && next.pv && next.pv.length) arrows = lineArrows(next.pv);
  else if (prev && prev.by === "sargon" && prev.pv) arrows = lineArrows(prev.pv.slice(1), "pv");
  game.at = k;
  showOther(fen, k === 0 ? "The game's start" : `The game after ${moveLabel(k - 1)}`, arrows, prev ? arrowOf(prev.uci) : null);
  $("board-caption").textContent = `move ${k} of ${n}: \u2190 \u2192 Home End step through the game`;
  renderGame();
}

// Open the search that chose Sargon's move at ply k: the same request again, which the
// server answers from its cache while it keeps the search (else it searches again, the
// same search: Sargon is deterministic).
function openSearchOf(k) {
  const m = game.moves[k - 1];
  if (!m || m.by !== "sargon") return;
  if (game.waiting) { $("board-notice").textContent = "Sargon is thinking: its earlier searches open once it has moved."; return; }
  // The tree's root is selected (a path of no moves), which shows the searched position.
  startSearch(" ", { fen: m.fenBefore, engine: m.engine, depth: m.depth, book: m.book });
}

function typing(el) {
  return el && (el.closest("input, textarea, select, [contenteditable]") || el.closest("[role=tree]"));
}

export function setupGameView() {
  setBackToLive(liveDecoration);
  $("back-to-game").addEventListener("click", () => backToLive());
  $("game-moves").addEventListener("click", (ev) => {
    const a = ev.target.closest("a");
    if (!a) return;
    if (a.classList.contains("tree-link")) openSearchOf(Number(a.dataset.ply));
    else goToPly(Number(a.dataset.ply));
  });
  $("game-moves").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && ev.target.classList.contains("tree-link")) openSearchOf(Number(ev.target.dataset.ply));
  });
  // The arrows step through the game from anywhere but a text box or the tree.
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target) || !game.moves.length) return;
    const at = game.at ?? game.moves.length;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: game.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goToPly(to);
  });
  drawEvalBar();
}
