"""The harness for outbound requests: a guard on every socket connect of the process, a resolver
for made-up names (one that rebinds), and real servers on loopback that redirect, drip, flood or
speak TLS with a certificate for a made-up name."""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
import socketserver
import ssl
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.live.conftest import free_port

# ---- every connect watched ----------------------------------------------------------------------

class _Watch:
    """The guard in force (None outside a test's guard) and whether the hook is in."""

    guard: ConnectGuard | None = None
    hook_installed = False


def _audit(event: str, args: tuple) -> None:
    if event == "socket.connect" and _Watch.guard is not None:
        _Watch.guard.check(args[1])


def _service_ports() -> set[int]:
    """The database's and Redis's ports (the test keeps talking to them)."""
    ports = {int(os.environ.get("PGPORT", "5432") or 5432)}
    for name in ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL"):
        parts = urlsplit(os.environ.get(name, ""))
        if parts.port:
            ports.add(parts.port)
    return ports | {6379}


class ConnectGuard:
    """While active, records every socket connect of this process and lets through only those
    to loopback on the allowed ports (the database, Redis, the servers a test names): any other
    fails as refused, so that nothing leaves the machine and nothing inward is reached unseen.
    An audit hook (sys.addaudithook) sees connects made in C as well, and cannot be removed: it
    is installed once and does nothing outside a guard."""

    def __init__(self, *allowed_ports: int) -> None:
        self.allowed = set(allowed_ports) | _service_ports()
        self.attempts: list[tuple[str, int]] = []

    def check(self, address) -> None:
        if not isinstance(address, tuple):  # a Unix socket
            return
        host, port = str(address[0]).split("%", 1)[0], int(address[1])
        if ipaddress.ip_address(host).is_loopback and port in _service_ports():
            return
        self.attempts.append((host, port))
        if not (ipaddress.ip_address(host).is_loopback and port in self.allowed):
            raise ConnectionRefusedError(f"the test's guard refuses {host} port {port}")

    def inward(self) -> list[tuple[str, int]]:
        """Attempts at anything but a public address."""
        return [(host, port) for host, port in self.attempts
                if not ipaddress.ip_address(host).is_global]

    def __enter__(self) -> ConnectGuard:
        if not _Watch.hook_installed:
            sys.addaudithook(_audit)
            _Watch.hook_installed = True
        _Watch.guard = self
        return self

    def __exit__(self, *exc) -> None:
        _Watch.guard = None


# ---- a resolver for made-up names ---------------------------------------------------------------


class Resolver:
    """socket.getaddrinfo for made-up names: each gives its addresses in turn, one a call (the
    last one stays), so a name can be public when checked and loopback after; other names go to
    the system's resolver. `calls` counts the look-ups of each made-up name."""

    def __init__(self, real) -> None:
        self.real = real
        self.names: dict[str, list[str]] = {}
        self.calls: Counter[str] = Counter()

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self.names:
            return self.real(host, port, family, type, proto, flags)
        self.calls[name] += 1
        answers = self.names[name]
        address = answers[min(self.calls[name], len(answers)) - 1]
        port = int(port or 0)
        if ":" in address:
            return [(socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP, "",
                     (address, port, 0, 0))]
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]


# ---- servers on loopback ------------------------------------------------------------------------


class _Background:
    server: socketserver.BaseServer

    def __enter__(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def port(self) -> int:
        return self.server.server_address[1]


class Redirector(_Background):
    """Answers every POST with 307 (method and body kept) to `location`."""

    def __init__(self, location: str) -> None:
        self.hits = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                owner.hits += 1
                self.send_response(307)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.port}/push/phone"


class Answering(_Background):
    """Answers every POST with `status` and `body`, recording the requests' Host headers."""

    def __init__(self, status: int, body: bytes, tls: ssl.SSLContext | None = None) -> None:
        self.hosts: list[str] = []
        self.server_names: list[str | None] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                owner.hosts.append(self.headers.get("Host"))
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        if tls is not None:
            tls.sni_callback = lambda sock, name, context: owner.server_names.append(name)
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)


class Trickle(_Background):
    """A raw server that, once asked, writes `head` a byte every `interval` seconds, then
    `chunk` again and again, for at most `for_seconds`; `written` counts the bytes sent."""

    def __init__(self, head: bytes, chunk: bytes = b"", interval: float = 0.0,
                 for_seconds: float = 10.0) -> None:
        self.written = 0
        owner = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                self.request.recv(65536)
                end = time.monotonic() + for_seconds
                try:
                    pieces = [head[i:i + 1] for i in range(len(head))] if interval else [head]
                    for piece in pieces:
                        if time.monotonic() > end:
                            return
                        self.request.sendall(piece)
                        owner.written += len(piece)
                        time.sleep(interval)
                    while chunk and time.monotonic() < end:
                        self.request.sendall(chunk)
                        owner.written += len(chunk)
                except OSError:  # the client hung up: what we want of it
                    return

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", free_port()), Handler)


# ---- certificates for made-up names -------------------------------------------------------------


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def certificate_for(name: str, directory: Path) -> tuple[Path, ssl.SSLContext]:
    """A CA (its certificate written to directory/ca.pem, for OUTBOUND_CA_FILE) and a server
    context whose certificate, signed by it, is for `name`."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("Turnpost test CA"))
          .issuer_name(_name("Turnpost test CA")).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False,
                                       encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                         critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    ca_path, cert_path, key_path = (directory / "ca.pem", directory / "server.pem",
                                    directory / "server-key.pem")
    ca_path.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_path.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    return ca_path, context
