// Inside the original: where the Z80 code spent the search's time, by routine (the
// profile), and a routine's listing with its hooks and the port's counterparts marked,
// each instruction coloured by how often it ran in the search (its heat).

import { $, escapeHtml, fmtSeconds } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { runJob, newJob, describeJob } from "./jobs.js";

// The profile's executions: address -> times run, and the greatest count, for the search
// profiled.
let heat = { search: null, counts: new Map(), max: 1, instructions: 0 };

// The heat of the instruction at `address` in search `search`, once that search has been
// profiled: {count, colour} (the step view marks its listing with it); else null.
export function heatAt(search, address) {
  if (heat.search !== search) return null;
  const count = heat.counts.get(address) || 0;
  return { count, colour: count ? heatColour(count, heat.max) : null };
}

// An instruction line of the listing: two spaces, then its address in hex.
const ADDRESS = /^  ([0-9A-F]{4})  /;

// The heat scale: pale yellow for an instruction run once to deep orange-red for the
// hottest; on a log scale, since counts run from 1 to hundreds of thousands.
export function heatColour(count, max) {
  const t = max > 1 ? Math.log(count) / Math.log(max) : 1;
  return `hsl(${(52 - 44 * t).toFixed(0)}, 95%, ${(90 - 28 * t).toFixed(0)}%)`;
}

function showHeatLegend() {
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => heatColour(Math.pow(heat.max, t), heat.max)).join(", ");
  const legend = $("heat-legend");
  legend.hidden = false;
  legend.innerHTML = `<span>heat: run once</span><span class="heat-scale" style="background: linear-gradient(to right, ${stops})"></span>` +
    `<span>${heat.max.toLocaleString()} times</span><span class="heat-cold">not run</span>`;
}

// A search is shown: the profile runs it again on the emulator, which needs a ROM and a
// depth the original can reach.
export function offerProfile(s) {
  const rom = state.engines && state.engines.emulator.available;
  $("profile").disabled = !rom || s.request.depth > state.engines.emulator.max_depth;
  $("profile").title = rom ? "" : "Needs the original: " + state.engines.emulator.reason;
  $("profile-view").innerHTML = ""; $("listing").hidden = true; $("heat-legend").hidden = true;
}

export function setupOriginal() {
  $("profile").addEventListener("click", async () => {
    $("profile-error").textContent = "";
    $("profile-view").textContent = "profiling the search on the emulator...";
    $("listing").hidden = true;
    $("heat-legend").hidden = true;
    try {
      // It waits its turn with the searches: where it is, while it is not done.
      const p = await runJob("GET", `/api/search/${state.searchId}/profile`, undefined, newJob("profile"),
        (st) => { $("profile-view").textContent = `profiling the search on the emulator: ${describeJob(st)}`; });
      heat = {
        search: state.searchId,
        counts: new Map(p.executions.map((e) => [e.address, e.count])),
        max: Math.max(1, ...p.executions.map((e) => e.count)),
        instructions: p.totals.instructions,
      };
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
    showHeatLegend();
    pre.innerHTML = l.text.split("\n").map((line) => {
      const html = escapeHtml(line);
      const address = ADDRESS.exec(line);
      if (address) {
        // The heat: how often this instruction ran in the profiled search.
        const n = heat.counts.get(parseInt(address[1], 16)) || 0;
        const hook = line.includes("<- hook") ? " hook" : "";
        const share = heat.instructions ? ` (${(100 * n / heat.instructions).toFixed(2)}% of the search's instructions)` : "";
        const tip = n ? `run ${n.toLocaleString()} time${n === 1 ? "" : "s"} in this search${share}` : "not run in this search";
        const colour = n ? ` style="background:${heatColour(n, heat.max)}"` : "";
        return `<span class="heat${hook}" data-count="${n}" title="${tip}"${colour}>${html}</span>`;
      }
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
