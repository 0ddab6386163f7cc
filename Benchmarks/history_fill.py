#!/usr/bin/env python3
"""Pre-fill an Isobar history database with past data times (standard library only).

    python3 Benchmarks/history_fill.py TEMPLATE.sqlite TARGET.sqlite --cities cities.json
        [--days 30] [--observe-every 15m] [--issue-every 24h]

TEMPLATE is a history that Isobar itself recorded: one build of the data set with an empty
database, so it holds exactly one data time (the snapshot's) for every city, in Isobar's
own schema and with the values Isobar writes. TARGET becomes a copy of it whose rows are
that data time's rows repeated at earlier times, oldest first, the way cron would have
recorded them:

- tables keyed by `time` (observations): one copy every --observe-every;
- tables keyed by `issued` (forecasts as issued), or rowid tables with an `issued` column:
  one copy every --issue-every;
- tables keyed by `target` or `made` without `issued` (`forecast_lead`): one copy an hour;
- tables keyed by `day` only (`day`): one copy a day;
- any other table (GRDB's migrations, a city table): kept as it is;
- a table the schema's triggers write (`check_day`): left to them.

A shifted copy moves every integer time column (`time`, `issued`, `target`, `*_time`) by
the shift and every `day` column (the city's local yyyy-MM-dd) by the local days the
shift crosses, at the city's UTC offset of the snapshot time. The schema is read from the
template (sqlite_master), so this follows Isobar's schema as it changes. The snapshot's
own data time is left out: the next build records it, as a new data time.

The forecast checks' figures are filled in, not derived (see `pair_checks`): the hours
kept for them (`forecast_lead`) are copied as made 72 h ahead too, and each day's row
(`day`, one copy a day of the snapshot's) gets as many pairs as its UTC day has hours with
an observation near their target.

Rows are inserted data time by data time, every city each time, as real runs insert
them, so pages split and fill as they would in a file cron has written for a month
(nothing is vacuumed). The values are the snapshot's: the cost of an insert does not
depend on them, and the row sizes are Isobar's own.
"""

import argparse
import json
import os
import re
import shutil
import sqlite3
import sys
import time
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

TIME_COLUMNS = {"time", "issued", "target", "made"}


def duration(text):
    m = re.fullmatch(r"(\d+)([smhd])", text)
    if not m:
        raise argparse.ArgumentTypeError("a duration such as 15m, 6h or 1d: %r" % text)
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def quote(name):
    return '"%s"' % name.replace('"', '""')


def columns(db, table):
    """(name, declared type, primary-key position) of each column."""
    return [(r[1], (r[2] or "").upper(), r[5]) for r in db.execute("PRAGMA table_info(%s)" % quote(table))]


def classify(cols, args):
    """The cadence of a table's copies in seconds (None: kept as it is) and its anchor column."""
    # A rowid table (the forecasts as issued, found by a unique index) has no primary-key
    # columns: its columns stand for its key.
    key = {name for name, _, pk in cols if pk} or {name for name, _, _ in cols}
    if "time" in key:
        return args.observe_every, "time"
    if "issued" in key:
        return args.issue_every, "issued"
    if "target" in key or "made" in key:
        return 3600, "target"
    if "day" in key:
        return 86400, None
    return None, None


def shifted_select(table, cols, anchor):
    """SELECT of the template's rows moved back by :shift seconds."""
    exprs = []
    for name, typ, _ in cols:
        q = quote(name)
        if ("INT" in typ) and (name in TIME_COLUMNS or name.endswith("_time")):
            exprs.append("s.%s - :shift" % q)
        elif name == "day":
            if anchor:
                # The local days between the anchor and the shifted anchor.
                ref = "s.%s" % quote(anchor)
                delta = ("CAST(julianday(date(%s + o.offset, 'unixepoch')) - "
                         "julianday(date(%s - :shift + o.offset, 'unixepoch')) AS INTEGER)" % (ref, ref))
            else:
                delta = "CAST(:shift / 86400 AS INTEGER)"
            exprs.append("CASE WHEN s.%s IS NULL THEN NULL ELSE date(s.%s, printf('%%+d days', -(%s))) END"
                         % (q, q, delta))
        else:
            exprs.append("s.%s" % q)
    return ("INSERT INTO main.%s (%s) SELECT %s FROM snap.%s s LEFT JOIN temp.city_offset o ON o.city = s.city"
            % (quote(table), ", ".join(quote(c[0]) for c in cols), ", ".join(exprs), quote(table)))


def trigger_targets(db):
    """Names the schema's triggers write to (schema v5's `check_day`), with some SQL
    words the pattern also catches (`DO UPDATE SET`): the caller keeps the tables."""
    targets = set()
    for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'"):
        targets.update(m.group(1) for m in re.finditer(r"(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?(\w+)", sql, re.I))
    return targets


