#!/usr/bin/env python3
"""Which public entry points of the library crates have a doc example that calls them and asserts.

Usage: scripts/doctest-coverage.py [--all] [CRATE ...]   (from the repository's root)

For each crate (default: sargon-core, sargon-port, sargon-original, sargon-referee) it lists
the public functions: `pub fn` at module level and in inherent `impl` blocks, and the methods
of `pub trait`s. It reads the source, not the compiler's view, so it is pragmatic: every
crate warns on `unreachable_pub`, so a `pub` item of a private module is re-exported; it
skips `pub(crate)` and narrower, trait impls, function bodies, `#[cfg(test)]` modules and
files, and `#[doc(hidden)]` modules. An entry point is covered when its own doc comment
holds a runnable example (```, not `text`, `ignore`, `no_run` or `compile_fail`) that names
it (`name(`, `.name`, `Type::name`) and contains `assert`. `no_run` examples are listed on
their own.

It prints per crate the doc examples that assert (all of them, module and type docs
included), the entry points covered, and the ones missing (`--all`: every entry point).
"""

import os
import re
import sys

CRATES = ["sargon-core", "sargon-port", "sargon-original", "sargon-referee"]


def strip_code(text):
    """The source with comments, strings and char literals blanked (newlines kept), so that
    braces and keywords can be found; doc comments are read separately."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif re.match(r'(b?r)(#*)"', text[i:i + 40]) and not re.match(r"\w", text[i - 1:i] or " "):
            m = re.match(r'(b?r)(#*)"', text[i:])
            end = '"' + m.group(2)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'", text[i:])
            if m:
                out.append(" " * m.end())
                i += m.end()
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def examples(doc):
    """The fenced code blocks of a doc comment: (info string, code)."""
    blocks, info, code = [], None, []
    for line in doc:
        s = line.strip()
        if s.startswith("```"):
            if info is None:
                info, code = s[3:].strip(), []
            else:
                blocks.append((info, "\n".join(code)))
                info = None
        elif info is not None:
            code.append(line)
    return blocks


def runnable(info):
    words = {w.strip() for w in info.split(",") if w.strip()}
    # `standalone_crate`: an example run in a process of its own, not merged with the others
    # (the 2024 edition merges a crate's examples into one program).
    if words - {"rust", "should_panic", "no_run", "standalone_crate"} or "no_run" in words:
        return False
    return True


def rust_block(info):
    words = {w.strip() for w in info.split(",") if w.strip()}
    return not (words - {"rust", "should_panic", "no_run", "ignore", "compile_fail", "standalone_crate"})


class Entry:
    def __init__(self, crate, module, owner, name, line, doc, path):
        self.crate, self.module, self.owner, self.name = crate, module, owner, name
        self.line, self.doc, self.path = line, doc, path

    def label(self):
        owner = f"{self.owner}::" if self.owner else ""
        return f"{self.module}::{owner}{self.name}"

    def status(self):
        """'covered', 'no_run' or 'missing'."""
        name = re.escape(self.name)
        calls = [rf"\.{name}\b", rf"::{name}\b", rf"(?<![\w.:]){name}\s*\("]
        best = "missing"
        for info, code in examples(self.doc):
            if not rust_block(info) or "assert" not in code:
                continue
            if not any(re.search(p, code) for p in calls):
                continue
            if runnable(info):
                return "covered"
            if "no_run" in info:
                best = "no_run"
        return best


DOC = re.compile(r"^\s*///(.*)$")
ATTR = re.compile(r"^\s*#\[")


def doc_above(lines, index):
    """The `///` lines above line `index`, over attributes."""
    doc, i = [], index - 1
    while i >= 0:
        m = DOC.match(lines[i])
        if m:
            doc.append(m.group(1)[1:] if m.group(1).startswith(" ") else m.group(1))
        elif not (ATTR.match(lines[i]) or lines[i].strip().endswith(")]")):
            break
        i -= 1
    return list(reversed(doc))


def attrs_above(lines, index):
    """The attribute text right above line `index` (over doc comments)."""
    out, i = [], index - 1
    while i >= 0 and (DOC.match(lines[i]) or ATTR.match(lines[i]) or lines[i].strip().endswith(")]")):
        out.append(lines[i])
        i -= 1
    return " ".join(out)


def split_attrs(header, lines, header_line):
    """A block's or item's header without its attributes, and the attributes (those in the
    header, and doc comments and attributes above it)."""
    attrs = re.findall(r"#!?\[.*?\]", header)
    h = " ".join(re.sub(r"#!?\[.*?\]", " ", header).split())
    return h, " ".join(attrs) + " " + attrs_above(lines, header_line)


def scan_file(crate, module, path):
    """The entry points of one file, and the names of its `#[cfg(test)]`/hidden child modules."""
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    code = strip_code(text)
    code_lines = code.split("\n")
    entries, skipped_children = [], set()
    # A stack of open blocks: (kind, owner). Kinds: "mod" (module scope, usable), "impl",
    # "trait", "skip" (function bodies, trait impls, test modules, anything else).
    stack = [("mod", None)]
    header = ""  # the code since the last `;`, `{` or `}`: what an opening brace opens
    header_line = 0
    for lineno, line in enumerate(code_lines):
        # An entry point: a function whose signature starts on this line, in a usable scope.
        kind, owner = stack[-1]
        sig = line.strip()
        if kind in ("mod", "impl"):
            m = re.match(r"^pub (const )?(async )?(unsafe )?(extern \"C\" )?fn (\w+)", sig)
        elif kind == "trait":
            m = re.match(r"^(const )?(async )?(unsafe )?()fn (\w+)", sig)
        else:
            m = None
        if m and not re.search(r"cfg\(test\)|doc\(hidden\)", attrs_above(lines, lineno)):
            entries.append(Entry(crate, module, owner, m.group(5), lineno + 1,
                                 doc_above(lines, lineno), path))
        for ch in line:
            if ch == "{":
                h, attrs = split_attrs(header, lines, header_line)
                kind = stack[-1][0]
                test_only = "cfg(test)" in attrs or "doc(hidden)" in attrs
                if kind == "skip" or test_only:
                    stack.append(("skip", None))
                elif re.match(r"^(pub(\([^)]*\))? )?mod \w+$", h):
                    public = h.startswith("pub mod") or h.startswith("mod ")
                    stack.append(("mod" if public else "skip", None))
                elif m := re.match(r"^(unsafe )?impl(<.*?>)? ([^{]*)$", h):
                    target = m.group(3)
                    if re.search(r"\bfor\b", target):
                        stack.append(("skip", None))
                    else:
                        ty = re.match(r"[&\w:]*?(\w+)\s*(<|$|where)", target.strip())
                        stack.append(("impl", ty.group(1) if ty else target))
                elif m := re.match(r"^pub (unsafe )?trait (\w+)", h):
                    stack.append(("trait", m.group(2)))
                else:
                    stack.append(("skip", None))
                header = ""
            elif ch == "}":
                if len(stack) > 1:
                    stack.pop()
                header = ""
            elif ch == ";":
                h, attrs = split_attrs(header, lines, header_line)
                if m := re.match(r"^(pub(\([^)]*\))? )?mod (\w+)$", h):
                    if "cfg(test)" in attrs or "doc(hidden)" in attrs or stack[-1][0] == "skip":
                        skipped_children.add(m.group(3))
                header = ""
            else:
                if not header.strip() and not ch.isspace():
                    header_line = lineno
                header += ch
        header += " "
    return entries, skipped_children


def module_files(src):
    """(module path, file) of every module file under `src`, test-only ones left out."""
    found = []

    def visit(path, module):
        entries_skip = scan_children(path)
        found.append((module, path))
        base = os.path.dirname(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem not in ("lib", "mod", "main"):
            base = os.path.join(base, stem)
        text = strip_code(open(path, encoding="utf-8").read())
        for m in re.finditer(r"^\s*(pub(\([^)]*\))? )?mod (\w+)\s*;", text, re.M):
            child = m.group(3)
            if child in entries_skip:
                continue
            for candidate in (os.path.join(base, child + ".rs"), os.path.join(base, child, "mod.rs")):
                if os.path.exists(candidate):
                    visit(candidate, f"{module}::{child}")
                    break

    visit(os.path.join(src, "lib.rs"), "crate")
    return found


def scan_children(path):
    return scan_file("", "", path)[1]


def asserting_examples(path):
    """The runnable doc examples (`///` and `//!`) of a file that contain `assert`."""
    lines = open(path, encoding="utf-8").read().split("\n")
    doc_lines = []
    for line in lines:
        m = re.match(r"^\s*//[/!] ?(.*)$", line)
        doc_lines.append(m.group(1) if m else "")
    return sum(1 for info, code in examples(doc_lines) if runnable(info) and "assert" in code)


def included_docs(root, path):
    """Markdown files a crate root includes as doctests (`#[doc = include_str!(...)]`)."""
    text = open(path, encoding="utf-8").read()
    out = []
    for m in re.finditer(r'include_str!\("([^"]+\.md)"\)', text):
        out.append(os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))))
    return out


def markdown_asserting(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks = [(i, c) for i, c in examples(lines) if i in ("rust", "")]
    return sum(1 for _, c in blocks if "assert" in c and ("use " in c or "fn " in c or "let " in c))


def main(argv):
    show_all = "--all" in argv
    crates = [a for a in argv if not a.startswith("--")] or CRATES
    root = os.getcwd()
    total_missing = 0
    for crate in crates:
        src = os.path.join(root, "crates", crate, "src")
        entries, asserting = [], 0
        for module, path in module_files(src):
            file_entries, _ = scan_file(crate, module, path)
            entries += file_entries
            asserting += asserting_examples(path)
        for md in included_docs(root, os.path.join(src, "lib.rs")):
            asserting += markdown_asserting(md)
        status = {e: e.status() for e in entries}
        covered = [e for e in entries if status[e] == "covered"]
        no_run = [e for e in entries if status[e] == "no_run"]
        missing = [e for e in entries if status[e] == "missing"]
        total_missing += len(missing)
        print(f"{crate}: {asserting} asserting doc examples; entry points: {len(entries)}, "
              f"covered {len(covered)}, no_run {len(no_run)}, missing {len(missing)}")
        for label, group in (("no_run", no_run), ("missing", missing)) + (
                (("covered", covered),) if show_all else ()):
            for e in group:
                rel = os.path.relpath(e.path, root)
                print(f"  {label:8} {e.label()}  ({rel}:{e.line})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
