"""A received message's body text parts, decoded in their charsets (read by the parsing of a
reply and by the trust checks alike)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from anymail.inbound import AnymailInboundMessage


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
