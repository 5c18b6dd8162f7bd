// The URL keeps position, engine, depth, book and the selected node, so a view can be
// bookmarked and reloaded. This module writes it; main.js reads it at start-up.

import { $ } from "./util.js";
import { state } from "./state.js";

export function updateUrl() {
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
