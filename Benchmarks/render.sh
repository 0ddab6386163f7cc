#!/usr/bin/env bash
# Render benchmark: Isobar (snapshot provider, no network) against an equivalent Hugo site.
#
#   Benchmarks/render.sh [options] [N...]          (default N: 1000 10000)
#
#   -r, --runs K         measured runs per tool and N (default 3)
#   -s, --seed S         data-set seed (default 1)
#   -w, --work DIR       where data sets and outputs live (default /tmp/isobar-bench)
#       --hugo-data M    data | resource: how the Hugo site gets each city's JSON (default data)
#       --no-build       do not run `swift build`; use the existing binary
#       --bin PATH       use this isobar binary (implies --no-build)
#       --no-hugo        measure Isobar only
#       --timeout SECS   kill a run after SECS (default 3600)
#       --results FILE   where to write the JSON (default Benchmarks/results/render-<date>.json)
#       --keep-outputs   keep the built sites (under the run's scratch folder) for inspection
#       --languages L    also a full build of the same site in the languages L (e.g. en,he,ar:
#                        `languages: [en, he, ar]`), to compare with the one-language build
#       --cards          also a full build of the same site with `share_card: false`, to tell
#                        what the share images (card.png) cost
#
# For each N, per run: Isobar full build into a new folder, Isobar rebuild into the same
# folder (no data changed: it should write nothing), Hugo full build into a new folder.
# Wall time, user/sys time and peak RSS come from /usr/bin/time -v.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
RUNS=3
SEED=1
WORK=/tmp/isobar-bench
HUGO_DATA=data
BUILD=1
BIN=""
HUGO=1
TIMEOUT=3600
RESULTS=""
KEEP=0
LANGUAGES=""
CARDS=0
NS=()

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        -r|--runs) RUNS="$2"; shift 2 ;;
        -s|--seed) SEED="$2"; shift 2 ;;
        -w|--work) WORK="$2"; shift 2 ;;
        --hugo-data) HUGO_DATA="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN="$2"; BUILD=0; shift 2 ;;
        --no-hugo) HUGO=0; shift ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        --keep-outputs) KEEP=1; shift ;;
        --languages) LANGUAGES="$2"; shift 2 ;;
        --cards) CARDS=1; shift ;;
        -h|--help) usage 0 ;;
        -*) echo "render.sh: unknown option $1" >&2; usage 64 ;;
        *) NS+=("$1"); shift ;;
    esac
