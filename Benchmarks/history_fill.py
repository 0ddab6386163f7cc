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
- tables keyed by `target` or `made` without `issued` (schema v2's verification, schema
  v6's forecast_lead): one copy an hour;
- tables keyed by `day` only (schema v2's daily summaries): one copy a day;
- any other table (GRDB's migrations, a city table): kept as it is;
- a table the schema's triggers write (`check_day`): left to them.

A shifted copy moves every integer time column (`time`, `issued`, `target`, `*_time`) by
the shift and every `day` column (the city's local yyyy-MM-dd) by the local days the
shift crosses, at the city's UTC offset of the snapshot time. The schema is read from the
template (sqlite_master), so this follows Isobar's schema as it changes. The snapshot's
own data time is left out: the next build records it, as a new data time.

The forecast checks are derived, as Isobar derives them, once the rows are in: the hours
kept for them (`forecast_lead`, made 24 h ahead in a data set whose forecasts reach 48 h)
are copied as made 72 h ahead too, as a site whose forecasts reach further has them, and
every such hour is paired with the observation nearest it (`verification`, whose triggers
keep `check_day`): a page then sums a month of both leads, as it would on such a site.
The hours kept for the checks then go as retention lets them, an hour after their target.
Each city's latest day, which the daily copies leave out, is summed from its observations;
schema v7's open days are left to Isobar's own migration (see `hand_back_open_days`).

Rows are inserted data time by data time, every city each time, as real runs insert
them, so pages split and fill as they would in a file cron has written for a month
(nothing is vacuumed). The values are the snapshot's: the cost of an insert does not
depend on them, and the row sizes are Isobar's own.
"""

import argparse
import json
import math
import os
import re
import shutil
import sqlite3
import struct
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
    """The checks' pairs for the filled rows (see the module's doc); nothing for a schema
    without `forecast_lead` and `verification`."""
    if "forecast_lead" not in tables or "verification" not in tables:
        return
    db.execute("BEGIN")
    if "made" in {name for name, _, _ in columns(db, "forecast_lead")}:
        # Schema v6: keyed by the hour the forecast was made for, its target less the lead.
        db.execute("""INSERT OR IGNORE INTO forecast_lead (city, made, lead_hours, target, issued, temperature, chance)
                      SELECT city, made - 48 * 3600, 72, target, issued - 48 * 3600, temperature, chance
                      FROM forecast_lead WHERE lead_hours = 24""")
    else:
        db.execute("""INSERT OR IGNORE INTO forecast_lead (city, lead_hours, target, issued, temperature, chance)
                      SELECT city, 72, target, issued - 48 * 3600, temperature, chance FROM forecast_lead WHERE lead_hours = 24""")
    # The observation nearest the target hour: with one every --observe-every, the one
    # within half that of it.
    half = max(1, observe_every // 2)
    db.execute("""INSERT OR IGNORE INTO verification (city, lead_hours, target, issued, forecast, chance,
                                                      observed_time, observed, precipitated)
                  SELECT l.city, l.lead_hours, l.target, l.issued, l.temperature, l.chance, o.time, o.temperature,
                         coalesce(o.rain_1h, 0) + coalesce(o.snow_1h, 0) > 0 OR coalesce(o.condition, 800) BETWEEN 200 AND 699
                  FROM forecast_lead l JOIN observation o ON o.city = l.city AND o.time >= l.target - :half AND o.time < l.target + :half
                  ORDER BY l.city, l.lead_hours, l.target""", {"half": half})
    # Paired, they go as retention lets them (an hour past their target): a site keeps
    # the hours still ahead, not a month of them.
    db.execute("DELETE FROM forecast_lead WHERE target < (SELECT max(time) FROM snap.observation) - 3600")
    db.execute("COMMIT")


def sum_today(db, tables):
    """Each city's summary of its latest local day, which the daily copies leave out (the
    snapshot's day), summed from its observations as Isobar sums them: each clock hour's
    precipitation counts once, its largest reading; the hours before the latest one in
    `precipitation`, the latest in `hour_precipitation`. Nothing for a schema whose
    `observed_day` lacks those columns."""
    if "observed_day" not in tables or "last_time" not in {name for name, _, _ in columns(db, "observed_day")}:
        return
    db.execute("BEGIN")
    db.execute("""
        WITH latest AS (
            SELECT c.city, (SELECT max(time) FROM observation WHERE city = c.city) AS n FROM temp.city_offset c),
        today AS (
            SELECT o.city, o.day, o.time, o.temperature, coalesce(o.rain_1h, 0) + coalesce(o.snow_1h, 0) AS p, l.n
            FROM latest l JOIN observation o ON o.city = l.city AND o.time > l.n - 93600
            WHERE o.day = (SELECT day FROM observation WHERE city = l.city AND time = l.n)),
        hours AS (SELECT city, time / 3600 AS hour, max(p) AS p FROM today GROUP BY city, time / 3600)
        INSERT OR IGNORE INTO observed_day (city, day, temperature_min, temperature_max, temperature_sum, samples,
                                            precipitation, hour, hour_precipitation, last_time)
        SELECT t.city, t.day, min(t.temperature), max(t.temperature), sum(t.temperature), count(*),
               (SELECT coalesce(sum(p), 0) FROM hours h WHERE h.city = t.city AND h.hour < t.n / 3600),
               t.n / 3600, (SELECT coalesce(max(p), 0) FROM hours h WHERE h.city = t.city AND h.hour = t.n / 3600), t.n
        FROM today t GROUP BY t.city""")
    db.execute("COMMIT")


def spill_open_days(path):
    """Writes a v7 history's open days (`open_day`) into the tables they stand in for and
    empties it, as Isobar's `OpenDayRows.spill` does, so that a template's day summary,
    forecast hours kept for the checks and pairs are in the tables the filler copies. The
    blobs' layout is `OpenDay`'s: a version byte (1), then little-endian records."""
    db = sqlite3.connect(path, isolation_level=None)
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'open_day'").fetchone():
        db.close()
        return
    def records(blob, fmt):
        size = struct.calcsize(fmt)
        if not blob or blob[0] != 1 or (len(blob) - 1) % size:
            sys.exit("history_fill.py: an open day's blob is not of the layout this script knows")
        return [struct.unpack_from(fmt, blob, 1 + i * size) for i in range((len(blob) - 1) // size)]
    def chance(value):
        return None if math.isnan(value) else round(value * 1000) / 1000
    db.execute("BEGIN")
    rows = db.execute("""SELECT city, day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour,
                                hour_precipitation, last_time, leads, pairs FROM open_day""").fetchall()
    for row in rows:
        city = row[0]
        db.execute("INSERT OR REPLACE INTO observed_day VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row[:10])
        for made_hour, lead, offset, temperature, p in records(row[10], "<iBhdf"):
            made = made_hour * 3600
            db.execute("INSERT OR REPLACE INTO forecast_lead VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (city, made, lead, made + lead * 3600, made + offset, temperature, chance(p)))
        for target_hour, lead, offset, forecast, p, observed_offset, observed, precipitated in records(row[11], "<iBhdfhdB"):
            target = target_hour * 3600
            db.execute("INSERT OR REPLACE INTO verification VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (city, lead, target, target - lead * 3600 + offset, forecast, chance(p), target + observed_offset,
                        observed, precipitated))
    db.execute("DELETE FROM open_day")
    db.execute("COMMIT")
    db.close()


def hand_back_open_days(db, tables):
    """Schema v7's open days (`open_day`: each city's latest day, the hours its checks may
    still pair and the day's pairs, packed) are taken out of the other tables by Isobar's
    own migration, not copied: the template's hold the snapshot's data time, which the
    measured build records. The table goes and the file is handed back as of version 6;
    history.sh has the binary migrate it once before it is used."""
    if "open_day" not in tables:
        return
    db.execute("DROP TABLE open_day")
    db.execute("DELETE FROM grdb_migrations WHERE identifier = 'v7'")


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
    # The template's open days in its tables, in a copy of it (the template stays as Isobar wrote it).
    spilled = args.target + ".template"
    shutil.copyfile(args.template, spilled)
    spill_open_days(spilled)
    args.template = spilled
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
    sum_today(db, tables)
    hand_back_open_days(db, tables)
    if "open_day" in plan:
        plan["open_day"] = "taken out of the other tables by Isobar's migration"
    counts = {t: db.execute("SELECT COUNT(*) FROM main.%s" % quote(t)).fetchone()[0] for t in tables if t != "open_day"}
    db.execute("DETACH DATABASE snap")
    os.remove(spilled)
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
