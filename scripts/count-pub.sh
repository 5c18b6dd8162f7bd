#!/usr/bin/env bash
# The size of the libraries' public API, as issue 22 counts it: the `pub` functions
# (methods included), types, traits, constants and statics of each library crate, outside
# its root (lib.rs, whose re-exports name the main types). `pub(crate)` does not count.
# Usage: scripts/count-pub.sh        (from anywhere in the repository)
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='^\s*pub (unsafe |async )*(const )?(fn|struct|enum|const|type|trait|static)\b'
total=0
for dir in crates/*/src; do
  crate=$(basename "$(dirname "$dir")")
  n=$({ grep -rE "$pattern" "$dir" --include='*.rs' || true; } | { grep -v "^$dir/lib.rs:" || true; } | wc -l)
  printf '%-16s %4d\n' "$crate" "$n"
  total=$((total + n))
done
printf '%-16s %4d\n' total "$total"
