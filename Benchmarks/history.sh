#!/usr/bin/env bash
# History benchmark: what recording the weather history adds to a full build.
#
#   Benchmarks/history.sh [options] [N...]          (default N: 10000)
#
#   -r, --runs K           measured runs per arm and N (default 3)
#   -s, --seed S           data-set seed (default 1)
#   -w, --work DIR         where data sets, databases and outputs live (default /tmp/isobar-bench)
#       --days D           days of history in the pre-filled database (default 30)
#       --observe-every T  its observations' cadence (default 15m)
#       --issue-every T    cadence of its forecasts as issued (default 24h)
#       --no-build         do not run `swift build`; use the existing binary
#       --bin PATH         use this isobar binary (implies --no-build)
#       --timeout SECS     kill a run after SECS (default 3600)
#       --results FILE     where to write the JSON (default Benchmarks/results/history-<date>.json)
#       --keep-outputs     keep the built sites and databases (under the run's scratch folder)
#
# For each N: the data set (generate.py --no-hugo); a template history, recorded by one
# build into an empty database (measured too, as "on, empty db"); from it, a database
# holding D days of history for the N cities (history_fill.py, reused while the schema,
# the parameters and the scripts are the same); then, alternating, K full builds into a
# new folder with `history.enabled: false` and K with `true` against a fresh copy of the
# pre-filled database, so every run records N new data times; after each on run, one
# more ("seen") on its database: the same full build with nothing new to record. on − seen
# is what recording costs; seen − off what the pages' history sections cost (reading
# the past, building and writing the sections). /usr/bin/time -v gives wall, user and
# system time and peak RSS.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
RUNS=3
SEED=1
WORK=/tmp/isobar-bench
DAYS=30
OBSERVE=15m
ISSUE=24h
BUILD=1
BIN=""
TIMEOUT=3600
RESULTS=""
KEEP=0
NS=()

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        -r|--runs) RUNS="$2"; shift 2 ;;
        -s|--seed) SEED="$2"; shift 2 ;;
        -w|--work) WORK="$2"; shift 2 ;;
        --days) DAYS="$2"; shift 2 ;;
        --observe-every) OBSERVE="$2"; shift 2 ;;
        --issue-every) ISSUE="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN="$2"; BUILD=0; shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        --keep-outputs) KEEP=1; shift ;;
        -h|--help) usage 0 ;;
        -*) echo "history.sh: unknown option $1" >&2; usage 64 ;;
        *) NS+=("$1"); shift ;;
    esac
