// The explorer's page. It holds little state of its own: the position on the board, the
// search it shows, and the tree rows it has opened; everything else it asks the server for
// (docs/explorer.md lists the routes). The URL keeps position, engine, depth, book and the
// selected node, so a view can be bookmarked and reloaded.
"use strict";

const $ = (id) => document.getElementById(id);
const PAGE = Math.random().toString(36).slice(2); // one search per page at a time

const GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const state = {
  posFen: START,       // the position set (searched by Search and Compare)
  fen: START, legal: [], flipped: false, from: null, // what the board shows
  arrow: null,         // [from, to] squares of the move to draw
  search: null,        // the finished search's status
  searchId: null, source: null,
  rows: new Map(),     // node id -> row element
  selected: null,      // node id
  pv: null, pvAt: -1,  // the PV replay's steps and position in them
  engines: null,
};

// ---------------------------------------------------------------------------------------
// The server

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

// ---------------------------------------------------------------------------------------
// The board

function squareName(file, rank) { return "abcdefgh"[file] + (rank + 1); }

function placement(fen) {
  const rows = fen.split(" ")[0].split("/");
  const board = {};
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else { board[squareName(file, 7 - i)] = c; file += 1; }
    }
  });
  return board;
}

function drawBoard() {
  const size = 45, board = placement(state.fen);
  const xy = (sq) => {
    const f = sq.charCodeAt(0) - 97, r = Number(sq[1]) - 1;
    const x = state.flipped ? 7 - f : f, y = state.flipped ? r : 7 - r;
    return [x * size, y * size];
  };
  let svg = `<svg viewBox="0 0 360 360" xmlns="http://www.w3.org/2000/svg">`;
  svg += `<defs><marker id="head" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto">` +
    `<path d="M0,0 L4,2 L0,4 z" fill="#c33" opacity=".8"/></marker></defs>`;
  for (let f = 0; f < 8; f++) for (let r = 0; r < 8; r++) {
    const sq = squareName(f, r), [x, y] = xy(sq);
    let fill = (f + r) % 2 ? "var(--light)" : "var(--dark)";
    if (sq === state.from) fill = "#f6e27a";
    svg += `<rect class="sq" data-sq="${sq}" x="${x}" y="${y}" width="${size}" height="${size}" fill="${fill}"/>`;
    if ((state.flipped ? r === 7 : r === 0)) svg += `<text class="coord" x="${x + size - 8}" y="${y + size - 3}">${"abcdefgh"[f]}</text>`;
    if ((state.flipped ? f === 7 : f === 0)) svg += `<text class="coord" x="${x + 2}" y="${y + 10}">${r + 1}</text>`;
    const p = board[sq];
    if (p) {
      const color = p === p.toUpperCase() ? "#fff" : "#000";
      // The filled glyphs for both sides, coloured, read best at this size.
      const glyph = GLYPHS[p.toLowerCase()];
      svg += `<text class="piece" x="${x + size / 2}" y="${y + size / 2 + 13}" text-anchor="middle" fill="${color}" stroke="#000" stroke-width="${color === "#fff" ? 1.2 : 0}">${glyph}</text>`;
    }
  }
  if (state.arrow) {
    const [a, b] = state.arrow.map(xy);
    svg += `<line x1="${a[0] + size / 2}" y1="${a[1] + size / 2}" x2="${b[0] + size / 2}" y2="${b[1] + size / 2}" ` +
      `stroke="#c33" stroke-width="7" opacity=".75" marker-end="url(#head)"/>`;
  }
  svg += `</svg>`;
  $("board").innerHTML = svg;
  $("board").setAttribute("data-fen", state.fen);
}

function arrowOf(uci) { return uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null; }

$("board").addEventListener("click", (ev) => {
  const sq = ev.target.getAttribute && ev.target.getAttribute("data-sq");
  if (!sq) return;
  if (state.from) {
    const from = state.from;
    state.from = null;
    const moves = state.legal.filter((m) => m.uci.startsWith(from + sq));
    if (moves.length) {
      // A promotion is to a queen unless another is chosen (its UCI ends with the piece).
      const m = moves.find((m) => m.uci.length === 4 || m.uci.endsWith("q")) || moves[0];
      if (game.on) humanMove(m);
      else setPosition(`${state.fen} moves ${m.uci}`);
      return;
    }
  }
  if (state.legal.some((m) => m.uci.startsWith(sq))) state.from = sq;
  drawBoard();
});

