"""What play by email believes about a received message before it reads a move from it: its
sender, who vouches for them, and whether it is whole, well-formed MIME of a size we accept."""

# Who sent it: one strictly parsed From address, nothing address-like beside it. Who vouches:
# our own mail boundary or the provider (SPF, DKIM, DMARC). Each check answers with a refusal
# reason or None.

from __future__ import annotations

import re
from dataclasses import dataclass
from email import errors as email_errors
from email.message import Message

import authres
from django.conf import settings

from notifications.inbound.mime import text_parts

#: A message holding this byte is refused outright (PostgreSQL text cannot store it, and no mail
#: client writes one).
NUL = b"\x00"


# ---- the sender ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sender:
    #: The one From address in lower case, or "" when the header is not trustworthy.
    address: str
    #: Why it is not (for the record), or "".
    problem: str = ""


def sender_of(message: Message) -> Sender:
    """The From address, parsed with the standard library's RFC 5322 header parser (not
    `parseaddr`, which this Python's `getaddresses` lacks a strict mode for). Refused: several
    From headers, a group or several addresses, any parsing defect, and any second "@" in the
    decoded value (`"alice@example.com" <mallory@evil.test>`, a comment naming an address, a
    quoted local part holding one): a mail client shows those parts, so they could pass for
    another player."""
    values = message.get_all("From") or []
    if not values:
        return Sender("", "no From header")
    if len(values) > 1:
        return Sender("", f"{len(values)} From headers")
    try:
        header = message["From"]
        groups, defects = getattr(header, "groups", None), getattr(header, "defects", ())
        decoded = str(header)
    except (ValueError, TypeError, IndexError, LookupError) as error:
        return Sender("", f"unreadable From header ({type(error).__name__})")
    if groups is None:  # a message built without the header registry (not ours)
        return Sender("", "unparsed From header")
    if defects:
        return Sender("", "malformed From header: " + ", ".join(
            sorted({type(defect).__name__ for defect in defects})))
    addresses = [address for group in groups for address in group.addresses]
    if any(group.display_name is not None for group in groups):
        return Sender("", "a group in From")
    if len(addresses) != 1:
        return Sender("", f"{len(addresses)} addresses in From")
    address = addresses[0].addr_spec
    local, _, domain = address.rpartition("@")
    # The raw value too: the decoded one has lost its comments, which clients may show.
    raw_value = next((str(value) for name, value in message.raw_items()
                      if name.lower() == "from"), "")
    if not local or "." not in domain or decoded.count("@") != 1 or raw_value.count("@") != 1:
        return Sender("", "an address-like text beside the From address")
    return Sender(address.lower())


# ---- authentication verdicts --------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    #: "dmarc", "dkim" or "spf"
    method: str
    #: RFC 8601 result word in lower case: pass, fail, softfail, none, neutral, ...
    result: str
    #: Who said so ("mx.example.org" for an Authentication-Results header, "webhook:ses", ...).
    source: str
    #: The domain the result speaks for, lower case: DKIM's signing domain (d=), SPF's
    #: MAIL FROM domain, DMARC's From domain; "" when the reporter does not say.
    domain: str = ""


_METHODS = ("dmarc", "dkim", "spf")
#: Where each method names its domain in an Authentication-Results header (RFC 8601 2.7).
_DOMAIN_PROPERTIES = {"dkim": (("header", "d"), ("header", "i")),
                      "spf": (("smtp", "mailfrom"),),
                      "dmarc": (("header", "from"),)}


def _domain_of(value) -> str:
    """The domain of an address, an "@domain" identity or a bare domain, in lower case."""
    return str(value or "").strip().strip("<>").rpartition("@")[2].strip().rstrip(".").lower()


def _result_domain(result) -> str:
    properties = {(str(prop.type).lower(), str(prop.name).lower()): prop.value
                  for prop in reversed(result.properties or [])}
    for key in _DOMAIN_PROPERTIES.get(result.method.lower(), ()):
        if properties.get(key):
            return _domain_of(properties[key])
    return ""


def _trusted_headers(message: Message) -> list:
    """The topmost run of Authentication-Results headers whose authserv-id is one of ours
    (EMAIL_PLAY_AUTHSERV_IDS): each hop prepends its own, so ours sit above anything the
    sender wrote (our MTA must also delete incoming ones claiming our id, as RFC 8601 asks).
    Headers of other servers above ours are skipped; none at all are trusted without an id."""
    own_ids = set(settings.EMAIL_PLAY_AUTHSERV_IDS)
    trusted = []
    for value in message.get_all("Authentication-Results") or []:
        try:
            header = authres.AuthenticationResultsHeader.parse_value(" ".join(str(value).split()))
        except (authres.AuthResError, ValueError, IndexError):
            header = None
        if header is not None and (header.authserv_id or "").lower() in own_ids:
            trusted.append(header)
        elif trusted:
            break
    return trusted


