// One tooltip for the whole page: any element with a title shows it in a box beside the
// pointer at once (the browser's own waits, and cannot be styled or read by a test), or
// below it when the keyboard brings focus to it; a click hides it. While shown, the title
// is kept in data-tip so the browser does not show it twice; it is put back when the
// pointer or focus leaves.

let tip = null;

// The element's explanation, taken from its title (a title set meanwhile wins).
function take(el) {
  if (el.hasAttribute("title")) {
    el.dataset.tip = el.getAttribute("title");
    el.removeAttribute("title");
  }
  return el.dataset.tip;
}

function give(el) {
  if (el.dataset.tip !== undefined && !el.hasAttribute("title")) el.setAttribute("title", el.dataset.tip);
  delete el.dataset.tip;
}

function show(text, x, y) {
  if (!tip) {
    tip = document.createElement("div");
    tip.id = "tip";
    tip.setAttribute("role", "tooltip");
    document.body.append(tip);
  }
  tip.textContent = text;
  tip.hidden = false;
  const w = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${w}px`;
  const left = Math.max(8, Math.min(x + 12, window.innerWidth - w - 8));
  tip.style.left = `${left + window.scrollX}px`;
  tip.style.top = `${y + 16 + window.scrollY}px`;
}

function hide() { if (tip) tip.hidden = true; }

const explained = (ev) => ev.target.closest && ev.target.closest("[title], [data-tip]");

export function setupTooltip() {
  document.addEventListener("mouseover", (ev) => {
    const el = explained(ev);
    const text = el && take(el);
    if (text) show(text, ev.clientX, ev.clientY); else hide();
  });
  document.addEventListener("mouseout", (ev) => {
    const el = explained(ev);
    if (!el || el.contains(ev.relatedTarget)) return;
    give(el);
    hide();
  });
  // A click hides the tooltip (the pointer is on what it explained; the click is the answer).
  document.addEventListener("mousedown", hide);
  document.addEventListener("focusin", (ev) => {
    if (!ev.target.matches(":focus-visible")) return; // focus by a click, not the keyboard
    const el = explained(ev);
    const text = el && take(el);
    if (!text) return;
    const box = el.getBoundingClientRect();
    show(text, box.left, box.bottom - 8);
  });
  document.addEventListener("focusout", (ev) => {
    const el = explained(ev);
    if (el) give(el);
    hide();
  });
}