// A position set by the person: the board, the text box, the URL.
async function setPosition(text, keepSearch) {
  $("position-error").textContent = "";
  try {
    const pos = await api("POST", "/api/position", { text });
    state.posFen = pos.fen;
    state.fen = pos.fen;
    state.gameEnd = pos.game_end;
    state.legal = pos.legal;
    state.rootLegal = pos.legal;
    state.from = null;
    state.arrow = null;
    $("position-text").value = pos.fen;
    let caption = `${pos.turn === "white" ? "White" : "Black"} to move, ${pos.legal.length} legal moves`;
    if (pos.book_position) caption += "; a book position (Sargon answers from its book unless 'book' is off)";
    if (pos.representable) caption += `; Sargon cannot search it: ${pos.representable}`;
    if (pos.notices.length) caption += `; note: ${pos.notices.join("; ")}`;
    $("board-caption").textContent = caption;
    drawBoard();
    if (!keepSearch) { clearSearch(); updateUrl(); }
    return true;
  } catch (e) {
    $("position-error").textContent = e.message;
    return false;
  }
}

// A new position: the search shown was of another.
function clearSearch() {
  if (state.source) { state.source.close(); state.source = null; }
  state.search = null; state.searchId = null; state.selected = null; state.pv = null;
  state.rows.clear();
  $("tree").innerHTML = ""; $("node-detail").innerHTML = ""; $("result").innerHTML = "";
  $("progress").textContent = ""; $("pv-steps").innerHTML = ""; $("compare-result").innerHTML = "";
  $("search").disabled = false; $("cancel").disabled = true;
  ["pv-first", "pv-prev", "pv-next"].forEach((b) => $(b).disabled = true);
}

// Show a node's position (from the search) without leaving the search.
function showNodePosition(node) {
  state.fen = node.fen;
  // Moves are played on the board only from the position set, not inside the tree.
  state.legal = node.id === 0 && node.fen === state.posFen ? state.rootLegal || [] : [];
  state.from = null;
  state.arrow = arrowOf(node.uci);
  const labels = node.path_labels.join(" ");
  if (node.id === 0 && state.search && state.search.result.best_uci) state.arrow = arrowOf(state.search.result.best_uci);
  $("board-caption").textContent = node.id === 0 ? "the searched position; the arrow is Sargon's move" :
    `after ${labels}${node.legal_path ? "" : " (the last move is illegal: shown before it)"}`;
  drawBoard();
}

// ---------------------------------------------------------------------------------------
// Engines

async function loadEngines() {
  try {
    const e = await api("GET", "/api/engines");
    state.engines = e;
    const opt = $("engine").querySelector('option[value="emulator"]');
    if (!e.emulator.available) {
      opt.disabled = true;
      opt.textContent = "original (Z80): no ROM imported";
      $("engine-reason").textContent = `The original needs your own copy: ${e.emulator.reason}`;
      $("compare").disabled = true;
      $("compare").title = "Needs the original: " + e.emulator.reason;
    } else if (!e.emulator.verified) {
      $("engines-note").textContent = `ROM ${e.emulator.rom} is NOT VERIFIED: ${e.emulator.warning}`;
    }
    if ($("engine").value === "emulator" && opt.disabled) $("engine").value = "port";
    const mopt = $("models-engine").querySelector('option[value="emulator"]');
    mopt.disabled = opt.disabled;
    mopt.textContent = opt.textContent;
    // Other people's ports given to `sargon serve --engine`, by their recorded names; one
    // without a trace cannot draw a tree, one without hooks cannot run the models.
    for (const other of e.engines.slice(2)) {
      $("engine").append(engineOption(other, other.searches, other.search_refused));
      $("models-engine").append(engineOption(other, other.capabilities && other.capabilities.hooks,
        `running the models needs hooks, which the engine \`${other.name}\` does not have`));
    }
    syncDepthLimit();
  } catch (e) {
    $("engines-note").textContent = e.message;
  }
}

function engineOption(engine, usable, why) {
  const o = document.createElement("option");
  o.value = engine.name;
  o.textContent = engine.available ? engine.name : `${engine.name}: ${engine.reason}`;
  o.title = usable ? engine.name : why || engine.reason || "";
  o.disabled = !usable || !engine.available;
  return o;
}

