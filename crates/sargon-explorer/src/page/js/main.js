// The explorer's page starts here: it sets up each section, wires the calls that cross
// sections (a move on the board, a finished or stopped search), and reads the URL. The
// page's state is in state.js; each section is a module of its own, and none imports
// main.js or one that imports it back.

import { $ } from "./util.js";
import { game, state } from "./state.js";
import { setPosition, setupPosition } from "./position.js";
import { setupBoard } from "./board.js";
import { loadEngines, setupEngines, syncDepthLimit } from "./engines.js";
import { setupSearch, startSearch } from "./search.js";
import { buildTree, findPath, select, setupTree } from "./tree.js";
import { setupIcicle } from "./icicle.js";
import { setupTooltip } from "./tooltip.js";
import { setupMemory } from "./memory.js";
import { loadPvSteps, setupPv } from "./pv.js";
import { setupCompare } from "./compare.js";
import { humanMove, restoreGame, sargonReplies, searchStopped, setupGame } from "./game.js";
import { setupGameView } from "./gameview.js";
import { offerProfile, setupOriginal } from "./original.js";
import { setupModels } from "./models.js";
import { offerStep, setupStep } from "./step.js";
import { updateUrl } from "./url.js";

// A move on the board: the person's move in a game, else a new position.
setupBoard((m) => {
  if (game.on) humanMove(m);
  else setPosition(`${state.fen} moves ${m.uci}`);
});
setupPosition();
setupEngines();
// A finished search: its tree, its PV steps, the profile, and Sargon's move in a game.
setupSearch((s, selectPath) => {
  buildTree(s, selectPath);
  loadPvSteps();
  offerProfile(s);
  offerStep(s);
  sargonReplies(s);
}, searchStopped);
setupTree();
// A box clicked in the drawn subtree selects its node in the outline, opening the way to it.
setupIcicle((id, path) => (id === 0 ? select(0) : findPath(path)));
setupTooltip();
setupMemory();
setupPv();
setupCompare();
setupGame();
setupGameView();
setupOriginal();
setupModels();
setupStep();

$("back-root").addEventListener("click", () => { if (state.search) select(0); else setPosition(state.posFen, true); });
$("depth").addEventListener("change", updateUrl);
$("book").addEventListener("change", updateUrl);

async function init() {
  await loadEngines();
  const q = new URLSearchParams(location.search);
  // A link may name an engine this server does not offer: the choice stays as it is.
  const named = [...$("engine").options].find((o) => o.value === q.get("engine") && !o.disabled);
  if (named) $("engine").value = named.value;
  if (q.get("depth")) $("depth").value = q.get("depth");
  if (q.get("book")) $("book").checked = q.get("book") !== "0";
  syncDepthLimit();
  // A game in the link is replayed from its start; else the link's position is set.
  if (await restoreGame(q)) return;
  const ok = await setPosition(q.get("fen") || "startpos", true);
  if (ok && q.get("search") === "1") {
    startSearch(q.get("node") ? q.get("node").replaceAll(",", " ") : undefined);
  }
}
init();
