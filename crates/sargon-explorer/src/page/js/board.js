// The board: an SVG drawn from state.fen, as the boards people use every day draw it
// (coordinates on the edge, the last move highlighted, the picked piece and its targets
// marked, arrows for the best move and the principal variation), and the clicks that make
// a move. What a move means (the person's move in the game, or a new position) is
// main.js's choice, handed in to setupBoard.
//
// The board shows either the position set (where moves are played) or something the person
// is looking at instead: a node of a search, a past move of the game, a divergence. The
// latter is a mode the page returns from: a banner says what is shown, with a button back.

import { $ } from "./util.js";
import { game, state } from "./state.js";
import { drawEvalBar } from "./evalbar.js";

const SIZE = 45; // one square, in the SVG's units (the board is 8 × 45 = 360)
const LIGHT = "#f0d9b5", DARK = "#b58863";
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
// Arrows: the best move strongest, the PV's next moves fainter each ply, a tree node's move red.
const ARROW = { best: ["#15781b", 0.85], pv: ["#1f5fbf", 0.7], node: ["#c33", 0.75] };

function squareName(file, rank) { return "abcdefgh"[file] + (rank + 1); }

function placement(fen) {
  const rows = fen.split(" ")[0].split("/");
  const board = {};
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else { board[squareName(file, 7 - i)] = c; file += 1; }
    }
  });
  return board;
}

function corner(sq) {
  const f = sq.charCodeAt(0) - 97, r = Number(sq[1]) - 1;
  const x = state.flipped ? 7 - f : f, y = state.flipped ? r : 7 - r;
  return [x * SIZE, y * SIZE];
}

function centre(sq) {
  const [x, y] = corner(sq);
  return [x + SIZE / 2, y + SIZE / 2];
}

// One arrow as a single polygon (shaft and head), so that each can have its own colour
// and opacity without a marker per colour.
function arrowSvg(a, i) {
  const [x1, y1] = centre(a.from), [x2, y2] = centre(a.to);
  const [colour, strongest] = ARROW[a.kind] || ARROW.pv;
  const opacity = a.kind === "pv" ? Math.max(0.3, strongest - 0.15 * (a.step || 0)) : strongest;
  const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const px = -uy, py = ux, shaft = 4.5, head = 11, headLen = 15, end = len - 6;
  const pt = (along, side) => `${(x1 + ux * along + px * side).toFixed(1)},${(y1 + uy * along + py * side).toFixed(1)}`;
  const pts = [pt(0, shaft), pt(end - headLen, shaft), pt(end - headLen, head), pt(end, 0),
    pt(end - headLen, -head), pt(end - headLen, -shaft), pt(0, -shaft)].join(" ");
  return `<polygon class="arrow ${a.kind}" data-uci="${a.from}${a.to}" data-i="${i}" points="${pts}" fill="${colour}" opacity="${opacity.toFixed(2)}"/>`;
}

// Whether moves can be played on the board now, and if not, why (said on a refused click).
function whyNoMoves() {
  if (game.waiting) return "Sargon is thinking: wait for its move.";
  if (state.view || state.fen !== state.posFen) {
    return game.on ? "You are looking at another position: press \u201cBack to the game\u201d to play on."
      : "You are looking at another position: press \u201cBack to the position\u201d to play from the position set.";
  }
  if (!state.legal.length) return state.gameEnd ? `No move: ${state.gameEnd}.` : "No legal move here.";
  return null;
}

export function drawBoard() {
  const board = placement(state.fen);
  const targets = state.from ? state.legal.filter((m) => m.uci.startsWith(state.from)).map((m) => m.uci.slice(2, 4)) : [];
  let svg = `<svg viewBox="0 0 360 360" xmlns="http://www.w3.org/2000/svg">`;
  for (let f = 0; f < 8; f++) for (let r = 0; r < 8; r++) {
    const sq = squareName(f, r), [x, y] = corner(sq), light = (f + r) % 2 === 1;
    svg += `<rect class="sq" data-sq="${sq}" x="${x}" y="${y}" width="${SIZE}" height="${SIZE}" fill="${light ? LIGHT : DARK}"/>`;
    if (state.lastMove && state.lastMove.includes(sq)) svg += `<rect class="last-move" x="${x}" y="${y}" width="${SIZE}" height="${SIZE}"/>`;
    if (sq === state.from) svg += `<rect class="picked" x="${x}" y="${y}" width="${SIZE}" height="${SIZE}"/>`;
    // Coordinates inside the edge squares, in the other square colour, as lichess draws them.
    const ink = light ? DARK : LIGHT;
    if (y === 7 * SIZE) svg += `<text class="coord" x="${x + SIZE - 2}" y="${y + SIZE - 3}" text-anchor="end" fill="${ink}">${"abcdefgh"[f]}</text>`;
    if (x === 0) svg += `<text class="coord" x="${x + 2}" y="${y + 10}" fill="${ink}">${r + 1}</text>`;
    const p = board[sq];
    if (p) {
      const white = p === p.toUpperCase();
      // The filled glyphs for both sides, coloured, read best at this size.
      svg += `<text class="piece" x="${x + SIZE / 2}" y="${y + SIZE / 2 + 13}" text-anchor="middle" fill="${white ? "#fff" : "#111"}" ` +
        `stroke="${white ? "#222" : "#111"}" stroke-width="${white ? 1.3 : 0.6}" paint-order="stroke">${GLYPHS[p.toLowerCase()]}</text>`;
    }
    if (targets.includes(sq)) {
      svg += p ? `<circle class="target capture" cx="${x + SIZE / 2}" cy="${y + SIZE / 2}" r="${SIZE * 0.45}"/>`
        : `<circle class="target" cx="${x + SIZE / 2}" cy="${y + SIZE / 2}" r="${SIZE * 0.16}"/>`;
    }
  }
  state.arrows.forEach((a, i) => { svg += arrowSvg(a, i); });
  svg += `</svg>`;
  $("board").innerHTML = svg;
  $("board").setAttribute("data-fen", state.fen);
  $("board").setAttribute("data-flipped", state.flipped ? "1" : "0");
  showViewBanner();
  drawEvalBar();
}

