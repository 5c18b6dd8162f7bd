// The URL keeps position, engine, depth, book and the selected node, so a view can be
// bookmarked and reloaded, and the game against Sargon, so that it can be taken up again.
// This module writes it; main.js reads it at start-up (game.js replays a game).

import { $ } from "./util.js";
import { game, state } from "./state.js";

export function updateUrl() {
  const q = new URLSearchParams();
  q.set("fen", state.posFen);
  q.set("engine", $("engine").value);
  q.set("depth", $("depth").value);
  q.set("book", $("book").checked ? "1" : "0");
  // In a game the search shown is one of Sargon's; the game's link replays the game instead.
  const inGame = gameShown();
  if (inGame) gameParams(q);
  if (!inGame && state.search && state.selected != null && state.selected !== 0) {
    const r = state.rows.get(state.selected);
    if (r && r.full) q.set("node", r.full.path.join(","));
  }
  if (!inGame && state.search) q.set("search", "1");
  // Readable links: commas, slashes and spaces as themselves where a query allows them.
  const query = q.toString().replaceAll("%2C", ",").replaceAll("%2F", "/");
  history.replaceState(null, "", "?" + query);
}

// The game: the side the person plays, the start position and each move, Sargon's with the
// search that chose it (`UCI~DEPTH~SCORE~ENGINE[~nobook]`: the score byte in hex, `b` for
// a book move; the engine an index into the `sargon` names), so that the link restores the
// list, the PGN's players and the graph.
function gameParams(q) {
  q.set("play", game.human);
  q.set("start", game.startFen);
  const engines = [...new Set(game.moves.filter((m) => m.by === "sargon").map((m) => m.engine))];
  engines.forEach((e) => q.append("sargon", e));
  q.set("moves", game.moves.map((m) => m.by === "human" ? m.uci :
    [m.uci, m.depth, m.fromBook ? "b" : m.byte.toString(16), engines.indexOf(m.engine), m.book ? "" : "nobook"]
      .join("~").replace(/~$/, "")).join(","));
}

// Whether the link is the game's: while it is played, or while its last position is the
// position set (a position set after it, and searched, is the link's instead).
function gameShown() {
  const last = game.moves.length ? game.moves[game.moves.length - 1].fen : game.startFen;
  return game.on || (game.moves.length > 0 && state.posFen === last);
}
