"""Reading the site offline (README, "Offline and installable"), in headless Chromium.

run.sh builds a copy of the demo for this test alone and names it (ISOBAR_OFFLINE_SITE),
with the binary and config that rebuild it (ISOBAR_OFFLINE_REBUILD: a shell command).
The site is served under /site/ of a loopback server, beside /outside/, so the worker's
scope (base_url's path, the folder of sw.js) is narrower than the origin:

1. online, the index and a city page load, and the service worker takes control;
2. the network goes away (DevTools' offline emulation, and the server stopped, so a page
   can only come from the worker's copy): both reload from the copy and show
   "Offline — data from <time> (<age>)" in the page's language;
3. with the server down but the browser believing it is online (a failing network), the
   copy still says it is one, told by the worker;
4. nothing outside /site/ was kept; the caches are named after the scope;
5. a new build (another title: a new manifest, so a new worker version) is served; the
   next online visit shows the new page, the new worker replaces the old one and its
   cache, and offline again the new page is the one kept.

Screenshots of the offline city page at 360 and 1280 px go to the artifacts.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

import harness

SITE = os.environ.get("ISOBAR_OFFLINE_SITE")
REBUILD = os.environ.get("ISOBAR_OFFLINE_REBUILD")
pytestmark = pytest.mark.skipif(not SITE or not REBUILD, reason="run.sh's offline site only (ISOBAR_OFFLINE_SITE)")

NOTE = re.compile(r"^Offline — data from (?:\w+ )?\d{1,2}:\d\d(?: [AP]M)? \((\d+ (?:minutes?|hours?|days?) ago|yesterday|now|\d+ minutes? ago)\)$")


class Server:
    """The static server on a port that survives a restart (one origin for the worker)."""

    def __init__(self, root: Path, port: int = 0):
        handler = functools.partial(harness.QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def wait_for_control(driver):
    """Waits until the page is controlled by an activated worker."""
    ok = driver.execute_async_script("""
const done = arguments[arguments.length - 1];
if (!('serviceWorker' in navigator)) return done('no serviceWorker');
const check = () => navigator.serviceWorker.controller ? done(true) : null;
navigator.serviceWorker.ready.then(check);
navigator.serviceWorker.addEventListener('controllerchange', check);
setTimeout(() => done('not controlled after 20 s'), 20000);
""")
    assert ok is True, ok


def offline(driver, on: bool):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": on, "latency": 0, "downloadThroughput": -1 if not on else 0, "uploadThroughput": -1 if not on else 0})


def note(driver):
    """The offline note's text once shown, or None after a few seconds."""
    for _ in range(50):
        shown = driver.execute_script(
            "const n = document.querySelector('.offline-note'); return n && !n.hidden ? n.textContent : null")
        if shown:
            return shown
        time.sleep(0.1)
    return None


def installability_errors(driver) -> list[str]:
    """Chromium's reasons a page cannot be installed as an app (DevTools), [] if it can."""
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    return [e["errorId"] for e in errors]


def cache_state(driver, outside_url):
    return driver.execute_async_script("""
const done = arguments[arguments.length - 1];
(async () => {
  const names = await caches.keys();
  let outside = false, keys = [];
  for (const name of names) {
    const cache = await caches.open(name);
    if (await cache.match(arguments[0])) outside = true;
    keys.push(...(await cache.keys()).map(r => r.url));
  }
  done({names, outside, keys});
})();
""", outside_url)


def test_offline_reading_and_update(artifacts):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        os.symlink(Path(SITE).resolve(), root / "site")
        (root / "outside").mkdir()
        (root / "outside" / "page.html").write_text("<!doctype html><title>outside</title><p>not the site's")
        server = Server(root)
        port = server.port
        base = f"http://127.0.0.1:{port}/site/"
        driver = harness.new_driver()
        try:
            harness.set_viewport(driver, harness.VIEWPORTS["phone"])
            driver.get(base + "index.html")
            wait_for_control(driver)
            driver.get(base + "index.html")
            wait_for_control(driver)
            assert note(driver) is None, "online, no offline note"
            # Installable, by Chromium's own checks (Lighthouse's installability audit
            # asks the browser the same question): a manifest with a name, a start URL in
            # scope, 192 and 512 px icons, served with a worker that handles fetches.
            assert installability_errors(driver) == [], "the index is not installable"
            manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})["manifest"]
            assert manifest["name"] and manifest["startUrl"].startswith(base), manifest
            assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}, manifest["icons"]
            driver.get(base + "london-gb/index.html")
            wait_for_control(driver)
            title_before = driver.title
            # A request out of the scope, from a page in it: the worker must leave it alone.
            driver.execute_async_script(
                "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(() => done(), () => done());",
                f"http://127.0.0.1:{port}/outside/page.html")
            state = cache_state(driver, f"http://127.0.0.1:{port}/outside/page.html")
            assert not state["outside"], "a response from outside base_url's path was kept"
            assert state["names"] and all(n.startswith(f"isobar {base} ") for n in state["names"]), state["names"]
            assert any(k.endswith("/site/london-gb/index.html") for k in state["keys"]), "the opened page is kept"
            assert not any("/outside/" in k for k in state["keys"])
            # The check can fail: a page without a manifest is not installable.
            driver.get(f"http://127.0.0.1:{port}/outside/page.html")
            assert installability_errors(driver), "a page without a manifest was found installable"

            # 2. Offline: emulation, and no server at all.
            server.stop()
            offline(driver, True)
            for path in ("index.html", "london-gb/index.html"):
                driver.get(base + path)
                text = note(driver)
                assert text and NOTE.match(text), f"{path}: offline note {text!r}"
            assert driver.title == title_before
            for name in ("phone", "desktop"):
                viewport = harness.VIEWPORTS[name]
                harness.set_viewport(driver, viewport)
                harness.full_page_screenshot(driver, viewport, artifacts / "offline" / f"london-gb-offline-{name}.png")
            harness.set_viewport(driver, harness.VIEWPORTS["phone"])

            # 3. A failing network the browser does not know about: the worker says so.
            offline(driver, False)
            driver.get(base + "london-gb/index.html")
            assert driver.execute_script("return navigator.onLine") is True
            text = note(driver)
            assert text and NOTE.match(text), f"served from the copy while 'online': note {text!r}"

            # 5. A new build, served again on the same origin.
            version_before = (Path(SITE) / "sw.js").read_text()
            subprocess.run(REBUILD, shell=True, check=True)
            assert (Path(SITE) / "sw.js").read_text() != version_before, "a new manifest makes a new worker"
            server = Server(root, port)
            driver.get(base + "london-gb/index.html")
            assert driver.title != title_before, "the next online visit shows the new build's page"
            assert note(driver) is None
            new_version = re.search(r'const VERSION = "(\w+)"', (Path(SITE) / "sw.js").read_text()).group(1)
            # The new worker installs and deletes the old cache in the background: waited
            # for, up to 30 s. (The old worker, still answering the visit, once wrote the
            # page into its cache after that and brought it back for good.)
            deadline = time.monotonic() + 30
            while True:
                names = cache_state(driver, "")["names"]
                if names == [f"isobar {base} {new_version}"] or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert names == [f"isobar {base} {new_version}"], f"the old version's cache stays: {names}"
            title_after = driver.title
            server.stop()
            offline(driver, True)
            driver.get(base + "london-gb/index.html")
            assert driver.title == title_after, "offline, the new page is the one kept"
            assert note(driver)
        finally:
            offline(driver, False)
            driver.quit()
            try:
                server.stop()
            except Exception:
                pass
