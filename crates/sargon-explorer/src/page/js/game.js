// A game against Sargon from the position set: the person's moves on the board, Sargon's
// answers by a search (optionally at the TRS-80's pace), the PGN naming who played each
// move, and the game in the permalink. The game's state is `game` in state.js; the move
// list, the stepping through it and the scores are gameview.js's.

import { $, fmtSeconds } from "./util.js";
import { START, game, state } from "./state.js";
import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { setPosition } from "./position.js";
import { startSearch } from "./search.js";
import { moveLabel, scoreWords } from "./evalbar.js";
import { renderGame, showGameNow } from "./gameview.js";
import { updateUrl } from "./url.js";

function sargonName(m) { return `Sargon (${m.engine}, depth ${m.depth})`; }

// The player of a side: "Human", or Sargon with each setting it played that side with.
function playerOf(white) {
  if ((game.human === "white") === white) return "Human";
  const mine = game.moves.filter((m) => m.by === "sargon" && m.sargonWhite === white);
  const names = [...new Set(mine.map(sargonName))];
  return names.length ? names.join("; ") : `Sargon (${$("engine").value}, depth ${$("depth").value})`;
}

// PGN text: movetext with a comment after each move naming who played it (and, for
// Sargon, the engine, depth and score), wrapped at 79 characters as export PGN is.
export function gamePgn() {
  const date = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  const tags = [["Event", "Game against Sargon (sargon serve)"], ["Site", "?"], ["Date", date], ["Round", "-"],
    ["White", playerOf(true)], ["Black", playerOf(false)], ["Result", game.result]];
  if (game.startFen !== START) tags.push(["SetUp", "1"], ["FEN", game.startFen]);
  // A tag's value, and a comment, escape what would end them (an exec: port's name may hold them).
  const head = tags.map(([k, v]) => `[${k} "${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"]`).join("\n");
  // Unbreakable tokens: a move with its number ("1. e4", and "1... e5" after a comment), a comment.
  const tokens = [];
  game.moves.forEach((m, i) => {
    tokens.push(`${moveLabel(i).match(/^\d+\.+/)[0]} ${m.san}`);
    const note = m.by === "sargon" ? `${sargonName(m)}: ${scoreWords(m)}` : "Human";
    tokens.push(`{${note.replaceAll("}", ")")}}`);
  });
  tokens.push(game.result);
  const lines = [];
  let line = "";
  for (const t of tokens) {
    if (line && line.length + 1 + t.length > 79) { lines.push(line); line = t; } else line = line ? `${line} ${t}` : t;
  }
  lines.push(line);
  return `${head}\n\n${lines.join("\n")}\n`;
}

function endIfOver() {
  if (!state.gameEnd) return false;
  const moverWasWhite = state.posFen.split(" ")[1] === "b";
  game.result = state.gameEnd === "checkmate" ? (moverWasWhite ? "1-0" : "0-1") : "1/2-1/2";
  game.on = false;
  $("resign").disabled = true;
  renderGame(`game over: ${state.gameEnd} (${game.result})`);
  return true;
}

// A move of the game played: the position after it set, the list and the link updated.
async function play(record) {
  game.at = null;
  const ok = await setPosition(`${state.posFen} moves ${record.uci}`, true);
  if (!ok) return false;
  record.fen = state.posFen;
  game.moves.push(record);
  showGameNow();
  updateUrl();
  return true;
}

export async function humanMove(m) {
  if (game.waiting) return;
  if (!(await play({ san: m.san, uci: m.uci, by: "human" }))) return;
  if (!endIfOver()) askSargon();
}

function askSargon() {
  game.waiting = true;
  state.legal = []; // no moves on the board while Sargon thinks
  drawBoard();
  renderGame("Sargon is thinking...");
  startSearch();
}

