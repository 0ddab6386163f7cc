#!/usr/bin/env bash
# Live-preview benchmark: how long a template save takes to show in an open page.
#
#   Benchmarks/serve.sh [options]
#
#   -n, --samples K     measured saves (default 10; one warm-up save before them)
#       --busy N        keep N busy loops running while measuring (default 0: a quiet machine)
#       --limit S       the promise checked, in seconds from save to page (default 2)
#       --page PATH     the page kept open (default /london-gb/)
#       --no-build      do not run `swift build`; use the existing binary
#       --bin PATH      use this isobar binary (implies --no-build)
#       --results FILE  where to write the JSON (default Benchmarks/results/serve-<date>.json)
#
# `isobar serve` on a copy of the demo site, a city page open in headless Chromium, the
# city template saved K times with a new line; for each save, the time until the page
# showed it (first contentful paint of the reloaded page), split into the part before the
# reload starts (the watcher's looks, the build, the event) and the page's load. Prints
# each sample, the median and the maximum, and whether every save was shown within the
# limit (the README's "reloads the page on every save", 2 s). Needs selenium
# (Tests/browser/requirements.txt), chromium and chromium-driver.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
SAMPLES=10
BUSY=0
LIMIT=2
PAGE=/london-gb/
BUILD=1
BIN=""
RESULTS=""

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        -n|--samples) SAMPLES="$2"; shift 2 ;;
        --busy) BUSY="$2"; shift 2 ;;
        --limit) LIMIT="$2"; shift 2 ;;
        --page) PAGE="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN="$2"; BUILD=0; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "serve.sh: unknown argument $1" >&2; usage 64 ;;
    esac
done

python3 -c 'import selenium' 2>/dev/null || {
    echo "serve.sh: selenium is needed: pip install -r Tests/browser/requirements.txt" >&2; exit 1; }
command -v chromium >/dev/null && [ -x "${ISOBAR_CHROMEDRIVER:-/usr/bin/chromedriver}" ] || {
    echo "serve.sh: chromium and chromium-driver are needed (apt-get install -y chromium chromium-driver)" >&2; exit 1; }

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
[ -n "$RESULTS" ] || RESULTS="$HERE/results/serve-$STAMP.json"

if [ "$BUILD" = 1 ]; then
    echo "== building isobar (swift build -c release --product isobar)"
    log="$(mktemp)"
    if ! (cd "$REPO" && swift build -c release --product isobar) > "$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "serve.sh: swift build failed; --no-build uses the existing binary" >&2
        exit 1
    fi
    tail -n 1 "$log" | sed 's/^/   /'
    rm -f "$log"
fi
[ -n "$BIN" ] || BIN="$REPO/.build/release/isobar"
[ -x "$BIN" ] || { echo "serve.sh: no isobar binary at $BIN" >&2; exit 1; }
VERSION="$("$BIN" --version 2>&1 | head -n 1 || true)"
COMMIT="$(git -C "$REPO" --no-optional-locks rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git -C "$REPO" --no-optional-locks status --porcelain --untracked-files=no -- Sources 2>/dev/null | wc -l)"
echo "== isobar: $BIN ($VERSION), commit $COMMIT, $DIRTY modified files under Sources"
echo "== $SAMPLES saves of Templates/city.md with $PAGE open, $BUSY busy loops"

python3 "$HERE/serve_reload.py" --bin "$BIN" --results "$RESULTS" --samples "$SAMPLES" \
    --busy "$BUSY" --limit "$LIMIT" --page "$PAGE"

# The build's identity, beside what the measuring script wrote.
python3 - "$RESULTS" "$VERSION" "$COMMIT" "$DIRTY" <<'EOF'
import json, sys
path, version, commit, dirty = sys.argv[1:]
data = json.load(open(path))
data.update(isobar_version=version, git_commit=commit, modified_files_under_sources=int(dirty))
open(path, "w").write(json.dumps(data, indent=1) + "\n")
EOF
