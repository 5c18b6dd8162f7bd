#!/usr/bin/env python3
"""Find the smallest public API the workspace compiles with, by asking the compiler.

Every `pub` function, method, type, trait, constant and static of the named library crates
(outside lib.rs) becomes `pub(crate)`; then `cargo check --workspace --keep-going --all-targets` runs,
and each item the errors point at (used from another crate or a test: E0603, E0624; or
re-exported at a root: E0364, E0365) or that a public signature names (the
`private_interfaces` and `private_bounds` lints) gets its `pub` back. That repeats until
the check is clean. What is left `pub(crate)` was public for no user.

Usage: scripts/narrow-pub.py sargon-core sargon-original sargon-referee
       CHECK_TARGETS="--lib --bins --examples --benches" scripts/narrow-pub.py ...
           (leave the tests out: what stays narrowed is public only for a test)

Then review `git diff` by hand and run clippy, the doctests and `cargo doc`: the check
does not see doctests, the fuzz targets (fuzz/ is outside the workspace, so fuzzing.rs is
left alone) or intra-doc links, an item nothing uses any more shows up as dead code (it
may be public API on purpose: the hook accessors are), and a method made private can
make a call resolve to a trait's method of the same name instead. The script stops at an
error that is not about privacy (it prints it): give that item its `pub` back by hand,
`git checkout` the rest, and run it again.
"""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_FILES = {'fuzzing.rs'}
DECL = re.compile(r'^(\s*)pub (?=(?:unsafe |async |extern "C" )*(?:fn|const|struct|enum|type|trait|static)\b)')
NARROWED = re.compile(r'pub\(crate\) (?:unsafe |async |const )*(?:fn|const|struct|enum|type|trait|static) ')


def narrow(crates):
    changed = set()
    for crate in crates:
        base = os.path.join(ROOT, 'crates', crate, 'src')
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith('.rs') or f in SKIP_FILES or (f == 'lib.rs' and dirpath == base):
                    continue
                path = os.path.join(dirpath, f)
                lines = open(path).read().split('\n')
                for i, line in enumerate(lines):
                    m = DECL.match(line)
                    if m:
                        lines[i] = m.group(1) + 'pub(crate) ' + line[m.end():]
                        changed.add((path, i + 1))
                open(path, 'w').write('\n'.join(lines))
    return changed


def give_back(changed, path, line):
    lines = open(path).read().split('\n')
    if 'pub(crate) ' not in lines[line - 1]:
        return False
    lines[line - 1] = lines[line - 1].replace('pub(crate) ', 'pub ', 1)
    open(path, 'w').write('\n'.join(lines))
    changed.discard((path, line))
    return True


def spans(diagnostic):
    out = [(s['file_name'], s['line_start']) for s in diagnostic.get('spans', [])]
    for child in diagnostic.get('children', []):
        out += spans(child)
    return out


def main():
    crates = sys.argv[1:]
    if not crates:
        sys.exit(__doc__)
    changed = narrow(crates)
    print(f'narrowed {len(changed)} items', file=sys.stderr)
    targets = os.environ.get('CHECK_TARGETS', '--all-targets').split()
    while True:
        check = subprocess.run(
            ['cargo', 'check', '--workspace', '--keep-going', *targets, '--message-format=json'],
            cwd=ROOT, capture_output=True, text=True)
        given, errors, unexplained = 0, 0, []
        for raw in check.stdout.splitlines():
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            if msg.get('reason') != 'compiler-message':
                continue
            d = msg['message']
            code = (d.get('code') or {}).get('code', '')
            if d['level'] != 'error' and code not in ('private_interfaces', 'private_bounds'):
                continue
            errors += d['level'] == 'error'
            hit = False
            if code in ('E0364', 'E0365'):
                # A root's `pub use` of a narrowed item: find the item by its name.
                m = re.search(r'`(\w+)` is only public within the crate', d['message'])
                crate_dir = os.path.join(ROOT, d['spans'][0]['file_name'].split('/src/')[0])
                if m:
                    named = re.compile(NARROWED.pattern + m.group(1) + r'\b')
                    for path, line in sorted(changed):
                        if path.startswith(crate_dir + '/') and named.search(
                                open(path).read().split('\n')[line - 1]):
                            hit |= give_back(changed, path, line)
                            given += 1
            for name, line in spans(d):
                path = name if name.startswith('/') else os.path.join(ROOT, name)
                if (path, line) in changed and give_back(changed, path, line):
                    given += 1
                    hit = True
            if not hit and d['level'] == 'error':
                unexplained.append(d.get('rendered') or d['message'])
        print(f'check: {errors} errors, {given} items public again', file=sys.stderr)
        if given == 0:
            for text in unexplained[:20]:
                print(text, file=sys.stderr)
            break
    print(f'left pub(crate): {len(changed)} items', file=sys.stderr)


if __name__ == '__main__':
    main()
