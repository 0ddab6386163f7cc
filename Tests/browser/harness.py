"""Shared plumbing for the browser tests: static server, Chromium sessions,
page discovery and the measurements taken on every page.

Kept out of conftest.py so the test modules can import it by name.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import struct
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CHROMEDRIVER = os.environ.get("ISOBAR_CHROMEDRIVER", "/usr/bin/chromedriver")
# Named, so that Selenium's driver manager has nothing to look up (it would try the
# internet for "known good versions" of Chrome, and print its failure on every start).
CHROMIUM = os.environ.get("ISOBAR_CHROMIUM", "/usr/bin/chromium")

# Emulated viewports. Headless Chromium will not shrink its window below
# ~500 px, so widths come from CDP device-metrics emulation, not the window.
VIEWPORTS = {
    "phone": {"width": 360, "height": 800, "mobile": True},
    "desktop": {"width": 1280, "height": 900, "mobile": False},
}

# Screenshots are taken with the viewport stretched to the page height,
# capped so a runaway page cannot produce an enormous PNG.
MAX_SCREENSHOT_HEIGHT = 8000

# A classic vertical scrollbar eats into documentElement.clientWidth on
# desktop; anything narrower than this means the viewport is not what we asked.
MAX_SCROLLBAR = 20

# Hosts a page may fetch from (the harness server itself).
ALLOWED_HOSTS = {"127.0.0.1"}
ALLOWED_SCHEMES = {"data"}


def fail_if(problems, header: str) -> None:
    """Fail with just our message: the assert rewrite's dump of the data
    structures only buries the findings."""
    if problems:
        pytest.fail(header + "\n" + "\n".join(problems), pytrace=False)


# --------------------------------------------------------------------------
# Pages


@dataclass(frozen=True)
class Page:
    id: str          # stable name for test ids and artifact files
    kind: str        # "index", "city", "404" or "other"
    rel_path: str    # path of the .html file inside the site directory
    url_path: str    # path requested from the server (how the site links it)
    slug: str | None = None
    # When several sites are tested together (run.sh's languages), each is a folder of
    # the directory served, named here; id, rel_path and url_path start with it.
    site_name: str = ""

    @property
    def path_in_site(self) -> str:
        """url_path within the page's own site (the same page of another build)."""
        return self.url_path.removeprefix("/" + self.site_name) if self.site_name else self.url_path


def discover_pages(site: Path, only: str | None = None, site_name: str = "") -> list[Page]:
    """Every generated .html page, so new pages get tested without edits here.

    `only` (ISOBAR_PAGES): paths inside the site separated by spaces, e.g.
    "index.html london-gb/index.html", to test just those pages (run.sh's
    per-language runs). A path that is not in the site is an error, so a
    typo cannot quietly test nothing. `site_name`: the site is the folder of
    that name in the directory served (ids and paths are prefixed with it).
    """
    pages = _all_pages(site)
    if only is not None and only.strip():
        wanted = only.split()
        by_path = {p.rel_path: p for p in pages}
        missing = [w for w in wanted if w not in by_path]
        if missing:
            raise ValueError(f"ISOBAR_PAGES names pages that are not in {site}: {' '.join(missing)}")
        pages = [by_path[w] for w in dict.fromkeys(wanted)]
    if site_name:
        pages = [replace(p, id=f"{site_name}/{p.id}", rel_path=f"{site_name}/{p.rel_path}",
                         url_path=f"/{site_name}{p.url_path}", site_name=site_name) for p in pages]
    return pages


def _all_pages(site: Path) -> list[Page]:
    pages = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if rel.startswith("assets/"):
            continue
        parts = rel.split("/")
        if rel == "index.html":
            pages.append(Page("index", "index", rel, "/"))
        elif rel == "404.html":
            pages.append(Page("404", "404", rel, "/404.html"))
        elif len(parts) == 2 and parts[1] == "index.html":
            # A city's public address is "<slug>/" (canonical URL, sitemap; pages
            # link the file, test_from_disk.py): request that, which also checks
            # the directory-index lookup a static host does.
            slug = parts[0]
            pages.append(Page(slug, "city", rel, f"/{slug}/", slug))
        elif parts[-1] == "widget.html":
            pages.append(Page(rel.removesuffix(".html").replace("/", "_"), "widget", rel, "/" + rel))
        else:
            pages.append(Page(rel.removesuffix(".html").replace("/", "_"), "other", rel, "/" + rel))
    return pages