def pair_checks(db, tables, observe_every):
    """The forecast hours kept for the checks, and the checks' figures in `day` (schema
    v8), for the filled rows: the hours (`forecast_lead`, made 24 h ahead in a data set
    whose forecasts reach 48 h) are copied as made 72 h ahead too, as a site whose
    forecasts reach further has them, and kept 30 days as Isobar's retention keeps them.
    Each day's checks are filled with the hours of its UTC day that have an observation
    within half an --observe-every of their target, an error of half a degree each: the
    row sizes and counts a page reads, not Isobar's figures (those are its `DayFacts`
    rules, which this script does not repeat)."""
    if "forecast_lead" not in tables or "day" not in tables:
        return
    db.execute("BEGIN")
    db.execute("""INSERT OR IGNORE INTO forecast_lead (city, made, lead_hours, target, issued, temperature, chance)
                  SELECT city, made - 48 * 3600, 72, target, issued - 48 * 3600, temperature, chance
                  FROM forecast_lead WHERE lead_hours = 24""")
    half = max(1, observe_every // 2)
    for lead in (24, 72):
        db.execute("""
            WITH paired AS (
                SELECT l.city, date(l.target, 'unixepoch') AS day, count(*) AS n FROM forecast_lead l
                WHERE l.lead_hours = :lead AND EXISTS (SELECT 1 FROM observation o WHERE o.city = l.city
                      AND o.time >= l.target - :half AND o.time < l.target + :half)
                GROUP BY 1, 2)
            INSERT INTO day (city, day, pairs_%(lead)d, error_sum_%(lead)d)
                SELECT city, day, n, n * 500000 FROM paired WHERE true
            ON CONFLICT (city, day) DO UPDATE SET pairs_%(lead)d = excluded.pairs_%(lead)d,
                error_sum_%(lead)d = excluded.error_sum_%(lead)d""" % {"lead": lead}, {"lead": lead, "half": half})
    # Retention keeps the hours 30 days after their target.
    db.execute("DELETE FROM forecast_lead WHERE target < (SELECT max(time) FROM snap.observation) - 30 * 86400")
    db.execute("COMMIT")


def main():
    ap = argparse.ArgumentParser(description="Pre-fill an Isobar history database with past data times.")
    ap.add_argument("template", help="a history Isobar recorded with one data time per city")
    ap.add_argument("target", help="the database to write (replaced)")
    ap.add_argument("--cities", required=True, help="the data set's cities.json (slug, timezone)")
    ap.add_argument("--days", type=int, default=30, help="days of history (default 30)")
    ap.add_argument("--observe-every", type=duration, default=duration("15m"),
                    help="observations' cadence (default 15m, cron's)")
    ap.add_argument("--issue-every", type=duration, default=duration("24h"),
                    help="cadence of the forecasts kept as issued (default 24h)")
    args = ap.parse_args()

    started = time.time()
    src = sqlite3.connect("file:%s?mode=ro" % args.template, uri=True)
    snap = src.execute("SELECT MAX(time) FROM observation").fetchone()[0]
    tables = [r[0] for r in src.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    src.close()
    if snap is None:
        sys.exit("history_fill.py: %s holds no observation" % args.template)

    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(args.target + suffix):
            os.remove(args.target + suffix)
    shutil.copyfile(args.template, args.target)
    db = sqlite3.connect(args.target, isolation_level=None)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -1048576")   # 1 GiB: every city's last pages stay cached
    db.execute("ATTACH DATABASE ? AS snap", ("file:%s?mode=ro" % args.template,))

    # The UTC offset each city had at the snapshot time, for its local days.
    db.execute("CREATE TEMP TABLE city_offset (city TEXT PRIMARY KEY, offset INTEGER NOT NULL)")
    at = datetime.fromtimestamp(snap, timezone.utc)
    with open(args.cities, encoding="utf-8") as f:
        rows = [(c["slug"], int(at.astimezone(ZoneInfo(c["timezone"])).utcoffset().total_seconds()))
                for c in json.load(f)]
    db.executemany("INSERT INTO temp.city_offset VALUES (?, ?)", rows)

    events = []   # (shift in seconds, table, statement)
    plan = {}
    db.execute("BEGIN")
    derived = trigger_targets(db) & set(tables)
    for table in tables:
        if table in derived:
            # Kept by triggers as the rows they follow are copied: copying it as well
            # would count those rows twice.
            plan[table] = "kept by triggers"
            continue
        cols = columns(db, table)
        cadence, anchor = classify(cols, args)
        if cadence is None:
            plan[table] = "kept"
            continue
        db.execute("DELETE FROM main.%s" % quote(table))
        copies = args.days * 86400 // cadence
        plan[table] = "%d copies, every %d s" % (copies, cadence)
        if copies == 0 or not db.execute("SELECT 1 FROM snap.%s LIMIT 1" % quote(table)).fetchone():
            continue
        sql = shifted_select(table, cols, anchor)
        events += [(k * cadence, table, sql) for k in range(1, copies + 1)]
    db.execute("COMMIT")
    # Oldest first; at one time, the tables in a fixed order.
    events.sort(key=lambda e: (-e[0], e[1]))
    print("  filling %s: %d days before %s UTC; %s" % (
        args.target, args.days, at.strftime("%Y-%m-%d %H:%M"), "; ".join("%s: %s" % kv for kv in plan.items())))
    db.execute("BEGIN")
    for i, (shift, _, sql) in enumerate(events, 1):
        db.execute(sql, {"shift": shift})
        if i % 500 == 0:
            db.execute("COMMIT")
            db.execute("BEGIN")
    db.execute("COMMIT")
    pair_checks(db, tables, args.observe_every)
    counts = {t: db.execute("SELECT COUNT(*) FROM main.%s" % quote(t)).fetchone()[0] for t in tables}
    db.execute("DETACH DATABASE snap")
    db.execute("PRAGMA journal_mode = WAL")   # as Isobar opens it
    db.close()
    size = os.path.getsize(args.target)
    print("  rows: %s" % ", ".join("%s %d" % kv for kv in counts.items()))
    print("  %.1f MiB in %.0f s" % (size / 1048576.0, time.time() - started))
    json.dump({"snapshot_time": snap, "days": args.days, "observe_every_s": args.observe_every,
               "issue_every_s": args.issue_every, "rows": counts, "plan": plan, "bytes": size,
               "seconds": round(time.time() - started, 1)},
              open(args.target + ".json", "w"), indent=2)


if __name__ == "__main__":
    main()
