// The game's scores: the eval bar beside the board and the graph under the move list. A
// score is Sargon's, from the search that chose one of its moves: its byte as Sargon's
// listing writes it (`0x7e`, 0x80 even, 8 per pawn, smaller better for Sargon), and its
// meaning in pawns, for a named side. Both views draw it for White, as chess boards do.

import { $, escapeHtml } from "./util.js";
import { game, state } from "./state.js";

function signed(p) { return `${p > 0 ? "+" : p < 0 ? "\u2212" : ""}${Math.abs(p).toFixed(2)}`; }

// A Sargon move's score for White, in pawns; null for a book move (no search, no score).
export function whitePawns(m) {
  if (m.by !== "sargon" || m.fromBook || m.byte == null) return null;
  return m.sargonWhite ? m.pawns : -m.pawns;
}

// The score of a Sargon move in words: the byte, and pawns for the side it belongs to.
export function scoreWords(m) {
  if (m.fromBook) return "from the book, no search";
  if (m.byte == null) return "score not known";
  const side = m.sargonWhite ? "White" : "Black";
  return `0x${m.byte.toString(16).padStart(2, "0")} = ${signed(m.pawns)} pawns for ${side} (Sargon)${m.mate ? ", a forced mate" : ""}`;
}

// The last scored Sargon move at or before ply `k` (the number of plies played).
function scoredBefore(k) {
  for (let i = Math.min(k, game.moves.length) - 1; i >= 0; i--) {
    if (whitePawns(game.moves[i]) != null) return [i, game.moves[i]];
  }
  return null;
}

// Lichess's curve from a score to White's share of the bar: even is half, ±4 pawns ~80%.
function whiteShare(pawns) { return 50 + 50 * (2 / (1 + Math.exp(-0.368 * pawns)) - 1); }

// The eval bar: the score of Sargon's last move up to the ply shown, or, outside a game,
// of the search shown (its root's score, whichever of its nodes is on the board).
export function drawEvalBar() {
  const bar = $("evalbar");
  let pawns = null, title = "no score yet: the bar shows Sargon's score once it has searched";
  const k = game.at ?? game.moves.length;
  const scored = game.moves.length ? scoredBefore(k) : null;
  if (scored) {
    const [i, m] = scored;
    pawns = whitePawns(m);
    title = `Sargon's score for its move ${moveLabel(i)}: ${scoreWords(m)}; ${signed(pawns)} for White`;
  } else if (!game.moves.length && state.search && state.search.result && !state.search.result.from_book &&
    state.search.result.best_uci) {
    const r = state.search.result, white = r.fen.split(" ")[1] === "w";
    pawns = white ? r.score_pawns : -r.score_pawns;
    title = `Sargon's score for the searched position: 0x${r.sargon_score.toString(16).padStart(2, "0")} = ${signed(r.score_pawns)} pawns for ${white ? "White" : "Black"}; ${signed(pawns)} for White`;
  }
  const share = pawns == null ? 50 : whiteShare(pawns);
  bar.classList.toggle("flipped", state.flipped);
  bar.classList.toggle("empty", pawns == null);
  bar.dataset.pawns = pawns == null ? "" : pawns.toFixed(3);
  bar.title = title;
  bar.innerHTML = `<div class="black-part" style="flex-basis:${(100 - share).toFixed(1)}%"></div>` +
    `<div class="white-part" style="flex-basis:${share.toFixed(1)}%"></div>` +
    `<span class="bar-label ${pawns != null && pawns < 0 ? "black-ahead" : ""}">${pawns == null ? "" : signed(pawns)}</span>`;
}

// "12." or "12..." and the move, for ply i (0-based) of the game.
export function moveLabel(i) {
  const fen = game.startFen.split(" ");
  const blackFirst = fen[1] === "b", first = Number(fen[5] || 1);
  const half = i + (blackFirst ? 1 : 0);
  const number = first + Math.floor(half / 2), white = half % 2 === 0;
  return `${number}${white ? "." : "..."}${game.moves[i] ? game.moves[i].san : ""}`;
}

// The score graph: one point per scored Sargon move, White up; a click goes to that move.
export function drawGraph(onPly) {
  const box = $("score-graph");
  const points = game.moves.map((m, i) => [i, whitePawns(m)]).filter(([, w]) => w != null);
  box.hidden = game.moves.length === 0;
  if (box.hidden) return;
  const W = 360, H = 110, left = 30, right = 6, top = 8, bottom = 8;
  const range = Math.min(16, Math.max(2, Math.ceil(Math.max(0, ...points.map(([, w]) => Math.abs(w))))));
  const plies = Math.max(game.moves.length, 10);
  const x = (i) => left + ((i + 1) / plies) * (W - left - right);
  const y = (w) => top + (1 - (Math.max(-range, Math.min(range, w)) + range) / (2 * range)) * (H - top - bottom);
  let svg = `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Sargon's score over the game">`;
  svg += `<rect x="${left}" y="${top}" width="${W - left - right}" height="${(H - top - bottom) / 2}" fill="#f4f4f4"/>`;
  svg += `<rect x="${left}" y="${y(0)}" width="${W - left - right}" height="${(H - top - bottom) / 2}" fill="#d9d9d9"/>`;
  svg += `<line x1="${left}" x2="${W - right}" y1="${y(0)}" y2="${y(0)}" stroke="#888" stroke-width="0.7"/>`;
  svg += `<text class="axis" x="${left - 3}" y="${top + 8}" text-anchor="end">+${range}</text>`;
  svg += `<text class="axis" x="${left - 3}" y="${y(0) + 3}" text-anchor="end">0</text>`;
  svg += `<text class="axis" x="${left - 3}" y="${H - bottom}" text-anchor="end">\u2212${range}</text>`;
  const at = game.at ?? game.moves.length;
  if (at > 0) svg += `<line class="now" x1="${x(at - 1)}" x2="${x(at - 1)}" y1="${top}" y2="${H - bottom}" stroke="#1f5fbf" stroke-width="1"/>`;
  if (points.length > 1) {
    svg += `<polyline points="${points.map(([i, w]) => `${x(i).toFixed(1)},${y(w).toFixed(1)}`).join(" ")}" fill="none" stroke="#2d6a3a" stroke-width="1.5"/>`;
  }
  for (const [i, w] of points) {
    svg += `<circle class="point" data-ply="${i + 1}" cx="${x(i).toFixed(1)}" cy="${y(w).toFixed(1)}" r="3.5">` +
      `<title>${escapeHtml(`${moveLabel(i)}: ${signed(w)} pawns for White (${scoreWords(game.moves[i])})`)}</title></circle>`;
  }
  svg += `</svg>`;
  box.querySelector(".graph").innerHTML = svg;
  box.querySelector(".graph-note").textContent = points.length ? `Sargon's score after each of its moves, in pawns for White (${points.length} scored)`
    : "Sargon's score after each of its moves, in pawns for White: none yet (book moves have no score)";
  box.querySelectorAll("circle.point").forEach((c) => c.addEventListener("click", () => onPly(Number(c.dataset.ply))));
}
