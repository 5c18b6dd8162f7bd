// The PV, rebuilt step by step: the 'best' events that made the principal variation, each
// step opening its node in the tree.

import { $, escapeHtml } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { findPath } from "./tree.js";

export async function loadPvSteps() {
  state.pv = null;
  state.pvAt = -1;
  $("pv-steps").innerHTML = "";
  try {
    const pv = await api("GET", `/api/search/${state.searchId}/pv-steps`);
    state.pv = pv;
    $("pv-steps").innerHTML = pv.steps.map((s, i) =>
      `<li class="future" data-i="${i}">ply ${s.ply}: <b>${escapeHtml(s.label ?? s.path.join(" "))}</b> <span class="sub">best event ${s.event.toLocaleString()} of the trace; ${s.passed_over} later 'best' events passed over</span></li>`).join("");
    if (!pv.steps.length) $("pv-steps").innerHTML = `<li>no 'best' event: no line (${pv.best_events} best events)</li>`;
    ["pv-first", "pv-prev", "pv-next"].forEach((b) => $(b).disabled = !pv.steps.length);
  } catch (e) {
    $("pv-steps").innerHTML = `<li class="error">${escapeHtml(e.message)}</li>`;
  }
}

async function pvStep(to) {
  if (!state.pv || !state.pv.steps.length) return;
  state.pvAt = Math.max(-1, Math.min(state.pv.steps.length - 1, to));
  [...$("pv-steps").children].forEach((li, i) => {
    li.classList.toggle("current", i === state.pvAt);
    li.classList.toggle("future", i > state.pvAt);
  });
  document.querySelectorAll(".node.stepped").forEach((r) => r.classList.remove("stepped"));
  if (state.pvAt < 0) return;
  const step = state.pv.steps[state.pvAt];
  if (step.node == null) return;
  await findPath(step.path.join(" "));
  state.rows.get(step.node)?.row.classList.add("stepped");
}

export function setupPv() {
  $("pv-first").addEventListener("click", () => pvStep(-1));
  $("pv-prev").addEventListener("click", () => pvStep(state.pvAt - 1));
  $("pv-next").addEventListener("click", () => pvStep(state.pvAt + 1));
}
