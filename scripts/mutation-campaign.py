#!/usr/bin/env python3
"""The strength of `sargon rom import`'s behaviour replay, measured by mutants.

Makes mutants of the user's own imported transcription (the `source.asm` the ROM store
keeps), one changed source line each, in the routines a search reaches and in the table
bytes a search reads (both as `sargon rom coverage` names them), imports each with
`--accept-different` into a temporary store, and reads the `behaviour:` line: a mutant
whose behaviour differs is killed (by the first search that differs), one that behaves as
the known Sargon survived. One JSON line per mutant goes to --out, which is read back on
a rerun: mutants already there are skipped, so an interrupted campaign resumes.

The kinds of mutant:
  cond     a conditional JP, JR, CALL or RET with its condition inverted (Z/NZ, C/NC,
           PE/PO, P/M)
  imm+1    an immediate operand plus one (wrapping within its 8 or 16 bits)
  imm-1    an immediate operand minus one
  inc-dec  INC made DEC, DEC made INC
  add-sub  an 8-bit ADD made SUB, SUB made ADD
  data+1   one byte of a data table a search reads, plus one

Every mutant is checked against the image it assembles to: code mutants must change bytes
of one instruction only, a data mutant exactly its byte, by one. A mutant that does not
assemble is `not-made`; one whose image is the original's is `no-change` (neither counts in
the score). A mutant is named by routine (or table), offset from its label, and kind, as
docs/port.md's survivors are; `line` is the line of the user's file, for the user.

Nothing here is ever written into the repository: the mutants live in a temporary
directory per mutant, deleted after, and the real ROM store is only read.

    scripts/mutation-campaign.py --out /work/mutation-results.jsonl --jobs 1
    scripts/mutation-campaign.py --out /tmp/try.jsonl --only POINTS --limit 5
    scripts/mutation-campaign.py --list --only POINTS     # the mutants, nothing run
    sargon rom coverage sargon > /tmp/coverage.txt        # once, then in every run:
    scripts/mutation-campaign.py --coverage /tmp/coverage.txt --mutant 'MOVE+66 cond' --out /tmp/m.jsonl
"""

import argparse
import bisect
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
INVERSE = {"Z": "NZ", "NZ": "Z", "C": "NC", "NC": "C", "PE": "PO", "PO": "PE", "P": "M", "M": "P"}
REGISTERS = {
    "A", "B", "C", "D", "E", "H", "L", "I", "R", "AF", "AF'", "BC", "DE", "HL", "SP", "IX", "IY",
}
WIDE = {"BC", "DE", "HL", "SP", "IX", "IY"}
IMMEDIATE_OPS = {"CP", "AND", "OR", "XOR", "SUB", "ADD", "ADC", "SBC"}
KINDS = ["cond", "imm+1", "imm-1", "inc-dec", "add-sub", "data+1"]