// The banner over the board when it shows something else than the position set.
function showViewBanner() {
  const away = state.view != null || state.fen !== state.posFen;
  $("view-banner").hidden = !away;
  if (!away) return;
  $("view-what").textContent = state.view ? state.view.what : "Another position";
  $("back-to-game").textContent = game.on || game.moves.length ? "Back to the game" : "Back to the position";
}

// Arrows for a line of moves in UCI: the first the best move (or the PV's next move, when
// `first` is "pv"), the others fainter.
export function lineArrows(uciMoves, first = "best") {
  return (uciMoves || []).slice(0, 4).map((u, i) => ({ from: u.slice(0, 2), to: u.slice(2, 4),
    kind: i === 0 ? first : "pv", step: first === "pv" ? i : i - 1 }));
}

export function arrowOf(uci) { return uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null; }

// Clicks on the board: a square with a legal move is picked, then its target; the move
// made (one of state.legal) goes to onMove. A click that cannot move says why.
export function setupBoard(onMove) {
  $("board").addEventListener("click", (ev) => {
    const sq = ev.target.getAttribute && ev.target.getAttribute("data-sq");
    if (!sq) return;
    const why = whyNoMoves();
    if (why) { $("board-notice").textContent = why; return; }
    $("board-notice").textContent = "";
    if (state.from) {
      const from = state.from;
      state.from = null;
      const moves = state.legal.filter((m) => m.uci.startsWith(from + sq));
      if (moves.length) {
        // A promotion is to a queen unless another is chosen (its UCI ends with the piece).
        const m = moves.find((m) => m.uci.length === 4 || m.uci.endsWith("q")) || moves[0];
        onMove(m);
        return;
      }
    }
    if (state.legal.some((m) => m.uci.startsWith(sq))) state.from = sq;
    drawBoard();
  });
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; drawBoard(); });
}

// Show a position that is not the position set (a node, a past move, a divergence): a mode
// the page returns from with backToLive.
export function showOther(fen, what, arrows, lastMove) {
  state.fen = fen;
  state.view = { what };
  state.from = null;
  state.arrows = arrows || [];
  state.lastMove = lastMove || null;
  $("board-notice").textContent = "";
  drawBoard();
}

// Show a node's position (from the search) without leaving the search.
export function showNodePosition(node) {
  const labels = node.path_labels.join(" ");
  const best = state.search && state.search.result ? state.search.result : null;
  if (node.id === 0 && node.fen === state.posFen && !game.waiting) {
    // The searched position is the position set: moves can be played from it.
    backToLive();
    if (best) state.arrows = lineArrows(best.pv_uci && best.pv_uci.length ? best.pv_uci : [best.best_uci].filter(Boolean));
    drawBoard();
  } else if (node.id === 0) {
    showOther(node.fen, "The position Sargon searched", best ? lineArrows(best.pv_uci && best.pv_uci.length ? best.pv_uci : [best.best_uci].filter(Boolean)) : []);
  } else {
    const m = arrowOf(node.uci);
    showOther(node.fen, `A node of the search: after ${labels}`, m ? [{ from: m[0], to: m[1], kind: "node" }] : [], m);
  }
  $("board-caption").textContent = node.id === 0 ? "the searched position; the green arrow is Sargon's move, the blue ones its expected line" :
    `after ${labels}${node.legal_path ? "" : " (the last move is illegal: shown before it)"}`;
}

// Back to the position set (the game's current position, in a game): moves play again.
let onBack = () => {};
export function setBackToLive(f) { onBack = f; }
export function backToLive() {
  state.view = null;
  state.fen = state.posFen;
  state.legal = game.waiting ? [] : state.rootLegal || [];
  state.from = null;
  state.arrows = [];
  state.lastMove = null;
  $("board-notice").textContent = "";
  onBack(); // the game puts back its last move and arrows
  drawBoard();
}
