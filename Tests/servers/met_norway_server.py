"""A loopback stand-in for MET Norway's Locationforecast 2.0 `complete`, for the
`provider: met-norway` tests, that checks what MET's terms ask of a client:

    python3 met_norway_server.py PORT BODY_FILE LOG_FILE MODE EXPIRES_SECONDS

It answers `GET <anything>/complete?lat=…&lon=…` with BODY_FILE (gzip-compressed when
the request accepts gzip), a fixed `Last-Modified` and an `Expires` EXPIRES_SECONDS from
now. It refuses (403) a request without a User-Agent or with a coordinate of more than
four decimals, and answers 304 (with a new `Expires`) to an `If-Modified-Since` equal to
its `Last-Modified`. MODE `ok` answers so; `deprecated` answers 200s as 203; `throttle`
answers 429, `forbidden` 403, `unavailable` 500 and `missing` 404 to everything;
`malformed` sends half the body, and `implausible` the body with its first air
temperature at 612 °C. `live` answers as `ok` with the body's times moved by whole hours
so that its first step is the hour the server started in, as MET's answer is (for a test
whose client runs on the real clock); the body so served is written to LOG_FILE + ".body".

Every request is appended to LOG_FILE as a JSON line: time, path, query, the headers
that matter, the status sent, and `early: true` when it came before the `Expires` last
sent for its coordinates (a client that honours MET's terms never makes one).
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import gzip
import datetime
import json
import sys
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from loopback import answer, serve

PORT, BODY_FILE, LOG_FILE, MODE, EXPIRES_SECONDS = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
LAST_MODIFIED = "Thu, 26 Nov 2026 09:12:04 GMT"
with open(BODY_FILE, "rb") as f:
    BODY = f.read()
if MODE == "malformed":
    BODY = BODY[: len(BODY) // 2]
elif MODE == "live":
    document = json.loads(BODY)
    steps = document["properties"]["timeseries"]
    first = datetime.datetime.fromisoformat(steps[0]["time"].replace("Z", "+00:00"))
    hour = datetime.datetime.now(datetime.timezone.utc).replace(minute=0, second=0, microsecond=0)
    shift = hour - first
    def moved(text):
        return (datetime.datetime.fromisoformat(text.replace("Z", "+00:00")) + shift).strftime("%Y-%m-%dT%H:%M:%SZ")
    for step in steps:
        step["time"] = moved(step["time"])
    document["properties"]["meta"]["updated_at"] = moved(document["properties"]["meta"]["updated_at"])
    BODY = json.dumps(document).encode()
    with open(LOG_FILE + ".body", "wb") as f:
        f.write(BODY)
    MODE = "ok"
elif MODE == "implausible":
    document = json.loads(BODY)
    document["properties"]["timeseries"][0]["data"]["instant"]["details"]["air_temperature"] = 612.0
    BODY = json.dumps(document).encode()
lock = threading.Lock()
expiry_sent = {}  # (lat, lon) -> the Expires last sent, as a Unix time


def decimals(text):
    return len(text.split(".", 1)[1]) if "." in text else 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        now = time.time()
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        lat, lon = query.get("lat", ""), query.get("lon", "")
        agent = self.headers.get("User-Agent")
        since = self.headers.get("If-Modified-Since")
        with lock:
            early = now < expiry_sent.get((lat, lon), 0)
        expires_at = now + EXPIRES_SECONDS
        headers = {}
        body = b""
        if not url.path.endswith("/complete"):
            status = 404
        elif MODE in ("throttle", "unavailable", "missing"):
            status = {"throttle": 429, "unavailable": 500, "missing": 404}[MODE]
        elif MODE == "forbidden" or not agent or not lat or not lon or decimals(lat) > 4 or decimals(lon) > 4:
            status, body = 403, b"403 Forbidden: identify yourself and use at most 4 decimals"
        elif since == LAST_MODIFIED:
            status = 304
            headers = {"Expires": formatdate(expires_at, usegmt=True), "Last-Modified": LAST_MODIFIED}
        else:
            status = 203 if MODE == "deprecated" else 200
            headers = {"Expires": formatdate(expires_at, usegmt=True), "Last-Modified": LAST_MODIFIED,
                       "Content-Type": "application/json"}
            body = BODY
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                body = gzip.compress(BODY)
                headers["Content-Encoding"] = "gzip"
        if "Expires" in headers:
            with lock:
                expiry_sent[(lat, lon)] = expires_at
        entry = {"time": now, "path": url.path, "query": query, "user_agent": agent, "if_modified_since": since,
                 "accept_encoding": self.headers.get("Accept-Encoding"), "status": status, "early": early,
                 "expires": headers.get("Expires")}
        with lock, open(LOG_FILE, "a") as log:
            log.write(json.dumps(entry) + "\n")
        answer(self, status, headers, body)


serve(PORT, Handler, LOG_FILE + ".ready")