done
[ ${#NS[@]} -gt 0 ] || NS=(1000 10000)

command -v python3 >/dev/null || { echo "render.sh: python3 is needed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "render.sh: /usr/bin/time is needed (apt-get install -y time)" >&2; exit 1; }
if [ "$HUGO" = 1 ] && ! command -v hugo >/dev/null; then
    echo "render.sh: hugo not found (apt-get install -y hugo), or pass --no-hugo" >&2; exit 1
fi

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
[ -n "$RESULTS" ] || RESULTS="$HERE/results/render-$STAMP.json"
mkdir -p "$WORK" "$(dirname "$RESULTS")"
SCRATCH="$(mktemp -d "$WORK/run-$STAMP.XXXX")"
RUNLOG="$SCRATCH/runs.jsonl"
: > "$RUNLOG"

# ---- build -------------------------------------------------------------------------
T_START=$(date +%s)
if [ "$BUILD" = 1 ]; then
    echo "== building isobar (swift build -c release --product isobar)"
    t0=$(date +%s)
    if ! (cd "$REPO" && swift build -c release --product isobar) > "$SCRATCH/swift-build.log" 2>&1; then
        tail -n 30 "$SCRATCH/swift-build.log" >&2
        echo "render.sh: swift build failed (log: $SCRATCH/swift-build.log); --no-build uses the existing binary" >&2
        exit 1
    fi
    tail -n 2 "$SCRATCH/swift-build.log" | sed 's/^/   /'
    echo "   built in $(( $(date +%s) - t0 )) s"
fi
[ -n "$BIN" ] || BIN="$REPO/.build/release/isobar"
[ -x "$BIN" ] || { echo "render.sh: no isobar binary at $BIN" >&2; exit 1; }
ISOBAR_VERSION="$("$BIN" --version 2>&1 | head -n 1 || true)"
HUGO_VERSION="$( [ "$HUGO" = 1 ] && hugo version 2>&1 | head -n 1 || echo none)"
COMMIT="$(git -C "$REPO" --no-optional-locks rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git -C "$REPO" --no-optional-locks status --porcelain --untracked-files=no -- Sources Templates Public 2>/dev/null | wc -l)"
echo "== isobar: $BIN ($ISOBAR_VERSION), commit $COMMIT, $DIRTY modified files under Sources/Templates/Public"
echo "== hugo:   $HUGO_VERSION"

# ---- data sets ---------------------------------------------------------------------
GEN_HASH="$(cat "$HERE/generate.py" "$HERE/hugo_site.py" | sha256sum | cut -c1-16)"
dataset() {   # dataset N -> prints the data set folder, generating it if missing or stale
    local n="$1" dir="$WORK/render-$1-seed$SEED-$HUGO_DATA"
    if [ ! -f "$dir/.complete" ] || [ "$(cat "$dir/.complete")" != "$GEN_HASH" ]; then
        echo "== generating N=$n into $dir" >&2
        rm -rf "$dir"
        date +%s > "$WORK/.last-delete"
        local t0; t0=$(date +%s.%N)
        python3 "$HERE/generate.py" "$n" --seed "$SEED" --out "$dir" --hugo-data "$HUGO_DATA" >&2
        echo "$GEN_HASH" > "$dir/.complete"
        echo "   generated in $(python3 -c "print('%.1f' % ($(date +%s.%N) - $t0))") s" >&2
    else
        echo "== reusing data set $dir" >&2
    fi
    echo "$dir"
}

# ---- one measured run ----------------------------------------------------------------
. "$HERE/measured.sh"

# measure TOOL N RUN OUTPUT_DIR REPORT -- command...
measure() {
    local tool="$1" n="$2" run="$3" out="$4" report="$5"; shift 6
    local tf="$SCRATCH/$tool-$n-$run.time" errf="$SCRATCH/$tool-$n-$run.stderr"
    local t0 t1 rc=0
    local stat0 stat1
    stat0="$(head -n 1 /proc/stat | tr ' ' '_')"
    t0=$(date +%s.%N)
    run_measured "$tf" "$SCRATCH/$tool-$n-$run.stdout" "$errf" "$@" || rc=$?
    t1=$(date +%s.%N)
    stat1="$(head -n 1 /proc/stat | tr ' ' '_')"
    local wall; wall=$(python3 -c "print($t1 - $t0)")
    local written="" files=""
    if [ -n "$report" ] && [ -f "$report" ]; then
        written="$(python3 "$HERE/benchlib.py" report-field "$report" files.written)"
    fi
    [ -d "$out" ] && files=$(find "$out" -type f | wc -l)
    if [ "$rc" != 0 ]; then
        echo "    !! $tool N=$n run $run exited $rc; stderr (last lines):"
        tail -n 5 "$errf" | sed 's/^/       /'
    elif [ -s "$errf" ]; then
        echo "    (stderr of $tool N=$n run $run: $(head -c 300 "$errf" | tr '\n' ' '))"
    fi
    python3 "$HERE/benchlib.py" record "$RUNLOG" "$tf" tool="$tool" n="$n" run="$run" \
        exit_code="$rc" wall_s="$wall" files_written="$written" output_files="$files" \
        load_before="$(cut -d' ' -f1 /proc/loadavg)" report="$report" \
        cpustat0="$stat0" cpustat1="$stat1"
}

# ---- the benchmark -----------------------------------------------------------------
# Every full build writes into a folder of its own, and outputs are deleted only when the
# benchmark ends. ext4 without a journal (as on this project's machine) skips inodes
# freed in the last ~30 s (dirty_expire_centisecs) when it allocates new ones, scanning
# past each of them: a build started right after `rm -rf` of the previous output spent
# most of its time in the kernel doing that, by an amount that depended on what had been
# deleted when — noise that has nothing to do with either tool. Old outputs from earlier
# invocations are removed first, then the benchmark waits that window out.
old_outputs=$(find "$WORK" -maxdepth 2 -type d \( -name 'out-isobar-*' -o -name 'out-hugo-*' \) 2>/dev/null | grep -v "^$SCRATCH/" || true)
if [ -n "$old_outputs" ]; then
    echo "== removing outputs of earlier runs"
    echo "$old_outputs" | xargs rm -rf
    date +%s > "$WORK/.last-delete"
fi
for n in "${NS[@]}"; do
    dir="$(dataset "$n")"
    settle
    # Both tools read the same files; read them once first, so that the first measured run
    # (always Isobar's) does not pay for a cold page cache that the next tool then enjoys.
    echo "== reading the data set once (page cache)"
    find "$dir" -type f -print0 | xargs -0 cat > /dev/null
    if [ -n "$LANGUAGES" ]; then
        # The same site in several languages: only the first line differs.
        sed "s/^language: .*/languages: [${LANGUAGES//,/, }]/" "$dir/isobar.yml" > "$dir/isobar-languages.yml"
    fi
    if [ "$CARDS" = 1 ]; then
        # The same site without share images: one key more.
        { cat "$dir/isobar.yml"; echo "share_card: false"; } > "$dir/isobar-nocards.yml"
    fi
    echo "== N=$n: $RUNS runs (isobar full, isobar rebuild${LANGUAGES:+, isobar in $LANGUAGES}$([ "$CARDS" = 1 ] && echo ', isobar without cards'), hugo full)"
    for run in $(seq 1 "$RUNS"); do
        iout="$SCRATCH/out-isobar-$n-$run"
        hout="$SCRATCH/out-hugo-$n-$run"
        sync
        measure isobar "$n" "$run" "$iout" "$SCRATCH/report-$n-$run-full.json" -- \
            "$BIN" build --config "$dir/isobar.yml" --output "$iout" --quiet \
            --report "$SCRATCH/report-$n-$run-full.json"
        measure isobar-rebuild "$n" "$run" "$iout" "$SCRATCH/report-$n-$run-rebuild.json" -- \
            "$BIN" build --config "$dir/isobar.yml" --output "$iout" --quiet \
            --report "$SCRATCH/report-$n-$run-rebuild.json"
        if [ -n "$LANGUAGES" ]; then
            sync
            measure isobar-languages "$n" "$run" "$SCRATCH/out-isobar-languages-$n-$run" "$SCRATCH/report-$n-$run-languages.json" -- \
                "$BIN" build --config "$dir/isobar-languages.yml" --output "$SCRATCH/out-isobar-languages-$n-$run" --quiet \
                --report "$SCRATCH/report-$n-$run-languages.json"
        fi
        if [ "$CARDS" = 1 ]; then
            sync
            measure isobar-nocards "$n" "$run" "$SCRATCH/out-isobar-nocards-$n-$run" "$SCRATCH/report-$n-$run-nocards.json" -- \
                "$BIN" build --config "$dir/isobar-nocards.yml" --output "$SCRATCH/out-isobar-nocards-$n-$run" --quiet \
                --report "$SCRATCH/report-$n-$run-nocards.json"
        fi
        if [ "$HUGO" = 1 ]; then
            sync
            measure hugo "$n" "$run" "$hout" "" -- \
                hugo --quiet --source "$dir/hugo" --destination "$hout"
        fi
    done
done

# ---- summary -----------------------------------------------------------------------
python3 - "$SCRATCH/meta.json" <<EOF
import json, os, platform, sys
mem = open("/proc/meminfo").readline().split()[1]
json.dump({
    "date": "$STAMP",
    "benchmark": "render",
    "ns": [int(x) for x in "${NS[*]}".split()],
    "runs_per_tool": $RUNS,
    "seed": "$SEED",
    "hugo_data_mode": "$HUGO_DATA",
    "languages": "$LANGUAGES",
    "isobar_binary": "$BIN",
    "isobar_version": """$ISOBAR_VERSION""",
    "git_commit": "$COMMIT",
    "modified_files_under_sources_templates_public": $DIRTY,
    "hugo_version": """$HUGO_VERSION""",
    "machine": {"cpus": os.cpu_count(), "mem_kib": int(mem), "kernel": platform.release(),
                "loadavg_end": open("/proc/loadavg").read().split()[:3]},
    "work_dir": "$WORK",
    "scratch_dir": "$SCRATCH",
    "total_seconds": $(( $(date +%s) - T_START )),
}, open(sys.argv[1], "w"), indent=2)
EOF
python3 "$HERE/benchlib.py" summarize "$RUNLOG" "$SCRATCH/meta.json" "$RESULTS"
if [ "$KEEP" = 0 ]; then
    rm -rf "$SCRATCH"/out-isobar-* "$SCRATCH"/out-hugo-*
    date +%s > "$WORK/.last-delete"
fi
echo "raw timings, stderr and reports: $SCRATCH"
echo "total benchmark time: $(( $(date +%s) - T_START )) s"