# --------------------------------------------------------------------------
# Static server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site, plus in-memory probe pages used by the self-tests.

    Probes live under /__harness__/ so they can never shadow a site file.
    """

    probes: dict[str, str] = {}

    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        pass

    def do_GET(self):
        body = self.probes.get(urlsplit(self.path).path)
        if body is None:
            return super().do_GET()
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class StaticServer:
    def __init__(self, root: Path):
        # A subclass per server so probes never leak between instances.
        self.handler = type("Handler", (QuietHandler,), {"probes": {}})
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(self.handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add_probes(self, probes: dict[str, str]) -> None:
        self.handler.probes.update(probes)

    def start(self) -> "StaticServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


# --------------------------------------------------------------------------
# Browser


def new_driver(javascript: bool = True) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(arg)
    # Console messages and network events are read back from these logs.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    if not javascript:
        # Blocks page scripts only: chromedriver's own script calls go
        # through CDP and keep working (the js-off self-test proves both).
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    return driver


def set_viewport(driver, viewport: dict, height: int | None = None) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": viewport["width"],
        "height": height or viewport["height"],
        "deviceScaleFactor": 1,
        "mobile": viewport["mobile"],
    })


def drain_logs(driver) -> None:
    """Logs are consumed on read; empty them so the next read is this page's."""
    driver.get_log("browser")
    driver.get_log("performance")


def load(driver, url: str, viewport: dict) -> None:
    set_viewport(driver, viewport)
    # Leave the previous page first so none of its late events leak into
    # the logs collected for this one.
    driver.get("about:blank")
    drain_logs(driver)
    driver.get(url)


# --------------------------------------------------------------------------
# Measurements

# Horizontal overflow. Compared against documentElement.clientWidth rather
# than window.innerWidth: under mobile emulation Chromium widens innerWidth
# to the content width (a 500 px div on a 360 px phone gives innerWidth 500),
# which would make `scrollWidth <= innerWidth` pass vacuously.
_OVERFLOW_JS = r"""
const root = document.documentElement;
const limit = root.clientWidth;
const scrolls = el => {
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (a === document.body || a === root) break;
    // hidden/clip ancestors cannot cause page overflow either.
    if (/^(auto|scroll|hidden|clip)$/.test(getComputedStyle(a).overflowX)) return true;
  }
  return false;
};
const describe = el => {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  if (typeof el.className === 'string' && el.className.trim())
    s += '.' + el.className.trim().split(/\s+/).join('.');
  const parent = el.parentElement;
  if (parent && parent !== document.body) {
    let p = parent.tagName.toLowerCase();
    if (typeof parent.className === 'string' && parent.className.trim())
      p += '.' + parent.className.trim().split(/\s+/)[0];
    s = p + ' > ' + s;
  }
  return s;
};
const offenders = [];
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.right > limit + 0.5 && !scrolls(el)) {
    offenders.push({el: describe(el), right: Math.round(r.right), width: Math.round(r.width),
                    text: (el.textContent || '').trim().slice(0, 60)});
  }
}
return {scrollWidth: root.scrollWidth, clientWidth: limit,
        innerWidth: window.innerWidth, offenders: offenders};
"""


def measure_overflow(driver) -> dict:
    return driver.execute_script(_OVERFLOW_JS)


def check_overflow(viewport: dict, m: dict) -> list[str]:
    """Problems with the horizontal layout, empty if none."""
    problems = []
    width = viewport["width"]
    if not width - MAX_SCROLLBAR <= m["clientWidth"] <= width:
        problems.append(
            f"layout viewport is {m['clientWidth']} px wide, expected ~{width} px "
            "(missing or wrong <meta name=viewport>?)")
    if m["scrollWidth"] > m["clientWidth"]:
        problems.append(
            f"page scrolls sideways: scrollWidth {m['scrollWidth']} > viewport "
            f"{m['clientWidth']} (innerWidth {m['innerWidth']})")
        for o in m["offenders"][:15]:
            problems.append(f"    {o['el']}: right={o['right']} width={o['width']} {o['text']!r}")
        if len(m["offenders"]) > 15:
            problems.append(f"    ... and {len(m['offenders']) - 15} more elements")
    return problems


def inspect_selectors(driver, selectors) -> dict[str, dict]:
    """For each selector: how many elements match and how many are visible."""
    out = {}
    for sel in selectors:
        els = driver.find_elements(By.CSS_SELECTOR, sel)
        visible = 0
        for el in els:
            size = el.size
            if el.is_displayed() and size["width"] > 0 and size["height"] > 0:
                visible += 1
        out[sel] = {"count": len(els), "visible": visible}
    return out


def console_errors(driver) -> list[str]:
    return [f"[{e.get('source', '?')}] {e['message']}"
            for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def requested_urls(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def foreign_requests(urls) -> list[str]:
    bad = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in ALLOWED_SCHEMES or parts.hostname in ALLOWED_HOSTS:
            continue
        if url == "about:blank":  # our own navigation between pages
            continue
        bad.append(url)
    return bad


def full_page_screenshot(driver, viewport: dict, path: Path) -> None:
    height = driver.execute_script(
        "return Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)")
    height = max(viewport["height"], min(int(height), MAX_SCREENSHOT_HEIGHT))
    set_viewport(driver, viewport, height)
    try:
        png = driver.get_screenshot_as_png()
    finally:
        set_viewport(driver, viewport)
    w, h = struct.unpack(">II", png[16:24])
    # Guards against a silently clipped capture (e.g. emulation not applied).
    assert (w, h) == (viewport["width"], height), f"screenshot is {w}x{h}, expected {viewport['width']}x{height}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
