// One way to write a score, the command line's: Sargon's byte as its listing writes it
// (`0x7e`), then what it means in pawns for a named side. Each view states the convention
// once (scoreLegend) and every score says it again on hover (scoreHtml's title).

const SIDES = { w: "White", b: "Black" };

// The side to move in a FEN, as a name.
export function sideToMove(fen) { return SIDES[(fen || "").split(" ")[1]] || "White"; }

export function otherSide(side) { return side === "White" ? "Black" : "White"; }

// Who made the move of a node at `ply` below a root position (ply 1 is the root's mover).
export function moverAt(rootFen, ply) {
  const root = sideToMove(rootFen);
  return ply % 2 === 1 ? root : otherSide(root);
}

// A byte (number or two hex digits) as the listing writes it.
export function hexByte(byte) {
  const b = typeof byte === "number" ? byte : parseInt(byte, 16);
  return `0x${b.toString(16).padStart(2, "0")}`;
}

// A byte's value in pawns for the side it belongs to: 0x80 is even, each eighth of a pawn
// one step, smaller bytes better (as sargon_core's Score::pawns).
export function pawnsOfByte(byte) {
  const b = typeof byte === "number" ? byte : parseInt(byte, 16);
  return (0x80 - b) / 8;
}

// The byte of a score in pawns, clamped to what Sargon can express (Score::from_pawns).
export function byteOfPawns(p) {
  return Math.max(0, Math.min(255, Math.round(0x80 - 8 * Number(p))));
}

// Pawns as the server writes them: a sign, two decimals, three where an eighth needs them.
export function fmtPawns(p) {
  if (typeof p === "string") return p;
  const whole = Math.abs(p * 100 - Math.round(p * 100)) < 1e-9;
  return `${p >= 0 ? "+" : ""}${p.toFixed(whole ? 2 : 3)}`;
}

// A score in a row: the byte, then the pawns; the whole sentence on hover.
// `owner` says whose view the byte is in when it is not `side`'s (the result's byte is the
// replies' score, as the side that replies sees it; its pawns are the side to move's).
export function scoreHtml(byte, pawns, side, who = "who made the move", owner) {
  const p = fmtPawns(pawns ?? pawnsOfByte(byte));
  const whose = owner ? `, in ${owner}'s view` : "";
  const tip = `Sargon's score byte ${hexByte(byte)}${whose} (0x80 is even, 8 steps per pawn, smaller is better): ` +
    `${p} pawns for ${side}, ${who}`;
  return `<span class="score" title="${tip}"><span class="byte">${hexByte(byte)}</span> ${p}</span>`;
}

// The convention, once per view.
export function scoreLegend(what) {
  return `<div class="score-legend note">Scores: Sargon's byte as its listing writes it (0x80 is even, ` +
    `8 steps per pawn, smaller is better), then its meaning in pawns ${what}.</div>`;
}
