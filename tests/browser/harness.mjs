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
