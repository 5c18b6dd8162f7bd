// The search tree: its rows, opened one node at a time from the server, the selected node's
// detail and position on the board, the find box and the keyboard. Rows are kept in
// state.rows, the selected node in state.selected.

import { $, escapeHtml } from "./util.js";
import { game, state } from "./state.js";
import { api } from "./api.js";
import { showNodePosition } from "./board.js";
import { updateUrl } from "./url.js";
import { clearSubtree, drawSubtree } from "./icicle.js";
import { MARKS } from "./marks.js";
import { byteOfPawns, moverAt, otherSide, scoreHtml, scoreLegend } from "./score.js";

// The side that made a node's move, by name.
function moverOf(n) { return moverAt(state.search ? state.search.request.fen : state.posFen, n.ply); }

function nodeText(n) {
  let t = `<span class="tw">${n.children_count ? "\u25B8" : ""}</span>`;
  t += `<span class="label">${escapeHtml(n.label)}</span>`;
  if (n.eval) {
    const by = `who played ${n.label}`;
    t += ` <span class="sub order" title="${MARKS.order(n.eval.order)}">(${n.eval.order})</span> ${scoreHtml(n.eval.byte, n.eval.pawns, moverOf(n), by)}`;
    t += `<span class="badge ${n.eval.decision}" title="${MARKS[n.eval.decision] || ""}">${n.eval.decision.replace("_", " ")}</span>`;
  } else if (n.status.kind !== "root") {
    const k = n.status.kind;
    const by = n.status.by_evaluation ? ` (by evaluation ${n.status.by_evaluation})` : "";
    t += ` <span class="sub status ${k}" title="${(MARKS[k] || k) + by}">${k.replace("_", " ")}</span>`;
  }
  if (n.best_so_far) t += `<span class="badge star" title="${MARKS.star}">\u2605</span>`;
  if (n.in_pv) t += `<span class="badge pv" title="${MARKS.pv}">PV</span>`;
  if (n.children_count) t += ` <span class="sub below" title="${MARKS.below}">${n.subtree - 1} below</span>`;
  return t;
}

function makeRow(n) {
  const wrap = document.createElement("div");
  const row = document.createElement("div");
  row.className = "node";
  if (n.in_pv) row.classList.add("in-pv");
  if (n.status.kind === "refuted") wrap.classList.add("refuted");
  if (!n.eval && n.status.kind !== "root" && n.status.kind !== "evaluated") row.classList.add("cut");
  row.dataset.id = n.id;
  row.setAttribute("role", "treeitem");
  row.style.paddingLeft = `${n.ply * 14}px`;
  row.innerHTML = n.id === 0 ? `<span class="tw">\u25BE</span><span class="label">root</span> <span class="sub">${n.subtree - 1} nodes</span>` : nodeText(n);
  const kids = document.createElement("div");
  kids.className = "kids";
  kids.hidden = true;
  wrap.append(row, kids);
  row.addEventListener("click", (ev) => {
    if (ev.target.classList.contains("tw")) toggle(n.id);
    else select(n.id);
  });
  row.addEventListener("dblclick", () => toggle(n.id));
  state.rows.set(n.id, { row, kids, node: n, loaded: false });
  return wrap;
}

export function buildTree(s, selectPath) {
  state.rows.clear();
  state.selected = null;
  $("memory").disabled = true;
  $("memory-view").innerHTML = "";
  clearSubtree();
  const tree = $("tree");
  tree.innerHTML = "";
  $("tree-legend").innerHTML = scoreLegend(`for the side that made the node's move (ply 1: ${moverAt(s.request.fen, 1)}, ply 2: ${moverAt(s.request.fen, 2)})`);
  tree.append(makeRow(s.root));
  expand(0).then(() => {
    performance.mark("tree-drawn");
    if (selectPath) findPath(selectPath);
    else if (!game.on) select(0); // in a game the board shows the game, not the search
  });
}

async function loadNode(id) {
  return api("GET", `/api/search/${state.searchId}/node/${id}`);
}

async function expand(id) {
  const r = state.rows.get(id);
  if (!r || !r.node.children_count) return;
  if (!r.loaded) {
    const full = await loadNode(id);
    r.loaded = true;
    r.full = full;
    for (const c of full.children) r.kids.append(makeRow(c));
  }
  r.kids.hidden = false;
  r.row.querySelector(".tw").textContent = "\u25BE";
  r.row.setAttribute("aria-expanded", "true");
}

function collapse(id) {
  const r = state.rows.get(id);
  if (!r || !r.node.children_count || id === 0) return;
  r.kids.hidden = true;
  r.row.querySelector(".tw").textContent = "\u25B8";
  r.row.setAttribute("aria-expanded", "false");
}

function toggle(id) {
  const r = state.rows.get(id);
  if (r && !r.kids.hidden) collapse(id); else expand(id);
}

export async function select(id) {
  const r = state.rows.get(id);
  if (!r) return;
  if (state.selected != null && state.rows.get(state.selected)) state.rows.get(state.selected).row.classList.remove("selected");
  state.selected = id;
  r.row.classList.add("selected");
  r.row.scrollIntoView({ block: "nearest" });
  const full = r.full || await loadNode(id);
  r.full = full;
  showDetail(full);
  showNodePosition(full);
  drawSubtree(full);
  $("memory").disabled = false;
  $("memory-view").innerHTML = "";
  updateUrl();
}

