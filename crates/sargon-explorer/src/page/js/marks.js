// What each mark of the tree (and of the models and the drawn subtree) means: one sentence
// each, shown on hover.

export const MARKS = {
  order: (n) => `(${n}): the order of evaluation; this was position number ${n} that Sargon scored in this search`,
  new_best: "new best: its score beat the best so far one ply up (the best test), so it is its parent's best move for now",
  discard: "discard: it passed alpha-beta but did not beat the best so far one ply up, so Sargon dropped it",
  cutoff: "cutoff: its score refutes the move two plies up (alpha-beta), so the rest of this ply's moves are skipped",
  star: "\u2605 best so far: a 'best' event recorded it, at some point, as the best of its siblings",
  refuted: "refuted: one of its replies caused a cutoff, so its own score was never backed up",
  cut_off: "cut off: never searched; a cutoff among its siblings ended the move list first",
  illegal: "illegal: the move leaves the king in check; Sargon drops it when it plays it",
  not_evaluated: "not evaluated: created by the move generator, never scored",
  below: "nodes in its subtree below it (the search created them all)",
  pv: "on the principal variation (highlighted)",
};

