// A small board drawn from a FEN, for the views that show many positions at once (the
// models): no clicks, no coordinates, an optional arrow for the move that led there.

const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

export function miniBoard(fen, uci) {
  const rows = fen.split(" ")[0].split("/");
  let svg = `<svg class="mini" viewBox="0 0 80 80" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${fen}">`;
  for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) {
    svg += `<rect x="${f * 10}" y="${r * 10}" width="10" height="10" fill="${(f + r) % 2 ? "var(--dark)" : "var(--light)"}"/>`;
  }
  rows.forEach((row, r) => {
    let f = 0;
    for (const c of row) {
      if (/\d/.test(c)) { f += Number(c); continue; }
      const white = c === c.toUpperCase();
      svg += `<text x="${f * 10 + 5}" y="${r * 10 + 9}" text-anchor="middle" font-size="10.5" fill="${white ? "#fff" : "#000"}" ` +
        `stroke="#000" stroke-width="${white ? 0.5 : 0}">${GLYPHS[c.toLowerCase()]}</text>`;
      f += 1;
    }
  });
  if (uci) {
    const at = (sq) => [(sq.charCodeAt(0) - 97) * 10 + 5, (8 - Number(sq[1])) * 10 + 5];
    const [a, b] = [at(uci.slice(0, 2)), at(uci.slice(2, 4))];
    svg += `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}" stroke="#c33" stroke-width="1.6" opacity=".75"/>` +
      `<circle cx="${b[0]}" cy="${b[1]}" r="1.8" fill="#c33" opacity=".75"/>`;
  }
  return svg + "</svg>";
}
