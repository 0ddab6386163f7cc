#!/usr/bin/env bash
# Fetch benchmark: `isobar build` with provider openweather against a loopback stand-in
# (Benchmarks/standin.py) that answers every request after a fixed latency.
#
#   Benchmarks/fetch.sh [options]
#
#   -n N                 cities (default 1000; 2 requests each: One Call + Air Pollution)
#       --latency-ms L   stand-in latency per answer (default 100)
#       --concurrency C  openweather.concurrency (default 8)
#       --rate-bound     also run the rate-bound scenario, requests_per_minute 600
#                        (2000 requests take at least ~3-4 minutes)
#       --only-rate-bound  run only the rate-bound scenario
#   -s, --seed S         data-set seed (default 1)
#   -w, --work DIR       default /tmp/isobar-bench
#       --no-build       do not run `swift build`; use the existing binary
#       --bin PATH       use this isobar binary (implies --no-build)
#       --timeout SECS   kill isobar after SECS (default 1800)
#       --results FILE   default Benchmarks/results/fetch-<date>.json
#
# Scenarios: latency-bound (requests_per_minute 100000) and, optionally, rate-bound (600).
# Each starts from a cold cache and an empty output folder.  Reported: requests seen by the
# stand-in, wall time, the ideal bound max(requests / rate, requests x latency / concurrency),
# wall / ideal, and the most requests the stand-in saw in any 60-second window.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
N=1000
LATENCY_MS=100
CONC=8
SCENARIOS=(100000)
SEED=1
WORK=/tmp/isobar-bench
BUILD=1
BIN=""
TIMEOUT=1800
RESULTS=""

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
    case "$1" in
        -n) N="$2"; shift 2 ;;
        --latency-ms) LATENCY_MS="$2"; shift 2 ;;
        --concurrency) CONC="$2"; shift 2 ;;
        --rate-bound) SCENARIOS=(100000 600); shift ;;
        --only-rate-bound) SCENARIOS=(600); shift ;;
        -s|--seed) SEED="$2"; shift 2 ;;
        -w|--work) WORK="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN="$2"; BUILD=0; shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "fetch.sh: unknown argument $1" >&2; usage 64 ;;
    esac
done

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
[ -n "$RESULTS" ] || RESULTS="$HERE/results/fetch-$STAMP.json"
mkdir -p "$WORK" "$(dirname "$RESULTS")"
SCRATCH="$(mktemp -d "$WORK/fetch-run-$STAMP.XXXX")"
T_START=$(date +%s)

# The stand-in and the measured isobar run are background jobs whose ids we keep: the
# traps stop exactly those (isobar runs in a session of its own, stopped by its group id).
SERVER_PID=""
CHILD=""
stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
on_signal() {
    [ -z "$CHILD" ] || kill -TERM -- "-$CHILD" 2>/dev/null || true
    stop_server
    echo "fetch.sh: interrupted; logs in $SCRATCH" >&2
    exit 130
}
trap stop_server EXIT
trap on_signal INT TERM

if [ "$BUILD" = 1 ]; then
    echo "== building isobar (swift build -c release --product isobar)"
    if ! (cd "$REPO" && swift build -c release --product isobar) > "$SCRATCH/swift-build.log" 2>&1; then
        tail -n 30 "$SCRATCH/swift-build.log" >&2
        echo "fetch.sh: swift build failed (log: $SCRATCH/swift-build.log)" >&2
        exit 1
    fi
fi
[ -n "$BIN" ] || BIN="$REPO/.build/release/isobar"
[ -x "$BIN" ] || { echo "fetch.sh: no isobar binary at $BIN" >&2; exit 1; }
ISOBAR_VERSION="$("$BIN" --version 2>&1 | head -n 1 || true)"
COMMIT="$(git -C "$REPO" --no-optional-locks rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "== isobar: $BIN ($ISOBAR_VERSION), commit $COMMIT"

# Data set (samples only; the config is rewritten per scenario with the stand-in's port).
DIR="$WORK/fetch-$N-seed$SEED"
GEN_HASH="$(cat "$HERE/generate.py" | sha256sum | cut -c1-16)"
if [ ! -f "$DIR/.complete" ] || [ "$(cat "$DIR/.complete")" != "$GEN_HASH" ]; then
    echo "== generating N=$N into $DIR"
    rm -rf "$DIR"
    python3 "$HERE/generate.py" "$N" --seed "$SEED" --out "$DIR" --no-hugo
    echo "$GEN_HASH" > "$DIR/.complete"
