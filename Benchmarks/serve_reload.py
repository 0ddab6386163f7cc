#!/usr/bin/env python3
"""Live-preview benchmark: from a template save to the open page showing it (used by serve.sh).

  serve_reload.py --bin ISOBAR --results OUT.json [--samples K] [--busy N] [--limit S]
                  [--page PATH] [--work DIR]

`isobar serve --port 0` runs on a copy of the demo site (isobar.yml, Samples, Templates,
Public, Data), a city page is open in headless Chromium, and K times the city template is
saved with a new marker line. Each sample is the time from the save (the moment the file
is written and closed) to the reloaded page's first contentful paint, read from the page
itself (performance.timeOrigin + the paint entry: no polling error), split into

  until reload   the save to the reloaded page's navigation start: the watcher's looks
                 (every 0.2 s, a change must hold still for one), the build, the event;
  page load      navigation start to first contentful paint;

and the build time `isobar serve` printed ("rebuilt in 0.3 s"). One unmeasured save
first (warm-up); between saves a random pause of 0.3–0.8 s, so the saves land at every
phase of the watcher's looks. `--busy N` keeps N busy loops (python3, one core each)
running while it measures, stopped by their pids at the end.

Needs: selenium (Tests/browser/requirements.txt), chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SITE_ITEMS = ["isobar.yml", "Samples", "Templates", "Public", "Data"]
CHROMEDRIVER = os.environ.get("ISOBAR_CHROMEDRIVER", "/usr/bin/chromedriver")
GIVE_UP = 60  # seconds: a sample that takes longer than this is a broken preview

# What the open page knows about its own load: whether it shows the marker, and when
# (epoch milliseconds) its navigation started, its DOM was ready and it was first painted.
PROBE = """
const marker = arguments[0];
const body = document.body;
if (!body || !body.innerText.includes(marker)) return null;
const nav = performance.getEntriesByType('navigation')[0];
const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
return {origin: performance.timeOrigin,
        dcl: nav ? nav.domContentLoadedEventEnd : 0,
        fcp: paint ? paint.startTime : 0,
        reloaded: window.serveBenchProbe === undefined};
