#!/usr/bin/env python3
"""A loopback stand-in for the OpenWeather API, for benchmarks (standard library only).

    python3 Benchmarks/standin.py --dir DATASET [--latency-ms 100] [--port 0]
        [--port-file FILE] [--log FILE] [--api-key KEY] [--parent PID] [--max-seconds S]

Serves, from a data set written by generate.py (DATASET/cities.json, DATASET/Samples/):

  GET /data/3.0/onecall?lat=..&lon=..&appid=..        DATASET/Samples/<slug>/onecall.json
  GET /data/2.5/air_pollution?lat=..&lon=..&appid=..  DATASET/Samples/<slug>/air_pollution.json
  GET /geo/1.0/direct?q=Name[,State],CC&appid=..      [{name, lat, lon, country}] or []

The city is found by its coordinates formatted "%.4f" (generate.py keeps them unique;
Isobar sends them so).  Unknown coordinates give 404 {"cod":"404","message":"city not
found"}, a wrong or missing appid (when --api-key is given) 401, other paths 404.

Every answer is sent --latency-ms after the request arrived (asyncio.sleep, so any number
of requests wait at once).  HTTP/1.1 with keep-alive: a connection serves requests one
after another until the client closes it or sends "Connection: close".  Listens on
127.0.0.1 only; --port 0 (default) takes a free port, written to --port-file once
listening.  Each request is logged when it arrives (headers read) as one line:

    <unix time, s> <connection number> <path> <status>

The server stops on SIGTERM/SIGINT, when --parent PID is gone, or after --max-seconds.
"""

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from urllib.parse import parse_qs, urlsplit


class Data:
    def __init__(self, root):
        self.samples = os.path.join(root, "Samples")
        with open(os.path.join(root, "cities.json"), encoding="utf-8") as f:
            cities = json.load(f)
        self.by_coord = {}
        self.by_name = {}
        for c in cities:
            self.by_coord["%.4f,%.4f" % (c["lat"], c["lon"])] = c["slug"]
            self.by_name.setdefault((c["name"].lower(), c["country"].upper()), []).append(c)
        self.cache = {}

    def body(self, slug, endpoint):
        key = (slug, endpoint)
        b = self.cache.get(key)
        if b is None:
            with open(os.path.join(self.samples, slug, endpoint + ".json"), "rb") as f:
                b = f.read()
            self.cache[key] = b
        return b


NOT_FOUND = b'{"cod":"404","message":"city not found"}'
BAD_PATH = b'{"cod":"404","message":"Internal error"}'
BAD_KEY = (b'{"cod":401, "message": "Invalid API key. Please see '
           b'https://openweathermap.org/faq#error401 for more info."}')
BAD_REQUEST = b'{"cod":"400","message":"wrong latitude"}'


def route(data, target, api_key):
    """(status, reason, body) for a request target."""
    parts = urlsplit(target)
    q = parse_qs(parts.query)
    if api_key is not None and q.get("appid", [""])[0] != api_key:
        return 401, "Unauthorized", BAD_KEY
    path = parts.path
    if path in ("/data/3.0/onecall", "/data/2.5/air_pollution"):
        try:
            key = "%.4f,%.4f" % (float(q["lat"][0]), float(q["lon"][0]))
        except (KeyError, ValueError, IndexError):
            return 400, "Bad Request", BAD_REQUEST
        slug = data.by_coord.get(key)
        if slug is None:
            return 404, "Not Found", NOT_FOUND
        endpoint = "onecall" if path.endswith("onecall") else "air_pollution"
        return 200, "OK", data.body(slug, endpoint)
    if path == "/geo/1.0/direct":
        items = [s.strip() for s in q.get("q", [""])[0].split(",")]
        name, cc = items[0].lower(), (items[-1].upper() if len(items) > 1 else "")
        found = data.by_name.get((name, cc), [])
        out = [{"name": c["name"], "lat": c["lat"], "lon": c["lon"], "country": c["country"]}
               for c in found[: int(q.get("limit", ["5"])[0] or 5)]]
        return 200, "OK", json.dumps(out).encode()
    return 404, "Not Found", BAD_PATH


class Server:
    def __init__(self, data, latency, log, api_key):
        self.data = data
        self.latency = latency
        self.log = log
        self.api_key = api_key
        self.conns = 0
        self.requests = 0

    async def handle(self, reader, writer):
        self.conns += 1
        conn = self.conns
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                except asyncio.LimitOverrunError:
                    return
                arrived = time.time()
                lines = head.decode("latin-1").split("\r\n")
                try:
                    method, target, version = lines[0].split(" ", 2)
                except ValueError:
                    return
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, _, v = line.partition(":")
                        headers[k.strip().lower()] = v.strip()
                length = int(headers.get("content-length", "0") or 0)
                if length:
                    await reader.readexactly(length)
                if method not in ("GET", "HEAD"):
                    status, reason, body = 405, "Method Not Allowed", b'{"cod":"405"}'
                else:
                    status, reason, body = route(self.data, target, self.api_key)
                self.requests += 1
                self.log.write("%.6f %d %s %d\n" % (arrived, conn, urlsplit(target).path, status))
                close = (headers.get("connection", "").lower() == "close"
                         or version == "HTTP/1.0" and headers.get("connection", "").lower() != "keep-alive")
                if self.latency > 0:
                    await asyncio.sleep(self.latency - (time.time() - arrived))
                out = ("HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\n"
                       "Content-Length: %d\r\nConnection: %s\r\n\r\n"
                       % (status, reason, len(body), "close" if close else "keep-alive")).encode()
                writer.write(out if method == "HEAD" else out + body)
                await writer.drain()
                if close:
                    return
        except ConnectionError:
            return
        finally:
            try:
                writer.close()
            except Exception:
                pass


async def main_async(args):
    data = Data(args.dir)
    log = open(args.log, "a", buffering=1 << 16) if args.log else open(os.devnull, "w")
    server = Server(data, args.latency_ms / 1000.0, log, args.api_key)
    srv = await asyncio.start_server(server.handle, "127.0.0.1", args.port, backlog=256,
                                     reuse_address=True)
    port = srv.sockets[0].getsockname()[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.replace(tmp, args.port_file)
    print("standin: listening on 127.0.0.1:%d, latency %d ms, %d cities"
          % (port, args.latency_ms, len(data.by_coord)), file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    started = time.monotonic()

    async def watchdog():
        while not stop.is_set():
            await asyncio.sleep(0.5)
            log.flush()
            if args.parent:
                try:
                    os.kill(args.parent, 0)
                except ProcessLookupError:
                    stop.set()
            if args.max_seconds and time.monotonic() - started > args.max_seconds:
                stop.set()

    wd = asyncio.create_task(watchdog())
    await stop.wait()
    wd.cancel()
    srv.close()
    log.flush()
    log.close()
    print("standin: stopped after %d requests on %d connections"
          % (server.requests, server.conns), file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser(description="Loopback OpenWeather stand-in for benchmarks.")
    ap.add_argument("--dir", required=True, help="data set written by generate.py")
    ap.add_argument("--latency-ms", type=float, default=100.0)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--log", help="request log (appended)")
    ap.add_argument("--api-key", help="answer 401 unless appid equals this")
    ap.add_argument("--parent", type=int, help="stop when this process is gone")
    ap.add_argument("--max-seconds", type=float, default=4 * 3600)
    args = ap.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
