// The models of "A Window into Sargon": the five pretend positions run on an engine with
// hooks, each node with its evaluation, thresholds and Sargon's decision.

import { $, escapeHtml } from "./util.js";
import { api } from "./api.js";
import { game, state } from "./state.js";
import { setPosition } from "./position.js";
import { miniBoard } from "./miniboard.js";
import { MARKS } from "./marks.js";

export function setupModels() {
  $("models-run").addEventListener("click", async () => {
    $("models-error").textContent = "";
    $("model").innerHTML = "running the five models...";
    try {
      state.models = await api("GET", `/api/models?engine=${encodeURIComponent($("models-engine").value)}`);
      $("models-tabs").innerHTML = state.models.examples.map((e) =>
        `<button data-n="${e.example}">${e.example}. ${escapeHtml(e.title)}</button>`).join(" ");
      $("models-tabs").querySelectorAll("button").forEach((b) => b.addEventListener("click", () => showModel(Number(b.dataset.n))));
      showModel(1);
    } catch (e) {
      $("model").innerHTML = "";
      $("models-error").textContent = e.message;
    }
  });
}

function fmtThreshold(p) { return p >= 16 ? "MAX" : p <= -16 ? "-MAX" : (p >= 0 ? "+" : "") + p; }

function showModel(n) {
  const m = state.models.examples.find((e) => e.example === n);
  $("models-tabs").querySelectorAll("button").forEach((b) => b.classList.toggle("current", Number(b.dataset.n) === n));
  const evals = new Map(m.evaluations.map((e) => [e.key, e]));
  const rows = m.nodes.map((node) => {
    const e = evals.get(node.key);
    const cls = ["mnode"];
    if (node.in_pv) cls.push("in-pv");
    if (!node.created) cls.push("never");
    let t = `<div class="${cls.join(" ")}" data-key="${node.key}" style="padding-left:${(node.key.length - 1) * 18}px" role="button" tabindex="0">`;
    t += `<b>${node.key}</b> ${escapeHtml(node.line_san)}`;
    if (e) {
      t += ` <span class="sub order" title="(${e.order}): the order of evaluation; position number ${e.order} scored in this model's search">(${e.order})</span>` +
        ` <span class="score" title="the model's score ${e.score >= 0 ? "+" : ""}${e.score} pawns for the side that made this move">${e.score >= 0 ? "+" : ""}${e.score}</span>` +
        ` <span class="sub thresholds" title="[alpha-beta bound two plies up, best so far one ply up] when it was scored; MAX is +16 pawns, Sargon's starting value">[${fmtThreshold(e.alpha_beta)}, ${fmtThreshold(e.minimax)}]</span>`;
      t += `<span class="badge ${e.decision}" title="${MARKS[e.decision] || ""}">${e.decision.replace("_", " ")}</span>`;
    } else {
      t += ` <span class="sub">${node.created ? "not evaluated" : "never created: a cutoff skipped it"}</span>`;
    }
    if (node.key.length === 3 && e) t += ` <span class="intercept">POINTS intercepted: the model's ${node.model_score >= 0 ? "+" : ""}${node.model_score}</span>`;
    return t + "</div>";
  });
  $("model").innerHTML = `<p>${escapeHtml(m.intro)}</p>` +
    `<p class="note">The pretend position: <code>${escapeHtml(m.fen)}</code>. Each node: its key (A/B White's moves, G/H Black's), the line, (evaluation number), its score, [alpha-beta threshold, minimax threshold], and what Sargon decided. Click a node to set the board to its position.</p>` +
    `<div class="score-legend note">Scores here are the model's, in whole pawns for the side that made the node's move (not Sargon's bytes: POINTS is intercepted and each leaf given the document's number).</div>` +
    `<div class="model-views"><div class="model-nodes">${rows.join("")}</div>` +
    `<div id="model-boards" class="model-boards"><div class="note">drawing each position...</div></div></div>` +
    `<p>Principal variation: <b id="model-pv">${escapeHtml(m.pv_san)}</b> <span class="sub">(${m.pv_keys.join(" ")}; real moves ${m.pv_uci.join(" ")})</span></p>` +
    `<p>${escapeHtml(m.moral)}</p>`;
  drawModelBoards(m);
}

// Each model node's position: the pretend position with the node's moves played, one
// request per node (its parent's legal moves name the SAN of its last move).
async function modelPositions(m) {
  const at = new Map([["", await api("POST", "/api/position", { text: m.fen })]]);
  for (const node of [...m.nodes].sort((a, b) => a.key.length - b.key.length)) {
    const parent = at.get(node.key.slice(0, -1));
    const san = node.line_san.split(" ").pop().replace(/^\d+\.+/, "");
    const move = parent && parent.legal.find((l) => l.san === san);
    if (!move) continue;
    const pos = await api("POST", "/api/position", { text: `${parent.fen} moves ${move.uci}` });
    pos.uci = move.uci;
    at.set(node.key, pos);
  }
  return at;
}

// A board for every position of the model, and a click on a node (or its board) that
// sets the page's board to it (not during a game: the game keeps the board).
async function drawModelBoards(m) {
  const box = $("model-boards");
  let at;
  try { at = await modelPositions(m); } catch (e) { box.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`; return; }
  if ($("model-boards") !== box) return; // another model was shown meanwhile
  const keys = ["", ...m.nodes.map((n) => n.key)].filter((k) => at.has(k));
  box.innerHTML = keys.map((k) => {
    const line = k ? m.nodes.find((n) => n.key === k).line_san : "the model's position";
    return `<figure class="mboard" data-key="${k}" title="${escapeHtml(line)} (click: set the board)">${miniBoard(at.get(k).fen, at.get(k).uci)}` +
      `<figcaption>${k || "start"}</figcaption></figure>`;
  }).join("");
  const choose = (k) => {
    if (!at.has(k)) return;
    $("model").querySelectorAll(".mnode, .mboard").forEach((el) => el.classList.toggle("current", el.dataset.key === k));
    if (!game.on) setPosition(at.get(k).fen);
  };
  $("model").querySelectorAll(".mnode, .mboard").forEach((el) => el.addEventListener("click", () => choose(el.dataset.key)));
  $("model").querySelectorAll(".mnode").forEach((el) => el.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(el.dataset.key); }));
}
