"""A loopback stand-in for an XYZ raster tile server (OpenStreetMap's
`tile.openstreetmap.org/{z}/{x}/{y}.png`), for the `map:` tests and the map demo:

    python3 tile_server.py PORT LOG_FILE MODE MAX_AGE_SECONDS

It answers `GET /tiles/{z}/{x}/{y}.png` (and `{y}@2x.png`, twice the pixels) with a PNG
that Pillow draws: a grid, the tile's address in large type, and "TEST IMAGERY — NOT A
MAP" across it, so no one takes it for a real map. Each answer carries
`Cache-Control: max-age=MAX_AGE_SECONDS`, an `ETag` and a fixed `Last-Modified`, and a
request repeating the ETag (`If-None-Match`) gets a 304.

As OpenStreetMap's tile usage policy asks, a request without an identifying User-Agent
(none, or one without a contact: an `@` or a web address) is refused with 403, and so
is one with `Cache-Control: no-cache` or `Pragma: no-cache`.

MODE `ok` answers so; `missing` answers 404, `throttle` 429, `forbidden` 403,
`unavailable` 503 to every tile; `slow` logs each request as it comes (status 0) and
never answers (it closes after 20 s); `html` answers 200
with an HTML error page instead of an image. The corrupt modes answer 200 with
`Content-Type: image/png` and a body that is not a whole tile: `garbage` the PNG
signature and random bytes, `badcrc` the tile with one bit of its image data's CRC
flipped, `truncated` the tile's first half, `small` a whole PNG of 64 × 64 pixels.
A test changes the mode between runs by writing it to LOG_FILE + ".mode".

Every request is appended to LOG_FILE as a JSON line: time, path, z, x, y, the
User-Agent, the validators sent, the status, and the client's port (one port for many
requests: the connection was kept and reused).
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import io
import json
import random
import zlib
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

from PIL import Image, ImageDraw, ImageFont

from loopback import answer, serve

PORT, LOG_FILE, MODE, MAX_AGE = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
LAST_MODIFIED = "Thu, 26 Nov 2026 06:00:00 GMT"
TILE = re.compile(r"^/tiles/(\d+)/(\d+)/(\d+)(@2x)?\.png$")
lock = threading.Lock()


def font(size):
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"):
        if os.path.exists(path):
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def draw(z, x, y, scale):
    """The tile's picture: the same bytes for the same tile, every time."""
    size = 256 * scale
    image = Image.new("RGB", (size, size), (236, 232, 220))
    pen = ImageDraw.Draw(image)
    # A light grid of "streets", and the tile's edge, so the seams show.
    for step in range(0, size, 32 * scale):
        pen.line([(step, 0), (step, size)], fill=(214, 208, 192), width=scale)
        pen.line([(0, step), (size, step)], fill=(214, 208, 192), width=scale)
    # A "river" whose course depends on the tile, so neighbours differ.
    offset = ((x * 37 + y * 17) % 7) * 16 * scale
    pen.line([(0, offset + 40 * scale), (size, offset + 90 * scale)], fill=(170, 200, 230), width=10 * scale)
    pen.rectangle([0, 0, size - 1, size - 1], outline=(150, 140, 120), width=scale)
    big, small = font(22 * scale), font(11 * scale)
    pen.text((size / 2, size / 2 - 14 * scale), f"{z}/{x}/{y}", font=big, fill=(60, 60, 60), anchor="mm")
    pen.text((size / 2, size / 2 + 14 * scale), "TEST IMAGERY — NOT A MAP", font=small, fill=(170, 40, 40), anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def corrupt(body, mode):
    """A tile's PNG spoilt as `mode` says: what a broken server or a bad proxy sends."""
    if mode == "garbage":
        generator = random.Random(len(body))
        return body[:8] + bytes(generator.getrandbits(8) for _ in range(len(body) - 8))
    if mode == "truncated":
        return body[: len(body) // 2]
    if mode == "badcrc":
        at = body.index(b"IDAT") - 4
        length = int.from_bytes(body[at:at + 4], "big")
        crc = at + 8 + length
        return body[:crc] + bytes([body[crc] ^ 1]) + body[crc + 1:]
    image = Image.new("RGB", (64, 64), (236, 232, 220))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def current_mode():
    try:
        with open(LOG_FILE + ".mode") as file:
            return file.read().strip()
    except FileNotFoundError:
        return MODE


def identifies(agent):
    return bool(agent) and ("@" in agent or "http://" in agent or "https://" in agent)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log(self, entry):
        entry = {"time": time.time(), **entry, "client_port": self.client_address[1]}
        with lock, open(LOG_FILE, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def do_GET(self):
        mode = current_mode()
        match = TILE.match(self.path)
        agent = self.headers.get("User-Agent")
        etag_sent = self.headers.get("If-None-Match")
        no_cache = "no-cache" in (self.headers.get("Cache-Control") or "") + (self.headers.get("Pragma") or "")
        z = x = y = None
        headers, body = {}, b""
        if match:
            z, x, y = int(match.group(1)), int(match.group(2)), int(match.group(3))
        if mode == "slow":
            # Logged as it arrives (status 0: no answer yet), then answered too late.
            self.log(dict(path=self.path, z=z, x=x, y=y, user_agent=agent, if_none_match=etag_sent,
                          if_modified_since=self.headers.get("If-Modified-Since"), status=0))
            time.sleep(20)
            return
        if not match or z > 22 or x >= 2 ** z or y >= 2 ** z:
            status = 404
        elif mode in ("missing", "throttle", "forbidden", "unavailable"):
            status = {"missing": 404, "throttle": 429, "forbidden": 403, "unavailable": 503}[mode]
        elif not identifies(agent) or no_cache:
            status, body = 403, b"403 Forbidden: identify your application and a contact, and do not send no-cache"
        elif mode == "html":
            status, body = 200, b"<!doctype html><title>Error</title><p>Tile service unavailable"
            headers = {"Content-Type": "text/html"}
        else:
            # A spoilt tile is a new version of it: never a 304 to the good one's ETag.
            etag = f'"{z}-{x}-{y}{match.group(4) or ""}-{"v1" if mode == "ok" else mode}"'
            headers = {"Cache-Control": f"max-age={MAX_AGE}", "ETag": etag, "Last-Modified": LAST_MODIFIED}
            if etag_sent == etag:
                status = 304
            else:
                status = 200
                headers["Content-Type"] = "image/png"
                body = draw(z, x, y, 2 if match.group(4) else 1)
                if mode in ("garbage", "badcrc", "truncated", "small"):
                    body = corrupt(body, mode)
        self.log(dict(path=self.path, z=z, x=x, y=y, user_agent=agent, if_none_match=etag_sent,
                      if_modified_since=self.headers.get("If-Modified-Since"), status=status))
        answer(self, status, headers, body)


serve(PORT, Handler, LOG_FILE + ".ready")