function engineNamed(name) {
  return state.engines && state.engines.engines.find((e) => e.name === name);
}

function syncDepthLimit() {
  const engine = engineNamed($("engine").value);
  if (engine) $("depth").max = engine.max_depth;
}
$("engine").addEventListener("change", () => { syncDepthLimit(); updateUrl(); });

// ---------------------------------------------------------------------------------------
// Searching

function fmtTime(ms) {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function fmtSeconds(s) {
  if (s < 60) return `${s.toFixed(1)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

async function startSearch(selectPath) {
  $("search-error").textContent = "";
  $("result").innerHTML = "";
  $("compare-result").innerHTML = "";
  const body = { fen: state.posFen, engine: $("engine").value,
    depth: Number($("depth").value), book: $("book").checked, page: PAGE };
  let s;
  try {
    s = await api("POST", "/api/search", body);
  } catch (e) {
    $("search-error").textContent = e.message;
    return;
  }
  updateUrl();
  watch(s, selectPath);
}

function watch(s, selectPath) {
  if (state.source) state.source.close();
  state.searchId = s.id;
  if (s.state === "done") { showSearch(s, selectPath); return; }
  $("cancel").disabled = false;
  $("search").disabled = true;
  const source = new EventSource(`/api/search/${s.id}/progress`);
  state.source = source;
  source.onmessage = (ev) => {
    const st = JSON.parse(ev.data);
    if (st.state === "waiting") {
      $("progress").textContent = `waiting for a free worker: place ${st.place ?? "?"} in line`;
    } else if (st.state === "running") {
      $("progress").textContent = `searching: ${st.nodes.toLocaleString()} nodes, ${st.events.toLocaleString()} events, ${fmtTime(st.elapsed_ms)}`;
    } else {
      source.close();
      state.source = null;
      $("cancel").disabled = true;
      $("search").disabled = false;
      if (st.state === "done") showSearch(st, selectPath);
      else if (st.state === "cancelled") $("progress").textContent = "cancelled";
      else { $("progress").textContent = ""; $("search-error").textContent = st.error; }
      if (st.state !== "done" && game.waiting) {
        game.waiting = false;
        game.on = false;
        $("resign").disabled = true;
        showGame(`the game stopped: Sargon's search ${st.state === "cancelled" ? "was cancelled" : "failed"}`);
      }
    }
  };
  source.onerror = () => {
    // The server went away, or the stream ended: ask once what became of the search.
    source.close();
    state.source = null;
    $("cancel").disabled = true;
    $("search").disabled = false;
  };
}

$("search").addEventListener("click", () => startSearch());
$("cancel").addEventListener("click", async () => {
  if (state.searchId == null) return;
  try { await api("POST", `/api/search/${state.searchId}/cancel`); } catch (e) { /* over already */ }
});

function showSearch(s, selectPath) {
  performance.mark("search-shown"); // the bench measures from here to the tree drawn
  state.search = s;
  const r = s.result;
  $("progress").textContent = `done: ${s.nodes.toLocaleString()} nodes, ${s.events.toLocaleString()} events, ${fmtTime(s.elapsed_ms)}`;
  const rows = [];
  const engine = r.engine === "emulator" ? `original (Z80, ROM ${r.rom})` : r.engine === "port" ? "port (Rust)" : `<code id="engine-name">${escapeHtml(r.engine)}</code>`;
  rows.push(["engine", engine]);
  if (r.no_legal_move) rows.push(["result", r.result]);
  else {
    rows.push(["best move", `<b id="best-move">${r.best_san}</b> (${r.best_uci})${r.from_book ? " from the book" : ""}`]);
    rows.push(["score", `${r.score_pawns >= 0 ? "+" : ""}${r.score_pawns.toFixed(3)} pawns for the side to move (byte ${r.sargon_score.toString(16)})${r.mate ? ", mates" : ""}`]);
    rows.push(["PV", `<span id="pv-san">${r.pv_san.join(" ")}</span>`]);
  }
  rows.push(["nodes", `${(r.nodes_created ?? s.nodes).toLocaleString()}`]);
  rows.push(["time", fmtTime(Math.round(r.wall_ms))]);
  if (r.trs80_seconds != null) rows.push(["TRS-80", `${fmtSeconds(r.trs80_seconds)} on a 1.77 MHz TRS-80 Model I (${r.z80_instructions.toLocaleString()} Z80 instructions)`]);
  $("result").innerHTML = "<table>" + rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("") + "</table>";
  buildTree(s, selectPath);
  loadPvSteps();
  const rom = state.engines && state.engines.emulator.available;
  $("profile").disabled = !rom || s.request.depth > state.engines.emulator.max_depth;
  $("profile").title = rom ? "" : "Needs the original: " + state.engines.emulator.reason;
  $("profile-view").innerHTML = ""; $("listing").hidden = true;
  if (game.on && game.waiting && s.request.fen === state.posFen) sargonReplies(s);
}

