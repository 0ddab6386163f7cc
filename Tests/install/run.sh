#!/usr/bin/env bash
# The README's Quick start and Install sections, checked: the Quick start's first command
# installs only what Isobar needs (no browser, Java or SSH; every library it links); a
# release binary with the Swift runtime linked in statically needs no library from the
# toolchain (ldd), runs with the toolchain off its paths and builds the demo site; the
# systemd units in Examples/ pass systemd-analyze verify.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

python3 Tests/install/quickstart.py check

# The README's one step to `isobar` on the PATH (Tools/install.sh), into a prefix of its own;
# its scratch folder keeps the debug build's untouched.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/usr/local"
Tools/install.sh "$prefix"

# No Swift library, and nothing from the toolchain's folder.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
ldd "$prefix/bin/isobar" > "$work/ldd.txt"
# Debian's ICU (libicu72, for CLDR's plural rules) is a system library like libcurl; the
# toolchain's own ICU would show under its folder.
if grep -E "libswift|libFoundation|libdispatch|libBlocksRuntime|$toolchain|not found" "$work/ldd.txt"; then
  echo "install: the binary still needs the libraries above" >&2
  exit 1
fi
echo "install: ldd lists $(wc -l < "$work/ldd.txt") libraries, none from the Swift toolchain ($toolchain)"

# The demo site, built by the installed binary with a bare environment: no toolchain on
# PATH or LD_LIBRARY_PATH, as under cron.
site="$work/site"
mkdir -p "$site"
cp -R isobar.yml Samples Templates Public Data "$site/"
(cd "$site" && env -i PATH=/usr/bin:/bin HOME="$work" SOURCE_DATE_EPOCH=1795348800 "$prefix/bin/isobar" build)
pages=$(find "$site/_site" -mindepth 2 -name index.html | wc -l)
test "$pages" -eq 8 || { echo "install: expected 8 city pages, found $pages" >&2; exit 1; }
grep -q "</html>" "$site/_site/index.html"
env -i "$prefix/bin/isobar" --version

# The binary alone carries the theme: a folder with nothing but a config builds.
bare="$work/bare"
mkdir -p "$bare"
printf 'base_url: https://w.example.org/\nprovider: snapshot\nsnapshot_dir: %s\ncities:\n  - { name: Paris, country: FR }\n' \
    "$root/Samples" > "$bare/isobar.yml"
(cd "$bare" && env -i PATH=/usr/bin:/bin HOME="$work" SOURCE_DATE_EPOCH=1795348800 "$prefix/bin/isobar" build --quiet)
test -f "$bare/_site/paris-fr/index.html" && test -f "$bare/_site/assets/style.css"
echo "install: a folder holding only isobar.yml builds with the installed binary's own theme"

# The systemd units as shipped, but for the binary's and the site's place in this test.
if command -v systemd-analyze >/dev/null 2>&1; then
  units="$work/units"
  mkdir -p "$units"
  sed -e "s#/usr/local/bin/isobar#$prefix/bin/isobar#" -e "s#/var/lib/isobar#$site#g" \
      -e "s#^User=isobar#User=root#" -e "s#^Group=isobar#Group=root#" Examples/isobar.service > "$units/isobar.service"
  cp Examples/isobar.timer "$units/isobar.timer"
  # verify prints problems and exits non-zero on errors; a container without a running
  # systemd still checks the files.
  output=$(systemd-analyze verify "$units/isobar.service" "$units/isobar.timer" 2>&1) || { echo "$output" >&2; exit 1; }
  if [ -n "$output" ]; then echo "$output" >&2; echo "install: systemd-analyze verify reported the lines above" >&2; exit 1; fi
  echo "install: systemd-analyze verify passed for isobar.service and isobar.timer"
else
  echo "install: systemd-analyze is not installed; the units were not verified"
fi
echo "install: ok"
