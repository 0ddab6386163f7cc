"""Right-to-left pages in Chromium (issue 30): direction, isolated values, wind arrow, share.

run.sh runs this module on the demo built in he, ar and fa (index, london-gb and lod-il)
and, as part of the whole suite, on the English demo, where the same checks must hold the
other way round (start edge on the left) and every value the templates print is isolated
just the same. Every page, at 360 and 1280 px:

- <html dir> and the computed direction match the language, and the heading, the first
  section heading and the first paragraph start at the start edge (right in rtl);
- every <bdi dir="ltr"> and <time dir="ltr"> reads left to right on screen, character by
  character (a DOM Range over each one), and holds a value ("−3°C", "14:00", "5 m/s");
  one whose unit is written right to left ("5 م/ث", isolated as such) reads number first
  from the right, its digits left to right;
- every temperature, clock time, speed, amount, pressure, distance and percentage in the
  visible text (outside drawings, which are left to right by design, and the agency's own
  dir=auto texts) is inside an inline element laid out as a left-to-right isolate, or, in
  a sentence Isobar writes (SENTENCES), between U+2068 and U+2069 in the text itself: a
  value a template prints without <bdi dir="ltr"> fails here, in English too. Sentences
  whose values are not isolated in a right-to-left page are a known bug (KNOWN_REASON):
  reported as xfail, naming them, as long as nothing else is found.

With ISOBAR_REFERENCE_SITE (run.sh: the English build), the wind arrow of each city page
turns exactly as on the reference page (arrows point geographically, never mirrored).
The share section's buttons (Public/share.js) are tried on every city page.

Each check has a self-test on a probe page that must fail it (run.sh skips the self-tests
in its per-language runs: the main run has them).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import harness

# Written right to left (CLDR's characterOrder, for the languages Isobar ships and a few more).
RTL_LANGUAGES = {"ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"}

# Sentences Isobar writes in Swift and the templates print whole ({{text}}, {{.}}). In a
# right-to-left language each value filled into them must be between U+2068 FIRST STRONG
# ISOLATE (or U+2066) and U+2069 in the text itself; in a left-to-right one they need
# nothing. Anywhere else, a value must sit in an element that is a left-to-right isolate.
SENTENCES = ", ".join([
    "p.nowcast-text", "p.stale-note", "p.history-yesterday", "p.history-new-record",
    "p.history-check-intro", "ul.history-checks li", "p.history-rain-check",
    ".card-nowcast", ".card-stale", ".card-alert-marker", ".alert-upcoming",
    "p.now-normal", ".day-normal",
])

# Sentences of a right-to-left page whose values are known not to be isolated, for a
# reason outside the templates. A page where only these are found is reported as xfail
# (naming them); any other unisolated value fails. None now: MarkupEscaping keeps the
# balanced U+2068…U+2069 pairs Strings.fill writes (it once dropped them).
KNOWN_UNISOLATED = ""
KNOWN_REASON = ""

# What a <bdi dir="ltr"> or <time dir="ltr"> may hold: a number with its unit (as CLDR
# writes it in the language: "9°C", "5 м/с", "st. C", "%50", "1 mila/h"), a clock time,
# or a pollutant's name.
NUMBER = r"[−-]?\d+(?:[.,]\d+)?"
UNIT = r"[^\d\s]\S{0,14}"
VALUE_PATTERN = re.compile(
    rf"^(?:(?:{UNIT}\s?)?{NUMBER}(?:\s?{UNIT}(?:\s{UNIT}){{0,2}})?"
    r"|\d{1,2}:\d\d(?:\s?[AaPp]\.?[Mm]\.?)?"
    r"|PM\d+(?:\.\d+)?|O₃|NO₂|NO|SO₂|CO|NH₃)$")
# The isolates and marks a value's text may carry (U+2067 … U+2069: a unit written right
# to left; U+200E: CLDR's mark before an Arabic minus).
BIDI_MARKS = "\u2066\u2067\u2068\u2069\u200e\u200f"

# Values in running text: temperatures, clock times, and a number with a unit the pages
# use (speeds, amounts, pressures, distances, percentages, concentrations). Not "in" or
# "m" alone, which are words too.
VALUE_IN_TEXT_JS = (r"/[−-]?\d+(?:[.,]\d+)?\s?°[CF]?|\b\d\d:\d\d\b"
                    r"|\d+(?:[.,]\d+)?\s?(?:m\/s|km\/h|mph|hPa|inHg|mmHg|mm|cm|km|mi|%|µg\/m³)(?![\p{L}\p{N}])/gu")

EDGE_TOLERANCE = 3  # px


def expected_direction(language: str) -> str:
    return "rtl" if language.split("-")[0].lower() in RTL_LANGUAGES else "ltr"


# --------------------------------------------------------------------------
# Measurements (one script per check, all on the page as loaded)

# Closed <details> (the past week's table) are opened so their values are laid out too.
OPEN_DETAILS_JS = "for (const d of document.querySelectorAll('details')) d.open = true;"

DESCRIBE_JS = r"""
const describe = el => {
  const parts = [];
  for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    if (typeof e.className === 'string' && e.className.trim())
      s += '.' + e.className.trim().split(/\s+/).join('.');
    parts.unshift(s);
  }
  return parts.join(' > ');
};
"""

DIRECTION_JS = DESCRIBE_JS + r"""
const root = document.documentElement;
const contentBox = el => {
  const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
  return {left: r.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft),
          right: r.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight)};
};
// The first line of an element's text: the boxes of a Range over it at the first line's top.
const firstLine = el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
  if (!rects.length) return null;
  const top = Math.min(...rects.map(r => r.top));
  const line = rects.filter(r => r.top < top + 2);
  return {left: Math.min(...line.map(r => r.left)), right: Math.max(...line.map(r => r.right))};
};
const edges = [];
const main = document.querySelector('main') || document.body;
for (const el of [main.querySelector('h1'), main.querySelector('h2'), main.querySelector(':scope > p, section > p')]) {
  if (!el) continue;
  const line = firstLine(el);
  if (!line) continue;
  const box = contentBox(el.parentElement);
  edges.push({el: describe(el), text: el.textContent.trim().slice(0, 40),
              lineLeft: line.left, lineRight: line.right, boxLeft: box.left, boxRight: box.right,
              direction: getComputedStyle(el).direction});
}
return {lang: root.lang, dirAttr: root.getAttribute('dir'), documentDir: document.dir,
        html: getComputedStyle(root).direction, body: getComputedStyle(document.body).direction,
        edges: edges};