def header_verdicts(message: Message) -> list[Verdict]:
    """Verdicts from the Authentication-Results headers we trust (see `_trusted_headers`)."""
    return [Verdict(result.method.lower(), str(result.result).lower(), header.authserv_id,
                    _result_domain(result))
            for header in _trusted_headers(message) for result in header.results
            if result.method and result.method.lower() in _METHODS]


def _word(value) -> str:
    match = re.match(r"\s*([A-Za-z_]+)", str(value or ""))
    return match.group(1).lower() if match else ""


def _signing_domain(message: Message) -> str:
    """The one d= of the message's DKIM-Signature headers, or "" when there are none or several
    (a provider's bare "dkim passed" can only be about that one then)."""
    domains = set()
    for value in (message.get_all("DKIM-Signature") if message is not None else None) or []:
        match = re.search(r"(?:^|;)\s*d\s*=\s*([^;\s]+)", " ".join(str(value).split()))
        domains.add(_domain_of(match.group(1)) if match else "")
    return domains.pop() if len(domains) == 1 else ""


def provider_verdicts(esp_name: str, esp_event, message: Message) -> list[Verdict]:
    """Verdicts a provider reports in its own fields (anymail's AnymailInboundMessage has no
    SPF/DKIM attributes, only `spam_detected`/`spam_score`, which the automatic-mail check uses):
    Amazon SES's receipt verdicts, SendGrid's `SPF`/`dkim` fields, Mailgun's `X-Mailgun-Spf` and
    `X-Mailgun-Dkim-Check-Result` headers, Postmark's topmost `Received-SPF` header. An SPF
    result speaks for the envelope sender anymail reports; a DKIM result without a domain for
    the message's one signing domain; SES's DMARC verdict for the From it read."""
    provider = (esp_name or "").lower().replace(" ", "")
    source = f"webhook:{provider}"
    mail_from = _domain_of(getattr(message, "envelope_sender", None))
    signer = _signing_domain(message)
    found: list[tuple[str, str, str]] = []
    if provider == "amazonses" and isinstance(esp_event, dict):
        receipt = esp_event.get("receipt") or {}
        for method, domain in (("dmarc", ""), ("dkim", signer), ("spf", mail_from)):
            status = str((receipt.get(f"{method}Verdict") or {}).get("status", "")).upper()
            found.append((method, {"PASS": "pass", "FAIL": "fail"}.get(status, ""), domain))
    elif provider == "sendgrid" and hasattr(esp_event, "POST"):
        found.append(("spf", _word(esp_event.POST.get("SPF")), mail_from))
        # "{@example.com : pass}" per signing domain
        found += [("dkim", result.lower(), _domain_of(domain)) for domain, result in
                  re.findall(r"(@?[^\s{},:]+)\s*:\s*([A-Za-z]+)",
                             str(esp_event.POST.get("dkim") or ""))]
    elif provider == "mailgun":
        found.append(("spf", _word(message.get("X-Mailgun-Spf")), mail_from))
        found.append(("dkim", _word(message.get("X-Mailgun-Dkim-Check-Result")), signer))
    elif provider == "postmark":
        found.append(("spf", _word((message.get_all("Received-SPF") or [""])[0]), mail_from))
    return [Verdict(method, result, source, domain) for method, result, domain in found if result]


def authentication_failure(verdicts: list[Verdict]) -> str:
    """Why the sender is not who the From says, or "": a DMARC `fail`; when no DMARC result was
    reported, a DKIM `fail` with no DKIM `pass` beside it (a message may carry several
    signatures; one that verifies is enough) or an SPF `fail` (not `softfail`). DMARC, when
    reported, decides alone: it already weighs SPF and DKIM against the From domain, so a
    forwarded message failing SPF but carrying a valid aligned signature passes."""
    by_method: dict[str, list[Verdict]] = {method: [] for method in _METHODS}
    for verdict in verdicts:
        by_method[verdict.method].append(verdict)

    def failed(method: str) -> list[Verdict]:
        return [verdict for verdict in by_method[method] if verdict.result == "fail"]

    if by_method["dmarc"]:
        failures = failed("dmarc")
    else:
        dkim_failed = [] if any(v.result == "pass" for v in by_method["dkim"]) else failed("dkim")
        failures = dkim_failed + failed("spf")
    return ", ".join(f"{v.method}=fail ({v.source})" for v in failures)


