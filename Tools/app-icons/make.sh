#!/bin/sh
# The home-screen icons of the web app manifest (README, "Offline"), rendered once from
# the two SVGs here (the built-in 02d.svg on the theme's --accent and --bg colours) and
# committed under Public/app/. Needs rsvg-convert (Debian librsvg2-bin). The maskable
# one keeps its picture inside the central 80 % circle that launchers may crop to.
set -e
here=$(dirname "$0")
out="$here/../../Public/app"
rsvg-convert -w 192 -h 192 "$here/app.svg" -o "$out/icon-192.png"
rsvg-convert -w 512 -h 512 "$here/app.svg" -o "$out/icon-512.png"
rsvg-convert -w 512 -h 512 "$here/maskable.svg" -o "$out/icon-maskable-512.png"