// ---------------------------------------------------------------------------------------
// The tree

function nodeText(n) {
  let t = `<span class="tw">${n.children_count ? "\u25B8" : ""}</span>`;
  t += `<span class="label">${escapeHtml(n.label)}</span>`;
  if (n.eval) {
    t += ` <span class="sub">(${n.eval.order})</span> <span class="score">${n.eval.pawns}</span> <span class="byte">[${n.eval.byte}]</span>`;
    t += `<span class="badge ${n.eval.decision}">${n.eval.decision.replace("_", " ")}</span>`;
  } else if (n.status.kind !== "root") {
    t += ` <span class="sub">${n.status.kind.replace("_", " ")}</span>`;
  }
  if (n.best_so_far) t += `<span class="badge star" title="best so far among its siblings at some point">\u2605</span>`;
  if (n.children_count) t += ` <span class="sub">${n.subtree - 1} below</span>`;
  return t;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function makeRow(n) {
  const wrap = document.createElement("div");
  const row = document.createElement("div");
  row.className = "node";
  if (n.in_pv) row.classList.add("in-pv");
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

function buildTree(s, selectPath) {
  state.rows.clear();
  state.selected = null;
  $("memory").disabled = true;
  $("memory-view").innerHTML = "";
  const tree = $("tree");
  tree.innerHTML = "";
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

async function select(id) {
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
    rows.push(["score", `${e.pawns} pawns for the side that moved, byte ${e.byte} (evaluation ${e.order})`]);
    rows.push(["alpha-beta", `against ${e.alpha_beta} [${e.alpha_beta_byte}] two plies up: ${e.decision === "cutoff" ? "<b>cutoff</b>: the rest of this ply is skipped" : "pass"}`]);
    if (e.decision !== "cutoff") rows.push(["best test", `against ${e.minimax ?? "?"} one ply up: ${e.decision === "new_best" ? "<b>new best</b>" : "discard"}`]);
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

// Sargon's memory at the selected node, on both engines, side by side.
$("memory").addEventListener("click", async () => {
  const view = $("memory-view");
  if (state.selected == null) return;
  view.textContent = "running the search again up to this node on each engine...";
  try {
    const m = await api("GET", `/api/search/${state.searchId}/node/${state.selected}/memory`);
    const sides = [["original (Z80)", m.emulator], ["port (Rust)", m.port]];
    const other = (i) => sides[1 - i][1];
    view.innerHTML = sides.map(([name, snap], i) => memoryColumn(name, snap, other(i), i === 0 ? m.emulator_reason : null)).join("") +
      `<div id="memory-verdict" class="${m.same === false ? "error" : "ok"}" style="flex-basis:100%">` +
      (m.same === null ? "the original is not available: the port's memory alone" : m.same ? "the same bytes on both engines" : "the engines' memories differ (marked)") + "</div>" +
      (m.note ? `<div id="memory-note" class="note" style="flex-basis:100%">${escapeHtml(m.note)}</div>` : "");
  } catch (e) {
    view.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
});

// PIECES' order in Sargon's board byte: 1 pawn .. 6 king; bit 7 black.
const SARGON_PIECE = ["", "p", "n", "b", "r", "q", "k"];

function memoryColumn(name, snap, other, reason) {
  if (!snap) return `<div><h3>${name}</h3><div class="note">${escapeHtml(reason || "the search never reached this node")}</div></div>`;
  let t = `<div><h3>${name}</h3>`;
  const field = (label, key, value) => {
    const differs = other && other[key] !== snap[key] ? " class=\"differs\"" : "";
    return `<tr><td>${label}</td><td${differs}>${value ?? "-"}</td></tr>`;
  };
  if (snap.evaluated) {
    t += "<table>" + field("NPLY", "nply", snap.nply) + field("PLYMAX", "plymax", snap.plymax) + field("COLOR", "color", snap.color) +
      field("score", "score", snap.score) + field("two plies up", "two_plies_up", snap.two_plies_up) + field("one ply up", "one_ply_up", snap.one_ply_up) + "</table>";
    t += "<div class=\"sub\">BOARDA, 120 bytes (10 per row, a1 at 21):</div><table class=\"bytes\">";
    for (let row = 11; row >= 0; row--) {
      t += "<tr>";
      for (let col = 0; col < 10; col++) {
        const i = row * 10 + col, hex = snap.board.slice(2 * i, 2 * i + 2), b = parseInt(hex, 16);
        const cls = [];
        if (b === 0xff) cls.push("border");
        else if (b & 7) cls.push("piece");
        if (other && other.board && other.board.slice(2 * i, 2 * i + 2) !== hex) cls.push("differs");
        const kind = SARGON_PIECE[b & 7];
        const title = b === 0xff ? "border" : kind ? `${b & 0x80 ? "black" : "white"} ${kind}${b & 8 ? ", has moved" : ""}` : "empty";
        t += `<td class="${cls.join(" ")}" title="${i}: ${title}">${hex}</td>`;
      }
      t += "</tr>";
    }
    t += "</table>";
  } else {
    t += `<div class="note">not evaluated: only its ply's move list</div>`;
  }
  const moves = snap.moves.map((m) => `${m.uci}<span class="sub">/${m.flags}</span>`).join(" ");
  const movesDiffer = other && JSON.stringify(other.moves) !== JSON.stringify(snap.moves) ? " differs" : "";
  t += `<div class="sub">the ply's move list as GENMOV left it (${snap.moves.length} moves, move/flags):</div><div class="moves${movesDiffer}">${moves}</div>`;
  return t + "</div>";
}

// Open the rows down a path of node ids (root first) and select the last.
async function reveal(ids) {
  for (const id of ids.slice(0, -1)) await expand(id);
  await select(ids[ids.length - 1]);
}

async function findPath(text) {
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
$("find").addEventListener("click", () => findPath($("find-path").value));
$("find-path").addEventListener("keydown", (e) => { if (e.key === "Enter") findPath($("find-path").value); });

// Keyboard: the visible rows in order.
function visibleRows() {
  return [...$("tree").querySelectorAll(".node")].filter((r) => r.offsetParent !== null);
}
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

// ---------------------------------------------------------------------------------------
// The PV, rebuilt step by step

async function loadPvSteps() {
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
$("pv-first").addEventListener("click", () => pvStep(-1));
$("pv-prev").addEventListener("click", () => pvStep(state.pvAt - 1));
$("pv-next").addEventListener("click", () => pvStep(state.pvAt + 1));

// ---------------------------------------------------------------------------------------
// Compare

$("compare").addEventListener("click", async () => {
  const out = $("compare-result");
  const fen = state.posFen;
  out.innerHTML = `comparing the original and the port to depth ${$("depth").value}...`;
  try {
    const c = await api("POST", "/api/compare", { fen, depth: Number($("depth").value), book: $("book").checked });
    if (!c.divergence) {
      out.innerHTML = `<span class="ok" id="compare-verdict">0 divergences</span>: ${c.events.toLocaleString()} events compared, original and port alike (${fmtTime(c.elapsed_ms)})`;
    } else {
      const d = c.divergence;
      out.innerHTML = `<span class="error" id="compare-verdict">1 divergence</span> at event ${d.index.toLocaleString()} (after ${c.events.toLocaleString()} equal events)` +
        `<table><tr><td>original</td><td><code>${escapeHtml(d.emulator)}</code></td></tr><tr><td>port</td><td><code>${escapeHtml(d.port)}</code></td></tr>` +
        `<tr><td>path</td><td>${d.path.join(" ") || "(root)"}</td></tr></table>`;
      state.fen = d.fen; state.arrow = null; drawBoard();
      $("board-caption").textContent = "the position where the engines part";
    }
  } catch (e) {
    out.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
});

// ---------------------------------------------------------------------------------------
// PGN

$("read-pgn").addEventListener("click", async () => {
  const box = $("pgn-moves");
  box.textContent = "";
  try {
    const g = await api("POST", "/api/pgn", { pgn: $("pgn-text").value });
    box.innerHTML = `<div class="sub">${escapeHtml(g.players)}${g.games > 1 ? ` (the first of ${g.games} games)` : ""}: pick a position</div>` +
      g.positions.map((p, i) => `<a data-i="${i}">${i === 0 ? "start" : escapeHtml(p.san)}</a>`).join(" ");
    box.querySelectorAll("a").forEach((a) => a.addEventListener("click", () => {
      box.querySelectorAll("a").forEach((b) => b.classList.remove("current"));
      a.classList.add("current");
      setPosition(g.positions[Number(a.dataset.i)].fen);
    }));
  } catch (e) {
    box.innerHTML = `<span class="error">${escapeHtml(e.message)}</span>`;
  }
});

// ---------------------------------------------------------------------------------------
// A game against Sargon

const game = { on: false, waiting: false, human: "white", startFen: START, moves: [], result: "*" };

function gameMovesHtml() {
  let fen = game.startFen.split(" "), number = Number(fen[5] || 1), white = fen[1] === "w";
  const parts = [];
  game.moves.forEach((m, i) => {
    if (white) parts.push(`${number}.`);
    else if (i === 0) parts.push(`${number}...`);
    parts.push(escapeHtml(m.san));
    if (!white) number += 1;
    white = !white;
  });
  return parts.join(" ") + (game.result !== "*" ? ` ${game.result}` : "");
}

function gamePgn() {
  const date = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
  const engine = `Sargon (${$("engine").value}, depth ${$("depth").value})`;
  const tags = [["Event", "Game against Sargon (sargon serve)"], ["Site", "?"], ["Date", date], ["Round", "-"],
    ["White", game.human === "white" ? "Human" : engine], ["Black", game.human === "black" ? "Human" : engine], ["Result", game.result]];
  if (game.startFen !== START) tags.push(["SetUp", "1"], ["FEN", game.startFen]);
  // A tag's value escapes `\` and `"` (an exec: port's name may hold them).
  const head = tags.map(([k, v]) => `[${k} "${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"]`).join("\n");
  return `${head}\n\n${gameMovesHtml().replaceAll("&amp;", "&")}${game.result === "*" ? " *" : ""}\n`;
}

function showGame(status) {
  $("game-moves").innerHTML = gameMovesHtml();
  if (status !== undefined) $("play-status").textContent = status;
  $("pgn-export").disabled = game.moves.length === 0;
}

function endIfOver() {
  if (!state.gameEnd) return false;
  const moverWasWhite = state.posFen.split(" ")[1] === "b";
  game.result = state.gameEnd === "checkmate" ? (moverWasWhite ? "1-0" : "0-1") : "1/2-1/2";
  game.on = false;
  $("resign").disabled = true;
  showGame(`game over: ${state.gameEnd} (${game.result})`);
  return true;
}

$("new-game").addEventListener("click", async () => {
  game.on = true; game.waiting = false; game.moves = []; game.result = "*";
  game.human = $("play-side").value;
  game.startFen = state.posFen;
  $("resign").disabled = false; $("pgn-out").hidden = true;
  showGame(`a new game from the position set; you play ${game.human}`);
  const toMove = state.posFen.split(" ")[1] === "w" ? "white" : "black";
  if (!endIfOver() && toMove !== game.human) askSargon();
});

$("resign").addEventListener("click", () => {
  game.on = false; game.waiting = false;
  $("resign").disabled = true;
  if (state.searchId != null) api("POST", `/api/search/${state.searchId}/cancel`).catch(() => {});
  showGame("game stopped");
});

async function humanMove(m) {
  if (game.waiting) return;
  game.moves.push({ san: m.san, uci: m.uci });
  await setPosition(`${state.posFen} moves ${m.uci}`, true);
  showGame();
  if (!endIfOver()) askSargon();
}

function askSargon() {
  game.waiting = true;
  state.legal = []; // no moves on the board while Sargon thinks
  showGame("Sargon is thinking...");
  startSearch();
}

async function sargonReplies(s) {
  const r = s.result;
  if (!r.best_uci) { game.waiting = false; endIfOver(); return; }
  if ($("pace").checked) {
    if (r.trs80_seconds == null) {
      showGame("1978 pace needs the original (the TRS-80 time is measured on the Z80 code): playing at once");
    } else {
      const wait = r.trs80_seconds * Number($("pace-fraction").value || 0);
      showGame(`the TRS-80 took ${fmtSeconds(r.trs80_seconds)} for this move: waiting ${fmtSeconds(wait)}...`);
      await new Promise((done) => setTimeout(done, wait * 1000));
    }
  }
  if (!game.on) return;
  game.waiting = false;
  game.moves.push({ san: r.best_san, uci: r.best_uci });
  await setPosition(`${state.posFen} moves ${r.best_uci}`, true);
  state.arrow = arrowOf(r.best_uci);
  drawBoard();
  $("board-caption").textContent = `Sargon played ${r.best_san}${r.from_book ? " (book)" : ""}; its search is in the tree`;
  if (!endIfOver()) showGame(`Sargon played ${r.best_san}; your move`);
}

$("pgn-export").addEventListener("click", () => {
  const out = $("pgn-out");
  out.value = gamePgn();
  out.hidden = false;
  out.select();
});

// ---------------------------------------------------------------------------------------
// Inside the original: the profile and the listing

$("profile").addEventListener("click", async () => {
  $("profile-error").textContent = "";
  $("profile-view").textContent = "profiling the search on the emulator...";
  $("listing").hidden = true;
  try {
    const p = await api("GET", `/api/search/${state.searchId}/profile`);
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

// ---------------------------------------------------------------------------------------
// The models of "A Window into Sargon"

let models = null;

$("models-run").addEventListener("click", async () => {
  $("models-error").textContent = "";
  $("model").innerHTML = "running the five models...";
  try {
    models = await api("GET", `/api/models?engine=${encodeURIComponent($("models-engine").value)}`);
    $("models-tabs").innerHTML = models.examples.map((e) =>
      `<button data-n="${e.example}">${e.example}. ${escapeHtml(e.title)}</button>`).join(" ");
    $("models-tabs").querySelectorAll("button").forEach((b) => b.addEventListener("click", () => showModel(Number(b.dataset.n))));
    showModel(1);
  } catch (e) {
    $("model").innerHTML = "";
    $("models-error").textContent = e.message;
  }
});

function fmtThreshold(p) { return p >= 16 ? "MAX" : p <= -16 ? "-MAX" : (p >= 0 ? "+" : "") + p; }

function showModel(n) {
  const m = models.examples.find((e) => e.example === n);
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

// ---------------------------------------------------------------------------------------
// Buttons, the URL, start-up

$("flip").addEventListener("click", () => { state.flipped = !state.flipped; drawBoard(); });
$("start").addEventListener("click", () => setPosition("startpos"));
$("back-root").addEventListener("click", () => { if (state.search) select(0); else setPosition(state.posFen, true); });
$("set-position").addEventListener("click", () => setPosition($("position-text").value));
$("position-text").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); setPosition($("position-text").value); }
});
$("depth").addEventListener("change", updateUrl);
$("book").addEventListener("change", updateUrl);

function updateUrl() {
  const q = new URLSearchParams();
  q.set("fen", state.posFen);
  q.set("engine", $("engine").value);
  q.set("depth", $("depth").value);
  q.set("book", $("book").checked ? "1" : "0");
  if (state.search && state.selected != null && state.selected !== 0) {
    const r = state.rows.get(state.selected);
    if (r && r.full) q.set("node", r.full.path.join(","));
  }
  if (state.search) q.set("search", "1");
  // Readable links: commas, slashes and spaces as themselves where a query allows them.
  const query = q.toString().replaceAll("%2C", ",").replaceAll("%2F", "/");
  history.replaceState(null, "", "?" + query);
}

async function init() {
  await loadEngines();
  const q = new URLSearchParams(location.search);
  // A link may name an engine this server does not offer: the choice stays as it is.
  const named = [...$("engine").options].find((o) => o.value === q.get("engine") && !o.disabled);
  if (named) $("engine").value = named.value;
  if (q.get("depth")) $("depth").value = q.get("depth");
  if (q.get("book")) $("book").checked = q.get("book") !== "0";
  syncDepthLimit();
  const ok = await setPosition(q.get("fen") || "startpos", true);
  if (ok && q.get("search") === "1") {
    startSearch(q.get("node") ? q.get("node").replaceAll(",", " ") : undefined);
  }
}
init();
