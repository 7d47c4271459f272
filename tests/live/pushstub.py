"""A Web Push service on loopback that does what a real one does with what it receives: checks
the VAPID authorization (RFC 8292: an ES256 JWT for this origin, signed by the key it names),
and, in the browser's place, decrypts the aes128gcm payload (RFC 8291) with the subscription's
private key. Endpoints can be told to answer 410 Gone (an expired subscription)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.live.conftest import free_port


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_problem(header: str, audience: str, server_key: str) -> str | None:
    """None when `Authorization: vapid t=<jwt>, k=<key>` is valid for `audience` and signed by
    `server_key` (base64url uncompressed point); otherwise what is wrong."""
    scheme, _, params = header.partition(" ")
    if scheme.lower() != "vapid":
        return f"scheme {scheme!r}"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    if fields.get("k") != server_key:
        return "k is not the application server key the browser subscribed with"
    head, claims, signature = fields["t"].split(".")
    if json.loads(b64url_decode(head)) != {"typ": "JWT", "alg": "ES256"}:
        return "JWT header"
    raw = b64url_decode(signature)
    if len(raw) != 64:
        return "ES256 signatures are 64 bytes"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(
        fields["k"]))
    try:
        public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                           int.from_bytes(raw[32:], "big")),
                      f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "bad signature"
    body = json.loads(b64url_decode(claims))
    if body.get("aud") != audience:
        return f"aud {body.get('aud')!r}"
    if not time.time() < body.get("exp", 0) <= time.time() + 24 * 3600:
        return "exp must be within 24 hours"
    if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
        return "sub"
    return None


class Browser:
    """A subscription's keys, as a browser keeps them."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(point), "auth": b64url(self.auth)}


class PushService:
    def __init__(self, server_key: str) -> None:
        self.server_key = server_key
        self.browsers: dict[str, Browser] = {}
        self.gone: set[str] = set()
        self.received: list[dict] = []
        self.problems: list[str] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                name = self.path.rsplit("/", 1)[1]
                if name in service.gone:
                    return self._answer(410)
                problem = vapid_problem(self.headers.get("Authorization", ""), service.origin,
                                        service.server_key)
                if problem is None and self.headers.get("Content-Encoding") != "aes128gcm":
                    problem = "Content-Encoding"
                if problem is None and not self.headers.get("TTL", "").isdigit():
                    problem = "TTL"
                if problem:
                    service.problems.append(problem)
                    return self._answer(401)
                browser = service.browsers[name]
                plain = http_ece.decrypt(body, private_key=browser.key,
                                         auth_secret=browser.auth, version="aes128gcm")
                service.received.append({"endpoint": name, "payload": json.loads(plain),
                                         "ciphertext": body})
                self._answer(201)

            def _answer(self, status):
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def subscription(self, name: str) -> dict:
        """What PushSubscription.toJSON() gives the page, for a new browser called `name`."""
        self.browsers[name] = Browser()
        return {"endpoint": f"{self.origin}/push/{name}", "keys": self.browsers[name].keys()}

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
