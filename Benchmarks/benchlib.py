#!/usr/bin/env python3
"""Helpers for render.sh and fetch.sh (standard library only).

  benchlib.py record  RUNS.jsonl TIMEFILE key=value...   parse `/usr/bin/time -v` output,
                                                          add the fields, append one JSON line
  benchlib.py report-field REPORT.json PATH              print a field of an isobar --report
                                                          (dotted path, e.g. files.written)
  benchlib.py summarize RUNS.jsonl META.json OUT.json    print the render table, write OUT.json
  benchlib.py fetch-summary LOG N_EXPECTED ...           see fetch.sh
  benchlib.py history-summary RUNS.jsonl META.json OUT.json   history.sh's table and JSON
  benchlib.py file-size FILE                             bytes of FILE plus its -wal (SQLite)
  benchlib.py sqlite-schema DB                           the schema's SQL (sqlite_master)
"""

import json
import math
import os
import statistics
import sys


def parse_time_v(path):
    """Fields of GNU time -v output that matter here."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for line in text.splitlines():
        line = line.strip()
        if "terminated by signal" in line:
            out["signal"] = line
            continue
        key, sep, val = line.rpartition(": ")
        if not sep:
            continue
        val = val.strip()
        if key == "User time (seconds)":
            out["user_s"] = float(val)
        elif key == "System time (seconds)":
            out["sys_s"] = float(val)
        elif key == "Maximum resident set size (kbytes)":
            out["max_rss_kb"] = int(val)
        elif key == "Exit status":
            out["time_exit_status"] = int(val)
        elif key.startswith("Elapsed (wall clock) time"):
            s = 0.0
            for p in val.split(":"):
                s = s * 60 + float(p)
            out["time_wall_s"] = s
    return out


def coerce(v):
    for t in (int, float):
        try:
            return t(v)
        except ValueError:
            pass
    return v


def cmd_record(args):
    runs, timefile = args[0], args[1]
    rec = {}
    for kv in args[2:]:
        k, _, v = kv.partition("=")
        rec[k] = coerce(v)
    rec.update(parse_time_v(timefile))
    s0, s1 = rec.pop("cpustat0", None), rec.pop("cpustat1", None)
    if s0 and s1 and rec.get("wall_s"):
        # /proc/stat "cpu" line: busy = all but idle and iowait, in USER_HZ (100/s) ticks.
        def busy(line):
            v = [int(x) for x in str(line).replace("_", " ").split()[1:]]
            return sum(v[:8]) - v[3] - v[4]
        total_busy = (busy(s1) - busy(s0)) / float(os.sysconf("SC_CLK_TCK"))
        own = rec.get("user_s", 0) + rec.get("sys_s", 0)
        rec["other_cpu_cores"] = round(max(0.0, total_busy - own) / rec["wall_s"], 3)
    rp = rec.pop("report", None)
    if rp and os.path.isfile(str(rp)):
        try:
            with open(rp, encoding="utf-8") as f:
                rep = json.load(f)
            rec["report_status"] = rep.get("status")
            rec["report_files"] = rep.get("files")
            rec["stage_seconds"] = rep.get("stage_seconds")
            rec["report_total_seconds"] = rep.get("total_seconds")
            bad = [c for c in rep.get("cities", []) if c.get("status") != "fresh"]
            rec["cities_not_fresh"] = len(bad)
            if bad:
                rec["first_not_fresh"] = bad[0]
        except (OSError, ValueError):
            pass
    if "wall_s" not in rec:
        rec["wall_s"] = rec.get("time_wall_s")
    with open(runs, "a", encoding="utf-8") as f:
        f.write(json.dumps(rec) + "\n")
    w = rec.get("wall_s") or 0
    cpu = (rec.get("user_s", 0) + rec.get("sys_s", 0)) / w if w else 0
    extra = ""
    if rec.get("files_written") is not None and rec.get("files_written") != "":
        extra = "  files written %s" % rec["files_written"]
    status = rec.get("exit_code")
    print("    %-15s N=%-6s run %s: %7.2f s  %7.0f MiB  cpu %.2f  others %.2f  exit %s%s%s"
          % (rec.get("tool"), rec.get("n"), rec.get("run"), w, rec.get("max_rss_kb", 0) / 1024.0,
             cpu, rec.get("other_cpu_cores", -1), status, extra,
             ("  " + rec["signal"]) if "signal" in rec else ""))
    sys.stdout.flush()


def cmd_report_field(args):
    path, dotted = args
    try:
        with open(path, encoding="utf-8") as f:
            v = json.load(f)
        for part in dotted.split("."):
            v = v[part]
    except (OSError, ValueError, KeyError, TypeError):
        print("")
        return
    print(v if not isinstance(v, (dict, list)) else json.dumps(v))


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def cmd_summarize(args):
    runs_path, meta_path, out_path = args
    runs = [json.loads(l) for l in open(runs_path, encoding="utf-8") if l.strip()]
    meta = json.load(open(meta_path, encoding="utf-8"))
    groups = {}
    order = []
    for r in runs:
        key = (r["tool"], int(r["n"]))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r)
    rows = []
    for key in order:
        rs = groups[key]
        tool, n = key
        ok = [r for r in rs if r.get("exit_code") == 0]
        use = ok or rs
        walls = [r["wall_s"] for r in use]
        wall = median(walls)
        rss = median([r.get("max_rss_kb") for r in use])
        cpu = median([(r.get("user_s", 0) + r.get("sys_s", 0)) / r["wall_s"] for r in use if r["wall_s"]])
        pages = n + 1
        if tool == "isobar-languages":   # every page in each language
            pages *= len([x for x in meta.get("languages", "").split(",") if x])
        fw = [r.get("files_written") for r in use if r.get("files_written") not in (None, "")]
        row = {
            "tool": tool, "n": n, "runs": len(rs), "failed_runs": len(rs) - len(ok),
            "exit_codes": sorted({r.get("exit_code") for r in rs}),
            "wall_s_median": wall, "wall_s_min": min(walls), "wall_s_max": max(walls),
            "pages": pages, "pages_per_s": pages / wall if wall else None,
            "max_rss_mib_median": rss / 1024.0 if rss else None,
            "max_rss_mib_max": max(r.get("max_rss_kb", 0) for r in use) / 1024.0,
            "cpu_utilisation_median": cpu,
            "other_cpu_cores_median": median([r.get("other_cpu_cores") for r in use]),
            "files_written": fw[0] if fw and len(set(fw)) == 1 else (fw or None),
            "output_files": median([r.get("output_files") for r in use if r.get("output_files") not in (None, "")]),
        }
        rows.append(row)
    byk = {(r["tool"], r["n"]): r for r in rows}
    ratios = []
    for n in sorted({r["n"] for r in rows}):
        iso, reb, hugo = byk.get(("isobar", n)), byk.get(("isobar-rebuild", n)), byk.get(("hugo", n))
        many = byk.get(("isobar-languages", n))
        bare = byk.get(("isobar-nocards", n))
        rat = {"n": n}
        if iso and bare and bare["wall_s_median"]:
            rat["cards_over_none_wall"] = iso["wall_s_median"] / bare["wall_s_median"]
        if iso and many and iso["wall_s_median"]:
            rat["languages_over_one_wall"] = many["wall_s_median"] / iso["wall_s_median"]
            if iso["max_rss_mib_median"]:
                rat["languages_over_one_rss"] = many["max_rss_mib_median"] / iso["max_rss_mib_median"]
        if iso and hugo and iso["wall_s_median"]:
            rat["hugo_over_isobar_wall"] = hugo["wall_s_median"] / iso["wall_s_median"]
            if iso["max_rss_mib_median"]:
                rat["hugo_over_isobar_rss"] = hugo["max_rss_mib_median"] / iso["max_rss_mib_median"]
        if iso and reb and iso["wall_s_median"]:
            rat["rebuild_over_full_wall"] = reb["wall_s_median"] / iso["wall_s_median"]
        ratios.append(rat)

    print()
    hdr = "%-15s %6s %4s %10s %17s %9s %10s %6s %7s %8s %8s" % (
        "tool", "N", "runs", "wall med s", "(min-max)", "pages/s", "RSS MiB", "CPU", "others", "written", "files")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        fails = "" if not r["failed_runs"] else "  (%d failed: exit %s)" % (r["failed_runs"], r["exit_codes"])
        oth = r["other_cpu_cores_median"]
        print("%-15s %6d %4d %10.2f %17s %9.1f %10.0f %6.2f %7s %8s %8s%s" % (
            r["tool"], r["n"], r["runs"], r["wall_s_median"],
            "(%.2f-%.2f)" % (r["wall_s_min"], r["wall_s_max"]),
            r["pages_per_s"] or 0, r["max_rss_mib_median"] or 0, r["cpu_utilisation_median"] or 0,
            "-" if oth is None else "%.2f" % oth,
            "" if r["files_written"] is None else r["files_written"],
            "" if r["output_files"] is None else int(r["output_files"]), fails))
    print()
    for rat in ratios:
        parts = []
        if "hugo_over_isobar_wall" in rat:
            parts.append("Hugo/Isobar wall %.2f" % rat["hugo_over_isobar_wall"])
        if "hugo_over_isobar_rss" in rat:
            parts.append("Hugo/Isobar RSS %.2f" % rat["hugo_over_isobar_rss"])
        if "rebuild_over_full_wall" in rat:
            parts.append("rebuild/full %.3f" % rat["rebuild_over_full_wall"])
        if "cards_over_none_wall" in rat:
            parts.append("with cards/without wall %.2f" % rat["cards_over_none_wall"])
        if "languages_over_one_wall" in rat:
            parts.append("languages/one wall %.2f, RSS %.2f" % (rat["languages_over_one_wall"], rat.get("languages_over_one_rss", 0)))
        print("N=%-6d %s" % (rat["n"], ", ".join(parts)))
    for key in order:
        tool, n = key
        if not tool.startswith("isobar"):
            continue
        st = [r.get("stage_seconds") or {} for r in groups[key] if r.get("stage_seconds")]
        if st:
            names = list(st[0])
            print("%-15s N=%-6d stages (median s): %s" % (tool, n, ", ".join(
                "%s %.2f" % (k, median([x.get(k) for x in st])) for k in names)))
    print("(stage times are summed over cities, which run concurrently, so they can exceed the wall time)")
    print("\npages = N city pages + the index; CPU = (user+sys)/wall (2.0 = both cores busy);"
          "\nothers = cores' worth of CPU used by other processes during the run (from /proc/stat;"
          "\n         well above 0 means the machine was shared and the times are pessimistic);"
          "\nwritten = files the build wrote (from --report; 0 expected for a no-change rebuild);"
          "\nfiles = files in the output folder after the run.")
    write_results(out_path, meta, summary=rows, ratios=ratios, runs=runs)


def write_results(out_path, meta, **parts):
    """The run's JSON: its metadata, then the named parts (summary, runs, …)."""
    result = dict(meta)
    result.update(parts)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print("\nresults written to %s" % out_path)


