"""A city page on a 360 px phone reads at a glance: the wind symbol reads as wind when
still and stops moving for visitors who ask for less motion; the next hour's drizzle is a
bar one can see. One city page of the site (London's, in the demo: drizzle and wind),
whose partial every city page shares."""

from __future__ import annotations

import pytest

import harness


@pytest.fixture(scope="module")
def city(pages):
    found = [p for p in pages if p.kind == "city"]
    if not found:
        pytest.skip("no city page among the pages tested")
    return next((p for p in found if p.slug == "london-gb"), found[0])


WIND = """const s = document.querySelector('svg.wind-lines');
  if (!s) return null;
  const p = s.querySelectorAll('path'), b = s.getBoundingClientRect(), style = getComputedStyle(p[0]);
  return {paths: p.length, width: b.width, height: b.height, animation: style.animationName,
          dashes: style.strokeDasharray, stroke: style.stroke};"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_wind_symbol_reads_as_wind_and_rests_when_asked(server, browsers, city, motion):
    driver = browsers("phone")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": motion}]})
    try:
        harness.load(driver, server.base_url + city.url_path, harness.VIEWPORTS["phone"])
        wind = driver.execute_script(WIND)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    if wind is None:
        pytest.skip(f"{city.id}: no wind animation (calm, or no wind speed)")
    # Three curled streaks the size of the arrow beside them, drawn in the wind colour.
    assert wind["paths"] == 3 and wind["width"] >= 48 and wind["height"] >= 20, wind
    assert wind["stroke"] not in ("none", "rgba(0, 0, 0, 0)"), wind
    if motion == "reduce":
        assert wind["animation"] == "none" and wind["dashes"] == "none", wind
    else:
        assert wind["animation"] == "wind-flow", wind


def test_light_rain_in_the_next_hour_is_a_visible_bar(server, browsers, city):
    driver = browsers("phone")
    harness.load(driver, server.base_url + city.url_path, harness.VIEWPORTS["phone"])
    bars = driver.execute_script("""return [...document.querySelectorAll('svg.nowcast-strip rect.nowcast-bar')]
      .map(r => r.getBoundingClientRect().height)""")
    if not bars:
        pytest.skip(f"{city.id}: no precipitation in the next hour")
    # The demo's London: drizzle of 0.1-0.3 mm/h, which once drew bars 2-4 px tall.
    assert max(bars) >= 8, f"{city.id}: tallest next-hour bar {max(bars):.1f} px at 360 px"


# Each shown chart or map label's size on screen: its font size times the drawing's scale.
LABELS = """const out = [];
  for (const t of document.querySelectorAll(arguments[0])) {
    const r = t.getBoundingClientRect();
    if (!r.width || !t.getScreenCTM()) continue;  // in a drawing that is not shown
    out.push({text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
              left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  }
  return out;"""


def test_48_hour_chart_fits_a_phone_with_labels_of_12px(server, browsers, city, artifacts):
    driver = browsers("phone")
    harness.load(driver, server.base_url + city.url_path, harness.VIEWPORTS["phone"])
    box = driver.execute_script("""const f = document.querySelector('section.hourly .chart-figure');
      return f && {scroll: f.scrollWidth, client: f.clientWidth, shown: [...f.querySelectorAll('svg')].filter(s => s.getBoundingClientRect().width > 0).length}""")
    if box is None:
        pytest.skip(f"{city.id}: no 48-hour chart")
    assert box["shown"] == 1, f"{city.id}: {box['shown']} charts shown at 360 px"
    assert box["scroll"] <= box["client"], f"{city.id}: the chart scrolls sideways at 360 px: {box}"
    labels = driver.execute_script(LABELS, "section.hourly .chart-figure text")
    assert labels, f"{city.id}: no chart label shown"
    small = [f"{l['text']} {l['px']:.1f}px" for l in labels if l["px"] < 12 - 0.05]
    assert not small, f"{city.id}: chart labels under 12 px at 360 px: {small}"


def test_places_map_labels_are_12px_and_never_overlap(server, browsers, city):
    driver = browsers("phone")
    harness.load(driver, server.base_url + city.url_path, harness.VIEWPORTS["phone"])
    labels = driver.execute_script(LABELS, "svg.map .map-label, svg.map .map-number")
    if not labels:
        pytest.skip(f"{city.id}: no drawn places map")
    small = [f"{l['text']} {l['px']:.1f}px" for l in labels if l["px"] < 12 - 0.05]
    assert not small, f"{city.id}: map labels under 12 px at 360 px: {small}"
    names = [l for l in labels if not l["text"].isdigit()]
    assert names, f"{city.id}: no place is named on the map"
    crossing = [(a["text"], b["text"]) for i, a in enumerate(names) for b in names[i + 1:]
                if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]]
    assert not crossing, f"{city.id}: map labels overlap at 360 px: {crossing}"
