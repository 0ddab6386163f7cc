#!/usr/bin/env bash
# Idle cost of the live preview: the CPU `isobar serve` takes while nothing changes.
#
#   Benchmarks/serve_idle.sh [--seconds S] [--bin PATH]
#
#   --seconds S   how long it is watched idle (default 30), after the first build
#   --bin PATH    the isobar binary (default .build/debug/isobar; build it first)
#
# `isobar serve` on a copy of the demo site (its watched folders: 1,448 files), no page
# open, no file touched: the process's user and system time (/proc/PID/stat) over S
# seconds, as a share of one core. Linux only.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
SECONDS_IDLE=30
BIN="$REPO/.build/debug/isobar"
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) SECONDS_IDLE="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "serve_idle.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
[ -x "$BIN" ] || { echo "serve_idle.sh: no isobar binary at $BIN" >&2; exit 1; }

SITE="$(mktemp -d)"
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$SITE"' EXIT
cp -r "$REPO"/isobar.yml "$REPO"/Samples "$REPO"/Templates "$REPO"/Public "$REPO"/Data "$SITE"/
mkdir "$SITE/tmp"
(cd "$SITE" && TMPDIR="$SITE/tmp" exec "$BIN" serve --port 0 2> "$SITE/serve.log") &
PID=$!
for _ in $(seq 1 600); do grep -q "serving http" "$SITE/serve.log" && break; sleep 0.1; done
grep -q "serving http" "$SITE/serve.log" || { cat "$SITE/serve.log" >&2; exit 1; }
sleep 2  # the first build's last writes settle

ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
HZ="$(getconf CLK_TCK)"
start="$(ticks)"
sleep "$SECONDS_IDLE"
end="$(ticks)"
files="$(find "$SITE/Templates" "$SITE/Public" "$SITE/Samples" "$SITE/Data" -type f | wc -l)"
python3 - "$start" "$end" "$HZ" "$SECONDS_IDLE" "$files" <<'PY'
import sys
start, end, hz, seconds, files = (float(x) for x in sys.argv[1:])
cpu = (end - start) / hz
print(f"isobar serve, idle {seconds:.0f} s, {files:.0f} files under the site: "
      f"{cpu:.2f} s of CPU, {100 * cpu / seconds:.2f} % of a core")
PY
