#!/usr/bin/env bash
# Call-budget demo: N cities (default 2,000) with `openweather.daily_limit` (default 1,000)
# against the loopback stand-in (Benchmarks/standin.py), over simulated cron runs every
# 15 minutes that cross midnight UTC (the run's clock is SOURCE_DATE_EPOCH).
#
#   Benchmarks/budget.sh [-n N] [--limit L] [--runs R] [--bin PATH] [-w DIR]
#
# Prints, per run: the simulated time, the requests the stand-in saw, what the report
# counted, the budget used and left today, and the cities refreshed and deferred. The
# first run's progress lines (no terminal: every 10 % and minute) and the last report are
# kept in the work folder, and the first run is also shown on a pseudo-terminal.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
N=2000
LIMIT=1000
RUNS=10
BIN=""
WORK=/tmp/isobar-budget
while [ $# -gt 0 ]; do
    case "$1" in
        -n) N="$2"; shift 2 ;;
        --limit) LIMIT="$2"; shift 2 ;;
        --runs) RUNS="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        -w) WORK="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "budget.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[ -n "$BIN" ] || { (cd "$REPO" && swift build -c release --product isobar >/dev/null); BIN="$REPO/.build/release/isobar"; }

DIR="$WORK/data-$N"
if [ ! -f "$DIR/.complete" ]; then
    rm -rf "$DIR"
    python3 "$HERE/generate.py" "$N" --out "$DIR" --no-hugo > /dev/null
    touch "$DIR/.complete"
fi
SCRATCH="$(mktemp -d "$WORK/run.XXXX")"
LOG="$SCRATCH/requests.log"
: > "$LOG"
python3 "$HERE/standin.py" --dir "$DIR" --latency-ms 20 --port-file "$SCRATCH/port" --log "$LOG" \
    --api-key bench --parent $$ 2> "$SCRATCH/standin.stderr" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$SCRATCH/port" ] && break; sleep 0.1; done
PORT="$(cat "$SCRATCH/port")"
python3 "$HERE/generate.py" "$N" --out "$DIR" --config-only --provider openweather \
    --base-url "http://127.0.0.1:$PORT" --requests-per-minute 100000 --concurrency 8 > /dev/null
# The plan's limit, the cache's age and the site's own folders for this demo.
sed -i -e "s/concurrency: 8 }/concurrency: 8, daily_limit: $LIMIT }/" \
    -e "s#cache: { dir: .cache }#cache: { dir: $SCRATCH/cache, max_age: 10m }\nstale_after: 2d#" "$DIR/isobar.yml"
CONFIG="$DIR/isobar.yml"
OUT="$SCRATCH/_site"

# 22:45 UTC on 2026-11-22, then every 15 minutes, across midnight.
START=$((1795348800 + 10 * 3600 + 45 * 60))
printf "%-17s %8s %8s %10s %10s %9s %9s %5s\n" "run (UTC)" "server" "report" "used today" "left today" "refreshed" "deferred" "exit"
for run in $(seq 0 $((RUNS - 1))); do
    EPOCH=$((START + run * 900))
    before=$(wc -l < "$LOG")
    rc=0
    if [ "$run" = 0 ] && command -v script >/dev/null 2>&1; then
        # The first run on a pseudo-terminal: the progress line as a person sees it.
        SOURCE_DATE_EPOCH=$EPOCH OPENWEATHER_API_KEY=bench script -qefc \
            "$BIN build --config $CONFIG --output $OUT --report $SCRATCH/report-$run.json" "$SCRATCH/tty-$run.txt" > /dev/null || rc=$?
    else
        SOURCE_DATE_EPOCH=$EPOCH OPENWEATHER_API_KEY=bench "$BIN" build --config "$CONFIG" --output "$OUT" \
            --report "$SCRATCH/report-$run.json" 2> "$SCRATCH/stderr-$run.txt" || rc=$?
    fi
    sleep 0.7   # the stand-in flushes its log every half second
    after=$(wc -l < "$LOG")
    python3 - "$SCRATCH/report-$run.json" "$EPOCH" $((after - before)) "$rc" <<'PY'
import json, sys, datetime
report = json.load(open(sys.argv[1]))
budget = report.get("budget", {})
when = datetime.datetime.fromtimestamp(int(sys.argv[2]), datetime.timezone.utc).strftime("%m-%d %H:%M")
print("%-17s %8s %8s %10s %10s %9s %9s %5s" % (when, sys.argv[3], report.get("requests", {}).get("sent"),
      budget.get("used_today"), budget.get("left_today"), budget.get("cities_refreshed"), budget.get("cities_deferred"), sys.argv[4]))
PY
done
echo
echo "work folder: $SCRATCH (tty-0.txt: the first run's terminal; stderr-N.txt; report-N.json; requests.log)"
