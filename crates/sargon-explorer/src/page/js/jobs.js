// Work the server runs a search again for (a profile, a memory snapshot, a comparison)
// waits its turn with the searches (`sargon serve --jobs`). The page names each such
// request (a job), shows its place in line while it waits and its progress while it
// runs, and cancels it when asked or when the page is left (the server also stops it
// when its connection closes).

import { api } from "./api.js";
import { fmtTime } from "./util.js";

const live = new Set();
let count = 0;

// A new job name (letters, digits and `-`, as the server takes them).
export function newJob(kind) {
  count += 1;
  return `${kind}-${Date.now().toString(36)}-${count}`;
}

// One request run as the job `job`: its answer; `onStatus` is told where it is while it
// waits or runs (`describeJob` words it). The name goes in the query (`?job=`) unless the
// caller has put it in the body.
export async function runJob(method, url, body, job, onStatus) {
  live.add(job);
  const named = body === undefined ? `${url}${url.includes("?") ? "&" : "?"}job=${job}` : url;
  const timer = setInterval(async () => {
    try {
      const status = await api("GET", `/api/jobs/${job}`);
      if (live.has(job) && onStatus) onStatus(status);
    } catch (e) {
      // Not in line yet, or over: the answer is on its way.
    }
  }, 250);
  try {
    return await api(method, named, body);
  } finally {
    clearInterval(timer);
    live.delete(job);
  }
}

// Stop a job (its request then answers that it was cancelled).
export function cancelJob(job) {
  return fetch(`/api/jobs/${job}/cancel`, { method: "POST", keepalive: true }).catch(() => {});
}

// Where a job is, in words: "waiting, 2 ahead", "running, 3.2 s".
export function describeJob(status, unit) {
  if (status.state === "waiting") {
    const ahead = Math.max((status.place ?? 1) - 1, 0);
    return ahead ? `waiting for a free worker, ${ahead} ahead` : "waiting for a free worker, next";
  }
  const progress = unit && status.progress ? `, ${status.progress.toLocaleString()} ${unit}` : "";
  return `running, ${fmtTime(status.elapsed_ms ?? 0)}${progress}`;
}

// The page is left: its jobs are no use to anyone.
window.addEventListener("pagehide", () => {
  for (const job of live) cancelJob(job);
});
