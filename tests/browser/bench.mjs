// The explorer's benchmark (not a test): how fast a big search's tree opens.
//   node tests/browser/bench.mjs URL CHROMIUM [DEPTH]
// against a running `sargon serve` (a release build). It searches the Italian to DEPTH
// (default 5) on the port, then asks for nodes as the page does: every node of the first
// two plies and 500 nodes drawn at random, timing each request (client round trip on
// loopback: the server's time plus a few tenths of a millisecond), and opens the page in
// chromium to time the step from the search's end to the tree drawn. It also weighs the
// page. Prints one line per figure.
import { launch } from "./harness.mjs";

const [url, executablePath, depthArg] = process.argv.slice(2);
const depth = Number(depthArg || 5);
const ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
const base = url.replace(/\/$/, "");

async function json(path, body) {
  const opts = body ? { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } } : {};
  const res = await fetch(base + path, opts);
  return res.json();
}

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

// The page's weight; the script's modules found as the browser finds them: main.js and
// what it imports.
let weight = 0;
const files = ["/", "/style.css", "/js/main.js"];
for (let i = 0; i < files.length; i++) {
  const text = await (await fetch(base + files[i])).text();
  weight += new TextEncoder().encode(text).byteLength;
  for (const [, name] of text.matchAll(/^import .* from "\.\/([\w.]+)";$/gm)) {
    if (!files.includes(`/js/${name}`)) files.push(`/js/${name}`);
  }
}
console.log(`page weight: ${weight} bytes (html, js, css; uncompressed)`);

// The search.
const t0 = performance.now();
let s = await json("/api/search", { fen: ITALIAN, engine: "port", depth, book: true });
while (s.state === "waiting" || s.state === "running") {
  await new Promise((r) => setTimeout(r, 100));
  s = await json(`/api/search/${s.id}`);
}
if (s.state !== "done") throw new Error(`search ${s.state}: ${s.error}`);
console.log(`search: depth ${depth}, ${s.nodes} nodes, ${s.events} events, ${((performance.now() - t0) / 1000).toFixed(1)} s until done`);

// Nodes: the first two plies, then random ones.
const times = [];
const timed = async (id) => {
  const t = performance.now();
  const n = await json(`/api/search/${s.id}/node/${id}`);
  times.push(performance.now() - t);
  return n;
};
const root = await timed(0);
for (const c of root.children) await timed(c.id);
for (let i = 0; i < 500; i++) await timed(1 + Math.floor(Math.random() * s.nodes));
console.log(`node requests: ${times.length}, p50 ${pct(times, 0.5).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms`);

// The page: from the finished search to the tree drawn.
const browser = await launch(executablePath);
const page = await browser.newPage();
const q = new URLSearchParams({ fen: ITALIAN, engine: "port", depth: String(depth), book: "1", search: "1" });
await page.goto(`${base}/?${q}`);
await page.waitForFunction(() => performance.getEntriesByName("tree-drawn").length > 0, null, { timeout: 600000 });
const drawn = await page.evaluate(() => performance.getEntriesByName("tree-drawn")[0].startTime - performance.getEntriesByName("search-shown")[0].startTime);
console.log(`page: tree drawn ${drawn.toFixed(1)} ms after the finished search reached it`);
await browser.close();
