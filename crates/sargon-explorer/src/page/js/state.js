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
  arrow: null,         // [from, to] squares of the move to draw
  search: null,        // the finished search's status
  searchId: null, source: null,
  rows: new Map(),     // node id -> row element
  selected: null,      // node id
  pv: null, pvAt: -1,  // the PV replay's steps and position in them
  engines: null,
  models: null,        // the five models of "A Window into Sargon", once run
};

// A game against Sargon: on while it is played, waiting while Sargon searches its move.
export const game = { on: false, waiting: false, human: "white", startFen: START, moves: [], result: "*" };
