// The engines the server offers: the port, the original (when a ROM is imported) and the
// other ports given to `sargon serve --engine`, in the two engine choices, with the depth
// limit of the one chosen.

import { $ } from "./util.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { updateUrl } from "./url.js";

export async function loadEngines() {
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
      // Compare reads the other engine's trace, as a search does.
      $("compare-engine").append(engineOption(other, other.searches, other.search_refused));
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

// The depth box takes up to the engine's limit, and says how deep is practical: deeper
// searches run long and may stop at the node budget with a partial tree.
export function syncDepthLimit() {
  const engine = engineNamed($("engine").value);
  if (!engine) return;
  const depth = $("depth");
  depth.max = engine.max_depth;
  const practical = engine.practical_depth || engine.max_depth;
  const past = Number(depth.value) > practical;
  const limit = $("depth-limit");
  limit.textContent = past ? `past ${practical}: long, maybe a partial tree` : `up to ${practical} in seconds`;
  limit.classList.toggle("error", past);
  limit.title = `${engine.name}: depth ${practical} is practical here, ${engine.max_depth} at most ` +
    "(deeper searches run for minutes, and a tree past the server's node budget is kept partial)";
  depth.title = limit.title;
}

export function setupEngines() {
  $("engine").addEventListener("change", () => { syncDepthLimit(); updateUrl(); });
  $("depth").addEventListener("input", syncDepthLimit);
}
