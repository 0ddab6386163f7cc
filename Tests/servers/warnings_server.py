"""A loopback stand-in for the two official warning services Isobar reads, for the
warnings tests:

    python3 warnings_server.py PORT NWS_BODY_FILE METEOALARM_DIR LOG_FILE MODE

- NWS: `GET <anything>/alerts/active?point=<lat>,<lon>` answers NWS_BODY_FILE (GeoJSON).
  Like api.weather.gov it refuses (403) a request without a User-Agent, and answers 400
  to a point with more than four decimals.
- MeteoAlarm: `GET <anything>/api/v1/warnings/feeds-<country>` answers
  METEOALARM_DIR/meteoalarm-<country>.json, or 404 when there is no such file.

MODE `ok` answers so; `fail` answers 503 to everything (a service down).
Every request is appended to LOG_FILE as a JSON line: path, query, User-Agent, status.
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PORT, NWS_BODY, METEOALARM_DIR, LOG_FILE, MODE = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
lock = threading.Lock()


def decimals(text):
    return len(text.split(".", 1)[1]) if "." in text else 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        agent = self.headers.get("User-Agent")
        body, status, kind = b"", 404, "application/json"
        if MODE == "fail":
            status = 503
        elif url.path.endswith("/alerts/active"):
            point = query.get("point", "").split(",")
            if not agent:
                status, body = 403, b'{"title": "Forbidden", "detail": "A User-Agent is required"}'
            elif len(point) != 2 or any(decimals(p) > 4 for p in point):
                status, body = 400, b'{"title": "Bad Request", "detail": "Invalid point"}'
            else:
                status, kind = 200, "application/geo+json"
                with open(NWS_BODY, "rb") as f:
                    body = f.read()
        elif "/api/v1/warnings/feeds-" in url.path:
            country = url.path.rsplit("feeds-", 1)[1]
            path = os.path.join(METEOALARM_DIR, "meteoalarm-" + country + ".json")
            if os.path.isfile(path):
                status = 200
                with open(path, "rb") as f:
                    body = f.read()
        with lock, open(LOG_FILE, "a") as log:
            log.write(json.dumps({"path": url.path, "query": query, "user_agent": agent, "status": status}) + "\n")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
open(LOG_FILE + ".ready", "w").close()
server.serve_forever()