def max_in_window(times, window):
    times = sorted(times)
    best, j = 0, 0
    for i in range(len(times)):
        while times[i] - times[j] >= window:
            j += 1
        best = max(best, i - j + 1)
    return best


def cmd_fetch_summary(args):
    """fetch-summary LOG WALL_S EXIT RPM LATENCY_MS CONCURRENCY REPORT SCENARIO OUT.jsonl"""
    log, wall, exit_code, rpm, latency_ms, conc, report, scenario, out = args
    wall, rpm, latency, conc = float(wall), float(rpm), float(latency_ms) / 1000.0, int(conc)
    times, paths, statuses, conns = [], {}, {}, set()
    with open(log, encoding="utf-8") as f:
        for line in f:
            p = line.split()
            if len(p) < 3:
                continue
            times.append(float(p[0]))
            conns.add(p[1])
            ep = p[2]
            paths[ep] = paths.get(ep, 0) + 1
            if len(p) > 3:
                statuses[p[3]] = statuses.get(p[3], 0) + 1
    n = len(times)
    ideal = max(n / rpm * 60.0, n * latency / conc) if n else 0.0
    # A limiter that allows `rpm` requests in any 60 s window may send them in bursts: the
    # k-th burst can start at (k-1) x 60 s, so the last request cannot start before
    # (ceil(n / rpm) - 1) x 60 s.  Tighter than n / rpm when bursts are allowed.
    window_bound = max((math.ceil(n / rpm) - 1) * 60.0 + latency, n * latency / conc) if n else 0.0
    w60 = max_in_window(times, 60.0)
    span = (max(times) - min(times)) if times else 0.0
    status = ""
    try:
        rep = json.load(open(report, encoding="utf-8"))
        status = rep.get("status", "")
        cities = rep.get("cities", [])
        fresh = sum(1 for c in cities if c.get("status") == "fresh")
        stage = rep.get("stage_seconds", {})
    except (OSError, ValueError):
        fresh, stage = None, {}
    res = {"scenario": scenario, "requests": n, "by_path": paths, "by_status": statuses,
           "wall_s": wall, "exit_code": int(exit_code), "requests_per_minute": rpm,
           "latency_s": latency, "concurrency": conc, "ideal_s": ideal,
           "wall_over_ideal": wall / ideal if ideal else None,
           "window_bound_s": window_bound,
           "max_requests_in_60s": w60, "request_span_s": span, "connections": len(conns),
           "report_status": status, "fresh_cities": fresh, "stage_seconds": stage}
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(res) + "\n")
    print("  requests            %d  %s  statuses %s, over %d connections"
          % (n, json.dumps(paths, sort_keys=True), json.dumps(statuses, sort_keys=True), len(conns)))
    print("  wall time           %.2f s (isobar exit %s, report status %s, %s fresh cities)"
          % (wall, exit_code, status or "?", fresh))
    print("  ideal bound         %.2f s = max(%d / %g per min, %d x %.3f s / %d)"
          % (ideal, n, rpm, n, latency, conc))
    print("  wall / ideal        %s" % ("%.2f" % (wall / ideal) if ideal else "-"))
    if n > rpm:
        print("  burst bound         %.2f s = (ceil(%d / %g) - 1) x 60 s + latency: the least a limiter that"
              " lets %g through in any 60 s window can take" % (window_bound, n, rpm, rpm))
    print("  max in any 60 s     %d requests (limit %g)%s" % (w60, rpm, "  ** OVER THE LIMIT **" if w60 > rpm else ""))
    print("  first..last request %.2f s" % span)
    if stage:
        print("  isobar stages       %s" % ", ".join("%s %.2f" % (k, v) for k, v in stage.items()))


