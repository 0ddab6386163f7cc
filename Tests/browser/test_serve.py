"""`isobar serve` in headless Chromium: an open page follows the templates on disk.

The real binary serves a temporary copy of the demo site on a free port (`--port 0`,
the chosen address read from its stderr). The test opens a city page and never reloads
it itself: a marker added to the template appears, a broken template turns the page
into the error, and the fix brings the page back. Each outcome is polled for and waited
for at most WAIT_FOR seconds, a bound only a broken preview reaches: the test passes as
soon as the page changes, and a busy machine (CI's two cores, other suites running) only
makes it slower. How fast the page follows a save (the 2-second promise) is measured by
Benchmarks/serve.sh. Screenshots of the error page at 390 and 1280 px go to the artifacts
(serve/).

Environment: ISOBAR_BINARY, the isobar binary (default .build/debug/isobar, which
run.sh builds).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import harness

REPO_ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("ISOBAR_BINARY") or REPO_ROOT / ".build" / "debug" / "isobar")
SITE_ITEMS = ["isobar.yml", "Samples", "Templates", "Public", "Data"]
WAIT_FOR = 30  # seconds at most, from a save to the page showing it (polled)
PHONE = {"width": 390, "height": 844, "mobile": True}
DESKTOP = harness.VIEWPORTS["desktop"]


class Preview:
    """`isobar serve` started on a copy of the demo site, stopped by its pid."""

    def __init__(self, folder: Path):
        self.site = folder / "site"
        self.tmp = folder / "tmp"
        self.log_path = folder / "serve.log"
        self.site.mkdir()
        self.tmp.mkdir()
        for item in SITE_ITEMS:
            source = REPO_ROOT / item
            (shutil.copytree if source.is_dir() else shutil.copy)(source, self.site / item)
        env = dict(os.environ, TMPDIR=str(self.tmp), SOURCE_DATE_EPOCH="1795348800")
        env.pop("OPENWEATHER_API_KEY", None)
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", "0"], cwd=self.site, env=env,
            stdout=subprocess.DEVNULL, stderr=self.log)
        self.base_url = self._wait_for_address()

    def stderr(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def _wait_for_address(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.search(r"serving (http://127\.0\.0\.1:\d+)/ \(Ctrl-C to stop\)", self.stderr())
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        pytest.fail(f"isobar serve gave no address:\n{self.stderr()}", pytrace=False)

    def template(self, name: str) -> Path:
        return self.site / "Templates" / name

    def stop(self) -> int | None:
        """SIGTERM by pid (SIGKILL if it outlives WAIT_FOR); its exit status."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT_FOR)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        return self.process.returncode


@pytest.fixture
def preview(tmp_path):
    if not BINARY.is_file():
        pytest.fail(f"{BINARY} not found: swift build --product isobar (or set ISOBAR_BINARY)", pytrace=False)
    running = Preview(tmp_path)
    yield running
    running.stop()


def body_text(driver) -> str:
    return driver.find_element(By.TAG_NAME, "body").text


def wait_for(driver, what: str, condition) -> None:
    try:
        # A look that lands while the page reloads finds the old body gone (stale, missing,
        # or Chromium's "Node with given id does not belong to the document"): look again.
        WebDriverWait(driver, WAIT_FOR, poll_frequency=0.05,
                      ignored_exceptions=(WebDriverException,)).until(condition)
    except Exception:
        pytest.fail(f"the open page did not show {what} within {WAIT_FOR} s; it shows:\n"
                    f"{body_text(driver)[:600]}", pytrace=False)


def test_an_open_page_follows_the_templates_on_disk(preview, browsers, artifacts):
    driver = browsers("desktop")
    harness.set_viewport(driver, DESKTOP)
    driver.get(preview.base_url + "/london-gb/")
    assert driver.find_element(By.CSS_SELECTOR, "section.now").is_displayed()
    # Gone if the page is loaded again: proof that the page reloaded by itself.
    driver.execute_script("window.isobarProbe = 'still the first load'")
    city = preview.template("city.md")
    original = city.read_text(encoding="utf-8")

    city.write_text(original + "\nSERVE MARKER ONE\n", encoding="utf-8")
    wait_for(driver, "the marker", lambda d: "SERVE MARKER ONE" in body_text(d))
    assert driver.execute_script("return window.isobarProbe") is None

    city.write_text(original + "\n{{#now}}\nSERVE MARKER ONE\n", encoding="utf-8")
    wait_for(driver, "the template error", lambda d: "a section is not closed" in body_text(d))
    text = body_text(driver)
    assert "The site could not be built" in text
    assert re.search(r"Templates/city\.md:\d+:1: error: template syntax", text), text
    assert "{{#now}}" in text and "^" in text, "the line and the caret are shown"
    shots = artifacts / "serve"
    harness.full_page_screenshot(driver, DESKTOP, shots / "error-1280.png")
    harness.set_viewport(driver, PHONE)
    harness.full_page_screenshot(driver, PHONE, shots / "error-390.png")
    overflow = harness.check_overflow(PHONE, harness.measure_overflow(driver))
    harness.fail_if(overflow, "the error page at 390 px:")
    harness.set_viewport(driver, DESKTOP)

    city.write_text(original + "\nSERVE MARKER TWO\n", encoding="utf-8")
    wait_for(driver, "the fixed page", lambda d: "SERVE MARKER TWO" in body_text(d))
    assert "could not be built" not in body_text(driver)
    assert driver.find_element(By.CSS_SELECTOR, "section.now").is_displayed()

    assert preview.stop() == 0, preview.stderr()
    assert list(preview.tmp.iterdir()) == [], "serve removes its temporary folder"
    log = preview.stderr()
    assert log.count("isobar: rebuilt in") == 2 and "a section is not closed" in log, log


def test_without_javascript_the_served_page_is_the_site(preview, browsers):
    driver = browsers("phone", js=False)
    harness.set_viewport(driver, harness.VIEWPORTS["phone"])
    driver.get(preview.base_url + "/london-gb/")
    assert driver.find_element(By.CSS_SELECTOR, "section.now").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "section.daily")