def fail(message):
    print(f"mutation-campaign: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- reading the source


def split_code(line):
    """(code, comment) of a line: the comment starts at a `;` outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            # `AF'` is a register, not a quote.
            if not (c == "'" and line[max(0, i - 2):i].upper() == "AF"):
                quote = c
        elif c == ";":
            return line[:i], line[i:]
    return line, ""


class Statement:
    """One source line taken apart: label, mnemonic, operands and where they sit."""

    def __init__(self, line):
        self.label = None
        self.mnemonic = None
        self.operands = []
        code, _ = split_code(line)
        rest, pos = code, 0
        if code and not code[0].isspace():
            m = re.match(r"[A-Za-z_.$?@][\w.$?@]*:?", code)
            if m:
                self.label = m.group(0).rstrip(":").upper()
                pos = m.end()
        m = re.compile(r"\s*([A-Za-z]+)").match(code, pos)
        if not m:
            return
        self.mnemonic = m.group(1).upper()
        self.mnemonic_span = m.span(1)
        start = m.end()
        text = code[start:].rstrip()
        self.operand_span = (start, start + len(text))
        # Operands split at top-level commas, each with its span in the line.
        depth, begin = 0, 0
        quote = None
        for i, c in enumerate(text + ","):
            if quote:
                if c == quote:
                    quote = None
                continue
            if c in "'\"" and not (c == "'" and text[max(0, i - 2):i].upper() == "AF"):
                quote = c
            elif c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "," and depth == 0:
                raw = text[begin:i]
                lead = len(raw) - len(raw.lstrip())
                if raw.strip():
                    self.operands.append(
                        (raw.strip(), start + begin + lead, start + begin + lead + len(raw.strip()))
                    )
                begin = i + 1


def is_immediate(operand):
    u = operand.upper()
    return u not in REGISTERS and not u.startswith(("(", "["))


def replace(line, span, text):
    return line[: span[0]] + text + line[span[1]:]


def wrapped(expr, delta, bits):
    """`expr` plus `delta` within `bits`, as an operand that cannot be read as memory."""
    mask = "0FFH" if bits == 8 else "0FFFFH"
    return f"0+((({expr})+({delta}))&{mask})"


def code_mutants(lines, index, statement):
    """(kind, new line) for every mutant of one instruction line."""
    s, line = statement, lines[index]
    ops = s.operands
    out = []
    mn = s.mnemonic
    if mn in ("JP", "JR", "CALL") and len(ops) == 2 and ops[0][0].upper() in INVERSE:
        out.append(("cond", replace(line, ops[0][1:], INVERSE[ops[0][0].upper()])))
    if mn == "RET" and len(ops) == 1 and ops[0][0].upper() in INVERSE:
        out.append(("cond", replace(line, ops[0][1:], INVERSE[ops[0][0].upper()])))
    if mn in ("INC", "DEC") and len(ops) == 1:
        out.append(("inc-dec", replace(line, s.mnemonic_span, "DEC" if mn == "INC" else "INC")))
    # The operand of an ALU instruction: `SUB n`, `ADD A,n`.
    alu = None
    if mn in IMMEDIATE_OPS:
        if len(ops) == 2 and ops[0][0].upper() == "A":
            alu = ops[1]
        elif len(ops) == 1:
            alu = ops[0]
    if mn in ("ADD", "SUB") and alu is not None:
        # From the mnemonic to the operand: `ADD A,` becomes `SUB `, `SUB ` `ADD A,`.
        swapped = "SUB " if mn == "ADD" else "ADD A,"
        out.append(("add-sub", replace(line, (s.mnemonic_span[0], alu[1]), swapped)))
    immediate, bits = None, 8
    if alu is not None and is_immediate(alu[0]):
        immediate = alu
    elif mn == "LD" and len(ops) == 2 and is_immediate(ops[1][0]):
        immediate = ops[1]
        bits = 16 if ops[0][0].upper() in WIDE else 8
    if immediate is not None:
        for kind, delta in (("imm+1", 1), ("imm-1", -1)):
            out.append((kind, replace(line, immediate[1:], wrapped(immediate[0], delta, bits))))
    return out


# ---------------------------------------------------------------- addresses of data


def evaluate(expr, symbols, here):
    """A value of the assembler's dialect, or None (enough for ORG, EQU $ and DS)."""
    text = expr.strip()

    def number(m):
        t = m.group(0)
        if t.upper().endswith("H"):
            return str(int(t[:-1], 16))
        return t

    text = re.sub(r"\b[0-9][0-9A-Fa-f]*[Hh]\b", number, text)
    text = re.sub(r"[$.](?![\w])", str(here) if here is not None else "None", text)

    def symbol(m):
        name = m.group(0).upper()
        return str(symbols[name]) if name in symbols else "None"

    text = re.sub(r"\b[A-Za-z_][\w]*\b", symbol, text)
    if "None" in text or not re.fullmatch(r"[\d\s+\-*/()]*", text):
        return None
    try:
        return int(eval(text, {"__builtins__": {}}))  # digits and operators only
    except Exception:
        return None


def data_items(statement):
    """The byte count of each operand of a DB/DW line (None: not a data line)."""
    if statement.mnemonic in ("DB", "DEFB", "DEFM"):
        sizes = []
        for text, _, _ in statement.operands:
            if text[0] in "'\"" and text[-1] == text[0] and len(text) > 3:
                sizes.append(len(text) - 2)
            else:
                sizes.append(1)
        return 1, sizes
    if statement.mnemonic in ("DW", "DEFW"):
        return 2, [2] * len(statement.operands)
    return None


def layout(lines, symbols):
    """Per line: its address, where the source's data layout tells it (data lines, and
    lines after a label)."""
    here = None
    addresses = {}
    for i, line in enumerate(lines):
        s = Statement(line)
        if s.mnemonic == "ORG" and s.operands:
            here = evaluate(s.operands[0][0], symbols, here)
            continue
        if s.mnemonic == "EQU" or (s.mnemonic is None and "=" in split_code(line)[0]):
            continue
        if s.label and s.label in symbols and s.mnemonic != "MACRO":
            here = symbols[s.label]
        if s.mnemonic is None:
            continue
        addresses[i] = here
        if here is None:
            continue
        items = data_items(s)
        if items is not None:
            here += sum(items[1])
        elif s.mnemonic in ("DS", "DEFS") and s.operands:
            n = evaluate(s.operands[0][0], symbols, here)
            here = None if n is None else here + n
        else:
            # An instruction: its size is the assembler's business; resynchronise at the
            # next label.
            here = None
    return addresses


def data_mutants(lines, addresses, wanted):
    """(line index, address, new lines) for each address of `wanted` a DB/DW/DS line holds."""
    out = []
    for i, line in enumerate(lines):
        at = addresses.get(i)
        if at is None:
            continue
        s = Statement(line)
        items = data_items(s)
        if items is not None:
            unit, sizes = items
            offset = at
            for (text, b, e), size in zip(s.operands, sizes):
                for k in range(size):
                    if offset + k in wanted and size == unit:
                        if unit == 1:
                            new = wrapped(text, 1, 8)
                        elif k == 0:
                            new = f"0+((({text})&0FF00H)|((({text})+1)&0FFH))"
                        else:
                            new = wrapped(text, 256, 16)
                        out.append((i, offset + k, [replace(line, (b, e), new)]))
                offset += size
        elif s.mnemonic in ("DS", "DEFS") and len(s.operands) == 1:
            n = evaluate(s.operands[0][0], {}, at) or 0
            for k in range(n):
                if at + k in wanted:
                    head = line[: s.mnemonic_span[0]]
                    parts = []
                    if k > 0:
                        parts.append(f"{head}DS {k}")
                        head = "        "
                    parts.append(f"{head}DB 1")
                    if n - k - 1 > 0:
                        parts.append(f"        DS {n - k - 1}")
                    out.append((i, at + k, parts))
    return out


# ---------------------------------------------------------------- what a search reaches


def coverage_text(sargon, store, name, saved=None):
    """What `sargon rom coverage NAME` prints for the store (the real store is only read);
    from `saved` when given, a file holding that output: a script run many times on one
    import (a test judging mutants in several calls) then pays for the coverage pass once."""
    if saved is not None:
        try:
            text = saved.read_text()
        except OSError as e:
            fail(f"--coverage {saved}: cannot be read ({e.strerror})")
        # Its header names the ROM it covers: a file of another import is refused.
        if f"coverage of ROM `{name}` by" not in text:
            fail(f"--coverage {saved}: not the output of `sargon rom coverage {name}`")
        return text
    env = dict(os.environ, SARGON_ROMS=str(store))
    run = subprocess.run([sargon, "rom", "coverage", name], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"`sargon rom coverage` failed: {run.stderr.strip().splitlines()[-1:]}")
    return run.stdout


def coverage(text):
    """The routines a search reaches, and per table the byte offsets a search read, from
    the output of `sargon rom coverage`."""
    routines, tables, section = [], {}, None
    gaps = {}
    for line in text.splitlines():
        gap = re.match(r"\s+0x([0-9a-f]{4}) \S+\s+(.*)$", line)
        if gap and section is None:
            gaps[int(gap.group(1), 16)] = gap.group(2).strip()
            continue
        if line.startswith("ROUTINE"):
            section = "routines"
            continue
        if line.startswith("TABLE"):
            section = "tables"
            continue
        if not line.strip():
            if section == "routines":
                section = None
            continue
        if section == "routines":
            routines.append(line.split()[0])
        elif section == "tables":
            f = line.split(None, 3)
            size, read = int(f[1]), int(f[2])
            if read == 0:
                continue
            unread = set()
            for r in (f[3] if len(f) > 3 else "").split():
                a, _, b = r.strip("[]").partition("..")
                unread.update(range(int(a), int(b or a) + 1))
            tables[f[0]] = [k for k in range(size) if k not in unread]
    if not routines:
        fail("`sargon rom coverage` named no routines")
    return routines, tables, gaps


def instruction_starts(sargon, store, name):
    """The address of every instruction of the image's code, from `sargon listing` (read
    from the user's image; only the addresses are kept)."""
    env = dict(os.environ, SARGON_ROMS=str(store))
    run = subprocess.run([sargon, "listing", "--rom", name], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        fail("`sargon listing` failed")
    return sorted({int(m.group(1), 16) for m in re.finditer(r"^  ([0-9A-F]{4})  ", run.stdout, re.M)})


def code_offsets(lines, symbols, starts):
    """Per instruction line: its address in the image, by lining the source's instruction
    lines up with the listing's instruction starts between two labels (the labels'
    addresses are known). A stretch whose counts differ (data among code, a macro) is left
    out: its mutants get their offset when judged."""
    known = sorted({a for a in symbols.values() if isinstance(a, int)})
    at = {}
    stretch, begin = [], None

    def close(end):
        if begin is None or not stretch:
            return
        inside = [a for a in starts if begin <= a < end]
        if len(inside) == len(stretch):
            at.update(zip(stretch, inside))

    for i, line in enumerate(lines):
        s = Statement(line)
        if s.label and s.label in symbols and s.mnemonic not in ("EQU", "MACRO"):
            close(symbols[s.label])
            stretch, begin = [], symbols[s.label]
        if s.mnemonic is None or s.mnemonic in ("EQU", "MACRO", "ORG", "END") or "=" in split_code(line)[0]:
            continue
        if s.mnemonic in ("DB", "DW", "DS", "DEFB", "DEFW", "DEFS"):
            stretch, begin = [], None
            continue
        stretch.append(i)
    if begin is not None:
        close(min((a for a in known if a > begin), default=1 << 16))
    return at


def name_of(m):
    """A mutant's name as docs/port.md gives it: routine+offset kind (offset of the
    instruction, or of the byte for a table)."""
    return f"{m['routine']}+{m['offset']} {m['kind']}" if m.get("offset") is not None else m["id"]


def instruction_at(starts, address):
    """The start of the instruction holding `address`."""
    i = bisect.bisect_right(starts, address) - 1
    return starts[i] if i >= 0 else address


def regions(symbols):
    """(start address, region name, kind) of the known image's regions
    (roms/routines.tsv), by the image's symbols."""
    out = []
    for line in (REPO / "roms" / "routines.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        region, kind = line.split("\t")[:2]
        for first in region.split("..")[0].split("|"):
            if first in symbols:
                value = symbols[first]
                # A table of the TBASE window is named by its negative displacement
                # (`DIRECT EQU $-TBASE`), as the fingerprints name it.
                if kind == "data" and value >= 0xFF80 and "TBASE" in symbols:
                    value = (value + symbols["TBASE"]) & 0xFFFF
                out.append((value, region, kind))
                break
    return sorted(out)


def region_at(table, address):
    found = None
    for start, name, kind in table:
        if start <= address:
            found = (start, name, kind)
    return found


# ---------------------------------------------------------------- the mutants


def make_mutants(lines, symbols, routines, tables):
    addresses = layout(lines, symbols)
    table = regions(symbols)
    mutants = []
    label_at = None
    for i, line in enumerate(lines):
        s = Statement(line)
        if s.label and s.label in symbols and s.mnemonic not in ("EQU", "MACRO"):
            label_at = symbols[s.label]
        if s.mnemonic is None or s.mnemonic in ("EQU", "DB", "DW", "DS", "DEFB", "DEFW", "DEFS", "ORG"):
            continue
        if label_at is None:
            continue
        region = region_at(table, label_at)
        if region is None or region[2] != "code" or region[1] not in routines:
            continue
        for kind, new in code_mutants(lines, i, s):
            mutants.append({
                "id": f"{i + 1}:{kind}", "line": i + 1, "routine": region[1],
                "start": region[0], "kind": kind, "new": [new], "expect": None,
            })
    wanted = {}
    for name, offsets in tables.items():
        start = next((a for a, n, _ in table if n == name), None)
        if start is None:
            print(f"mutation-campaign: table {name} not found in the source; left out", file=sys.stderr)
            continue
        for k in offsets:
            wanted[start + k] = (name, start)
    for i, address, new in data_mutants(lines, addresses, wanted):
        name, start = wanted[address]
        mutants.append({
            "id": f"{name}+{address - start}:data+1", "line": i + 1, "routine": name,
            "start": start, "offset": address - start, "kind": "data+1", "new": new,
            "expect": address,
        })
    return mutants


# ---------------------------------------------------------------- judging one mutant


def judge(mutant, lines, original, sargon, name, starts):
    t = time.monotonic()
    record = {k: mutant[k] for k in ("id", "routine", "kind", "line")}
    record["offset"] = mutant.get("offset")
    work = Path(tempfile.mkdtemp(prefix="sargon-mutant-"))
    try:
        i = mutant["line"] - 1
        source = lines[:i] + mutant["new"] + lines[i + 1:]
        path = work / "sargon-z80.asm"
        path.write_text("\n".join(source) + "\n", encoding="latin-1")
        env = dict(os.environ, SARGON_ROMS=str(work / "roms"))
        run = subprocess.run(
            [sargon, "rom", "import", str(path), "--name", name, "--accept-different"],
            env=env, capture_output=True, text=True, timeout=1800,
        )
        out = run.stdout + run.stderr
        image = work / "roms" / name / "image.bin"
        if run.returncode != 0 and "cannot assemble" in out:
            record["result"] = "not-made"
            record["why"] = "does not assemble"
        elif not image.exists():
            record["result"] = "killed"
            record["killed_by"] = "import refused it"
        else:
            new = image.read_bytes()
            changed = [a for a in range(max(len(new), len(original)))
                       if (new[a:a + 1] or b"\0") != (original[a:a + 1] or b"\0")]
            if not changed:
                record["result"] = "no-change"
            elif mutant["expect"] is not None and (
                changed != [mutant["expect"]]
                or new[changed[0]] != (original[changed[0]] + 1) & 0xFF
            ):
                record["result"] = "not-made"
                record["why"] = "the image changed elsewhere than the byte meant"
            elif mutant["expect"] is None and changed[-1] - changed[0] > 3:
                record["result"] = "not-made"
                record["why"] = "the image changed in more than one instruction"
            else:
                if mutant["expect"] is None:
                    # A code mutant's offset is where its image changed (the instruction's
                    # start); the source's lining up with the listing gave it beforehand.
                    record["offset"] = instruction_at(starts, changed[0]) - mutant["start"]
                m = re.search(r"^behaviour: (.*)$", out, re.M)
                if m and m.group(1).startswith("as the known"):
                    record["result"] = "survived"
                elif m:
                    record["result"] = "killed"
                    n = re.search(r"in (\d+) of (\d+) searches", m.group(1))
                    if n:
                        record["differing"] = int(n.group(1))
                    first = re.search(r"^first difference: (.+?) \(", out, re.M)
                    if first:
                        record["killed_by"] = first.group(1).replace(" at depth ", ".d")
                    if "searches not run" in out or "the image's search failed" in out:
                        record["failed"] = True
                else:
                    record["result"] = "killed"
                    record["killed_by"] = "import refused it"
    except subprocess.TimeoutExpired:
        record["result"] = "killed"
        record["killed_by"] = "timeout"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    record["seconds"] = round(time.monotonic() - t, 1)
    return record


def confirm(path, mutants, lines, sargon, name, epd, depths, again=False):
    """Each survivor of `path` replayed over the positions of `epd` at `depths` against the
    port (`sargon diff`): no divergence is half of the evidence that it is equivalent (the
    other half is an argument from the values that reach it); a divergence names the
    searches (FEN, depth) that would kill the mutant if the import replayed them. One JSON
    line per survivor in PATH.confirm.jsonl, resumable as the campaign is; with `again`,
    a survivor confirmed as diverging before its searches were recorded is replayed again
    (the newest line of a mutant is its verdict)."""
    by_id = {m["id"]: m for m in mutants}
    records = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    out = Path(str(path) + ".confirm.jsonl")
    earlier = [json.loads(l) for l in out.read_text().splitlines() if l.strip()] if out.exists() else []
    done = {v["id"] for v in earlier if not (again and v["diverged"] and "diverging" not in v)}
    for r in records:
        if r["result"] != "survived" or r["id"] in done or r["id"] not in by_id:
            continue
        t = time.monotonic()
        work = Path(tempfile.mkdtemp(prefix="sargon-mutant-"))
        try:
            m = by_id[r["id"]]
            i = m["line"] - 1
            source = work / "sargon-z80.asm"
            source.write_text("\n".join(lines[:i] + m["new"] + lines[i + 1:]) + "\n", encoding="latin-1")
            env = dict(os.environ, SARGON_ROMS=str(work / "roms"))
            subprocess.run([sargon, "rom", "import", str(source), "--name", name, "--accept-different"],
                           env=env, capture_output=True, check=True)
            results = work / "diff.jsonl"
            run = subprocess.run(
                [sargon, "diff", "--rom", name, "--epd", str(epd), "--depths", depths, "--no-book",
                 "--no-cache", "--keep-going", "--core", "z80emu", "--out", str(results)],
                env=env, capture_output=True, text=True,
            )
            verdict = {"id": r["id"], "routine": r["routine"], "offset": r["offset"], "kind": r["kind"],
                       "epd": Path(epd).name, "depths": depths, "diverged": run.returncode != 0,
                       "summary": next((l for l in reversed(run.stdout.splitlines())
                                        if l.startswith("positions:")), "")[:200],
                       "seconds": round(time.monotonic() - t, 1)}
            if verdict["diverged"]:
                verdict["diverging"] = diverging_searches(results)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        with open(out, "a") as f:
            f.write(json.dumps(verdict) + "\n")
        print(f"{r['routine']}+{r['offset']} {r['kind']}: "
              f"{'DIVERGES' if verdict['diverged'] else 'no change'} over {verdict['epd']} at depths {depths} "
              f"({verdict['seconds']} s)", file=sys.stderr)


def diverging_searches(results):
    """The searches (FEN, depth) of a `sargon diff --out` results file whose verdict is not
    agreement, fewest events first (the cheapest to add to the import's replay)."""
    found = []
    for line in results.read_text().splitlines() if results.exists() else []:
        r = json.loads(line)
        if "verdict" in r and r["verdict"] != "agree":
            found.append((r.get("events") or 0, r["fen"], r["depth"]))
    return [[fen, depth] for _, fen, depth in sorted(found)]


def summary(path):
    counts = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        r = json.loads(line)
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    killed, survived = counts.get("killed", 0), counts.get("survived", 0)
    tried = killed + survived
    score = f"{killed}/{tried} killed ({100.0 * killed / tried:.1f}%)" if tried else "nothing judged"
    rest = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()) if k not in ("killed", "survived"))
    return score + (f"; also {rest}" if rest else "")


def report(path, mutants, gaps, starts):
    """The score so far and the survivors, by routine, offset and kind, each with what the
    import's searches ran at its address (`rom coverage`'s gaps)."""
    if not path.exists():
        fail(f"{path} does not exist: run the campaign first")
    begins = {m["routine"]: m["start"] for m in mutants}
    records = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    for r in records:
        # Results of an earlier version named a code mutant by its first changed byte.
        if r["kind"] != "data+1" and r.get("offset") is not None and r["routine"] in begins:
            r["offset"] = instruction_at(starts, begins[r["routine"]] + r["offset"]) - begins[r["routine"]]
    print(f"{summary(path)}, of {len(mutants)} mutants")
    survivors = sorted((r for r in records if r["result"] == "survived"),
                       key=lambda r: (r["routine"], r["offset"], r["kind"]))
    confirmed = Path(str(path) + ".confirm.jsonl")
    verdicts = {}
    for line in confirmed.read_text().splitlines() if confirmed.exists() else []:
        v = json.loads(line)
        verdicts[v["id"]] = (f"{'DIVERGES' if v['diverged'] else 'no change'} over {v['epd']} "
                             f"at depths {v['depths']}" + (f" ({v['summary']})" if v.get("summary") else ""))
    for r in survivors:
        address = begins.get(r["routine"], 0) + r["offset"]
        ran = gaps.get(address, "ran both ways" if r["kind"] == "cond" else "ran")
        seen = f"; {verdicts[r['id']]}" if r["id"] in verdicts else ""
        print(f"* {r['routine']}+{r['offset']} {r['kind']} (import's searches here: {ran}{seen})")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, help="the JSON lines file (read back to resume)")
    p.add_argument("--roms", type=Path, help="the ROM store (default $SARGON_ROMS or ~/.local/share/sargon/roms)")
    p.add_argument("--name", default="sargon", help="the ROM's name in the store")
    p.add_argument("--sargon", help="the sargon binary (default: on PATH, else target/debug or target/release)")
    p.add_argument("--jobs", type=int, default=1, help="mutants judged at once (each import uses up to 4 threads)")
    p.add_argument("--limit", type=int, help="judge at most this many new mutants")
    p.add_argument("--only", action="append", help="only these routines or tables (repeat, or comma-separated)")
    p.add_argument("--kind", action="append", choices=KINDS, help="only these kinds (repeat)")
    p.add_argument("--mutant", action="append",
                   help="only these mutants, by name: 'ROUTINE+OFFSET KIND' (repeat, or comma-separated)")
    p.add_argument("--coverage", metavar="FILE", type=Path,
                   help="the output of `sargon rom coverage NAME` for this store, saved before: "
                        "skips the coverage pass (about 8 s of CPU) each run would make")
    p.add_argument("--list", action="store_true", help="print the mutants as JSON lines, judge none")
    p.add_argument("--mutate-line", metavar="TEXT",
                   help="print the code mutants of one source line as JSON lines (kind, text), nothing else")
    p.add_argument("--report", action="store_true",
                   help="the score of --out and its survivors (routine+offset, kind, what the import's "
                        "searches ran there), for docs/port.md; judge none")
    p.add_argument("--confirm", metavar="EPD", type=Path,
                   help="replay each survivor of --out over these positions against the port "
                        "(sargon diff); verdicts to OUT.confirm.jsonl")
    p.add_argument("--confirm-depths", default="1-2", help="the depths of --confirm (default 1-2)")
    p.add_argument("--confirm-again", action="store_true",
                   help="with --confirm: replay again the diverging survivors whose searches were not recorded")
    a = p.parse_args()
    if a.mutate_line is not None:
        s = Statement(a.mutate_line)
        for kind, new in code_mutants([a.mutate_line], 0, s) if s.mnemonic else []:
            print(json.dumps({"kind": kind, "text": new}))
        return
    if not a.list and a.out is None:
        fail("--out FILE is needed (or --list)")
    store = a.roms or Path(os.environ.get("SARGON_ROMS") or Path.home() / ".local/share/sargon/roms")
    sargon = a.sargon or shutil.which("sargon")
    if sargon is None:
        for profile in ("debug", "release"):
            if (REPO / "target" / profile / "sargon").exists():
                sargon = str(REPO / "target" / profile / "sargon")
                break
    if sargon is None:
        fail("no sargon binary: build it (cargo build) or give --sargon")
    rom = store / a.name
    if not (rom / "source.asm").exists():
        fail(f"{rom} holds no source.asm: import the transcription (sargon rom import sargon-z80.asm)")
    lines = (rom / "source.asm").read_text(encoding="latin-1").splitlines()
    symbols = {k.upper(): v for k, v in json.loads((rom / "symbols.json").read_text()).items()}
    original = (rom / "image.bin").read_bytes()
    routines, tables, gaps = coverage(coverage_text(sargon, store, a.name, a.coverage))
    starts = instruction_starts(sargon, store, a.name)
    mutants = make_mutants(lines, symbols, routines, tables)
    offsets = code_offsets(lines, symbols, starts)
    for m in mutants:
        if m.get("offset") is None and m["line"] - 1 in offsets:
            m["offset"] = offsets[m["line"] - 1] - m["start"]
    if a.mutant:
        names = {n.strip().upper() for o in a.mutant for n in o.split(",")}
        by_name = {name_of(m).upper(): m for m in mutants}
        unknown = names - set(by_name)
        if unknown:
            fail(f"--mutant names no mutant: {', '.join(sorted(unknown))} "
                 "(a name is ROUTINE+OFFSET KIND, as --list and --report print)")
        mutants = [by_name[n] for n in sorted(names)]
    only = {n.upper() for o in (a.only or []) for n in o.split(",")}
    if only:
        unknown = only - {m["routine"].upper() for m in mutants}
        if unknown:
            fail(f"--only names no routine or table a search reaches: {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m["routine"].upper() in only]
    if a.kind:
        mutants = [m for m in mutants if m["kind"] in a.kind]
    if a.confirm:
        confirm(a.out, mutants, lines, sargon, a.name, a.confirm, a.confirm_depths, a.confirm_again)
        return
    if a.report:
        report(a.out, mutants, gaps, starts)
        return
    if a.list:
        for m in mutants:
            print(json.dumps({**{k: m.get(k) for k in ("id", "routine", "offset", "kind", "line")},
                              "name": name_of(m)}))
        return
    done = set()
    if a.out.exists():
        done = {json.loads(l)["id"] for l in a.out.read_text().splitlines() if l.strip()}
    # In an order that mixes routines and kinds (fixed, by each mutant's name), so that a
    # campaign stopped part-way has judged a sample of the whole.
    todo = sorted((m for m in mutants if m["id"] not in done),
                  key=lambda m: hashlib.sha256(m["id"].encode()).hexdigest())
    if a.limit is not None:
        todo = todo[: a.limit]
    judged = len(done & {m["id"] for m in mutants})
    print(f"{len(mutants)} mutants, {judged} already judged, {len(todo)} to judge now", file=sys.stderr)
    lock = threading.Lock()
    count = [0]

    def judge_and_record(m, out):
        # Each mutant is written as soon as it is judged, by its worker: an interrupted
        # campaign keeps every verdict it reached.
        r = judge(m, lines, original, sargon, a.name, starts)
        with lock:
            out.write(json.dumps(r) + "\n")
            out.flush()
            count[0] += 1
            print(f"[{count[0]}/{len(todo)}] {r['routine']}+{r['offset']} {r['kind']}: {r['result']}"
                  f"{' by ' + r['killed_by'] if r.get('killed_by') else ''} ({r['seconds']} s)", file=sys.stderr)

    with open(a.out, "a") as out, concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        futures = [pool.submit(judge_and_record, m, out) for m in todo]
        try:
            for f in concurrent.futures.as_completed(futures):
                f.result()
        except KeyboardInterrupt:
            # Ctrl-C (or kill -INT): the mutants under way finish and are recorded; a rerun
            # goes on with the rest.
            print("interrupted: finishing the mutants under way", file=sys.stderr)
            for f in futures:
                f.cancel()
    print(f"{a.out}: {summary(a.out)}")


if __name__ == "__main__":
    main()