function showDetail(n) {
  const rows = [];
  rows.push(["node", n.id === 0 ? "the root" : `${escapeHtml(n.path_labels.join(" "))} <span class="sub">(ply ${n.ply}, ${n.path.join(" ")})</span>`]);
  const kind = n.status.kind;
  if (n.eval) {
    const e = n.eval;
    const side = moverOf(n), by = `who played ${n.label}`;
    rows.push(["score", `${scoreHtml(e.byte, e.pawns, side, by)} pawns for ${side} <span class="sub" title="${MARKS.order(e.order)}">(evaluation ${e.order})</span>`]);
    rows.push(["alpha-beta", `against ${scoreHtml(e.alpha_beta_byte, e.alpha_beta, side, "the bound two plies up")} two plies up: ${e.decision === "cutoff" ? "<b>cutoff</b>: the rest of this ply is skipped" : "pass"}`]);
    // The best so far one ply up is kept in the view of the side that moved there: its byte
    // as Sargon's memory holds it, its pawns for that side and, beside, for this node's side.
    const up = otherSide(side), minimax = e.minimax == null ? null : -Number(e.minimax);
    const against = minimax == null ? "?" :
      `${scoreHtml(byteOfPawns(minimax), minimax, up, "the best so far one ply up")} pawns for ${up} (${e.minimax} for ${side})`;
    if (e.decision !== "cutoff") rows.push(["best test", `against ${against} one ply up: ${e.decision === "new_best" ? "<b>new best</b>" : "discard"}`]);
  } else if (kind === "refuted") {
    rows.push(["status", `refuted: one of its replies caused a cutoff (evaluation ${n.status.by_evaluation}), so its score was never backed up`]);
  } else if (kind === "cut_off") {
    rows.push(["status", `never searched: a cutoff${n.status.by_evaluation ? ` (evaluation ${n.status.by_evaluation})` : ""} ended its move list first`]);
  } else if (kind === "illegal") {
    rows.push(["status", "illegal: the move leaves the king in check; Sargon drops it when it plays it"]);
  } else if (kind === "not_evaluated") {
    rows.push(["status", "created, not evaluated"]);
  }
  if (n.best_so_far) rows.push(["best so far", "yes: a 'best' event recorded it as the best among its siblings"]);
  if (n.in_pv) rows.push(["PV", "on the principal variation"]);
  rows.push(["subtree", n.children_count ? `${n.subtree - 1} nodes below, ${n.children_count} children` : "a leaf: no node was created below it"]);
  $("node-detail").innerHTML = "<table>" + rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("") + "</table>";
}

// Open the rows down a path of node ids (root first) and select the last.
async function reveal(ids) {
  for (const id of ids.slice(0, -1)) await expand(id);
  await select(ids[ids.length - 1]);
}

export async function findPath(text) {
  $("find-error").textContent = "";
  if (state.searchId == null) { $("find-error").textContent = "search first"; return; }
  try {
    const n = await api("GET", `/api/search/${state.searchId}/find?path=${encodeURIComponent(text)}`);
    let cur = n;
    // Walk up through parents already known, asking for the rest.
    const ids = [n.id];
    while (cur.parent != null) {
      ids.unshift(cur.parent);
      cur = state.rows.get(cur.parent)?.full || await loadNode(cur.parent);
    }
    await reveal(ids);
  } catch (e) {
    $("find-error").textContent = e.message;
  }
}

// Keyboard: the visible rows in order.
function visibleRows() {
  return [...$("tree").querySelectorAll(".node")].filter((r) => r.offsetParent !== null);
}

// The find box, and the keyboard in the tree.
export function setupTree() {
  // The filter hides refuted nodes here; the drawing (icicle.js) listens to it too.
  $("hide-refuted").addEventListener("change", () => $("tree").classList.toggle("hide-refuted", $("hide-refuted").checked));
  $("find").addEventListener("click", () => findPath($("find-path").value));
  $("find-path").addEventListener("keydown", (e) => { if (e.key === "Enter") findPath($("find-path").value); });
  $("tree").addEventListener("keydown", async (e) => {
    if (state.selected == null) return;
    const id = state.selected, r = state.rows.get(id);
    const rows = visibleRows(), at = rows.indexOf(r.row);
    switch (e.key) {
      case "ArrowDown": if (at + 1 < rows.length) await select(Number(rows[at + 1].dataset.id)); break;
      case "ArrowUp": if (at > 0) await select(Number(rows[at - 1].dataset.id)); break;
      case "ArrowRight":
        if (r.node.children_count && r.kids.hidden) await expand(id);
        else if (r.node.children_count) await select(r.full.children[0].id);
        break;
      case "ArrowLeft":
        if (r.node.children_count && !r.kids.hidden && id !== 0) collapse(id);
        else if (r.node.parent != null) await select(r.node.parent);
        break;
      case "Enter": toggle(id); break;
      case "Backspace": if (r.node.parent != null) await select(r.node.parent); break;
      default: return;
    }
    e.preventDefault();
  });
}
