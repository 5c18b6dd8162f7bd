// A game against Sargon from the position set: the person's moves on the board, Sargon's
// answers by a search (optionally at the TRS-80's pace), the move list and its PGN. The
// game's state is `game` in state.js.

import { $, escapeHtml, fmtSeconds } from "./util.js";
import { START, game, state } from "./state.js";
import { api } from "./api.js";
import { arrowOf, drawBoard } from "./board.js";
import { setPosition } from "./position.js";
import { startSearch } from "./search.js";

function gameMovesHtml() {
  let fen = game.startFen.split(" "), number = Number(fen[5] || 1), white = fen[1] === "w";
  const parts = [];
  game.moves.forEach((m, i) => {
    if (white) parts.push(`${number}.`);
    else if (i === 0) parts.push(`${number}...`);
    parts.push(escapeHtml(m.san));
    if (!white) number += 1;
    white = !white;
  });
  return parts.join(" ") + (game.result !== "*" ? ` ${game.result}` : "");
}

function gamePgn() {
  const date = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  const engine = `Sargon (${$("engine").value}, depth ${$("depth").value})`;
  const tags = [["Event", "Game against Sargon (sargon serve)"], ["Site", "?"], ["Date", date], ["Round", "-"],
    ["White", game.human === "white" ? "Human" : engine], ["Black", game.human === "black" ? "Human" : engine], ["Result", game.result]];
  if (game.startFen !== START) tags.push(["SetUp", "1"], ["FEN", game.startFen]);
  // A tag's value escapes `\` and `"` (an exec: port's name may hold them).
  const head = tags.map(([k, v]) => `[${k} "${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"]`).join("\n");
  return `${head}\n\n${gameMovesHtml().replaceAll("&amp;", "&")}${game.result === "*" ? " *" : ""}\n`;
}

function showGame(status) {
  $("game-moves").innerHTML = gameMovesHtml();
  if (status !== undefined) $("play-status").textContent = status;
  $("pgn-export").disabled = game.moves.length === 0;
}

function endIfOver() {
  if (!state.gameEnd) return false;
  const moverWasWhite = state.posFen.split(" ")[1] === "b";
  game.result = state.gameEnd === "checkmate" ? (moverWasWhite ? "1-0" : "0-1") : "1/2-1/2";
  game.on = false;
  $("resign").disabled = true;
  showGame(`game over: ${state.gameEnd} (${game.result})`);
  return true;
}

export async function humanMove(m) {
  if (game.waiting) return;
  game.moves.push({ san: m.san, uci: m.uci });
  await setPosition(`${state.posFen} moves ${m.uci}`, true);
  showGame();
  if (!endIfOver()) askSargon();
}

function askSargon() {
  game.waiting = true;
  state.legal = []; // no moves on the board while Sargon thinks
  showGame("Sargon is thinking...");
  startSearch();
}

// A search is done: if it is the one Sargon's move waits for, Sargon plays its best move.
export async function sargonReplies(s) {
  if (!(game.on && game.waiting && s.request.fen === state.posFen)) return;
  const r = s.result;
  if (!r.best_uci) { game.waiting = false; endIfOver(); return; }
  if ($("pace").checked) {
    if (r.trs80_seconds == null) {
      showGame("1978 pace needs the original (the TRS-80 time is measured on the Z80 code): playing at once");
    } else {
      const wait = r.trs80_seconds * Number($("pace-fraction").value || 0);
      showGame(`the TRS-80 took ${fmtSeconds(r.trs80_seconds)} for this move: waiting ${fmtSeconds(wait)}...`);
      await new Promise((done) => setTimeout(done, wait * 1000));
    }
  }
  if (!game.on) return;
  game.waiting = false;
  game.moves.push({ san: r.best_san, uci: r.best_uci });
  await setPosition(`${state.posFen} moves ${r.best_uci}`, true);
  state.arrow = arrowOf(r.best_uci);
  drawBoard();
  $("board-caption").textContent = `Sargon played ${r.best_san}${r.from_book ? " (book)" : ""}; its search is in the tree`;
  if (!endIfOver()) showGame(`Sargon played ${r.best_san}; your move`);
}

// A search was cancelled or failed: a game waiting for Sargon's move stops.
export function searchStopped(st) {
  if (!game.waiting) return;
  game.waiting = false;
  game.on = false;
  $("resign").disabled = true;
  showGame(`the game stopped: Sargon's search ${st.state === "cancelled" ? "was cancelled" : "failed"}`);
}

export function setupGame() {
  $("new-game").addEventListener("click", async () => {
    game.on = true; game.waiting = false; game.moves = []; game.result = "*";
    game.human = $("play-side").value;
    game.startFen = state.posFen;
    $("resign").disabled = false; $("pgn-out").hidden = true;
    showGame(`a new game from the position set; you play ${game.human}`);
    const toMove = state.posFen.split(" ")[1] === "w" ? "white" : "black";
    if (!endIfOver() && toMove !== game.human) askSargon();
  });
  $("resign").addEventListener("click", () => {
    game.on = false; game.waiting = false;
    $("resign").disabled = true;
    if (state.searchId != null) api("POST", `/api/search/${state.searchId}/cancel`).catch(() => {});
    showGame("game stopped");
  });
  $("pgn-export").addEventListener("click", () => {
    const out = $("pgn-out");
    out.value = gamePgn();
    out.hidden = false;
    out.select();
  });
}
