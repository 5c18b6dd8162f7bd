// One tooltip for the whole page: any element with a title shows it in a box beside the
// pointer at once (the browser's own waits and cannot be styled or read by a test). The
// title moves to data-tip while shown so the browser does not show it twice.

let tip = null;

function show(el, x, y) {
  if (!tip) {
    tip = document.createElement("div");
    tip.id = "tip";
    tip.setAttribute("role", "tooltip");
    document.body.append(tip);
  }
  tip.textContent = el.dataset.tip;
  tip.hidden = false;
  const w = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${w}px`;
  const left = Math.max(8, Math.min(x + 12, window.innerWidth - w - 8));
  tip.style.left = `${left + window.scrollX}px`;
  tip.style.top = `${y + 16 + window.scrollY}px`;
}

export function setupTooltip() {
  document.addEventListener("mouseover", (ev) => {
    const el = ev.target.closest && ev.target.closest("[title], [data-tip]");
    if (!el) { if (tip) tip.hidden = true; return; }
    if (el.hasAttribute("title")) {
      el.dataset.tip = el.getAttribute("title");
      el.removeAttribute("title");
    }
    show(el, ev.clientX, ev.clientY);
  });
  document.addEventListener("mouseout", (ev) => {
    const el = ev.target.closest && ev.target.closest("[data-tip]");
    if (!el || el.contains(ev.relatedTarget)) return;
    if (el.dataset.tip) el.setAttribute("title", el.dataset.tip);
    if (tip) tip.hidden = true;
  });
}
