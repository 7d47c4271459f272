"""Reading a reply: the few lines the player wrote, without quoted text, attributions, forwarded
originals or signatures, from plain-text or HTML-only mail in any character set; and telling
automatic mail (out-of-office, bounces) apart from people."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from anymail.inbound import AnymailInboundMessage

#: Where the player's own text ends: everything from such a line down is not theirs.
_STOP_LINE = re.compile(
    r"""^(?:
        --\s*$                                   # signature delimiter ("-- ")
      | _{8,}\s*$                                # Outlook's rule before the original
      | -{3,}\s*(?:original\s+message|forwarded\s+message|ursprüngliche\s+nachricht|
                  message\s+d'origine)\s*-{3,}\s*$
      | begin\s+forwarded\s+message:?\s*$
      | sent\s+from\s+my\s+\S.*$                 # phone footers
      | sent\s+from\s+(?:mail|outlook)\s+for\s+\S.*$
      | get\s+outlook\s+for\s+\S.*$
      | von\s+meinem\s+\S.*\s+gesendet\s*$
      | envoyé\s+de\s+mon\s+\S.*$
    )""",
    re.IGNORECASE | re.VERBOSE,
)
#: Outlook's unquoted header block of the original ("From: ...", then "Sent:" or "Date:").
_HEADER_FROM = re.compile(r"^\*?(?:from|von|de|da|van)\s*:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(r"^\*?(?:sent|date|gesendet|envoyé|inviato|datum|to|an|à)\s*:",
                          re.IGNORECASE)
#: Attribution lines above quoted text, possibly wrapped over two or three lines by the client.
_ATTRIBUTION_START = re.compile(r"^(?:on|le|am|el|il|op|den|på|em|w dniu)\s", re.IGNORECASE)
_ATTRIBUTION_END = re.compile(
    r"(?:wrote|writes|écrit|schrieb|escribió|scritto|schreef|skrev|escreveu|napisał)\s*:\s*$",
    re.IGNORECASE,
)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)


@dataclass
class ReplyText:
    #: The player's own lines, in order, blank lines dropped.
    lines: list[str] = field(default_factory=list)
    #: Which body the lines came from ("text" or "html").
    source: str = "text"

    @property
    def first_line(self) -> str:
        return self.lines[0] if self.lines else ""


# ---- bodies -------------------------------------------------------------------------------------


def _charset(part: AnymailInboundMessage, payload: bytes) -> str:
    charset = (part.get_content_charset() or "us-ascii").lower()
    # Mail labelled ISO-8859-1 is very often windows-1252 (curly quotes, euro sign in 0x80-0x9f),
    # which is what browsers assume too.
    if charset in ("iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii"):
        charset = "windows-1252" if re.search(rb"[\x80-\x9f]", payload) else "iso-8859-1"
    return charset


@dataclass
class TextPart:
    """A text/plain or text/html body part (not an attachment) and how to read it."""

    part: AnymailInboundMessage

    @property
    def content_type(self) -> str:
        return self.part.get_content_type()

    @property
    def payload(self) -> bytes:
        return self.part.get_payload(decode=True) or b""

    @property
    def charset(self) -> str:
        return _charset(self.part, self.payload)

    def decoded_text(self, *, strict: bool = False) -> str:
        """The text with line ends normalised; `strict` raises LookupError (unknown charset) or
        UnicodeDecodeError instead of guessing."""
        payload, charset = self.payload, self.charset
        try:
            text = payload.decode(charset, errors="strict" if strict else "replace")
        except LookupError:  # an unknown charset name: UTF-8 is the best guess
            if strict:
                raise
            text = payload.decode("utf-8", errors="replace")
        return re.sub(r"\r\n|\r", "\n", text)


def text_parts(message: AnymailInboundMessage) -> list[TextPart]:
    return [TextPart(part) for part in message.walk()
            if part.get_content_type() in ("text/plain", "text/html") and not part.is_attachment()]


def _body(message: AnymailInboundMessage, content_type: str) -> str | None:
    for part in text_parts(message):
        if part.content_type == content_type:
            return part.decoded_text()
    return None


class _HTMLText(HTMLParser):
    """HTML to plain lines, leaving out quoted originals (blockquote, Gmail/Outlook/Thunderbird/
    Yahoo quote containers), signatures, and anything invisible."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
              "ul", "ol", "section", "article", "header", "footer"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}
    HIDDEN_TAGS = {"head", "style", "script", "title", "blockquote", "template"}
    HIDDEN_MARKERS = ("gmail_quote", "gmail_attr", "gmail_signature", "moz-cite-prefix",
                      "moz-signature", "yahoo_quoted", "divrplyfwdmsg", "appendonsend",
                      "outlookmessageheader", "protonmail_quote", "x_divrplyfwdmsg",
                      "signature", "applemailsignature")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    @property
    def hidden(self) -> bool:
        return any(hidden for _, hidden in self.stack)

    def handle_starttag(self, tag, attrs):
        marker = " ".join(f"{v}" for k, v in attrs if k in ("class", "id") and v).lower()
        hidden = tag in self.HIDDEN_TAGS or any(m in marker for m in self.HIDDEN_MARKERS)
        if tag == "hr" and not self.hidden:
            # Outlook separates the original with a rule: it ends the player's text.
            self.parts.append("\n________________________________\n")
        if tag in self.BLOCKS and not self.hidden:
            self.parts.append("\n")
        if tag not in self.VOID:
            self.stack.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        # Close up to the matching open tag; stray end tags are ignored.
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if tag in self.BLOCKS and not self.hidden:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)

    def text(self) -> str:
        return "".join(self.parts)


