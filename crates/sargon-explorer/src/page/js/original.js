// Inside the original: where the Z80 code spent the search's time, by routine (the
// profile), and a routine's listing with its hooks and the port's counterparts marked.

import { $, escapeHtml, fmtSeconds } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { runJob, newJob, describeJob } from "./jobs.js";

// A search is shown: the profile runs it again on the emulator, which needs a ROM and a
// depth the original can reach.
export function offerProfile(s) {
  const rom = state.engines && state.engines.emulator.available;
  $("profile").disabled = !rom || s.request.depth > state.engines.emulator.max_depth;
  $("profile").title = rom ? "" : "Needs the original: " + state.engines.emulator.reason;
  $("profile-view").innerHTML = ""; $("listing").hidden = true;
}

export function setupOriginal() {
  $("profile").addEventListener("click", async () => {
    $("profile-error").textContent = "";
    $("profile-view").textContent = "profiling the search on the emulator...";
    $("listing").hidden = true;
    try {
      // It waits its turn with the searches: where it is, while it is not done.
      const p = await runJob("GET", `/api/search/${state.searchId}/profile`, undefined, newJob("profile"),
        (st) => { $("profile-view").textContent = `profiling the search on the emulator: ${describeJob(st)}`; });
      const total = p.totals.t_states || 1;
      const rows = p.rows.slice(0, 16);
      const max = Math.max(...rows.map((r) => r.t_states), 1);
      $("profile-view").innerHTML =
        (p.note ? `<div id="profile-note" class="note">${escapeHtml(p.note)}</div>` : "") +
        `<div class="sub">${p.totals.instructions.toLocaleString()} Z80 instructions, ${p.totals.t_states.toLocaleString()} T-states: ${fmtSeconds(p.trs80_seconds)} on a TRS-80; the ${rows.length} routines that cost most, by their own T-states (callees excluded):</div>` +
        rows.map((r) => `<div class="bar-row" data-routine="${escapeHtml(r.routine)}"><span class="name">${escapeHtml(r.routine)}</span>` +
          `<div><div class="bar" style="width:${(100 * r.t_states / max).toFixed(1)}%"></div></div>` +
          `<span class="sub">${(100 * r.t_states / total).toFixed(1)}% &middot; ${r.calls.toLocaleString()} calls</span></div>`).join("");
      $("profile-view").querySelectorAll(".bar-row").forEach((row) => row.addEventListener("click", () => {
        $("profile-view").querySelectorAll(".bar-row").forEach((r) => r.classList.remove("current"));
        row.classList.add("current");
        showListing(row.dataset.routine);
      }));
    } catch (e) {
      $("profile-view").textContent = "";
      $("profile-error").textContent = e.message;
    }
  });
}

async function showListing(routine) {
  const pre = $("listing");
  pre.hidden = false;
  pre.textContent = `reading ${routine}...`;
  try {
    const l = await api("GET", `/api/listing/${encodeURIComponent(routine)}`);
    pre.innerHTML = l.text.split("\n").map((line) => {
      const html = escapeHtml(line);
      if (line.includes("<- hook")) return `<span class="hook">${html}</span>`;
      if (/^\s*; -> port/.test(line)) return `<span class="port">${html}</span>`;
      if (/^[A-Z0-9_]+:/.test(line)) return `<span class="label">${html}</span>`;
      return html;
    }).join("\n");
    pre.dataset.routine = routine;
  } catch (e) {
    pre.textContent = e.message;
  }
}
