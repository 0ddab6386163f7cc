#!/usr/bin/env bash
# Instruction counts of a full build, for comparing binaries on a loaded machine.
#
#   Benchmarks/instructions.sh [-n N] [-w DIR] [--user-cpu R] [--results FILE] BIN[=REPO] [BIN[=REPO] ...]
#
#   -n N             cities in the generated site (default 200)
#   --user-cpu R     instead of counting, time R rounds of builds, the binaries taking turns
#                    on one core (`taskset -c 0`), and give each one's median user CPU and
#                    its ratio to the last binary named (the figure the speed targets are
#                    set in; see below)
#   -w, --work DIR   where the data set and outputs live (default /tmp/isobar-instructions)
#   --results FILE   where to write the JSON (default Benchmarks/results/instructions-<date>.json,
#                    or user-cpu-<date>.json)
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
#
# Instructions are not time: the history's SQLite, the templates' indirect calls and the
# copies of large values miss the caches and mispredict branches more per instruction, so
# two binaries whose counts differ by 10 % can differ by 50 % in CPU time. `--user-cpu`
# measures that time: on one core, so neither thread contention nor the other core's load
# enters it, and alternating, so a slow spell of the machine falls on every binary alike.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
N=200
WORK=/tmp/isobar-instructions
RESULTS=""
ROUNDS=0
BINS=()
while [ $# -gt 0 ]; do
    case "$1" in
        -n) N="$2"; shift 2 ;;
        -w|--work) WORK="$2"; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        --user-cpu) ROUNDS="$2"; shift 2 ;;
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "instructions.sh: unknown option $1" >&2; exit 64 ;;
        *) BINS+=("$1"); shift ;;
    esac
done
[ ${#BINS[@]} -gt 0 ] || { echo "instructions.sh: name at least one isobar binary" >&2; exit 64; }
if [ "$ROUNDS" -gt 0 ]; then
    kind=user-cpu
    pin=(); command -v taskset >/dev/null && pin=(taskset -c 0)
else
    kind=instructions
    command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install -y valgrind)" >&2; exit 1; }
fi
[ -n "$RESULTS" ] || RESULTS="$HERE/results/$kind-$(date -u +%Y%m%dT%H%M%SZ).json"
data="$WORK/site-$N"
mkdir -p "$WORK" "$(dirname "$RESULTS")"
[ -f "$data/isobar.yml" ] || python3 "$HERE/generate.py" "$N" --no-hugo --out "$data" >/dev/null
configs=()
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
    configs+=("$config")
    # Once to warm the history, so that the measured builds record nothing new.
    rm -rf "$WORK/out"
    (cd "$data" && "$bin" build --config "$config" --output "$WORK/out" --quiet)
done
rows=()
if [ "$ROUNDS" -eq 0 ]; then
    for index in "${!BINS[@]}"; do
        spec="${BINS[$index]}"
        stripped="$WORK/isobar-$index"
        strip -g -o "$stripped" "${spec%%=*}"
        rm -rf "$WORK/out"
        count="$(cd "$data" && valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind-$index.out" \
            "$stripped" build --config "${configs[$index]}" --output "$WORK/out" --quiet 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
        [ -n "$count" ] || { echo "instructions.sh: no count for $spec" >&2; exit 1; }
        printf '%-60s %15s instructions\n' "$spec" "$count"
        rows+=("{\"binary\": \"$spec\", \"instructions\": $count}")
    done
else
    declare -A seconds
    for round in $(seq "$ROUNDS"); do
        for index in "${!BINS[@]}"; do
            rm -rf "$WORK/out"
            (cd "$data" && /usr/bin/time -f %U -o "$WORK/user-cpu" "${pin[@]}" "${BINS[$index]%%=*}" build \
                --config "${configs[$index]}" --output "$WORK/out" --quiet)
            seconds[$index]="${seconds[$index]:-} $(tail -1 "$WORK/user-cpu")"
        done
    done
    last=$(( ${#BINS[@]} - 1 ))
    median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    base="$(echo "${seconds[$last]}" | median)"
    for index in "${!BINS[@]}"; do
        spec="${BINS[$index]}"
        middle="$(echo "${seconds[$index]}" | median)"
        printf '%-60s median %6.2f s user CPU, %5.2fx the last (rounds:%s)\n' "$spec" "$middle" "$(awk -v a="$middle" -v b="$base" 'BEGIN { print a / b }')" "${seconds[$index]}"
        rows+=("{\"binary\": \"$spec\", \"user_cpu_seconds\": [$(echo ${seconds[$index]} | tr ' ' ',')], \"median\": $middle}")
    done
fi
{ printf '{"cities": %s, "runs": [' "$N"; (IFS=,; printf '%s' "${rows[*]}"); printf ']}\n'; } > "$RESULTS"
echo "results: $RESULTS"