fi
OUT="$WORK/out-fetch-$N"
SUMMARY="$SCRATCH/summary.jsonl"
: > "$SUMMARY"

for RPM in "${SCENARIOS[@]}"; do
    if [ "$RPM" -ge 100000 ]; then NAME=latency-bound; else NAME=rate-bound; fi
    echo
    echo "== scenario $NAME: N=$N, requests_per_minute $RPM, concurrency $CONC, latency $LATENCY_MS ms"
    LOG="$SCRATCH/requests-$NAME.log"
    PORTFILE="$SCRATCH/port-$NAME"
    : > "$LOG"
    python3 "$HERE/standin.py" --dir "$DIR" --latency-ms "$LATENCY_MS" --port-file "$PORTFILE" \
        --log "$LOG" --api-key bench --parent $$ 2> "$SCRATCH/standin-$NAME.stderr" &
    SERVER_PID=$!
    for _ in $(seq 1 100); do [ -s "$PORTFILE" ] && break; sleep 0.1; done
    [ -s "$PORTFILE" ] || { cat "$SCRATCH/standin-$NAME.stderr" >&2; echo "fetch.sh: stand-in did not start" >&2; exit 1; }
    PORT="$(cat "$PORTFILE")"
    echo "   stand-in on 127.0.0.1:$PORT (pid $SERVER_PID), log $LOG"
    python3 "$HERE/generate.py" "$N" --seed "$SEED" --out "$DIR" --config-only \
        --provider openweather --base-url "http://127.0.0.1:$PORT" \
        --requests-per-minute "$RPM" --concurrency "$CONC" > /dev/null
    rm -rf "$DIR/.cache" "$OUT"
    REPORT="$SCRATCH/report-$NAME.json"
    rc=0
    t0=$(date +%s.%N)
    setsid /usr/bin/time -v -o "$SCRATCH/time-$NAME" timeout --foreground "$TIMEOUT" \
        env OPENWEATHER_API_KEY=bench \
        "$BIN" build --config "$DIR/isobar.yml" --output "$OUT" --quiet --report "$REPORT" \
        > "$SCRATCH/isobar-$NAME.stdout" 2> "$SCRATCH/isobar-$NAME.stderr" &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=""
    t1=$(date +%s.%N)
    WALL=$(python3 -c "print($t1 - $t0)")
    sleep 0.6      # let the stand-in flush its log
    stop_server
    if [ "$rc" != 0 ]; then
        echo "   !! isobar exited $rc; stderr (first lines):"
        head -n 8 "$SCRATCH/isobar-$NAME.stderr" | sed 's/^/      /'
    fi
    grep -E "Maximum resident|User time|System time" "$SCRATCH/time-$NAME" | sed 's/^\s*/   /'
    python3 "$HERE/benchlib.py" fetch-summary "$LOG" "$WALL" "$rc" "$RPM" "$LATENCY_MS" "$CONC" \
        "$REPORT" "$NAME" "$SUMMARY"
done

python3 - "$SUMMARY" "$RESULTS" <<EOF
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
json.dump({"date": "$STAMP", "benchmark": "fetch", "n": $N, "seed": "$SEED",
           "latency_ms": $LATENCY_MS, "concurrency": $CONC,
           "isobar_version": """$ISOBAR_VERSION""", "git_commit": "$COMMIT",
           "scratch_dir": "$SCRATCH", "total_seconds": $(( $(date +%s) - T_START )),
           "scenarios": rows}, open(sys.argv[2], "w"), indent=2)
print()
print("%-14s %8s %6s %9s %9s %11s %9s %13s %6s" % ("scenario", "req/min", "requests", "wall s", "ideal s",
      "wall/ideal", "burst s", "max in 60 s", "exit"))
for r in rows:
    print("%-14s %8d %8d %9.2f %9.2f %11s %9.2f %13d %6d" % (r["scenario"], r["requests_per_minute"],
          r["requests"], r["wall_s"], r["ideal_s"],
          "%.2f" % r["wall_over_ideal"] if r["wall_over_ideal"] else "-", r["window_bound_s"],
          r["max_requests_in_60s"], r["exit_code"]))
print("ideal = max(requests / rate, requests x latency / concurrency); burst = the least a limiter allowing"
      "\n'rate' requests in any 60 s window can take, (ceil(requests / rate) - 1) x 60 s + latency")
print("\nresults written to %s" % sys.argv[2])
EOF
echo "logs: $SCRATCH"
echo "total benchmark time: $(( $(date +%s) - T_START )) s"