done
[ ${#NS[@]} -gt 0 ] || NS=(10000)

command -v python3 >/dev/null || { echo "history.sh: python3 is needed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "history.sh: /usr/bin/time is needed (apt-get install -y time)" >&2; exit 1; }

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
[ -n "$RESULTS" ] || RESULTS="$HERE/results/history-$STAMP.json"
mkdir -p "$WORK" "$(dirname "$RESULTS")"
SCRATCH="$(mktemp -d "$WORK/history-run-$STAMP.XXXX")"
RUNLOG="$SCRATCH/runs.jsonl"
: > "$RUNLOG"
T_START=$(date +%s)

# ---- build -------------------------------------------------------------------------
if [ "$BUILD" = 1 ]; then
    echo "== building isobar (swift build -c release --product isobar)"
    if ! (cd "$REPO" && swift build -c release --product isobar) > "$SCRATCH/swift-build.log" 2>&1; then
        tail -n 30 "$SCRATCH/swift-build.log" >&2
        echo "history.sh: swift build failed (log: $SCRATCH/swift-build.log); --no-build uses the existing binary" >&2
        exit 1
    fi
    tail -n 1 "$SCRATCH/swift-build.log" | sed 's/^/   /'
fi
[ -n "$BIN" ] || BIN="$REPO/.build/release/isobar"
[ -x "$BIN" ] || { echo "history.sh: no isobar binary at $BIN" >&2; exit 1; }
ISOBAR_VERSION="$("$BIN" --version 2>&1 | head -n 1 || true)"
COMMIT="$(git -C "$REPO" --no-optional-locks rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git -C "$REPO" --no-optional-locks status --porcelain --untracked-files=no -- Sources 2>/dev/null | wc -l)"
echo "== isobar: $BIN ($ISOBAR_VERSION), commit $COMMIT, $DIRTY modified files under Sources"

# ---- data sets ---------------------------------------------------------------------
GEN_HASH="$(sha256sum < "$HERE/generate.py" | cut -c1-16)"
dataset() {   # dataset N -> prints the data set folder, generating it if missing or stale
    local n="$1" dir="$WORK/history-$1-seed$SEED-data"
    if [ ! -f "$dir/.complete" ] || [ "$(cat "$dir/.complete")" != "$GEN_HASH" ]; then
        echo "== generating N=$n into $dir" >&2
        rm -rf "$dir"
        python3 "$HERE/generate.py" "$n" --seed "$SEED" --out "$dir" --no-hugo >&2
        echo "$GEN_HASH" > "$dir/.complete"
    else
        echo "== reusing data set $dir" >&2
    fi
    echo "$dir"
}

# config DATA_DIR DB ENABLED OUT_FILE: the data set's config with a history block.
config() {
    { grep -v '^history:' "$1/isobar.yml" | sed "s#^snapshot_dir: Samples\$#snapshot_dir: $1/Samples#"
      echo "history: { database: \"$2\", enabled: $3 }"; } > "$4"
}

# ---- one measured run ----------------------------------------------------------------
. "$HERE/measured.sh"

# measure ARM N RUN OUTPUT_DIR REPORT DB -- command...   (DB: the history file, or "")
measure() {
    local arm="$1" n="$2" run="$3" out="$4" report="$5" db="$6"; shift 7
    local tf="$SCRATCH/$arm-$n-$run.time" errf="$SCRATCH/$arm-$n-$run.stderr"
    local t0 t1 rc=0 stat0 stat1 before="" after=""
    [ -z "$db" ] || before="$(python3 "$HERE/benchlib.py" file-size "$db")"
    stat0="$(head -n 1 /proc/stat | tr ' ' '_')"
    t0=$(date +%s.%N)
    run_measured "$tf" "$SCRATCH/$arm-$n-$run.stdout" "$errf" "$@" || rc=$?
    t1=$(date +%s.%N)
    stat1="$(head -n 1 /proc/stat | tr ' ' '_')"
    [ -z "$db" ] || after="$(python3 "$HERE/benchlib.py" file-size "$db")"
    if [ "$rc" != 0 ]; then
        echo "    !! $arm N=$n run $run exited $rc; stderr (last lines):"
        tail -n 5 "$errf" | sed 's/^/       /'
    fi
    python3 "$HERE/benchlib.py" record "$RUNLOG" "$tf" tool="$arm" n="$n" run="$run" \
        exit_code="$rc" wall_s="$(python3 -c "print($t1 - $t0)")" \
        files_written="$(python3 "$HERE/benchlib.py" report-field "$report" files.written)" \
        history_recorded="$(python3 "$HERE/benchlib.py" report-field "$report" history.recorded)" \
        recording_cpu_s="$(python3 "$HERE/benchlib.py" report-field "$report" history.recording_cpu_seconds)" \
        db_bytes_before="$before" db_bytes_after="$after" \
        load_before="$(cut -d' ' -f1 /proc/loadavg)" report="$report" \
        cpustat0="$stat0" cpustat1="$stat1"
}

# ---- the benchmark -----------------------------------------------------------------
FILL_HASH="$(cat "$HERE/history_fill.py" "$HERE/generate.py" | sha256sum | cut -c1-16)"
for n in "${NS[@]}"; do
    dir="$(dataset "$n")"
    echo "== reading the data set once (page cache)"
    find "$dir/Samples" -type f -print0 | xargs -0 cat > /dev/null

    settle
    # The template: one build into an empty database records the snapshot's data time
    # for every city, in the schema of this binary.
    template="$SCRATCH/template-$n.sqlite"
    config "$dir" "$template" true "$SCRATCH/template-$n.yml"
    sync
    echo "== N=$n: recording into an empty database (the template)"
    measure on-empty-db "$n" 0 "$SCRATCH/out-template-$n" "$SCRATCH/report-$n-template.json" "$template" -- \
        "$BIN" build --config "$SCRATCH/template-$n.yml" --output "$SCRATCH/out-template-$n" --quiet \
        --report "$SCRATCH/report-$n-template.json"

    # The pre-filled database, reused while the schema and the parameters are the same.
    schema="$(python3 "$HERE/benchlib.py" sqlite-schema "$template" | sha256sum | cut -c1-16)"
    prefill="$WORK/history-$n-seed$SEED-${DAYS}d-$OBSERVE-$ISSUE-$schema-$FILL_HASH.sqlite"
    if [ ! -f "$prefill.json" ]; then
        echo "== N=$n: pre-filling $DAYS days of history (observations every $OBSERVE, forecasts every $ISSUE)"
        rm -f "$WORK"/history-"$n"-seed"$SEED"-*.sqlite*   # earlier schemas' or parameters' files
        python3 "$HERE/history_fill.py" "$template" "$prefill.tmp" --cities "$dir/cities.json" \
            --days "$DAYS" --observe-every "$OBSERVE" --issue-every "$ISSUE"
        # The binary opens the filled file once, as a build would, before it is kept.
        config "$dir" "$prefill.tmp" true "$SCRATCH/prefill-$n.yml"
        "$BIN" history stats --config "$SCRATCH/prefill-$n.yml" > /dev/null
        mv "$prefill.tmp" "$prefill" && mv "$prefill.tmp.json" "$prefill.json"
    else
        echo "== N=$n: reusing the pre-filled database $prefill"
    fi
    cp "$prefill.json" "$SCRATCH/prefill-$n.json"

    db="$SCRATCH/history-$n.sqlite"
    config "$dir" "$db" false "$SCRATCH/off-$n.yml"
    config "$dir" "$db" true "$SCRATCH/on-$n.yml"
    echo "== N=$n: $RUNS runs each, alternating (history off, history on against the pre-filled database)"
    for run in $(seq 1 "$RUNS"); do
        for arm in off on seen; do
            # A fresh copy of the pre-filled database for the off and on arms (the off arm
            # does not open it), written out before the clock starts. The seen arm builds
            # again on the on arm's database, which holds this data time already: the same
            # pages, read from the same past, with nothing new to record.
            # Every arm starts alike: a 7 GB file deleted and one written out just before
            # (freeing and allocating that many blocks costs the next build system time).
            if [ "$arm" != seen ]; then
                rm -f "$db" "$db-wal" "$db-shm"
                cp "$prefill" "$db"
            else
                cp "$db" "$db.seen"
                rm -f "$db" "$db-wal" "$db-shm"
                mv "$db.seen" "$db"
            fi
            sync
            out="$SCRATCH/out-$arm-$n-$run"
            report="$SCRATCH/report-$n-$run-$arm.json"
            measure "$arm" "$n" "$run" "$out" "$report" "$([ "$arm" != off ] && echo "$db" || true)" -- \
                "$BIN" build --config "$SCRATCH/$([ "$arm" = off ] && echo off || echo on)-$n.yml" --output "$out" --quiet --report "$report"
        done
    done
    [ "$KEEP" = 1 ] || rm -f "$db" "$db-wal" "$db-shm" "$template"
done

# ---- summary -----------------------------------------------------------------------
python3 - "$SCRATCH/meta.json" <<EOF
import json, os, platform, sys
mem = open("/proc/meminfo").readline().split()[1]
json.dump({
    "date": "$STAMP",
    "benchmark": "history",
    "ns": [int(x) for x in "${NS[*]}".split()],
    "runs_per_arm": $RUNS,
    "seed": "$SEED",
    "prefill": {"days": $DAYS, "observe_every": "$OBSERVE", "issue_every": "$ISSUE",
                "by_n": {n: json.load(open("$SCRATCH/prefill-%s.json" % n)) for n in "${NS[*]}".split()}},
    "isobar_binary": "$BIN",
    "isobar_version": """$ISOBAR_VERSION""",
    "git_commit": "$COMMIT",
    "modified_files_under_sources": $DIRTY,
    "machine": {"cpus": os.cpu_count(), "mem_kib": int(mem), "kernel": platform.release(),
                "loadavg_end": open("/proc/loadavg").read().split()[:3]},
    "work_dir": "$WORK",
    "scratch_dir": "$SCRATCH",
    "total_seconds": $(( $(date +%s) - T_START )),
}, open(sys.argv[1], "w"), indent=2)
EOF
python3 "$HERE/benchlib.py" history-summary "$RUNLOG" "$SCRATCH/meta.json" "$RESULTS"
if [ "$KEEP" = 0 ]; then rm -rf "$SCRATCH"/out-*; date +%s > "$WORK/.last-delete"; fi
echo "raw timings, stderr and reports: $SCRATCH"
echo "total benchmark time: $(( $(date +%s) - T_START )) s"
