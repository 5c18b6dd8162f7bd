#!/usr/bin/env python3
"""A stand-in for another person's port of Sargon, as `sargon diff --right exec:` runs one.

It searches nothing: it replays a trace recorded in the text form of `sargon trace`
(docs/trace-format.md) and prints it in the JSON Lines form that `exec:` reads, one event
per line, as a real port would print each event at the moment its search makes it. The
emit_* functions are the part a port author copies. Usage (see docs/checking-your-port.md):

    sargon trace startpos --depth 2 --no-book > d2.txt
    sargon diff startpos --depth 2 --no-book --left port \\
        --right "exec:python3 examples/replay_port.py d{depth}.txt"

`{depth}` and `{book}` in the path become SARGON_DEPTH and SARGON_BOOK. With REPLAY_ALTER=N
the event at index N (from 0) is changed, as a port with a bug would change it.
"""
import json
import os
import sys


ALTER = int(os.environ.get("REPLAY_ALTER", "-1"))
emitted = 0


def emit(event, **fields):
    global emitted
    fields = {"event": event, **fields}
    if emitted == ALTER:
        fields = altered(fields)
    emitted += 1
    print(json.dumps(fields))


def altered(fields):
    """The event as a port with a bug might print it: one number or one square off."""
    for key in ("score", "negated"):
        if key in fields:
            return {**fields, key: (fields[key] + 1) % 256}
    if fields["event"] == "created":
        last = fields["path"][-1]
        return {**fields, "path": fields["path"][:-1] + [last[2:4] + last[0:2]]}
    return {**fields, "ply": fields["ply"] + 1}


def emit_created(path):  # a move entered the move list of ply len(path)
    emit("created", ply=len(path), path=path)


def emit_eval(ply, path, score):  # POINTS scored the node; ply is NPLY
    emit("eval", ply=ply, path=path, score=score)


def emit_alpha_beta(path, score, two_above, cutoff):
    emit("alpha_beta", ply=len(path), path=path, score=score, two_above=two_above, cutoff=cutoff)


def emit_best_test(path, negated, one_above, accepted):
    emit("best_test", ply=len(path), path=path, negated=negated, one_above=one_above, accepted=accepted)


def emit_best(path, score):
    emit("best", ply=len(path), path=path, score=score)


def emit_ascend(ply):
    emit("ascend", ply=ply)


def emit_result(best, score):  # best: UCI text or None when there is no legal move
    emit("result", best=best, score=score)


def replay(line):
    """One line of the text form, `best 2 e2e4 e7e5 : 78`, emitted as its JSON line."""
    kind, *rest = line.split()
    head, _, tail = " ".join(rest).partition(" : ")
    head, tail = head.split(), tail.split()
    byte = lambda i: int(tail[i], 16)
    if kind == "result":
        return emit_result(None if head[0] == "none" else head[0], byte(0))
    ply, path = int(head[0]), head[1:]
    if kind == "created":
        emit_created(path)
    elif kind == "eval":
        emit_eval(ply, path, byte(0))
    elif kind == "alpha_beta":
        emit_alpha_beta(path, byte(0), byte(2), tail[3] == "cutoff")
    elif kind == "best_test":
        emit_best_test(path, byte(0), byte(2), tail[3] == "new_best")
    elif kind == "best":
        emit_best(path, byte(0))
    elif kind == "ascend":
        emit_ascend(ply)


def main():
    trace = sys.argv[1]
    for name in ("depth", "book"):
        trace = trace.replace("{%s}" % name, os.environ["SARGON_" + name.upper()])
    with open(trace) as lines:
        for line in lines:
            if line.strip() and not line.startswith("#"):
                replay(line)


main()
