"""A loopback stand-in for the NWS API (https://api.weather.gov), for the `provider: nws`
tests, that checks what NWS's documentation asks of a client:

    python3 nws_server.py PORT FOLDER LOG_FILE [MODE]

It answers `GET /points/{lat},{lon}` with FOLDER/nws-points.json, its forecast URLs
(`https://api.weather.gov/…`) turned into this server's own, and those three URLs with
FOLDER/nws-forecast-hourly.json, nws-forecast.json and nws-grid.json, as
`application/geo+json`. Like NWS it refuses (403) a request without a User-Agent,
redirects (301) a point of more than four decimals to the rounded one, and answers a point
outside the United States (a rough box around the 50 states and Puerto Rico) with 404 and
NWS's problem details (`application/problem+json`, type InvalidPoint). MODE `gone`
answers the grid URL 404, as NWS does once an office's grid is redrawn.

Every request is appended to LOG_FILE as a JSON line: time, path, User-Agent, Accept and
the status sent.
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import json
import re
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

PORT, FOLDER, LOG_FILE = int(sys.argv[1]), sys.argv[2], sys.argv[3]
MODE = sys.argv[4] if len(sys.argv) > 4 else "ok"
ORIGIN = f"http://127.0.0.1:{PORT}"
lock = threading.Lock()


def body(name):
    with open(os.path.join(FOLDER, name), "rb") as f:
        return f.read()


POINTS = body("nws-points.json").replace(b"https://api.weather.gov", ORIGIN.encode())
points = json.loads(POINTS)["properties"]
ROUTES = {urlsplit(points[key]).path: body(name) for key, name in
          [("forecastHourly", "nws-forecast-hourly.json"), ("forecast", "nws-forecast.json"), ("forecastGridData", "nws-grid.json")]}


def problem(status, title, kind, detail):
    return json.dumps({"correlationId": "1a2b3c4d", "title": title, "type": f"https://api.weather.gov/problems/{kind}",
                       "status": status, "detail": detail, "instance": "https://api.weather.gov/requests/1a2b3c4d"}).encode()


def in_united_states(lat, lon):
    boxes = [(24.4, 49.5, -125.0, -66.9), (51.0, 71.5, -180.0, -129.9), (18.8, 22.4, -160.4, -154.7), (17.8, 18.6, -67.4, -65.2)]
    return any(a <= lat <= b and c <= lon <= d for a, b, c, d in boxes)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = urlsplit(self.path).path
        agent = self.headers.get("User-Agent")
        headers = {"Content-Type": "application/problem+json"}
        point = re.fullmatch(r"/points/(-?[0-9.]+),(-?[0-9.]+)", path)
        if not agent:
            status, payload = 403, problem(403, "Forbidden", "Forbidden", "A User-Agent header is required")
        elif point:
            lat, lon = point.group(1), point.group(2)
            if any("." in x and len(x.split(".")[1]) > 4 for x in (lat, lon)):
                status, payload = 301, b""
                headers = {"Location": f"/points/{round(float(lat), 4)},{round(float(lon), 4)}"}
            elif not in_united_states(float(lat), float(lon)):
                status, payload = 404, problem(404, "Data Unavailable For Requested Point", "InvalidPoint",
                                               f"Unable to provide data for requested point {lat},{lon}")
            else:
                status, payload, headers = 200, POINTS, {"Content-Type": "application/geo+json"}
        elif path in ROUTES and MODE == "gone" and path == urlsplit(points["forecastGridData"]).path:
            status, payload = 404, problem(404, "Not Found", "NotFound", "Not Found")
        elif path in ROUTES:
            status, payload, headers = 200, ROUTES[path], {"Content-Type": "application/geo+json"}
        else:
            status, payload = 404, problem(404, "Not Found", "NotFound", "Not Found")
        entry = {"time": time.time(), "path": path, "user_agent": agent, "accept": self.headers.get("Accept"), "status": status}
        with lock, open(LOG_FILE, "a") as log:
            log.write(json.dumps(entry) + "\n")
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):
        # HTTPServer's own looks its host name up (getfqdn) between bind and listen: with
        # no DNS that takes long, and a test's connect sent meanwhile is left unanswered.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]


server = Server(("127.0.0.1", PORT), Handler)
open(LOG_FILE + ".ready", "w").close()  # listening: the test may go on
server.serve_forever()
