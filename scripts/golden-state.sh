#!/bin/bash
# `sargon diff --state` over every search of the golden corpus (tests/golden/corpus.txt:
# label | depths | book | FEN), one search at a time; prints any search with a difference
# and a total. The corpus's `book1` search (the book's random byte 1) is not run: `diff`
# always uses byte 0. Usage: scripts/golden-state.sh [SARGON_BINARY]
set -u
sargon=${1:-sargon}
cd "$(dirname "$0")/.."
total=0; bad=0; snaps=0
while IFS='|' read -r label depths book fen; do
  label=$(echo $label); depths=$(echo $depths); book=$(echo $book); fen=$(echo $fen)
  case "$label" in \#*|"") continue;; esac
  flags=""
  [ "$book" = nobook ] && flags="--no-book"
  [ "$book" = book1 ] && { echo "$label: not run (the book's random byte 1; diff uses 0)"; continue; }
  for d in ${depths//,/ }; do
    out=$("$sargon" diff "$fen" --depth "$d" --state $flags 2>&1)
    total=$((total+1))
    s=$(echo "$out" | grep -o '[0-9]* snapshots' | grep -o '[0-9]*')
    snaps=$((snaps+${s:-0}))
    if ! echo "$out" | grep -q ", 0 with a difference"; then bad=$((bad+1)); echo "$label d$d: $out"; fi
  done
done < tests/golden/corpus.txt
echo "golden corpus: $total searches, $snaps snapshots, $bad with a difference"
[ "$bad" = 0 ]
