"""Every outbound HTTP request of the project (webhooks, Web Push, any future fetch) goes through
`post` here, so that none can be turned inward, at our own machine or network.

One request: the name is resolved once; every address it gives must be public (`is_public`:
no loopback, private, link-local, shared, reserved or multicast address, nor any of them hidden in
an IPv6 form: IPv4-mapped, IPv4-compatible, NAT64, 6to4); the connection goes to one of those
checked addresses, with the name kept for TLS (SNI, certificate check) and in the Host header;
a redirect is an answer like any other, never followed; the whole exchange (connect, TLS, send,
the answer's head and the little of its body read) has one deadline; at most `max_body` bytes
of the body are read. Only https, unless ALLOW_LOCAL_DELIVERY_TARGETS (development and the
tests' local receivers): then http and local addresses are allowed, but the rest holds.

What callers keep of an answer is its `status_line` ("HTTP 500 Internal Server Error": the
status and its standard phrase, nothing the other end chose), or of a failure its error class
("TimeoutError"): never the body.
"""

# Why hand-written, on the standard library: no maintained library does resolve-once, pin,
# no-redirect and a total deadline together. Advocate (requests) is unmaintained and pins
# urllib3 < 2; its fork champion is only on git; requests-hardened (maintained) pins addresses
# for requests, but requests' timeouts are per read, so a receiver dripping a byte a second
# holds a worker for ever. urllib3 2.x connects by name (pinning means overriding its private
# `_new_conn`) and has no total deadline across reads either. http.client (which urllib3 builds
# on) takes a socket we connected ourselves, and a socket whose every send and receive gets the
# time left is the total deadline; there is no pool to keep, one request per delivery.

from __future__ import annotations

import base64
import http.client
import ipaddress
import math
import socket
import ssl
import time
from dataclasses import dataclass
from functools import lru_cache
from http import HTTPStatus
from urllib.parse import unquote, urlsplit

from django.conf import settings

#: Bytes of an answer's body read at most (callers need its status; the rest is not read).
MAX_BODY = 1024
USER_AGENT = "Turnpost/1"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: IPv6 ranges that carry an IPv4 address in their last 32 bits: NAT64 (RFC 6052), IPv4-mapped,
#: IPv4-compatible (deprecated, but a kernel may still route it to the IPv4 address).
_IPV4_IN_LAST_32_BITS = [ipaddress.ip_network(net) for net in
                         ("64:ff9b::/96", "::ffff:0:0/96", "::/96")]
#: Never public whatever they carry: local-use NAT64 (RFC 8215), Teredo, discard-only.
_NEVER_PUBLIC = [ipaddress.ip_network(net) for net in ("64:ff9b:1::/48", "2001::/32",
                                                       "100::/64")]


class OutboundRefused(ValueError):
    """The address may not be reached. `reason` is "scheme" (not https, or not a URL),
    "unresolvable" or "internal" (then `address` is the internal address the name gave)."""

    def __init__(self, reason: str, host: str = "", address: str = "") -> None:
        super().__init__(f"{reason}: {host} {address}".strip())
        self.reason, self.host, self.address = reason, host, address


class OutboundFailed(Exception):
    """No answer: the connection failed, broke or ran out of time. str() is the error's class
    ("ConnectionRefusedError", "TimeoutError", "SSLCertVerificationError"), nothing more."""


