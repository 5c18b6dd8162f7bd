// The selected node's subtree, drawn beside the outline as an icicle: the node on the left,
// its children in the next column and theirs in the third, each as tall as its share of
// the nodes below. Refuted nodes are dimmed, and hidden with the outline's when the filter
// is on; clicking a box selects its node in the outline (which draws its subtree in turn).

import { $, escapeHtml } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { moverAt, hexByte, pawnsOfByte } from "./score.js";

const WIDTH = 300, HEIGHT = 420, COLUMNS = [70, 115, 115];
const loaded = new Map(); // node id -> the node with its children, for the search drawn
let loadedFor = null;     // that search's id
let pick = () => {};      // (id, path): select a node in the outline
let drawn = null;         // the node drawn at the left
let drawing = 0;          // the latest drawing asked for; older ones give way

async function full(id) {
  if (loadedFor !== state.searchId) { loaded.clear(); loadedFor = state.searchId; }
  if (!loaded.has(id)) loaded.set(id, await api("GET", `/api/search/${state.searchId}/node/${id}`));
  return loaded.get(id);
}

const hiding = () => $("hide-refuted").checked;
const shown = (n) => !(hiding() && n.status.kind === "refuted");

// How tall a node's box is: its visible children's heights summed, down to the last column.
function weight(n, level) {
  const f = loaded.get(n.id);
  if (level < COLUMNS.length - 1 && f && f.children.length) {
    return Math.max(1, f.children.filter(shown).reduce((s, c) => s + weight(c, level + 1), 0));
  }
  return Math.max(1, n.subtree);
}

function kind(n) {
  if (n.status.kind === "refuted") return "refuted";
  if (n.eval) return n.eval.decision;
  return n.status.kind;
}

function tip(n) {
  const parts = [n.id === 0 ? "the root" : n.label];
  if (n.eval) {
    parts.push(`evaluation ${n.eval.order}`, `${hexByte(n.eval.byte)} ${n.eval.pawns} pawns for ${moverAt(state.search.request.fen, n.ply)}`, n.eval.decision.replace("_", " "));
  } else if (n.status.kind !== "root") parts.push(n.status.kind.replace("_", " "));
  if (n.in_pv) parts.push("on the PV");
  parts.push(`${n.subtree - 1} below`);
  return parts.join(", ") + " (click: select it)";
}

function boxes(n, path, level, x, y, h, out) {
  const w = COLUMNS[level];
  const cls = ["box", kind(n)];
  if (n.in_pv) cls.push("in-pv");
  if (n.id === state.selected) cls.push("selected");
  if (h < 3) cls.push("thin"); // too thin for a border: the colour alone
  let label = n.id === 0 ? "root" : n.label;
  if (n.eval && h >= 24) label += ` ${n.eval.pawns}`;
  out.push(`<g class="${cls.join(" ")}" data-id="${n.id}" data-path="${escapeHtml(path.join(" "))}" title="${escapeHtml(tip(n))}">` +
    `<rect x="${x + 0.5}" y="${y + 0.5}" width="${w - 1}" height="${Math.max(0.5, h - 1)}" rx="2"/>` +
    (h >= 12 ? `<text x="${x + 4}" y="${y + Math.min(h / 2 + 4, 14)}">${escapeHtml(label)}</text>` : "") + `</g>`);
  const f = loaded.get(n.id);
  if (level + 1 >= COLUMNS.length || !f) return;
  const kids = f.children.filter(shown);
  const total = kids.reduce((s, c) => s + weight(c, level + 1), 0);
  let at = y;
  for (const c of kids) {
    const ch = total ? h * weight(c, level + 1) / total : 0;
    boxes(c, [...path, c.uci], level + 1, x + w, at, ch, out);
    at += ch;
  }
}

function render() {
  const svg = $("icicle");
  if (!drawn) { svg.innerHTML = ""; return; }
  const out = [];
  boxes(drawn, drawn.path || [], 0, 0, 0, HEIGHT, out);
  svg.innerHTML = `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg" role="img" ` +
    `aria-label="The subtree of ${escapeHtml(drawn.id === 0 ? "the root" : drawn.label)}, drawn">${out.join("")}</svg>`;
}

// Draw the subtree of a selected node (its parent's, for a leaf): two levels below it.
export async function drawSubtree(node) {
  const ask = ++drawing;
  let top = node;
  if (!node.children_count && node.parent != null) top = await full(node.parent);
  top = await full(top.id);
  await Promise.all(top.children.filter((c) => c.children_count).map((c) => full(c.id)));
  if (ask !== drawing) return;
  drawn = top;
  render();
}

export function clearSubtree() { drawn = null; drawing++; render(); }

export function setupIcicle(onPick) {
  pick = onPick;
  $("icicle").addEventListener("click", (ev) => {
    const g = ev.target.closest && ev.target.closest("g.box");
    if (g) pick(Number(g.dataset.id), g.dataset.path);
  });
  $("hide-refuted").addEventListener("change", render);
}
