"""axe-core accessibility audit of every generated page at both widths.

Fails on violations of impact "serious" or "critical"; lesser ones are only
recorded in the JSON reports (artifacts/axe/<page>-<width>.json).

Engine: axe-selenium-python drives the run, but the axe-core it bundles is
3.1.1 (2018), which wrongly reports <dt>/<dd> grouped in a <div> inside
<dl> (valid HTML) as a serious "dlitem" violation (dequelabs/axe-core#1265,
fixed in 3.2). So the engine injected is the axe-core 4.x shipped inside the
axe-core-python package; ISOBAR_AXE_JS can point at another axe.min.js.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from axe_selenium_python import Axe

import harness

FAILING_IMPACTS = {"serious", "critical"}


def _axe_script() -> str:
    override = os.environ.get("ISOBAR_AXE_JS")
    if override:
        return override
    # find_spec locates the package without importing its Playwright glue.
    spec = importlib.util.find_spec("axe_core_python")
    assert spec and spec.origin, "axe-core-python is not installed (pip install -r Tests/browser/requirements.txt)"
    return str(Path(spec.origin).with_name("axe.min.js"))


AXE_SCRIPT = _axe_script()
MAX_TARGETS = 5


def run_axe(driver) -> dict:
    axe = Axe(driver, script_url=AXE_SCRIPT)
    axe.inject()
    results = axe.run()
    # An empty or failed run must not look like a clean page.
    assert isinstance(results, dict) and results.get("passes"), \
        f"axe-core did not run properly: {str(results)[:300]}"
    assert "violations" in results
    return results


def blocking(results: dict) -> list[dict]:
    return [v for v in results["violations"] if v.get("impact") in FAILING_IMPACTS]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"]]
        shown = ", ".join(targets[:MAX_TARGETS])
        more = f" (+{len(targets) - MAX_TARGETS} more)" if len(targets) > MAX_TARGETS else ""
        lines.append(f"{v['id']} [{v['impact']}] {v['help']} ({len(targets)} nodes)\n"
                     f"    {shown}{more}")
        # The first node's summary says why (e.g. the measured contrast ratio).
        summary = v["nodes"][0].get("failureSummary", "").strip().replace("\n", " ")
        if summary:
            lines.append(f"    e.g. {summary[:300]}")
    return "\n".join(lines)


def audit(browsers, server, artifacts, url_path, viewport_name, report_name):
    viewport = harness.VIEWPORTS[viewport_name]
    driver = browsers(viewport_name)
    harness.load(driver, server.base_url + url_path, viewport)
    results = run_axe(driver)
    out = artifacts / "axe" / f"{report_name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    return results


@pytest.mark.parametrize("viewport_name", list(harness.VIEWPORTS))
def test_no_serious_accessibility_violations(browsers, server, artifacts, page, viewport_name):
    width = harness.VIEWPORTS[viewport_name]["width"]
    results = audit(browsers, server, artifacts, page.url_path, viewport_name, f"{page.id}-{width}")
    bad = blocking(results)
    harness.fail_if([describe(bad)] if bad else [],
                    f"axe-core {results['testEngine']['version']}: "
                    f"{len(bad)} serious/critical violation(s):")


def test_selftest_axe_finds_violations(browsers, server, artifacts):
    # A page with an unlabelled image and no lang must fail, or axe is not working.
    results = audit(browsers, server, artifacts, "/__harness__/a11y.html", "desktop", "selftest")
    ids = {v["id"] for v in blocking(results)}
    assert {"image-alt", "html-has-lang"} <= ids, ids
    # Guards against silently falling back to the bundled 3.x engine.
    assert int(results["testEngine"]["version"].split(".")[0]) >= 4, results["testEngine"]
