"""The embeddable widget and badge (README, "Embedding"), in headless Chromium.

The widget (`<slug>/widget.html`) in an `<iframe>` of 320×200 on a test page must show
everything without scrolling, in light and dark mode; its link opens the full page in
the top window; the badge (`<slug>/now.svg`) loads as an image of 160×40. Screenshots
of the test page go to the artifacts. (Nu and axe: run.sh runs test_html.py and
test_accessibility.py on the widget pages too.)
"""

from __future__ import annotations

import time

import pytest

import harness

EMBED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Embedding test</title></head>
<body style="margin:8px"><main><h1>Embedding test</h1>
<iframe src="/{slug}/widget.html" width="320" height="200" title="Weather in London" style="border:0"></iframe>
<p><img src="/{slug}/now.svg" alt="Weather in London now" width="160" height="40"></p></main></body></html>"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_widget_fits_its_frame(server, browsers, artifacts, pages, scheme):
    slugs = sorted({p.path_in_site.strip("/").split("/")[-2] for p in pages if p.rel_path.endswith("widget.html")})
    if not slugs:
        pytest.skip("no widget among the pages tested")
    driver = browsers("desktop")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        for slug in slugs:
            server.add_probes({f"/__harness__/embed-{slug}.html": EMBED.format(slug=slug)})
            driver.get(f"{server.base_url}/__harness__/embed-{slug}.html")
            time.sleep(0.3)
            badge = driver.execute_script("const i = document.querySelector('img'); return [i.complete, i.naturalWidth, i.naturalHeight]")
            assert badge == [True, 160, 40], f"{slug}: badge {badge}"
            frame = driver.find_element("css selector", "iframe")
            driver.switch_to.frame(frame)
            m = driver.execute_script("""const e = document.scrollingElement;
              const a = document.querySelector('a.widget');
              return {sh: e.scrollHeight, ch: e.clientHeight, sw: e.scrollWidth, cw: e.clientWidth,
                      target: a.getAttribute('target'), href: a.getAttribute('href'),
                      scripts: document.scripts.length, bg: getComputedStyle(document.body).backgroundColor}""")
            driver.switch_to.default_content()
            assert m["ch"] == 200 and m["sh"] <= m["ch"] and m["sw"] <= m["cw"], f"{slug}: scrolls in its 320×200 frame: {m}"
            assert m["target"] == "_top" and m["href"] == "index.html", m
            assert m["scripts"] == 0
            dark = m["bg"] != "rgb(255, 255, 255)"
            assert dark == (scheme == "dark"), f"{slug}: background {m['bg']} in {scheme} mode"
            path = artifacts / "embed" / f"{slug}-{scheme}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(path))
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