def html_to_text(html: str) -> str:
    parser = _HTMLText()
    parser.feed(html)
    parser.close()
    return parser.text()


# ---- the player's lines -------------------------------------------------------------------------


def _normalise(text: str) -> list[str]:
    text = text.translate(_INVISIBLE).replace("\u00a0", " ")
    return [line.rstrip() for line in text.split("\n")]


def _is_attribution(lines: list[str], index: int) -> int:
    """How many lines starting at `index` form an "On <date>, <someone> wrote:" line (0: none)."""
    line = lines[index].strip()
    if _ATTRIBUTION_END.search(line) and (_ATTRIBUTION_START.match(line) or len(line) < 200):
        return 1
    if _ATTRIBUTION_START.match(line):
        for extra in (1, 2):
            if index + extra < len(lines) and _ATTRIBUTION_END.search(lines[index + extra]):
                return extra + 1
    return 0


def _is_header_block(lines: list[str], index: int) -> bool:
    if not _HEADER_FROM.match(lines[index].strip()):
        return False
    following = [line.strip() for line in lines[index + 1:index + 4] if line.strip()]
    return bool(following) and bool(_HEADER_NEXT.match(following[0]))


def own_lines(text: str) -> list[str]:
    """The lines the player wrote: quoted lines (">") and attributions are skipped wherever they
    are (top and bottom posting); a signature, forwarded original or unquoted Outlook original
    ends the text."""
    lines = _normalise(text)
    own: list[str] = []
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        if not stripped or stripped.startswith(">"):
            index += 1
            continue
        if _STOP_LINE.match(stripped) or _is_header_block(lines, index):
            break
        attribution = _is_attribution(lines, index)
        if attribution:
            index += attribution
            continue
        own.append(stripped)
        index += 1
    return own


def reply_text(message: AnymailInboundMessage) -> ReplyText:
    """The player's lines from the plain-text body, or from the HTML body when the plain one is
    missing or has nothing of theirs (HTML-only clients)."""
    plain = _body(message, "text/plain")
    if plain is not None:
        lines = own_lines(plain)
        if lines:
            return ReplyText(lines=lines, source="text")
    html = _body(message, "text/html")
    if html is not None:
        return ReplyText(lines=own_lines(html_to_text(html)), source="html")
    return ReplyText(lines=[], source="text")


# ---- automatic mail -----------------------------------------------------------------------------


def from_address(message: AnymailInboundMessage) -> str:
    """The From address in lower case, or "" when it is missing or not strictly one plain
    address (see `trust.sender_of`)."""
    from notifications.inbound.trust import sender_of

    return sender_of(message).address


_DAEMON = re.compile(r"^(?:mailer-daemon|postmaster|no-?reply|bounces?)(?:[+@]|$)", re.IGNORECASE)


def automatic_reason(message: AnymailInboundMessage, *, own_addresses: list[str]) -> str | None:
    """Why this message is automatic or spam and must not be answered (spam, mail loops, bounces,
    out-of-office replies), or None for mail written by a person (or with no From address we
    can trust, which the caller refuses)."""
    # Spam: the provider's verdict (anymail's spam_detected) or a local filter's (SpamAssassin,
    # rspamd), e.g. for the MTA pipe.
    if getattr(message, "spam_detected", None) is True:
        return "spam"
    if (message.get("X-Spam-Flag") or "").strip().lower() in ("yes", "true") or (
            (message.get("X-Spam-Status") or "").strip().lower().startswith("yes")):
        return "spam"
    auto_submitted = (message.get("Auto-Submitted") or "").strip().lower()
    if auto_submitted and auto_submitted != "no":
        return "auto_reply"
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return "auto_reply"
    if any(message.get(name) for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponse")):
        return "auto_reply"
    suppress = (message.get("X-Auto-Response-Suppress") or "").strip().lower()
    subject = (message.get("Subject") or "").lower()
    # Exchange marks its own out-of-office replies this way (ordinary mail says "DR, RN" etc.).
    if suppress in ("all", "oof") and subject.startswith(("automatic reply", "out of office")):
        return "auto_reply"
    return_path = message.get("Return-Path")
    if return_path is not None and return_path.strip() in ("<>", ""):
        return "bounce"
    if message.get_content_type() == "multipart/report":
        return "bounce"
    address = from_address(message)
    if address and _DAEMON.match(address):
        return "bounce"
    if address and address in own_addresses:
        return "loop"
    return None
