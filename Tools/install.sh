#!/usr/bin/env bash
# Puts `isobar` on the PATH: a release build with the Swift runtime linked in (so it runs
# without the toolchain, under cron too), installed as PREFIX/bin/isobar.
#
#   Tools/install.sh            /usr/local/bin/isobar
#   Tools/install.sh ~/.local   ~/.local/bin/isobar (no root needed)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
build=(swift build -c release --static-swift-stdlib --scratch-path .build-release --product isobar)
"${build[@]}" 2>&1 | tail -n 1
install -d "$prefix/bin"
install -m 755 "$("${build[@]}" --show-bin-path)/isobar" "$prefix/bin/isobar"
echo "install: $prefix/bin/isobar ($("$prefix/bin/isobar" --version | head -n 1))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: $prefix/bin is not on your PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
