// The page's state, in one place: the position on the board, the search it shows, the tree
// rows it has opened, the game against Sargon, the models it ran. Everything else the page
// asks the server for (docs/explorer.md lists the routes). Every section reads and writes
// these two objects; none keeps state of its own.

export const PAGE = Math.random().toString(36).slice(2); // one search per page at a time
export const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

export const state = {
  posFen: START,       // the position set (searched by Search and Compare)
  gameEnd: null,       // how the position set ends the game, if it does ("checkmate", ...)
  rootLegal: [],       // the legal moves of the position set
  fen: START, legal: [], flipped: false, from: null, // what the board shows
  arrows: [],          // arrows to draw: {from, to, kind: "best" | "pv" | "node", step}
  lastMove: null,      // [from, to]: the move that led to the board's position, highlighted
  view: null,          // null: the board shows the position set; else {what} it shows instead
  search: null,        // the finished search's status
  searchId: null, source: null,
  rows: new Map(),     // node id -> row element
  selected: null,      // node id
  pv: null, pvAt: -1,  // the PV replay's steps and position in them
  engines: null,
  models: null,        // the five models of "A Window into Sargon", once run
};

// A game against Sargon: on while it is played, waiting while Sargon searches its move.
// Each move: {san, uci, by: "human" | "sargon", fen (after it)} and, for Sargon's, the
// search that chose it: {engine, depth, book, fenBefore, fromBook, byte, pawns, mate, pv}.
// `at` is the ply the board shows when the person steps back through the game (null: the
// game's current position).
export const game = { on: false, waiting: false, human: "white", startFen: START, moves: [], result: "*", at: null };