"""


def new_driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(GIVE_UP)
    return driver


class Serve:
    """`isobar serve --port 0` on a copy of the demo site, stopped by its pid."""

    def __init__(self, binary: Path, work: Path):
        self.site = work / "site"
        tmp = work / "tmp"
        self.site.mkdir()
        tmp.mkdir()
        for item in SITE_ITEMS:
            source = REPO / item
            (shutil.copytree if source.is_dir() else shutil.copy)(source, self.site / item)
        self.log_path = work / "serve.log"
        self.log = open(self.log_path, "w")
        env = dict(os.environ, TMPDIR=str(tmp), SOURCE_DATE_EPOCH="1795348800")
        env.pop("OPENWEATHER_API_KEY", None)
        self.process = subprocess.Popen([str(binary), "serve", "--port", "0"], cwd=self.site, env=env,
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + GIVE_UP
        while time.monotonic() < deadline:
            found = re.search(r"serving (http://127\.0\.0\.1:\d+)/ ", self.stderr())
            if found:
                self.base_url = found.group(1)
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        sys.exit(f"serve_reload.py: isobar serve gave no address:\n{self.stderr()}")

    def stderr(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def build_times(self) -> list[float]:
        return [float(s) for s in re.findall(r"isobar: rebuilt in ([0-9.]+) s", self.stderr())]

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


def one_save(driver, template: Path, original: str, marker: str) -> dict:
    """Saves `marker` into the template; when the open page showed it, and how."""
    driver.execute_script("window.serveBenchProbe = 1")
    with open(template, "w", encoding="utf-8") as f:
        f.write(original + f"\n{marker}\n")
    saved = time.time()
    deadline = time.monotonic() + GIVE_UP
    seen = None
    while time.monotonic() < deadline:
        try:
            seen = driver.execute_script(PROBE, marker)
        except Exception:  # the page is being replaced: look again
            seen = None
        if seen:
            break
        time.sleep(0.02)
    polled = time.time()
    if not seen:
        raise RuntimeError(f"the open page did not show {marker} within {GIVE_UP} s")
    # The paint entry can land a moment after the marker is in the DOM.
    for _ in range(50):
        if seen["fcp"]:
            break
        time.sleep(0.02)
        seen = driver.execute_script(PROBE, marker) or seen
    start = seen["origin"] / 1000
    shown = start + (seen["fcp"] or seen["dcl"]) / 1000
    return {
        "marker": marker,
        "total_s": round(shown - saved, 4),
        "until_reload_s": round(start - saved, 4),
        "page_load_s": round(shown - start, 4),
        "shown_by": "first-contentful-paint" if seen["fcp"] else "domcontentloaded",
        "polled_s": round(polled - saved, 4),
        "reloaded": bool(seen["reloaded"]),
    }


def busy_loops(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def summary(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, type=Path)
    parser.add_argument("--results", required=True, type=Path)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--busy", type=int, default=0)
    parser.add_argument("--limit", type=float, default=2.0)
    parser.add_argument("--page", default="/london-gb/")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="serve-bench-", dir=args.work))
    serve = Serve(args.bin.resolve(), work)
    driver = None
    loops: list[subprocess.Popen] = []
    samples = []
    started = time.time()
    try:
        driver = new_driver()
        driver.get(serve.base_url + args.page)
        template = serve.site / "Templates" / "city.md"
        original = template.read_text(encoding="utf-8")
        loops = busy_loops(args.busy)
        run = random.randrange(1 << 30)
        for index in range(args.samples + 1):
            time.sleep(random.uniform(0.3, 0.8))
            sample = one_save(driver, template, original, f"SERVE-BENCH-{run}-{index}")
            if index == 0:
                continue  # warm-up
            sample["sample"] = index
            samples.append(sample)
            print(f"   sample {index:2d}: {sample['total_s']:.3f} s  (until reload {sample['until_reload_s']:.3f} s, "
                  f"page load {sample['page_load_s']:.3f} s)", flush=True)
    finally:
        for loop in loops:
            os.kill(loop.pid, signal.SIGKILL)
            loop.wait()
        if driver is not None:
            driver.quit()
        serve.stop()
    builds = serve.build_times()[1:]  # the warm-up's build first
    log = serve.stderr()
    shutil.rmtree(work, ignore_errors=True)

    totals = [s["total_s"] for s in samples]
    result = {
        "date": time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(started)),
        "benchmark": "serve",
        "isobar_binary": str(args.bin),
        "page": args.page,
        "samples_measured": len(samples),
        "busy_loops": args.busy,
        "limit_s": args.limit,
        "summary": {
            "total_s": summary(totals),
            "until_reload_s": summary([s["until_reload_s"] for s in samples]),
            "page_load_s": summary([s["page_load_s"] for s in samples]),
            "build_s": summary(builds) if builds else None,
        },
        "met": max(totals) <= args.limit,
        "every_page_reloaded": all(s["reloaded"] for s in samples),
        "machine": {"cpus": os.cpu_count(), "kernel": platform.release(),
                    "loadavg_end": open("/proc/loadavg").read().split()[:3]},
        "samples": samples,
        "rebuild_lines": len(builds),
    }
    if len(builds) != len(samples):
        result["note"] = f"{len(builds)} rebuilds for {len(samples)} measured saves:\n{log[-2000:]}"
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")

    s = result["summary"]
    print()
    print(f"{'save → page shown':<22} median {s['total_s']['median']:.3f} s   max {s['total_s']['max']:.3f} s"
          f"   min {s['total_s']['min']:.3f} s   ({len(samples)} saves, {args.busy} busy loops)")
    print(f"{'  until reload':<22} median {s['until_reload_s']['median']:.3f} s   max {s['until_reload_s']['max']:.3f} s")
    print(f"{'  page load':<22} median {s['page_load_s']['median']:.3f} s   max {s['page_load_s']['max']:.3f} s")
    if builds:
        print(f"{'  build (serve says)':<22} median {s['build_s']['median']:.3f} s   max {s['build_s']['max']:.3f} s")
    verdict = "met" if result["met"] else "NOT met"
    print(f"{args.limit:g} s from save to page: {verdict} (slowest of {len(samples)}: {max(totals):.3f} s)")
    print(f"results: {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
