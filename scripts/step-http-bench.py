#!/usr/bin/env python3
"""The stepping view's round trip over HTTP (issue 37): a step forward and back, anywhere
in a depth-4 search of the original, as the page asks it.

    scripts/step-http-bench.py SARGON_BINARY [--places 300] [--depth 4] [--fen FEN]

Starts `SARGON_BINARY serve` on a free port (it needs an imported ROM), searches the
position on the original, opens a stepping session on that search, then at PLACES
positions spread evenly over FNDMOV's instructions (in a shuffled order, so that no
near snapshot is on the way): jumps there (`{"position": p}`, timed: what a step back
costs when it replays from the kept snapshot before it), then times a round trip of one
instruction forward and one back (two requests on one kept-alive connection, as the
page's fetches are). Prints the median, 95th percentile and maximum of each, and the
machine's load. Only the Python standard library.
"""

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import time


def percentile(values, p):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


class Api:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if data else {}
        self.conn.request(method, path, body=data, headers=headers)
        r = self.conn.getresponse()
        text = r.read()
        answer = json.loads(text)
        if r.status != 200:
            sys.exit(f"{method} {path}: {r.status} {answer}")
        return answer


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sargon")
    ap.add_argument("--places", type=int, default=300)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--fen", default="startpos")
    ap.add_argument("--seed", type=int, default=37)
    args = ap.parse_args()

    server = subprocess.Popen([args.sargon, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        url = next((w for w in line.split() if w.startswith("http://")), None)
        if not url:
            sys.exit(f"sargon serve did not say where it listens: {line!r}")
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        api = Api(port)
        s = api.call("POST", "/api/search", {"fen": args.fen, "engine": "emulator",
                                              "depth": args.depth, "book": False})
        while s["state"] in ("waiting", "running"):
            time.sleep(0.2)
            s = api.call("GET", f"/api/search/{s['id']}")
        if s["state"] != "done":
            sys.exit(f"the search ended {s['state']}: {s}")
        started = time.perf_counter()
        st = api.call("POST", "/api/step", {"search": s["id"]})
        opened = time.perf_counter() - started
        session, length = st["id"], st["length"]
        print(f"{args.fen}, depth {args.depth}, book off: {length:,} instructions, "
              f"{st['events']:,} events; session opened (search recorded) in {opened:.1f} s, "
              f"{st['snapshots']} snapshots every {st['snapshot_interval']:,} instructions")
        places = [1 + (length - 2) * i // args.places for i in range(args.places)]
        random.Random(args.seed).shuffle(places)
        jumps, trips = [], []
        move = f"/api/step/{session}/move"
        for p in places:
            t0 = time.perf_counter()
            at = api.call("POST", move, {"position": p})
            t1 = time.perf_counter()
            ahead = api.call("POST", move, {"by": "instruction"})
            back = api.call("POST", move, {"by": "instruction", "back": True})
            t2 = time.perf_counter()
            if back["registers"] != at["registers"] or back["position"] != at["position"]:
                sys.exit(f"at {p}: forward and back did not come back: {at['registers']} {back['registers']}")
            if ahead["position"] != p + 1:
                sys.exit(f"at {p}: one instruction forward stood at {ahead['position']}")
            jumps.append((t1 - t0) * 1000)
            trips.append((t2 - t1) * 1000)
        api.call("POST", f"/api/step/{session}/close")
        for name, values in (("round trip (forward one instruction, back one)", trips),
                             ("jump to the place (replay from the snapshot before it)", jumps)):
            print(f"{name}, {len(values)} places: median {statistics.median(values):.2f} ms, "
                  f"p95 {percentile(values, 95):.2f} ms, max {max(values):.2f} ms")
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