def db_bytes(path):
    """A SQLite file's size with its write-ahead log, as a reader sees it."""
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


def cmd_file_size(args):
    print(db_bytes(args[0]))


def cmd_sqlite_schema(args):
    import sqlite3
    db = sqlite3.connect("file:%s?mode=ro" % args[0], uri=True)
    for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"):
        print(sql)


def cmd_history_summary(args):
    """history.sh: per N, the arms' medians; what the history added (on − off), what
    recording added (on − seen) and what the pages' sections added (seen − off), each a
    share of the off arm's figure."""
    runs_path, meta_path, out_path = args
    runs = [json.loads(l) for l in open(runs_path, encoding="utf-8") if l.strip()]
    meta = json.load(open(meta_path, encoding="utf-8"))
    mib = 1048576.0
    rows, overheads = [], []
    for n in meta["ns"]:
        by_arm = {}
        for arm in ("off", "on", "seen", "on-empty-db"):
            rs = [r for r in runs if r["tool"] == arm and int(r["n"]) == n]
            if not rs:
                continue
            ok = [r for r in rs if r.get("exit_code") == 0] or rs
            walls = [r["wall_s"] for r in ok]
            grew = [r["db_bytes_after"] - r["db_bytes_before"] for r in ok
                    if isinstance(r.get("db_bytes_after"), int) and isinstance(r.get("db_bytes_before"), int)]
            row = {
                "arm": arm, "n": n, "runs": len(rs), "failed_runs": len(rs) - len([r for r in rs if r.get("exit_code") == 0]),
                "exit_codes": sorted({r.get("exit_code") for r in rs}),
                "wall_s_median": median(walls), "wall_s_min": min(walls), "wall_s_max": max(walls),
                "user_s_median": median([r.get("user_s") for r in ok]),
                "sys_s_median": median([r.get("sys_s") for r in ok]),
                "max_rss_mib_median": (median([r.get("max_rss_kb") for r in ok]) or 0) / 1024.0,
                "other_cpu_cores_median": median([r.get("other_cpu_cores") for r in ok]),
                "history_recorded": median([r.get("history_recorded") for r in ok if isinstance(r.get("history_recorded"), int)]),
                "history_stage_s_median": median([(r.get("stage_seconds") or {}).get("history") for r in ok]),
                "recording_cpu_s_median": median([r.get("recording_cpu_s") for r in ok if isinstance(r.get("recording_cpu_s"), (int, float))]),
                "db_bytes_before": median([r.get("db_bytes_before") for r in ok if isinstance(r.get("db_bytes_before"), int)]),
                "db_bytes_after": median([r.get("db_bytes_after") for r in ok if isinstance(r.get("db_bytes_after"), int)]),
                "db_growth_bytes_per_city": median(grew) / n if grew else None,
            }
            by_arm[arm] = row
            rows.append(row)
        off, on = by_arm.get("off"), by_arm.get("on")
        if off and on:
            pct = lambda a, b: 100.0 * (a - b) / b if a is not None and b else None
            prefill = meta.get("prefill", {}).get("by_n", {}).get(str(n), {})
            seen = by_arm.get("seen")
            # A difference of two arms as a share of the off arm.
            share = lambda a, b, key: 100.0 * (a[key] - b[key]) / off[key] if a and b and a.get(key) is not None and b.get(key) is not None and off.get(key) else None
            overheads.append({
                "n": n,
                "wall_overhead_pct": pct(on["wall_s_median"], off["wall_s_median"]),
                "user_overhead_pct": pct(on["user_s_median"], off["user_s_median"]),
                "sys_overhead_pct": pct(on["sys_s_median"], off["sys_s_median"]),
                "rss_overhead_pct": pct(on["max_rss_mib_median"], off["max_rss_mib_median"]),
                "recording_wall_pct": share(on, seen, "wall_s_median"),
                "recording_user_pct": share(on, seen, "user_s_median"),
                "recording_sys_pct": share(on, seen, "sys_s_median"),
                "sections_wall_pct": share(seen, off, "wall_s_median"),
                "sections_user_pct": share(seen, off, "user_s_median"),
                "sections_sys_pct": share(seen, off, "sys_s_median"),
                # The recording thread's own CPU time against the whole off build's: on a
                # machine the rendering keeps busy, what recording takes from it.
                "recording_cpu_s": on.get("recording_cpu_s_median"),
                "recording_cpu_pct_of_off_cpu": 100.0 * on["recording_cpu_s_median"] / (off["user_s_median"] + off["sys_s_median"])
                    if on.get("recording_cpu_s_median") is not None and off.get("user_s_median") is not None and off.get("sys_s_median") is not None else None,
                "prefilled_db_bytes": prefill.get("bytes"),
                "prefilled_db_bytes_per_city": prefill.get("bytes", 0) / n if prefill.get("bytes") else None,
                "prefilled_rows": prefill.get("rows"),
            })
    print()
    hdr = "%-12s %6s %4s %10s %15s %8s %7s %8s %6s %9s %10s %10s %10s" % (
        "arm", "N", "runs", "wall med s", "(min-max)", "user s", "sys s", "RSS MiB", "others",
        "recorded", "history s", "db MiB", "B/city")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        fails = "" if not r["failed_runs"] else "  (%d failed: exit %s)" % (r["failed_runs"], r["exit_codes"])
        oth = r["other_cpu_cores_median"]
        print("%-12s %6d %4d %10.2f %15s %8.2f %7.2f %8.0f %6s %9s %10s %10s %10s%s" % (
            r["arm"], r["n"], r["runs"], r["wall_s_median"], "(%.2f-%.2f)" % (r["wall_s_min"], r["wall_s_max"]),
            r["user_s_median"] or 0, r["sys_s_median"] or 0, r["max_rss_mib_median"],
            "-" if oth is None else "%.2f" % oth,
            "" if r["history_recorded"] is None else "%d" % r["history_recorded"],
            "" if r["history_stage_s_median"] is None else "%.2f" % r["history_stage_s_median"],
            "" if r["db_bytes_before"] is None else "%.0f->%.0f" % (r["db_bytes_before"] / mib, r["db_bytes_after"] / mib),
            "" if r["db_growth_bytes_per_city"] is None else "%.0f" % r["db_growth_bytes_per_city"], fails))
    print()
    for o in overheads:
        f = lambda v: "-" if v is None else "%+.1f %%" % v
        print("N=%-6d the history adds (on - off):      wall %s, user %s, sys %s, peak RSS %s" % (
            o["n"], f(o["wall_overhead_pct"]), f(o["user_overhead_pct"]), f(o["sys_overhead_pct"]), f(o["rss_overhead_pct"])))
        if o["recording_wall_pct"] is not None:
            print("         recording (on - seen):         wall %s, user %s, sys %s" % (
                f(o["recording_wall_pct"]), f(o["recording_user_pct"]), f(o["recording_sys_pct"])))
            print("         the pages' sections (seen - off): wall %s, user %s, sys %s" % (
                f(o["sections_wall_pct"]), f(o["sections_user_pct"]), f(o["sections_sys_pct"])))
        if o["recording_cpu_pct_of_off_cpu"] is not None:
            print("         the recording thread's CPU: %.2f s, %s of the off build's CPU (user + sys)" % (
                o["recording_cpu_s"], f(o["recording_cpu_pct_of_off_cpu"]).lstrip("+")))
        if o["prefilled_db_bytes"]:
            print("         pre-filled database: %.0f MiB, %.0f KiB per city (%s)" % (
                o["prefilled_db_bytes"] / mib, o["prefilled_db_bytes_per_city"] / 1024.0,
                ", ".join("%s %d" % kv for kv in (o["prefilled_rows"] or {}).items())))
    print("\nhistory s = the report's history stage: opening the database, then waiting for the"
          "\n            recording thread after the pages were written (what recording did not hide);"
          "\ndb MiB = the database (with its WAL) before -> after the run; B/city = what the run added per city;"
          "\nseen = the on arm's build again on its database: nothing new to record;"
          "\non-empty-db = the template run: the same build recording into an empty database;"
          "\npercentages are shares of the off arm's median.")
    write_results(out_path, meta, summary=rows, overheads=overheads, runs=runs)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"record": cmd_record, "report-field": cmd_report_field, "summarize": cmd_summarize,
     "fetch-summary": cmd_fetch_summary, "history-summary": cmd_history_summary,
     "file-size": cmd_file_size, "sqlite-schema": cmd_sqlite_schema}[cmd](args)


if __name__ == "__main__":
    main()
