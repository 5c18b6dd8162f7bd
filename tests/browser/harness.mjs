// What every browser script here does the same way: Debian's chromium launched headless
// (the flags the project's machines need), the page's errors collected as problems, and a
// step reported as "STEM: WHAT ok".
import { chromium } from "playwright-core";

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];

// Refused requests the page shows inline (a bad FEN, an unknown path, a refused session)
// are logged by the browser as failed loads, and are not problems where a script expects
// them.
const REFUSED_LOAD = /Failed to load resource: the server responded with a status of (400|404|409)/;

export function launch(executablePath) {
  return chromium.launch({ executablePath, args: ARGS });
}

// Every page error, and every console error (but refused loads, unless `refusedLoads` is
// false), pushed onto `problems`.
export function watchProblems(page, problems, { refusedLoads = true } = {}) {
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !(refusedLoads && REFUSED_LOAD.test(m.text()))) {
      problems.push(`console: ${m.text()}`);
    }
  });
}

export const reporter = (stem) => (what) => console.log(`${stem}: ${what} ok`);

// The board set from FEN text as a person sets it (the text box, then Set); resolves when
// the board shows it.
export async function setPosition(page, fen) {
  await page.fill("#position-text", fen);
  await page.click("#set-position");
  await page.waitForFunction((f) => document.getElementById("board").dataset.fen === f, fen);
}

// A search run from the form as a person fills it (`book` false unticks the book);
// resolves when the best move is shown.
export async function search(page, { engine, depth, book = true, timeout = 60000 }) {
  await page.selectOption("#engine", engine);
  await page.fill("#depth", String(depth));
  if (!book) {
    await page.uncheck("#book");
  }
  await page.click("#search");
  await page.waitForSelector("#best-move", { timeout });
}