"""

# Each character of every <bdi dir=ltr> / <time dir=ltr> (outside <svg>): its box, through
# a Range over that one character. Spaces are skipped (they have no ink and may collapse).
LTR_ELEMENTS_JS = DESCRIBE_JS + r"""
const out = [];
for (const el of document.querySelectorAll('bdi[dir="ltr" i], time[dir="ltr" i]')) {
  if (el.closest('svg')) continue;
  if (!el.getClientRects().length) continue;  // not rendered
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const text = node.data;
    for (let i = 0; i < text.length;) {
      const ch = String.fromCodePoint(text.codePointAt(i));
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + ch.length);
      i += ch.length;
      if (/\s/.test(ch)) continue;
      const r = range.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      chars.push({ch: ch, left: r.left, right: r.right, top: r.top, height: r.height});
    }
  }
  const cs = getComputedStyle(el);
  out.push({el: describe(el), text: el.innerText, direction: cs.direction,
            unicodeBidi: cs.unicodeBidi, chars: chars});
}
return out;
"""

# Every value (VALUE_IN_TEXT_JS) in a visible text node outside <svg>,
# <script> and the agency's own texts (dir=auto: their direction is theirs), with what
# isolates it: the nearest inline ancestor that is an isolate (its direction), and
# whether the text itself has U+2068/U+2066 before it and U+2069 after it.
VALUES_IN_TEXT_JS = DESCRIBE_JS + r"""
const sentences = arguments[0], known = arguments[1];
const pattern = """ + VALUE_IN_TEXT_JS + r""";
const out = [];
const skip = el => el.closest('svg, script, style, noscript, template, [dir="auto" i]');
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node; (node = walker.nextNode());) {
  const parent = node.parentElement;
  if (!parent || skip(parent)) continue;
  const text = node.data;
  pattern.lastIndex = 0;
  for (let m; (m = pattern.exec(text));) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    if (!range.getClientRects().length) continue;  // not rendered
    // Only an inline element isolates a value within its line (every <p> and <div> has
    // unicode-bidi: isolate in the UA stylesheet, and it means nothing there); the block
    // the value sits in counts only if it is marked dir="ltr" itself.
    let isolate = null;
    for (let e = parent; e && e !== document.documentElement; e = e.parentElement) {
      const cs = getComputedStyle(e);
      const inline = /^inline|^contents$|^ruby/.test(cs.display);
      if (inline ? /isolate|plaintext|bidi-override/.test(cs.unicodeBidi)
                 : (e.getAttribute('dir') || '').toLowerCase() === 'ltr') {
        isolate = {el: describe(e), direction: cs.direction, unicodeBidi: cs.unicodeBidi};
        break;
      }
      if (!inline) break;
    }
    const before = text.slice(0, m.index), after = text.slice(m.index + m[0].length);
    const opened = Math.max(before.lastIndexOf('\u2068'), before.lastIndexOf('\u2066'));
    const inText = opened >= 0 && before.indexOf('\u2069', opened) < 0 && after.indexOf('\u2069') >= 0;
    out.push({value: m[0], el: describe(parent), isolate: isolate, inText: inText,
              sentence: !!parent.closest(sentences), known: !!(known && parent.closest(known)),
              context: text.trim().replace(/\s+/g, ' ').slice(0, 90)});
  }
}
return out;
"""

WIND_ARROW_JS = DESCRIBE_JS + r"""
const arrow = document.querySelector('svg.wind-arrow');
if (!arrow) return null;
const ancestors = [];
for (let e = arrow.parentElement; e; e = e.parentElement) {
  const t = getComputedStyle(e).transform;
  if (t && t !== 'none') ancestors.push(describe(e) + ': ' + t);
}
return {transform: getComputedStyle(arrow).transform, style: arrow.getAttribute('style'), ancestors: ancestors};
"""


def order_problems(elements: list[dict]) -> list[str]:
    """Characters of a left-to-right value that do not follow each other to the right
    (on one line; a value that wraps goes on at the next line). A value whose unit is
    written right to left (isolated as such, U+2067) reads right to left: what comes
    first in it, number or unit, is on the right, and its digits still run to the right."""
    problems = []
    for e in elements:
        chars = [c for c in e["chars"] if c["ch"] not in BIDI_MARKS]
        if e["text"].strip().startswith("\u2067"):
            problems += right_to_left_value_problems(e, chars)
            continue
        for a, b in zip(chars, chars[1:]):
            next_line = b["top"] > a["top"] + a["height"] / 2
            if next_line:
                continue
            if b["left"] < a["left"] + 0.5 or b["top"] < a["top"] - a["height"] / 2:
                shown = " ".join(f"{c['ch']}@{c['left']:.0f}" for c in chars)
                problems.append(f"  {e['el']} {e['text']!r}: {a['ch']!r} then {b['ch']!r} "
                                f"is not left to right ({shown}; direction {e['direction']}, "
                                f"unicode-bidi {e['unicodeBidi']})")
                break
        if e["direction"] != "ltr":
            problems.append(f"  {e['el']} {e['text']!r}: computed direction {e['direction']}")
    return problems


def right_to_left_value_problems(e: dict, chars: list[dict]) -> list[str]:
    # The number with what Unicode's bidi rules keep with it ("9°" of "9°م"), and the
    # unit's letters; the marks between them ("″" of "מ″מ") may go either way.
    number = [c for c in chars if re.match(r"[\d.,−°%-]", c["ch"])]
    digits = [c for c in number if c["ch"].isdigit()]
    unit = [c for c in chars if c["ch"].isalpha()]
    if not digits or not unit or len({round(c["top"]) for c in chars}) > 1:
        return []  # a unit standing for the number (CLDR's Arabic "ميل"), or wrapped
    shown = " ".join(f"{c['ch']}@{c['left']:.0f}" for c in chars)
    problems = []
    number_first = chars.index(number[0]) < chars.index(unit[0])
    if number_first and min(c["left"] for c in number) < max(c["right"] for c in unit) - 0.5:
        problems.append(f"  {e['el']} {e['text']!r}: the number is not on the right of its unit ({shown})")
    if not number_first and max(c["right"] for c in number) > min(c["left"] for c in unit) + 0.5:
        problems.append(f"  {e['el']} {e['text']!r}: the unit is not on the right of its number ({shown})")
    if any(b["left"] < a["left"] + 0.5 for a, b in zip(digits, digits[1:])):
        problems.append(f"  {e['el']} {e['text']!r}: its digits do not run left to right ({shown})")
    return problems


def pattern_problems(elements: list[dict]) -> list[str]:
    return [f"  {e['el']}: {e['text']!r} is not a value (number and unit, clock time)"
            for e in elements if not VALUE_PATTERN.match(e["text"].strip().strip(BIDI_MARKS))]


def unisolated(values: list[dict], page_direction: str) -> list[dict]:
    """Values that nothing isolates as left to right."""
    bad = []
    for v in values:
        if v["isolate"] and v["isolate"]["direction"] == "ltr":
            continue
        if v["sentence"] and (v["inText"] or page_direction == "ltr"):
            continue
        bad.append(v)
    return bad


def describe_value(v: dict) -> str:
    iso = v["isolate"]
    why = (f"nearest isolate {iso['el']} is {iso['direction']}" if iso else "no isolating element") + \
        (", no U+2068…U+2069 around it" if v["sentence"] else "")
    return f"  {v['value']!r} in {v['el']} ({why}): {v['context']!r}"


def edge_problems(m: dict, direction: str) -> list[str]:
    problems = []
    for e in m["edges"]:
        if direction == "rtl":
            gap = e["boxRight"] - e["lineRight"]
            side = "right"
        else:
            gap = e["lineLeft"] - e["boxLeft"]
            side = "left"
        if abs(gap) > EDGE_TOLERANCE:
            problems.append(f"  {e['el']} {e['text']!r}: its first line starts {gap:.0f} px from its "
                            f"container's {side} content edge (line {e['lineLeft']:.0f}–{e['lineRight']:.0f}, "
                            f"box {e['boxLeft']:.0f}–{e['boxRight']:.0f}, direction {e['direction']})")
    return problems


def direction_problems(m: dict) -> list[str]:
    want = expected_direction(m["lang"])
    problems = []
    for what, got in [("<html dir>", m["dirAttr"]), ("document.dir", m["documentDir"]),
                      ("html's computed direction", m["html"]), ("body's computed direction", m["body"])]:
        if got != want:
            problems.append(f"  {what} is {got!r}, expected {want!r} for lang={m['lang']!r}")
    if not m["edges"]:
        problems.append("  no h1, h2 or paragraph in <main> to measure")
    return problems + edge_problems(m, want)


# --------------------------------------------------------------------------
# Fixtures

@pytest.fixture(scope="session")
def reference_server():
    raw = os.environ.get("ISOBAR_REFERENCE_SITE")
    if not raw:
        yield None
        return
    srv = harness.StaticServer(Path(raw).resolve()).start()
    yield srv
    srv.stop()


def open_page(browsers, server, url_path: str, viewport_name: str):
    driver = browsers(viewport_name)
    harness.load(driver, server.base_url + url_path, harness.VIEWPORTS[viewport_name])
    return driver


@pytest.fixture(scope="session")
def measured(browsers, server):
    """measured(page, viewport_name) -> the three measurements of the page, taken on
    one load (with its <details> opened) and shared by the tests below."""
    cache: dict[tuple, dict] = {}

    def get(page: harness.Page, viewport_name: str) -> dict:
        key = (page.url_path, viewport_name)
        if key not in cache:
            driver = open_page(browsers, server, page.url_path, viewport_name)
            driver.execute_script(OPEN_DETAILS_JS)
            cache[key] = {
                "direction": driver.execute_script(DIRECTION_JS),
                "ltr_elements": driver.execute_script(LTR_ELEMENTS_JS),
                "values": driver.execute_script(VALUES_IN_TEXT_JS, SENTENCES, KNOWN_UNISOLATED),
            }
        return cache[key]

    return get


VIEWPORT_NAMES = list(harness.VIEWPORTS)


# --------------------------------------------------------------------------
# Tests on the site's pages

@pytest.mark.parametrize("viewport_name", VIEWPORT_NAMES)
def test_direction_and_start_edge(measured, page, viewport_name):
    if page.kind == "widget":
        pytest.skip("a widget has no <main> to measure (test_embed.py checks it)")
    harness.fail_if(direction_problems(measured(page, viewport_name)["direction"]),
                    f"direction of {page.rel_path} at {harness.VIEWPORTS[viewport_name]['width']} px:")


@pytest.mark.parametrize("viewport_name", VIEWPORT_NAMES)
def test_values_read_left_to_right(measured, page, viewport_name):
    elements = measured(page, viewport_name)["ltr_elements"]
    if page.kind == "city":
        assert len(elements) >= 20, f"only {len(elements)} <bdi dir=ltr>/<time dir=ltr> on a city page"
    harness.fail_if(order_problems(elements) + pattern_problems(elements),
                    f"left-to-right values of {page.rel_path} at {harness.VIEWPORTS[viewport_name]['width']} px:")


@pytest.mark.parametrize("viewport_name", VIEWPORT_NAMES)
def test_values_in_text_are_isolated(measured, page, viewport_name):
    m = measured(page, viewport_name)
    values = m["values"]
    if page.kind == "city":
        assert len(values) >= 20, f"only {len(values)} values (temperatures, times, speeds…) found on a city page"
    bad = unisolated(values, m["direction"]["html"])
    known = [v for v in bad if v["known"]]
    new = [v for v in bad if not v["known"]]
    width = harness.VIEWPORTS[viewport_name]["width"]
    lines = [describe_value(v) for v in new]
    if len(lines) > 30:
        lines = lines[:30] + [f"  ... and {len(lines) - 30} more"]
    harness.fail_if(lines,
                    f"{len(new)} value(s) of {page.rel_path} at {width} px not isolated left to right "
                    "(a template value: wrap it in <bdi dir=\"ltr\">):")
    if known:
        pytest.xfail(f"{len(known)} value(s) in sentences not isolated, a known bug: {KNOWN_REASON}; "
                     + "; ".join(f"{v['value']!r} in {v['el']}" for v in known[:4]))


def test_wind_arrow_points_as_on_the_reference_page(browsers, server, reference_server, page):
    if page.kind != "city":
        pytest.skip("not a city page")
    if reference_server is None:
        pytest.skip("ISOBAR_REFERENCE_SITE is not set (run.sh sets it to the English build)")
    here = open_page(browsers, server, page.url_path, "desktop").execute_script(WIND_ARROW_JS)
    there = open_page(browsers, reference_server, page.path_in_site, "desktop").execute_script(WIND_ARROW_JS)
    if there is None:
        assert here is None, "a wind arrow here, none on the reference page"
        pytest.skip("no wind arrow on this page")
    harness.fail_if(arrow_problems(here, there), "wind arrow:")


def arrow_problems(here: dict | None, there: dict) -> list[str]:
    if here is None:
        return ["  no svg.wind-arrow here, the reference page has one"]
    problems = []
    if here["transform"] != there["transform"]:
        problems.append(f"  transform {here['transform']} ({here['style']}), on the reference page "
                        f"{there['transform']} ({there['style']})")
    problems += [f"  an ancestor is transformed: {a}" for a in here["ancestors"]]
    return problems


COPY_PERMISSIONS = ["clipboardReadWrite", "clipboardSanitizedWrite"]
SHARE_STUB = """
Object.defineProperty(navigator, 'share', {configurable: true, value: data => {
  window.__isobarShared = {title: data.title, url: data.url};
  return Promise.resolve();
}});
"""


def share_problems(driver, base_url: str) -> list[str]:
    """Copy link copies the page's address and says so; Share hands the title and
    address to the system (navigator.share, stubbed: headless Linux has none)."""
    problems = []
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base_url, "permissions": COPY_PERMISSIONS})
    copy = driver.find_elements(By.CSS_SELECTOR, "button.copy-link")
    if not copy:
        return ["  no button.copy-link"]
    copy = copy[0]
    if not copy.is_displayed():
        return ["  button.copy-link is still hidden: share.js did not show it"]
    url, done = copy.get_attribute("data-url"), copy.get_attribute("data-done")
    copy.click()
    try:
        WebDriverWait(driver, 10).until(lambda d: copy.text.strip() == done.strip())
    except Exception:
        problems.append(f"  after a click button.copy-link says {copy.text!r}, not {done!r}")
    pasted = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, e => done('error: ' + e));")
    if pasted != url:
        problems.append(f"  the clipboard holds {pasted!r}, not the page's address {url!r}")
    share = driver.find_elements(By.CSS_SELECTOR, "button.web-share")
    if not share or not share[0].is_displayed():
        return problems + ["  button.web-share is hidden although navigator.share exists"]
    share[0].click()
    shared = driver.execute_script("return window.__isobarShared || null")
    want = {"title": share[0].get_attribute("data-title"), "url": url}
    if shared != want:
        problems.append(f"  navigator.share got {shared!r}, expected {want!r}")
    return problems


def load_with_share_stub(driver, url: str) -> None:
    stub = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHARE_STUB})
    try:
        harness.load(driver, url, harness.VIEWPORTS["desktop"])
    finally:
        # The session is shared with other tests: they must see the browser as it is.
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": stub["identifier"]})


def test_share_buttons_work(browsers, server, page):
    if page.kind != "city":
        pytest.skip("not a city page")
    driver = browsers("desktop")
    load_with_share_stub(driver, server.base_url + page.url_path)
    harness.fail_if(share_problems(driver, server.base_url), f"share section of {page.rel_path}:")


# --------------------------------------------------------------------------
# Self-tests: probe pages that each check must fail.

PROBE_HEAD = ('<!doctype html><html lang="{lang}" dir="{dir}"><meta charset="utf-8">'
              '<meta name="viewport" content="width=device-width, initial-scale=1"><title>probe</title>')
ARROW = ('<svg class="wind-arrow" viewBox="0 0 32 32" width="32" height="32" style="transform: rotate(55deg)">'
         '<path d="M16 3 L23 17 L9 17 Z"/></svg>')
PROBES = {
    # Heading pushed to the left, a value reversed, a word where a value goes, a bare
    # temperature in a cell, a sentence with an unclosed isolate and one done right.
    "/__harness__/rtl.html": PROBE_HEAD.format(lang="he", dir="rtl") +
        '<body><main><h1 style="text-align: left">כותרת</h1><section><h2>עכשיו</h2>'
        '<p><bdi dir="ltr" style="direction: rtl; unicode-bidi: bidi-override">−3 °C</bdi></p>'
        '<p><bdi dir="ltr">hello</bdi></p>'
        '<p><bdi dir="ltr">\u20675 م/ث\u2069</bdi> <bdi dir="ltr">\u2067<span style="unicode-bidi: bidi-override; '
        'direction: ltr">6 م/ث</span>\u2069</bdi> <bdi dir="ltr">5 م/ث</bdi></p>'
        '<table><tr><td class="bare">−3 °C</td></tr></table>'
        '<p class="nowcast-text">גשם מ־\u206814:00 ועד 15:00\u2069</p>'
        '<p class="history-yesterday">חם ב־\u20683°\u2069 מאתמול</p>'
        '</section></main>',
    "/__harness__/ltr.html": PROBE_HEAD.format(lang="en", dir="ltr") +
        '<body><main><h1 style="text-align: right">Heading</h1><h2>Now</h2>'
        '<p>Wind <span class="speed">5 m/s</span></p><p class="nowcast-text">Rain until 14:00</p></main>',
    "/__harness__/arrow-ltr.html": PROBE_HEAD.format(lang="en", dir="ltr") + "<body>" + ARROW,
    "/__harness__/arrow-mirrored.html": PROBE_HEAD.format(lang="he", dir="rtl") +
        '<style>[dir=rtl] .wind { transform: scaleX(-1) }</style><body><div class="wind">' + ARROW + "</div>",
    # The share section as the template writes it, without share.js.
    "/__harness__/share.html": PROBE_HEAD.format(lang="he", dir="rtl") +
        '<body><p><button type="button" class="copy-link" data-url="https://example.org/x/" '
        'data-done="הועתק" hidden>העתקה</button></p>',
}


@pytest.fixture(scope="module")
def probes(server):
    server.add_probes(PROBES)
    return server


def test_selftest_direction_and_start_edge_can_fail(browsers, probes):
    rtl = open_page(browsers, probes, "/__harness__/rtl.html", "desktop").execute_script(DIRECTION_JS)
    problems = direction_problems(rtl)
    assert len(problems) == 1 and "h1" in problems[0] and "right content edge" in problems[0], problems
    ltr = open_page(browsers, probes, "/__harness__/ltr.html", "phone").execute_script(DIRECTION_JS)
    problems = direction_problems(ltr)
    assert len(problems) == 1 and "h1" in problems[0] and "left content edge" in problems[0], problems
    # Taken for a right-to-left language, the English page is wrong everywhere.
    assert len(direction_problems(dict(ltr, lang="ar"))) >= 4


def test_selftest_reversed_value_and_word_are_caught(browsers, probes):
    driver = open_page(browsers, probes, "/__harness__/rtl.html", "phone")
    elements = driver.execute_script(LTR_ELEMENTS_JS)
    order = order_problems(elements)
    # The reversed value; an Arabic unit forced left to right inside its right-to-left
    # isolate; one with no isolate of its own (the first "5 م/ث" is right).
    assert len(order) == 4, order
    assert "'−3 °C'" in order[0] and "computed direction rtl" in order[1], order
    assert "6 م/ث" in order[2] and "not on the right" in order[2], order
    assert "'5 م/ث'" in order[3] and "not left to right" in order[3], order
    patterns = pattern_problems(elements)
    assert len(patterns) == 1 and "'hello'" in patterns[0], patterns


def test_selftest_unisolated_values_are_caught(browsers, probes):
    driver = open_page(browsers, probes, "/__harness__/rtl.html", "desktop")
    bad = unisolated(driver.execute_script(VALUES_IN_TEXT_JS, SENTENCES, ""), "rtl")
    # The bare cell and the value in the <bdi> made rtl; both sentences' values are
    # between U+2068 and U+2069.
    found = sorted((v["value"], v["el"].split(" > ")[-1]) for v in bad)
    assert ("−3 °C", "td.bare") in found, found
    assert ("−3 °C", "bdi") in found, found
    assert not [f for f in found if f[1].startswith("p.")], found
    driver = open_page(browsers, probes, "/__harness__/ltr.html", "desktop")
    bad = unisolated(driver.execute_script(VALUES_IN_TEXT_JS, SENTENCES, ""), "ltr")
    # In English the sentence needs nothing, the template's bare value still fails.
    assert [(v["value"], v["el"].split(" > ")[-1]) for v in bad] == [("5 m/s", "span.speed")], bad


def test_selftest_an_isolate_left_open_is_caught(browsers, probes):
    driver = open_page(browsers, probes, "/__harness__/rtl.html", "desktop")
    driver.execute_script("document.querySelector('.history-yesterday').textContent = 'חם ב־\u20683° מאתמול'")
    bad = unisolated(driver.execute_script(VALUES_IN_TEXT_JS, SENTENCES, ""), "rtl")
    assert [v["value"] for v in bad if v["sentence"]] == ["3°"], bad


def test_selftest_a_mirrored_arrow_is_caught(browsers, probes):
    there = open_page(browsers, probes, "/__harness__/arrow-ltr.html", "desktop").execute_script(WIND_ARROW_JS)
    here = open_page(browsers, probes, "/__harness__/arrow-mirrored.html", "desktop").execute_script(WIND_ARROW_JS)
    assert arrow_problems(there, there) == []
    problems = arrow_problems(here, there)
    assert problems and "ancestor is transformed" in problems[0], problems


def test_selftest_share_without_script_is_caught(browsers, probes):
    driver = browsers("desktop")
    load_with_share_stub(driver, probes.base_url + "/__harness__/share.html")
    problems = share_problems(driver, probes.base_url)
    assert problems == ["  button.copy-link is still hidden: share.js did not show it"], problems