// A search is done: if it is the one Sargon's move waits for, Sargon plays its best move.
export async function sargonReplies(s) {
  if (!(game.on && game.waiting && s.request.fen === state.posFen)) return;
  const r = s.result;
  if (!r.best_uci) { game.waiting = false; endIfOver(); return; }
  if ($("pace").checked) {
    if (r.trs80_seconds == null) {
      renderGame("1978 pace needs the original (the TRS-80 time is measured on the Z80 code): playing at once");
    } else {
      const wait = r.trs80_seconds * Number($("pace-fraction").value || 0);
      renderGame(`the TRS-80 took ${fmtSeconds(r.trs80_seconds)} for this move: waiting ${fmtSeconds(wait)}...`);
      await new Promise((done) => setTimeout(done, wait * 1000));
    }
  }
  if (!game.on) return;
  game.waiting = false;
  const record = { san: r.best_san, uci: r.best_uci, by: "sargon", engine: s.request.engine, depth: s.request.depth,
    book: s.request.book, fenBefore: s.request.fen, sargonWhite: s.request.fen.split(" ")[1] === "w",
    fromBook: r.from_book, byte: r.from_book ? null : r.sargon_score, pawns: r.score_pawns, mate: r.mate, pv: r.pv_uci };
  if (!(await play(record))) return;
  $("board-caption").textContent = `Sargon played ${r.best_san}${r.from_book ? " (book)" : ""}; its search is in the tree`;
  if (!endIfOver()) renderGame(`Sargon played ${r.best_san}; your move`);
}

// A search was cancelled or failed: a game waiting for Sargon's move stops.
export function searchStopped(st) {
  if (!game.waiting) return;
  game.waiting = false;
  game.on = false;
  $("resign").disabled = true;
  renderGame(`the game stopped: Sargon's search ${st.state === "cancelled" ? "was cancelled" : "failed"}`);
}

// A new game from the position set, the board turned to the person's side.
function newGame(human) {
  game.on = true; game.waiting = false; game.moves = []; game.result = "*"; game.at = null;
  game.human = human;
  game.startFen = state.posFen;
  state.flipped = human === "black";
  $("play-side").value = human;
  $("resign").disabled = false; $("pgn-out").hidden = true;
}

function sargonToMove() {
  return (state.posFen.split(" ")[1] === "w" ? "white" : "black") !== game.human;
}

// The root's score byte (SCORE+1) is the other side's: the side to move's score is its
// negation, as sargon_core's SearchOutcome::score_for_mover has it, 8 per pawn.
function moverPawns(byte) { return (0x80 - ((256 - byte) & 0xff)) / 8; }

// Replays a game from its link (url.js writes it: see gameParams there): true if one was there.
export async function restoreGame(q) {
  const human = q.get("play");
  if (human !== "white" && human !== "black") return false;
  if (!(await setPosition(q.get("start") || "startpos", true))) return true;
  newGame(human);
  $("play-box").open = true; // the game's buttons (Stop, PGN) in sight
  const engines = q.getAll("sargon");
  for (const token of (q.get("moves") || "").split(",").filter(Boolean)) {
    const [uci, depth, score, engine, nobook] = token.split("~");
    const legal = state.rootLegal.find((m) => m.uci === uci);
    if (!legal) { renderGame(`the link's move \`${uci}\` is not legal here: the game stops before it`); break; }
    const record = { san: legal.san, uci, by: depth === undefined ? "human" : "sargon" };
    if (depth !== undefined) {
      const byte = score === "b" ? null : parseInt(score, 16);
      Object.assign(record, { engine: engines[Number(engine) || 0] || "port", depth: Number(depth), book: nobook !== "nobook",
        fenBefore: state.posFen, sargonWhite: state.posFen.split(" ")[1] === "w", fromBook: score === "b",
        byte, pawns: byte == null ? 0 : moverPawns(byte), mate: byte === 0xff, pv: null });
    }
    if (!(await play(record))) break;
  }
  if (!endIfOver()) {
    if (sargonToMove()) askSargon();
    else renderGame("the game from the link; your move");
  }
  return true;
}

export function setupGame() {
  $("new-game").addEventListener("click", async () => {
    newGame($("play-side").value);
    drawBoard();
    renderGame(`a new game from the position set; you play ${game.human}`);
    updateUrl();
    if (!endIfOver() && sargonToMove()) askSargon();
  });
  $("resign").addEventListener("click", () => {
    game.on = false; game.waiting = false;
    $("resign").disabled = true;
    if (state.searchId != null) api("POST", `/api/search/${state.searchId}/cancel`).catch(() => {});
    renderGame("game stopped");
  });
  $("pgn-export").addEventListener("click", () => {
    const out = $("pgn-out");
    out.value = gamePgn();
    out.hidden = false;
    out.select();
  });
}
