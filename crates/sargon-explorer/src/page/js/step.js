// Stepping the original: the search run again on the emulator, instruction by instruction,
// forward and back (/api/step). The panel shows the registers and flags, the call stack of
// Sargon's routines, the instruction at PC in the listing of the user's own copy with the
// port's function beside it, and the bytes the last step changed, marked in BOARDA and the
// variables. The server keeps the session; the page closes it when it leaves.

import { $, escapeHtml } from "./util.js";
import { PAGE, state } from "./state.js";
import { api } from "./api.js";
import { runJob, newJob, describeJob } from "./jobs.js";
import { heatAt } from "./original.js";

let session = null;        // the session's number, once open
let busy = false;          // a move is on its way: others wait for it
const listings = new Map(); // routine -> its listing's lines

const hex2 = (b) => b.toString(16).toUpperCase().padStart(2, "0");
const hex4 = (w) => w.toString(16).toUpperCase().padStart(4, "0");

// A search is shown: stepping needs the original and a depth it can search.
export function offerStep(s) {
  const e = state.engines && state.engines.emulator;
  const ok = e && e.available && s.request.depth <= e.max_depth;
  $("step-open").disabled = !ok;
  $("step-open").title = ok ? "" : "Needs the original: " + ((e && e.reason) || "a depth it can search");
  $("step-error").textContent = "";
}

export function setupStep() {
  $("step-open").addEventListener("click", () => open({ node: state.selected ?? 0 }));
  $("step-go-event").addEventListener("click", () => {
    const k = parseInt($("step-event").value, 10);
    if (Number.isNaN(k)) return;
    if (session == null) open({ event: k });
    else move({ event: k });
  });
  document.querySelectorAll("#step-buttons button[data-by]").forEach((b) => {
    b.addEventListener("click", () => move({ by: b.dataset.by, back: b.dataset.back === "1" }));
  });
  $("step-close").addEventListener("click", close);
  // The page leaving gives the session back at once (else it closes when idle).
  window.addEventListener("pagehide", () => {
    if (session != null) navigator.sendBeacon(`/api/step/${session}/close`);
  });
}

// Open a session on the search shown, standing where its event `k` arises (Compare's
// divergence asks for the original's event where the engines part).
export function stepToEvent(k) {
  $("step-event").value = k;
  $("step-panel").scrollIntoView({ block: "start" });
  return open({ event: k });
}

async function open(at) {
  if (state.searchId == null) return;
  $("step-error").textContent = "";
  const recording = "running the search on the emulator to record its events and keep snapshots...";
  $("step-view").innerHTML = `<div id="step-waiting" class="note">${recording}</div>`;
  try {
    // A session takes one of the server's workers (`--jobs`) while open: it may wait its turn.
    const job = newJob("step");
    const s = await runJob("POST", "/api/step", { search: state.searchId, page: PAGE, job, ...at }, job, (st) => {
      const w = $("step-waiting");
      if (w) w.textContent = st.state === "waiting" ? `a stepping session needs a worker of the server: ${describeJob(st)}` : recording;
    });
    session = s.id;
    $("step-buttons").hidden = false;
    await show(s);
  } catch (e) {
    $("step-view").innerHTML = "";
    $("step-error").textContent = e.message;
  }
}

async function move(body) {
  if (session == null || busy) return;
  busy = true;
  $("step-error").textContent = "";
  try {
    await show(await api("POST", `/api/step/${session}/move`, body));
  } catch (e) {
    $("step-error").textContent = e.message;
  } finally {
    busy = false;
  }
}

async function close() {
  if (session == null) return;
  const id = session;
  session = null;
  $("step-buttons").hidden = true;
  $("step-view").innerHTML = "";
  try { await api("POST", `/api/step/${id}/close`); } catch (e) { /* gone already */ }
}

// The lines of a routine's listing (the user's own copy), read once.
async function listingLines(routine) {
  if (!listings.has(routine)) {
    const l = await api("GET", `/api/listing/${encodeURIComponent(routine)}`);
    listings.set(routine, l.text.split("\n"));
  }
  return listings.get(routine);
}

