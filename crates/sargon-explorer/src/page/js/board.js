// The board: drawing state.fen as SVG with the arrow of a move, showing a tree node's
// position, and the clicks that make a move. What a move does (a move of the game, or a
// new position) is main.js's choice, handed in to setupBoard.

import { $ } from "./util.js";
import { state } from "./state.js";

const GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

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

export function drawBoard() {
  const size = 45, board = placement(state.fen);
  const xy = (sq) => {
    const f = sq.charCodeAt(0) - 97, r = Number(sq[1]) - 1;
    const x = state.flipped ? 7 - f : f, y = state.flipped ? r : 7 - r;
    return [x * size, y * size];
  };
  let svg = `<svg viewBox="0 0 360 360" xmlns="http://www.w3.org/2000/svg">`;
  svg += `<defs><marker id="head" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto">` +
    `<path d="M0,0 L4,2 L0,4 z" fill="#c33" opacity=".8"/></marker></defs>`;
  for (let f = 0; f < 8; f++) for (let r = 0; r < 8; r++) {
    const sq = squareName(f, r), [x, y] = xy(sq);
    let fill = (f + r) % 2 ? "var(--light)" : "var(--dark)";
    if (sq === state.from) fill = "#f6e27a";
    svg += `<rect class="sq" data-sq="${sq}" x="${x}" y="${y}" width="${size}" height="${size}" fill="${fill}"/>`;
    if ((state.flipped ? r === 7 : r === 0)) svg += `<text class="coord" x="${x + size - 8}" y="${y + size - 3}">${"abcdefgh"[f]}</text>`;
    if ((state.flipped ? f === 7 : f === 0)) svg += `<text class="coord" x="${x + 2}" y="${y + 10}">${r + 1}</text>`;
    const p = board[sq];
    if (p) {
      const color = p === p.toUpperCase() ? "#fff" : "#000";
      // The filled glyphs for both sides, coloured, read best at this size.
      const glyph = GLYPHS[p.toLowerCase()];
      svg += `<text class="piece" x="${x + size / 2}" y="${y + size / 2 + 13}" text-anchor="middle" fill="${color}" stroke="#000" stroke-width="${color === "#fff" ? 1.2 : 0}">${glyph}</text>`;
    }
  }
  if (state.arrow) {
    const [a, b] = state.arrow.map(xy);
    svg += `<line x1="${a[0] + size / 2}" y1="${a[1] + size / 2}" x2="${b[0] + size / 2}" y2="${b[1] + size / 2}" ` +
      `stroke="#c33" stroke-width="7" opacity=".75" marker-end="url(#head)"/>`;
  }
  svg += `</svg>`;
  $("board").innerHTML = svg;
  $("board").setAttribute("data-fen", state.fen);
}

export function arrowOf(uci) { return uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null; }

// Clicks on the board: a square with a legal move is picked, then its target; the move
// made (one of state.legal) goes to onMove.
export function setupBoard(onMove) {
  $("board").addEventListener("click", (ev) => {
    const sq = ev.target.getAttribute && ev.target.getAttribute("data-sq");
    if (!sq) return;
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

// Show a node's position (from the search) without leaving the search.
export function showNodePosition(node) {
  state.fen = node.fen;
  // Moves are played on the board only from the position set, not inside the tree.
  state.legal = node.id === 0 && node.fen === state.posFen ? state.rootLegal || [] : [];
  state.from = null;
  state.arrow = arrowOf(node.uci);
  const labels = node.path_labels.join(" ");
  if (node.id === 0 && state.search && state.search.result.best_uci) state.arrow = arrowOf(state.search.result.best_uci);
  $("board-caption").textContent = node.id === 0 ? "the searched position; the arrow is Sargon's move" :
    `after ${labels}${node.legal_path ? "" : " (the last move is illegal: shown before it)"}`;
  drawBoard();
}
