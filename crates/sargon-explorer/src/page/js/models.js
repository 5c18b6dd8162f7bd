// The models of "A Window into Sargon": the five pretend positions run on an engine with
// hooks, each node with its evaluation, thresholds and Sargon's decision.

import { $, escapeHtml } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";

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
    let t = `<div class="${cls.join(" ")}" data-key="${node.key}" style="padding-left:${(node.key.length - 1) * 18}px">`;
    t += `<b>${node.key}</b> ${escapeHtml(node.line_san)}`;
    if (e) {
      t += ` <span class="sub">(${e.order})</span> <span class="score">${e.score >= 0 ? "+" : ""}${e.score}</span> <span class="sub">[${fmtThreshold(e.alpha_beta)}, ${fmtThreshold(e.minimax)}]</span>`;
      t += `<span class="badge ${e.decision}">${e.decision.replace("_", " ")}</span>`;
    } else {
      t += ` <span class="sub">${node.created ? "not evaluated" : "never created: a cutoff skipped it"}</span>`;
    }
    if (node.key.length === 3 && e) t += ` <span class="intercept">POINTS intercepted: the model's ${node.model_score >= 0 ? "+" : ""}${node.model_score}</span>`;
    return t + "</div>";
  });
  $("model").innerHTML = `<p>${escapeHtml(m.intro)}</p>` +
    `<p class="note">The pretend position: <code>${escapeHtml(m.fen)}</code>. Each node: its key (A/B White's moves, G/H Black's), the line, (evaluation number), its score for the side that moved, [alpha-beta threshold, minimax threshold], and what Sargon decided.</p>` +
    rows.join("") +
    `<p>Principal variation: <b id="model-pv">${escapeHtml(m.pv_san)}</b> <span class="sub">(${m.pv_keys.join(" ")}; real moves ${m.pv_uci.join(" ")})</span></p>` +
    `<p>${escapeHtml(m.moral)}</p>`;
}
