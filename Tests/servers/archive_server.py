"""A loopback stand-in for Open-Meteo's historical weather API (`/v1/archive`, ERA5),
for the climate normals' tests:

    python3 archive_server.py PORT LOG_FILE MODE

It answers `GET /v1/archive?latitude=…&longitude=…&start_date=…&end_date=…&daily=
temperature_2m_max,temperature_2m_min&timezone=…` with a body of the real answer's shape
(see ARCHIVE-SHAPE.md in this folder): `latitude`, `longitude`, `generationtime_ms`,
`utc_offset_seconds`, `timezone`, `timezone_abbreviation`, `elevation`, `daily_units` and
`daily` with `time`, `temperature_2m_max` and `temperature_2m_min`, one value a day from
start_date to end_date. The values are generated, deterministically, from the date alone:
a seasonal curve (coldest in mid-January, warmest in mid-July), a year-to-year step and a
small day-to-day wobble; SYNTHETIC TEST DATA, not ERA5's.

MODE `ok` answers so; `unavailable` answers 503 with Open-Meteo's error body; `slow`
answers as `ok` after a second (for the parallel requests); `every:VALUE` answers the
shape with every daily value VALUE, as JSON (`1e308`, `null`, `-1000`, `60.5`): an
archive gone wrong.

Every request is appended to LOG_FILE as a JSON line: path, the query, the status, and
when it arrived and was answered (seconds since 1970).
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import datetime
import json
import math
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from loopback import answer, serve

PORT, LOG_FILE, MODE = int(sys.argv[1]), sys.argv[2], sys.argv[3]
lock = threading.Lock()


def high(day):
    """The generated daily maximum (°C) of a date: the same for the same date, every time."""
    season = 11 - 9 * math.cos(2 * math.pi * (day.timetuple().tm_yday - 15) / 365.25)
    return round(season + (day.year % 5) * 0.2 + ((day.toordinal() * 7) % 11 - 5) * 0.3, 1)


def body(query):
    start = datetime.date.fromisoformat(query["start_date"])
    end = datetime.date.fromisoformat(query["end_date"])
    days = [start + datetime.timedelta(days=n) for n in range((end - start).days + 1)]
    highs = [high(day) for day in days]
    return {
        "latitude": round(float(query["latitude"]), 2), "longitude": round(float(query["longitude"]), 2),
        "generationtime_ms": 12.5, "utc_offset_seconds": 0,
        "timezone": query.get("timezone", "GMT") if query.get("timezone") != "auto" else "GMT",
        "timezone_abbreviation": "GMT", "elevation": 23.0,
        "daily_units": {"time": "iso8601", "temperature_2m_max": "°C", "temperature_2m_min": "°C"},
        "daily": {"time": [day.isoformat() for day in days], "temperature_2m_max": highs,
                  "temperature_2m_min": [round(h - 7.5, 1) for h in highs]},
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        arrived = time.time()
        url = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        needed = {"latitude", "longitude", "start_date", "end_date", "daily"}
        if url.path != "/v1/archive":
            status, payload = 404, {"error": True, "reason": "Not Found"}
        elif MODE == "unavailable":
            status, payload = 503, {"error": True, "reason": "Service unavailable"}
        elif not needed <= set(query) or query["daily"] != "temperature_2m_max,temperature_2m_min":
            status, payload = 400, {"error": True, "reason": "Parameter missing or unexpected"}
        else:
            status, payload = 200, body(query)
            if MODE == "slow":
                time.sleep(1)
        text = json.dumps(payload)
        if status == 200 and MODE.startswith("every:"):
            count = len(payload["daily"]["time"])
            for name in ("temperature_2m_max", "temperature_2m_min"):
                text = text.replace(json.dumps(payload["daily"][name]), "[" + ",".join([MODE[6:]] * count) + "]")
        with lock, open(LOG_FILE, "a") as log:
            log.write(json.dumps({"path": url.path, "query": query, "status": status, "arrived": arrived, "answered": time.time()}) + "\n")
        answer(self, status, {"Content-Type": "application/json; charset=utf-8"}, text.encode())


serve(PORT, Handler, LOG_FILE + ".ready")
