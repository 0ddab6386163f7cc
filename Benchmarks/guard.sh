#!/usr/bin/env bash
# The instruction guard: counts the instructions of one full build of the 200-city site
# (`instructions.sh -n 200`) with the given binary, and fails when they are more than 3 %
# over the baseline committed in Benchmarks/instructions-baseline.json.
#
#   Benchmarks/guard.sh [BIN]          BIN defaults to the release build, .build-release/release/isobar
#   Benchmarks/guard.sh --update [BIN] writes the count as the new baseline (commit it on its
#                                      own, saying why the build does more or less work now)
#
# Counts, not times: they hardly move with the machine's load (two runs of one binary differ
# by about 0.2 %), so the guard can run beside the other tests. The build's clock is pinned
# (SOURCE_DATE_EPOCH, the data set's own time), so the count does not drift with the date.
# A change that slows the build on purpose (more work for a visitor's benefit) updates the
# baseline in its own commit; one that slows it by accident fails here.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
BASELINE="$HERE/instructions-baseline.json"
ALLOWED_PERCENT=3
update=false
if [ "${1:-}" = "--update" ]; then update=true; shift; fi
bin="${1:-$REPO/.build-release/release/isobar}"
[ -x "$bin" ] || { echo "guard: no binary at $bin (build one with Tools/install.sh, or name it)" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/isobar-guard.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The generated site's snapshot time (Benchmarks/generate.py, SNAP).
export SOURCE_DATE_EPOCH=1795348800
"$HERE/instructions.sh" -n 200 -w "$work" --results "$work/count.json" "$bin" >/dev/null
count="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["instructions"])' "$work/count.json")"

if $update; then
    printf '{"cities": 200, "instructions": %s}\n' "$count" > "$BASELINE"
    echo "guard: baseline set to $count instructions ($BASELINE)"
    exit 0
fi
[ -f "$BASELINE" ] || { echo "guard: no baseline ($BASELINE); make one with --update" >&2; exit 1; }
python3 - "$BASELINE" "$count" "$ALLOWED_PERCENT" <<'PY'
import json, sys
baseline = json.load(open(sys.argv[1]))["instructions"]
count, allowed = int(sys.argv[2]), float(sys.argv[3])
change = (count - baseline) * 100 / baseline
print(f"guard: {count:,} instructions for a 200-city build, {change:+.2f} % against the baseline's {baseline:,} (allowed: +{allowed:g} %)")
if change > allowed:
    print("guard: the build does more work than the baseline allows: find what grew (Benchmarks/README.md, \"Instruction counts\"),"
          " or, if it is meant, update the baseline in its own commit with the reason (Benchmarks/guard.sh --update)", file=sys.stderr)
    sys.exit(1)
PY