# ---- which addresses are public -----------------------------------------------------------------


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 form stands for (NAT64, mapped, compatible, 6to4), if any."""
    if address.sixtofour is not None:
        return address.sixtofour
    if any(address in network for network in _IPV4_IN_LAST_32_BITS):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def is_public(address: Address) -> bool:
    """A public unicast address: what `ipaddress` calls global, minus multicast and reserved
    ranges, and an IPv6 form of an IPv4 address only if that address is public."""
    if address.version == 6:
        if any(address in network for network in _NEVER_PUBLIC) or address.is_site_local:
            return False
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public(embedded)
    return address.is_global and not (address.is_multicast or address.is_reserved
                                      or address.is_unspecified)


# ---- the target: checked once, connected to as checked -------------------------------------------


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # ASCII (IDNA), as in SNI and the Host header
    port: int
    path: str
    host_header: str
    #: (family, sockaddr) of each address the name resolved to, all checked.
    addresses: tuple[tuple[int, tuple], ...]
    authorization: str | None = None


def _local_allowed() -> bool:
    return settings.ALLOW_LOCAL_DELIVERY_TARGETS


def _resolve(host: str, port: int) -> list[tuple[int, tuple]]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError, ValueError):
        raise OutboundRefused("unresolvable", host) from None
    found: list[tuple[int, tuple]] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if (family, sockaddr) not in found:
            found.append((family, sockaddr))
    if not found:
        raise OutboundRefused("unresolvable", host)
    return found


def target(url: str) -> Target:
    """Checks `url` and resolves its name once; raises OutboundRefused. What `post` connects
    to, and what registering a webhook or a push subscription checks."""
    local = _local_allowed()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise OutboundRefused("scheme") from None
    if parts.scheme not in (("https", "http") if local else ("https",)) or not parts.hostname:
        raise OutboundRefused("scheme")
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise OutboundRefused("unresolvable", parts.hostname) from None
    port = port or (443 if parts.scheme == "https" else 80)
    addresses = _resolve(host, port)
    if not local:
        for _family, sockaddr in addresses:
            address = ipaddress.ip_address(sockaddr[0].split("%", 1)[0])
            if not is_public(address):
                raise OutboundRefused("internal", host, str(address))
    shown = f"[{host}]" if ":" in host else host
    authorization = None
    if parts.username is not None:
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        authorization = "Basic " + base64.b64encode(pair.encode()).decode()
    return Target(scheme=parts.scheme, host=host, port=port,
                  path=(parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
                  host_header=f"{shown}:{parts.port}" if parts.port else shown,
                  addresses=tuple(addresses), authorization=authorization)


# ---- one deadline for the whole exchange ---------------------------------------------------------


class _Deadline:
    """Every send and receive waits at most the time left before `deadline` (monotonic), so
    that an answer trickled a byte at a time still ends on time."""

    deadline = math.inf

    def _time_left(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("deadline")
        self.settimeout(left)

    def recv_into(self, *args, **kwargs):
        self._time_left()
        return super().recv_into(*args, **kwargs)

    def recv(self, *args, **kwargs):
        self._time_left()
        return super().recv(*args, **kwargs)

    def send(self, *args, **kwargs):
        self._time_left()
        return super().send(*args, **kwargs)

    def sendall(self, *args, **kwargs):
        self._time_left()
        return super().sendall(*args, **kwargs)


class _DeadlineSocket(_Deadline, socket.socket):
    pass


class _DeadlineSSLSocket(_Deadline, ssl.SSLSocket):
    pass


@lru_cache(maxsize=4)
def _tls_context(cafile: str) -> ssl.SSLContext:
    """Certificates checked against the system's CAs, or OUTBOUND_CA_FILE's instead."""
    context = ssl.create_default_context(cafile=cafile or None)
    context.sslsocket_class = _DeadlineSSLSocket
    return context


def _connect(target: Target, deadline: float) -> socket.socket:
    """A connection to one of the checked addresses (TLS with the name, for https)."""
    problem: Exception | None = None
    for family, sockaddr in target.addresses:
        sock = _DeadlineSocket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.deadline = deadline
        try:
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
            sock.connect(sockaddr)
        except OSError as error:
            sock.close()
            problem = error
            continue
        if target.scheme == "http":
            return sock
        context = _tls_context(settings.OUTBOUND_CA_FILE)
        tls = context.wrap_socket(sock, server_hostname=target.host,
                                  do_handshake_on_connect=False)
        tls.deadline = deadline
        try:
            # The socket's timeout bounds the whole handshake (CPython counts it as a deadline).
            tls.settimeout(max(deadline - time.monotonic(), 0.001))
            tls.do_handshake()
        except OSError:
            tls.close()
            raise
        return tls
    raise problem or TimeoutError("deadline")


# ---- the request --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    #: At most `max_body` bytes of the body: for a caller that reads it, never to be recorded.
    body: bytes

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def status_line(self) -> str:
        return status_line(self.status)


def status_line(status: int) -> str:
    """"HTTP 500 Internal Server Error": the standard phrase, never the one the server sent."""
    try:
        return f"HTTP {status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float,
         max_body: int = MAX_BODY) -> Answer:
    """POSTs `body` to `url` under the rules above, in at most `timeout` seconds from the
    connect on. Raises OutboundRefused (nothing was sent) or OutboundFailed."""
    return send(target(url), body, headers, timeout=timeout, max_body=max_body)


def send(where: Target, body: bytes, headers: dict[str, str], *, timeout: float,
         max_body: int = MAX_BODY) -> Answer:
    """`post` to a target already checked (and resolved) by `target`."""
    deadline = time.monotonic() + timeout
    sent = {"User-Agent": USER_AGENT, **headers, "Host": where.host_header}
    if where.authorization:
        sent.setdefault("Authorization", where.authorization)
    connection = http.client.HTTPConnection(where.host, where.port)
    try:
        connection.sock = _connect(where, deadline)
        connection.request("POST", where.path, body=body, headers=sent)
        response = connection.getresponse()
        content = response.read(max_body) if max_body else b""
        return Answer(status=response.status, body=content,
                      headers={name.lower(): value for name, value in response.getheaders()})
    except (OSError, http.client.HTTPException) as error:
        raise OutboundFailed(type(error).__name__) from None
    finally:
        connection.close()