async function show(s) {
  const r = s.registers;
  const changed = new Set(s.changes.map((c) => c.addr));
  const where = `<div id="step-where" class="sub">instruction <b>${s.position.toLocaleString()}</b> of ${s.length.toLocaleString()} ` +
    `&middot; ${s.events_before.toLocaleString()} of ${s.events.toLocaleString()} events before it` +
    (s.finished ? " &middot; <b>FNDMOV has returned</b>" : "") +
    ` &middot; snapshots: ${s.snapshots} every ${s.snapshot_interval.toLocaleString()} instructions</div>` +
    (s.note ? `<div id="step-note" class="note">${escapeHtml(s.note)}</div>` : "") +
    `<div id="step-slot" class="sub">This session holds one of the server's ${s.workers} worker${s.workers === 1 ? "" : "s"} while it is open ` +
    `(searches, profiles and comparisons wait for them); it is closed, and its worker freed, after ${s.idle_seconds.toLocaleString()} s unused, ` +
    `when you press Close or when you leave the page.</div>`;
  const regs = [["A", hex2(r.a)], ["F", hex2(r.f)], ["BC", hex4(r.bc)], ["DE", hex4(r.de)], ["HL", hex4(r.hl)],
    ["IX", hex4(r.ix)], ["IY", hex4(r.iy)], ["SP", hex4(r.sp)], ["PC", hex4(r.pc)]];
  const registers = `<table id="step-registers" class="bytes">` +
    `<tr>${regs.map(([n]) => `<th>${n}</th>`).join("")}<th>flags</th></tr>` +
    `<tr>${regs.map(([n, v]) => `<td data-reg="${n}">${v}</td>`).join("")}<td id="step-flags" title="S Z 5 H 3 P/V N C: a letter where set">${s.flags}</td></tr></table>`;
  const stack = `<div id="step-stack" class="stack"><b>call stack</b> FNDMOV` +
    s.call_stack.map((f) => ` &rarr; <span title="called at ${hex4(f.call_at)} in ${escapeHtml(f.caller)}, returns to ${hex4(f.return_to)}">${escapeHtml(f.routine)}</span>`).join("") + "</div>";
  const events = s.event_texts.length
    ? `<div id="step-events"><b>events arising here</b> (from event ${s.events_before}):<ul>${s.event_texts.slice(0, 12).map((t) => `<li><code>${escapeHtml(t)}</code></li>`).join("")}` +
      (s.event_texts.length > 12 ? `<li class="sub">and ${s.event_texts.length - 12} more</li>` : "") + "</ul></div>"
    : "";
  const port = `<div id="step-port" class="port-links"><b>port</b> ${s.label ? `(at ${escapeHtml(s.label)})` : ""}: ` +
    (s.port.length ? s.port.map((p) => `<code class="port">${escapeHtml(p)}</code>`).join(" ") : `<span class="sub">not cited</span>`) + "</div>";
  const changes = `<div id="step-changes"><b>${s.changed} byte${s.changed === 1 ? "" : "s"} changed</b> by the last move` +
    (s.changes.length ? ": " + s.changes.slice(0, 24).map((c) => `<code>${hex4(c.addr)}${c.name ? " " + escapeHtml(c.name) : ""} ${hex2(c.old)}&rarr;${hex2(c.new)}</code>`).join(" ") +
      (s.changes.length > 24 ? ` <span class="sub">and ${s.changed - 24} more</span>` : "") : "") + "</div>";
  const vars = `<div id="step-variables" class="vars">` + s.variables.map((v) =>
    `<span class="var${v.changed ? " changed" : ""}" title="${escapeHtml(v.name)} at ${hex4(v.addr)}"><small>${escapeHtml(v.name)}</small> <span class="val">${hex2(v.value)}</span></span>`).join("") + "</div>";
  let board = `<div class="sub">BOARDA, 120 bytes (10 per row, a1 at 21):</div><table id="step-board" class="bytes">`;
  for (let row = 11; row >= 0; row--) {
    board += "<tr>";
    for (let col = 0; col < 10; col++) {
      const i = row * 10 + col, b = s.board[i];
      const cls = [b === 0xff ? "border" : b & 7 ? "piece" : "", changed.has(s.board_at + i) ? "changed" : ""].join(" ").trim();
      board += `<td class="${cls}" title="${i}">${hex2(b)}</td>`;
    }
    board += "</tr>";
  }
  board += "</table>";
  $("step-view").innerHTML = where +
    `<div class="step-cols"><div>${registers}${stack}` +
    `<div id="step-routine"><b>${escapeHtml(s.routine || "?")}</b> <code id="step-instruction">${hex4(r.pc)}  ${escapeHtml(s.instruction)}</code></div>` +
    port + `<pre id="step-listing" class="listing"></pre></div>` +
    `<div class="memory">${events}${changes}<div><div class="sub">Sargon's variables:</div>${vars}${board}</div></div></div>`;
  await showListing(s.routine, r.pc, s.search);
}

// The instruction's line in the routine's listing, with a few lines around it.
async function showListing(routine, pc, search) {
  const pre = $("step-listing");
  if (!routine) { pre.textContent = "PC is in no routine of the program"; return; }
  try {
    const lines = await listingLines(routine);
    const at = lines.findIndex((l) => new RegExp(`^\\s+${hex4(pc)}\\s`).test(l));
    const from = Math.max(0, at - 6), to = Math.min(lines.length, at + 10);
    pre.innerHTML = lines.slice(from, to).map((l, i) => {
      let html = escapeHtml(l);
      // Once the search is profiled, each instruction's heat as a mark at the line's left.
      const address = /^  ([0-9A-F]{4})  /.exec(l);
      const h = address && heatAt(search, parseInt(address[1], 16));
      if (h) {
        const tip = h.count ? `run ${h.count.toLocaleString()} time${h.count === 1 ? "" : "s"} in this search` : "not run in this search";
        html = `<span class="step-heat" data-count="${h.count}" title="${tip}" style="border-left-color:${h.colour || "transparent"}">${html}</span>`;
      }
      if (from + i === at) return `<span class="current">${html}</span>`;
      if (/^\s*; -> port/.test(l)) return `<span class="port">${html}</span>`;
      if (/^[A-Z0-9_]+:/.test(l)) return `<span class="label">${html}</span>`;
      return html;
    }).join("\n");
  } catch (e) {
    pre.textContent = e.message;
  }
}