def aligned(domain: str, from_domain: str) -> bool:
    """Whether a result about `domain` vouches for a From in `from_domain`: the same domain, or
    a parent of it (d=example.org signs for mail.example.org, as DMARC's relaxed alignment
    allows). Never a child: without the public suffix list a subdomain's owner (a user of a
    shared hosting domain) could otherwise speak for its parent."""
    if not domain or not from_domain:
        return False
    return domain == from_domain or (
        domain.count(".") >= 1 and from_domain.endswith("." + domain))


def authentication_pass(verdicts: list[Verdict], from_address: str) -> Verdict | None:
    """The verdict that vouches for the From address, or None: a DMARC `pass` (for the From
    domain, when the reporter names one), else a DKIM `pass` whose signing domain is aligned
    with the From domain, else an SPF `pass` whose MAIL FROM domain is. As the large mail
    systems decide, an unaligned pass (a signature of the sender's own provider, a bounce
    domain of a mailing list) says nothing about who wrote the From."""
    from_domain = _domain_of(from_address)
    for method in _METHODS:
        for verdict in verdicts:
            if verdict.method != method or verdict.result != "pass":
                continue
            if method == "dmarc" and verdict.domain in ("", from_domain):
                return verdict
            if method != "dmarc" and aligned(verdict.domain, from_domain):
                return verdict
    return None


# ---- the message itself -------------------------------------------------------------------------

#: Defects of the message structure or of a body part's encoding; any of them means we cannot be
#: sure what the player wrote (header defects are judged where a header is used).
_STRUCTURE_DEFECTS = (
    email_errors.NoBoundaryInMultipartDefect,
    email_errors.StartBoundaryNotFoundDefect,
    email_errors.CloseBoundaryNotFoundDefect,
    email_errors.FirstHeaderLineIsContinuationDefect,
    email_errors.MisplacedEnvelopeHeaderDefect,
    email_errors.MissingHeaderBodySeparatorDefect,
    email_errors.MultipartInvariantViolationDefect,
    email_errors.InvalidMultipartContentTransferEncodingDefect,
    email_errors.UndecodableBytesDefect,
    email_errors.InvalidBase64PaddingDefect,
    email_errors.InvalidBase64CharactersDefect,
    email_errors.InvalidBase64LengthDefect,
)


#: Deeper multipart nesting is refused (mail clients nest three or four levels).
MAX_NESTING = 20


def nesting_depth(message: Message) -> int:
    """How deep parts sit inside each other (1: a single part), counted without recursion."""
    deepest, pending = 0, [(message, 1)]
    while pending:
        part, depth = pending.pop()
        deepest = max(deepest, depth)
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            pending.extend((child, depth + 1) for child in payload)
    return deepest


def too_large(size: int) -> bool:
    return size > settings.EMAIL_PLAY_MAX_MESSAGE_BYTES


def malformation(message: Message, raw: bytes) -> str:
    """What is wrong with the message as MIME, or "": a NUL byte, an empty message, a structural
    or transfer-encoding defect in any part, a text part in an unknown charset, with bytes its
    charset cannot decode or with replacement characters, a header holding control characters
    (an encoded line break in Subject or To: header injection)."""
    if not raw.strip():
        return "an empty message"
    if NUL in raw:
        return "a NUL byte"
    problems: list[str] = []
    depth = nesting_depth(message)
    if depth > MAX_NESTING:
        return f"parts nested {depth} levels deep"
    for part in text_parts(message):
        try:
            text = part.decoded_text(strict=True)
        except LookupError:
            problems.append(f"unknown charset {part.charset!r}")
        except UnicodeDecodeError:
            problems.append(f"bytes that are not {part.charset}")
        else:
            # U+FFFD: bytes a relay (e.g. a provider's webhook) already could not decode.
            if "\ufffd" in text:
                problems.append("undecodable characters")
    for part in message.walk():
        problems += sorted({type(defect).__name__ for defect in part.defects
                            if isinstance(defect, _STRUCTURE_DEFECTS)})
    for name in ("Subject", "Message-ID", "To", "In-Reply-To"):
        for value in message.get_all(name) or []:
            text = str(value)
            if re.search(r"[\x00-\x08\x0a-\x1f\x7f]", text):
                problems.append(f"control characters in {name}")
    return ", ".join(dict.fromkeys(problems))
