"""Fixtures shared by the browser, accessibility and HTML tests.

Environment:
  ISOBAR_SITE       built site directory to test (required)
  ISOBAR_ARTIFACTS  where screenshots and reports go
                    (default: <repo>/test-artifacts/browser)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import harness

REPO_ROOT = Path(__file__).resolve().parents[2]


def _site_dir() -> Path:
    raw = os.environ.get("ISOBAR_SITE")
    if not raw:
        raise pytest.UsageError(
            "ISOBAR_SITE is not set: point it at a built site, e.g.\n"
            "  .build/debug/isobar build --config isobar.yml --output /tmp/site\n"
            "  ISOBAR_SITE=/tmp/site python3 -m pytest Tests/browser\n"
            "or run Tests/browser/run.sh, which does both.")
    site = Path(raw).resolve()
    if not (site / "index.html").is_file():
        raise pytest.UsageError(f"ISOBAR_SITE={raw}: no index.html there, is it a built site?")
    return site


def pytest_configure(config):
    # Fail before collection, with one clear message, instead of one error per test.
    config.isobar_site = _site_dir()
    config.isobar_pages = harness.discover_pages(config.isobar_site)


def pytest_generate_tests(metafunc):
    # Any test asking for `page` runs once per generated HTML page.
    if "page" in metafunc.fixturenames:
        pages = metafunc.config.isobar_pages
        metafunc.parametrize("page", pages, ids=[p.id for p in pages])


@pytest.fixture(scope="session")
def site(pytestconfig) -> Path:
    return pytestconfig.isobar_site


@pytest.fixture(scope="session")
def pages(pytestconfig) -> list[harness.Page]:
    return pytestconfig.isobar_pages


@pytest.fixture(scope="session")
def artifacts() -> Path:
    path = Path(os.environ.get("ISOBAR_ARTIFACTS") or REPO_ROOT / "test-artifacts" / "browser")
    if not path.is_absolute():
        path = REPO_ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


# Probe pages served next to the site (never written into it) so the
# self-tests can prove each check is able to fail.
PROBES = {
    "/__harness__/overflow.html":
        '<!doctype html><html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>overflow</title><body><div class="too-wide" style="width:500px">wide</div>',
    "/__harness__/console.html":
        '<!doctype html><html lang="en"><title>console</title>'
        '<script>console.error("harness probe error")</script>',
    # "localhost" is a different host from 127.0.0.1 yet needs no network.
    "/__harness__/foreign.html":
        '<!doctype html><html lang="en"><title>foreign</title>'
        '<img alt="" src="http://localhost:{port}/assets/style.css">',
    "/__harness__/script.html":
        '<!doctype html><html lang="en"><title>script</title>'
        '<body><p>probe</p><script>document.body.className = "js-ran"</script>',
    # image-alt is "critical" and html-has-lang "serious" in axe-core.
    "/__harness__/a11y.html":
        '<!doctype html><html><title>a11y</title><img src="/assets/icons/01d.svg">',
}


@pytest.fixture(scope="session")
def server(site):
    srv = harness.StaticServer(site)
    srv.add_probes({path: body.replace("{port}", str(srv.port)) for path, body in PROBES.items()})
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browsers():
    """browsers(viewport_name, js=True) -> a Chromium session, started once.

    One session per width (and per JavaScript setting): starting Chromium
    is the slow part, navigating is cheap.
    """
    drivers = {}

    def get(viewport_name: str, js: bool = True):
        key = (viewport_name, js)
        if key not in drivers:
            driver = harness.new_driver(javascript=js)
            harness.set_viewport(driver, harness.VIEWPORTS[viewport_name])
            drivers[key] = driver
        return drivers[key]

    yield get
    for driver in drivers.values():
        driver.quit()
