"""The places' map over tiles (README, "Maps"), in headless Chromium.

run.sh builds the demo with `map:` pointing at the loopback tile stand-in
(Tests/servers/tile_server.py, whose tiles say "TEST IMAGERY — NOT A MAP") and runs
these on its city pages with places. On a page without a tiled map (the drawing),
they are skipped.

Each pin's centre must lie within 1 px of its place's Web Mercator position on the map
as drawn, at a phone's and a desktop's width; every tile must have loaded; the pins
must keep a legible size and the map fit the screen; the attribution must be visible,
on the map, and linked; and each number in the list must link to its pin.
"""

from __future__ import annotations

import json
import math
import re

import pytest

import harness
from conftest import REPO_ROOT

VIEWPORT_NAMES = list(harness.VIEWPORTS)
TILE = 256.0
FRAME_WIDTH, FRAME_HEIGHT = 640.0, 400.0

# The map's parts as drawn: the frame's box, each tile's source and box, each pin's
# number, href and box, the attribution's box and link.
MAP_JS = """
const map = document.querySelector('.tile-map');
if (!map) return null;
const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width, height: r.height}; };
return {
  frame: box(map),
  viewport: document.documentElement.clientWidth,
  tiles: [...map.querySelectorAll('.map-tiles img')].map(i => ({src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0, box: box(i)})),
  pins: [...map.querySelectorAll('a.tile-pin')].map(a => ({number: a.querySelector('span').textContent.trim(), href: a.getAttribute('href'), id: a.id, box: box(a)})),
  attribution: (() => { const p = map.querySelector('.map-attribution'); const a = p && p.querySelector('a');
                        return p && {box: box(p), href: a && a.getAttribute('href'), text: p.textContent}; })(),
  label: map.getAttribute('aria-label'),
  listLinks: [...document.querySelectorAll('.place-list .place-number')].map(a => a.getAttribute('href')),
};
"""


def world_pixel(lat: float, lon: float, zoom: int) -> tuple[float, float]:
    """Web Mercator as OpenStreetMap's wiki writes it (asinh of the tangent)."""
    n = 2 ** zoom * TILE
    return (lon + 180) / 360 * n, (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n


def places_of(page) -> list[dict]:
    slug = page.path_in_site.split("/")[-2]
    return json.loads((REPO_ROOT / "Data" / "places.json").read_text()).get(slug, [])


def map_on(server, browsers, page, viewport_name):
    viewport = harness.VIEWPORTS[viewport_name]
    driver = browsers(viewport_name, True)
    harness.load(driver, server.base_url + page.url_path, viewport)
    drawn = driver.execute_script(MAP_JS)
    if drawn is None:
        pytest.skip("no tiled map on this page")
    return driver, drawn


@pytest.mark.parametrize("viewport_name", VIEWPORT_NAMES)
def test_pins_sit_on_their_places(server, browsers, page, viewport_name, artifacts):
    driver, drawn = map_on(server, browsers, page, viewport_name)
    places = places_of(page)
    assert len(drawn["pins"]) == len(places), drawn["pins"]
    # The frame's zoom and corner, from the first tile: its address, and where it is drawn.
    first = drawn["tiles"][0]
    z, x, y = map(int, re.search(r"tiles/(\d+)/(\d+)/(\d+)\.", first["src"]).groups())
    scale = drawn["frame"]["width"] / FRAME_WIDTH
    origin_x = x * TILE - (first["box"]["left"] - drawn["frame"]["left"]) / scale
    origin_y = y * TILE - (first["box"]["top"] - drawn["frame"]["top"]) / scale
    problems = []
    for pin in drawn["pins"]:
        place = places[int(pin["number"]) - 1]
        wx, wy = world_pixel(place["lat"], place["lon"], z)
        expected = ((wx - origin_x) * scale, (wy - origin_y) * scale)
        centre = (pin["box"]["left"] - drawn["frame"]["left"] + pin["box"]["width"] / 2,
                  pin["box"]["top"] - drawn["frame"]["top"] + pin["box"]["height"] / 2)
        off = math.dist(expected, centre)
        if off > 1:
            problems.append(f"pin {pin['number']} ({place['name']}) is {off:.2f} px from its place")
    harness.fail_if(problems, "pins off their places:")
    shot = artifacts / "screenshots" / "map" / f"{page.id.replace('/', '_')}-{viewport_name}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    driver.find_element("css selector", "section.places").screenshot(str(shot))


@pytest.mark.parametrize("viewport_name", VIEWPORT_NAMES)
def test_the_map_reads_well(server, browsers, page, viewport_name):
    _, drawn = map_on(server, browsers, page, viewport_name)
    problems = []
    problems += [f"tile {t['src']} did not load" for t in drawn["tiles"] if not t["loaded"]]
    problems += [f"tile {t['src']} is not a site file" for t in drawn["tiles"] if "://" in t["src"] or not t["src"].startswith("../assets/tiles/")]
    frame = drawn["frame"]
    if frame["width"] > drawn["viewport"]:
        problems.append(f"the map is {frame['width']:.0f} px wide on a {drawn['viewport']} px screen")
    if abs(frame["width"] / frame["height"] - FRAME_WIDTH / FRAME_HEIGHT) > 0.01:
        problems.append(f"the map is {frame['width']:.1f} × {frame['height']:.1f}, not 16:10")
    problems += [f"pin {p['number']} is {p['box']['width']:.0f} px, too small to read" for p in drawn["pins"] if p["box"]["width"] < 24]
    attribution = drawn["attribution"]
    if not attribution or not attribution["text"].strip():
        problems.append("no attribution on the map")
    else:
        box = attribution["box"]
        inside = (box["left"] >= frame["left"] - 0.5 and box["top"] >= frame["top"] - 0.5
                  and box["left"] + box["width"] <= frame["left"] + frame["width"] + 0.5
                  and box["top"] + box["height"] <= frame["top"] + frame["height"] + 0.5)
        if not inside:
            problems.append("the attribution is not on the map")
        if not attribution["href"]:
            problems.append("the attribution is not linked")
    if not re.search(r"\b%d\b" % len(drawn["pins"]), drawn["label"] or ""):
        problems.append(f"the map's label {drawn['label']!r} does not say how many places it shows")
    # Each pin links to its place, and each place's number to its pin.
    problems += [f"pin {p['number']} links to {p['href']}" for p in drawn["pins"] if p["href"] != f"#place-{p['number']}"]
    if drawn["listLinks"] != [f"#{p['id']}" for p in drawn["pins"]]:
        problems.append(f"the list links to {drawn['listLinks']}, the pins are {[p['id'] for p in drawn['pins']]}")
    harness.fail_if(problems, "the map:")
