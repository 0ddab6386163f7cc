"""A loopback stand-in for Apple's WeatherKit REST API, for the `provider: weatherkit`
tests, that checks the developer token as Apple documents it ("Request authentication for
WeatherKit REST API"):

    python3 weatherkit_server.py PORT BODY_FILE PUBLIC_KEY_PEM LOG_FILE TEAM_ID SERVICE_ID KEY_ID

It answers `GET /api/v1/weather/{language}/{latitude}/{longitude}?dataSets=…&timezone=…`
with BODY_FILE when the request's `Authorization: Bearer <token>` holds a JWT that

- has three base64url parts without padding;
- has the header {"alg": "ES256", "kid": KEY_ID, "id": "TEAM_ID.SERVICE_ID"};
- has exactly the claims iss (TEAM_ID), iat, exp and sub (SERVICE_ID), `exp` not passed
  and `iat` not in the future;
- is signed ES256 (raw r||s, 64 bytes) with the key whose public half is PUBLIC_KEY_PEM;

and 401 with {"reason": "…"} otherwise (as Apple answers a token it refuses), 400 for a
request without `timezone` or `dataSets`, 404 for another path.

Every request is appended to LOG_FILE as a JSON line: path, query, status, the reason of a
refusal, and a SHA-256 of the token (never the token itself), so a test can tell one token
reused from one made per request.
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import base64
import hashlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from loopback import answer, serve

PORT, BODY_FILE, PUBLIC_KEY, LOG_FILE, TEAM, SERVICE, KEY_ID = (int(sys.argv[1]), *sys.argv[2:8])
with open(BODY_FILE, "rb") as f:
    BODY = f.read()
with open(PUBLIC_KEY, "rb") as f:
    KEY = serialization.load_pem_public_key(f.read())
lock = threading.Lock()


def b64url(text):
    if "=" in text or "+" in text or "/" in text:
        raise ValueError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def refusal(authorization):
    """Why the token is refused, or None when it is good."""
    if not authorization or not authorization.startswith("Bearer "):
        return "no bearer token"
    parts = authorization[len("Bearer "):].split(".")
    if len(parts) != 3:
        return "not a JWT of three parts"
    try:
        header, claims, signature = json.loads(b64url(parts[0])), json.loads(b64url(parts[1])), b64url(parts[2])
    except ValueError as error:
        return f"malformed token: {error}"
    if header != {"alg": "ES256", "kid": KEY_ID, "id": f"{TEAM}.{SERVICE}"}:
        return f"header {header}"
    if set(claims) != {"iss", "iat", "exp", "sub"}:
        return f"claims {sorted(claims)}"
    if claims["iss"] != TEAM or claims["sub"] != SERVICE:
        return "iss or sub"
    now = time.time()
    if not isinstance(claims["exp"], int) or claims["exp"] <= now:
        return "expired"
    if not isinstance(claims["iat"], int) or claims["iat"] > now + 60:
        return "issued in the future"
    if len(signature) != 64:
        return f"signature of {len(signature)} bytes, not r||s"
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        KEY.verify(der, f"{parts[0]}.{parts[1]}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "bad signature"
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        authorization = self.headers.get("Authorization") or ""
        reason = None
        body = b""
        if not url.path.startswith("/api/v1/weather/") or len(url.path.split("/")) != 7:
            status = 404
        else:
            reason = refusal(authorization)
            if reason:
                status, body = 401, json.dumps({"reason": "NOT_ENABLED"}).encode()
            elif "timezone" not in query or "dataSets" not in query:
                status, reason = 400, "timezone or dataSets missing"
            else:
                status, body = 200, BODY
        token = authorization[len("Bearer "):]
        entry = {"time": time.time(), "path": url.path, "query": query, "status": status, "reason": reason,
                 "token_sha256": hashlib.sha256(token.encode()).hexdigest() if token else None}
        with lock, open(LOG_FILE, "a") as log:
            log.write(json.dumps(entry) + "\n")
        answer(self, status, {"Content-Type": "application/json"}, body)


serve(PORT, Handler, LOG_FILE + ".ready")
