"""Fixtures shared by the browser, accessibility and HTML tests.

Environment:
  ISOBAR_SITE       built site directory to test (required); or several, separated
                    by ":", folders of one directory (run.sh's languages: that
                    directory is served, and each page's id and path start with
                    its site's folder name, e.g. "lang-he/london-gb")
  ISOBAR_ARTIFACTS  where screenshots and reports go
                    (default: <repo>/test-artifacts/browser)
  ISOBAR_PAGES      only these pages, paths inside the site separated by
                    spaces (default: every page), e.g.
                    "index.html london-gb/index.html"
  ISOBAR_REFERENCE_SITE  the same site built in another language (run.sh: en),
                    for test_rtl.py's comparisons (skipped without it)
  ISOBAR_XFAIL      known failures, one a line: "<test id>: <reason>" (e.g.
                    "test_site.py::test_no_horizontal_overflow[index-phone]: ...").
                    Each is a strict xfail: it reports its reason, and fails
                    once the problem is fixed, so the entry gets removed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import harness

REPO_ROOT = Path(__file__).resolve().parents[2]


def _site_dirs() -> list[Path]:
    raw = os.environ.get("ISOBAR_SITE")
    if not raw:
        raise pytest.UsageError(
            "ISOBAR_SITE is not set: point it at a built site, e.g.\n"
            "  .build/debug/isobar build --config isobar.yml --output /tmp/site\n"
            "  ISOBAR_SITE=/tmp/site python3 -m pytest Tests/browser\n"
            "or run Tests/browser/run.sh, which does both.")
    sites = []
    for part in raw.split(os.pathsep):
        site = Path(part).resolve()
        if not (site / "index.html").is_file():
            raise pytest.UsageError(f"ISOBAR_SITE={raw}: no index.html in {part}, is it a built site?")
        sites.append(site)
    if len(sites) > 1 and len({s.parent for s in sites}) > 1:
        raise pytest.UsageError(f"ISOBAR_SITE={raw}: several sites must be folders of one directory")
    return sites


def pytest_configure(config):
    # Fail before collection, with one clear message, instead of one error per test.
    sites = _site_dirs()
    only = os.environ.get("ISOBAR_PAGES")
    try:
        if len(sites) == 1:
            config.isobar_site = sites[0]
            config.isobar_pages = harness.discover_pages(sites[0], only)
        else:
            config.isobar_site = sites[0].parent
            config.isobar_pages = [page for site in sites
                                   for page in harness.discover_pages(site, only, site.name)]
    except ValueError as error:
        raise pytest.UsageError(str(error)) from None


def _known_failures() -> dict[str, str]:
    known = {}
    for line in os.environ.get("ISOBAR_XFAIL", "").splitlines():
        if line.strip():
            test_id, _, reason = line.partition(": ")
            known[test_id.strip()] = reason.strip() or "known failure (ISOBAR_XFAIL)"
    return known


def pytest_collection_modifyitems(config, items):
    known = _known_failures()
    for item in items:
        if item.nodeid in known:
            item.add_marker(pytest.mark.xfail(reason=known.pop(item.nodeid), strict=True))
    if known:
        # A stale or misspelt entry would otherwise excuse nothing, silently.
        raise pytest.UsageError("ISOBAR_XFAIL names tests that were not collected: " + ", ".join(known))


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
