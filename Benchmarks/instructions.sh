#!/usr/bin/env bash
# Instruction counts of a full build, for comparing binaries on a loaded machine.
#
#   Benchmarks/instructions.sh [-n N] [-w DIR] [--results FILE] BIN[=REPO] [BIN[=REPO] ...]
#
#   -n N             cities in the generated site (default 200)
#   -w, --work DIR   where the data set and outputs live (default /tmp/isobar-instructions)
#   --results FILE   where to write the JSON (default Benchmarks/results/instructions-<date>.json)
#   BIN=REPO         an older binary whose templates, public folder and places file are
#                    those of the checkout REPO (e.g. a `git worktree` of c140299) rather
#                    than this repository's
#
# Valgrind's callgrind counts the instructions one full build into a new folder executes
# (history on, already holding the data times, so nothing new is recorded; share cards
# off). Unlike times, the counts hardly move with the machine's load (two runs of one
# binary differ by about 0.2 %), so small changes show. Each binary is first run once to
# warm its history, then copied without debug information (valgrind cannot read Swift
# 6.3's DWARF) and counted. Needs valgrind (`apt-get install -y valgrind`); about 30 s
# per binary at 200 cities.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
N=200
WORK=/tmp/isobar-instructions
RESULTS=""
BINS=()
while [ $# -gt 0 ]; do
    case "$1" in
        -n) N="$2"; shift 2 ;;
        -w|--work) WORK="$2"; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "instructions.sh: unknown option $1" >&2; exit 64 ;;
        *) BINS+=("$1"); shift ;;
    esac
done
[ ${#BINS[@]} -gt 0 ] || { echo "instructions.sh: name at least one isobar binary" >&2; exit 64; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install -y valgrind)" >&2; exit 1; }
[ -n "$RESULTS" ] || RESULTS="$HERE/results/instructions-$(date -u +%Y%m%dT%H%M%SZ).json"
data="$WORK/site-$N"
mkdir -p "$WORK" "$(dirname "$RESULTS")"
[ -f "$data/isobar.yml" ] || python3 "$HERE/generate.py" "$N" --no-hugo --out "$data" >/dev/null
rows=()
for index in "${!BINS[@]}"; do
    spec="${BINS[$index]}"
    bin="${spec%%=*}"
    checkout="$REPO"
    [ "$spec" = "$bin" ] || checkout="${spec#*=}"
    [ -x "$bin" ] || { echo "instructions.sh: $bin is not an executable" >&2; exit 1; }
    config="$data/instructions-$index.yml"
    # The generated config names this repository's theme and places; an older binary
    # reads its own checkout's, and knows no `share_card:` key (it draws no cards).
    sed "s#$REPO/#$checkout/#g" "$data/isobar.yml" > "$config"
    if grep -rqs share_card "$checkout/Sources"; then echo "share_card: false" >> "$config"; fi
    stripped="$WORK/isobar-$index"
    strip -g -o "$stripped" "$bin"
    rm -rf "$WORK/out"
    (cd "$data" && "$stripped" build --config "$config" --output "$WORK/out" --quiet)
    rm -rf "$WORK/out"
    count="$(cd "$data" && valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind-$index.out" \
        "$stripped" build --config "$config" --output "$WORK/out" --quiet 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
    [ -n "$count" ] || { echo "instructions.sh: no count for $bin" >&2; exit 1; }
    printf '%-60s %15s instructions\n' "$spec" "$count"
    rows+=("{\"binary\": \"$spec\", \"instructions\": $count}")
done
{ printf '{"cities": %s, "runs": [' "$N"; (IFS=,; printf '%s' "${rows[*]}"); printf ']}\n'; } > "$RESULTS"
echo "results: $RESULTS"
