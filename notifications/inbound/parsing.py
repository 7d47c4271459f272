"""Reading a reply: the few lines the player wrote, without quoted text, attributions, forwarded
originals or signatures; and telling automatic mail (out-of-office, bounces, lists) from people."""

# From plain-text or HTML-only mail in any character set (decoded by mime.py).
#
# Quoted text is found twice over: mail-parser-reply's per-language patterns (attributions and
# Outlook header blocks in a dozen languages) and our own rules for what it does not know
# (date-first and Cyrillic/Hungarian/CJK attributions, any line naming the play address or the
# original's subject, ">" quotes, signatures, PGP armour). In HTML the structure decides:
# blockquotes and the clients' quote containers are left out, and an Outlook header block
# (`divRplyFwdMsg`, a `border-top` rule) ends the player's text. When in doubt a line is not the
# player's: a reply we cannot read is refused, never guessed.

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser

from anymail.inbound import AnymailInboundMessage
from mailparser_reply import EmailReplyParser
from mailparser_reply.constants import MAIL_LANGUAGES

from notifications.inbound.mime import text_parts
from notifications.inbound.trust import sender_of

#: Where the player's own text ends: everything from such a line down is not theirs.
_STOP_LINE = re.compile(
    r"""^(?:
        --\s*$                                   # signature delimiter ("-- ")
      | _{8,}\s*$                                # Outlook's rule before the original
      | -{3,}\s*(?:original\s+message|forwarded\s+message|ursprüngliche\s+nachricht|
                  message\s+d'origine|messaggio\s+originale|mensaje\s+original|
                  oorspronkelijk\s+bericht|originalmeddelande|исходное\s+сообщение|
                  пересылаемое\s+сообщение|оригинальное\s+сообщение|originalnachricht|
                  message\s+original|原始邮件|原始郵件|原始信息|元のメッセージ)\s*-{3,}\s*$
      | begin\s+forwarded\s+message:?\s*$
      | -----BEGIN\s+PGP\s+SIGNATURE-----\s*$
      | sent\s+from\s+my\s+\S.*$                 # phone footers
      | sent\s+from\s+(?:mail|outlook|yahoo|proton)\b.*$
      | sent\s+with\s+proton\s*mail.*$
      | get\s+outlook\s+for\s+\S.*$
      | von\s+meinem\s+\S.*\s+gesendet\.?\s*$
      | envoyé\s+de\s+mon\s+\S.*$
      | отправлено\s+с\s+\S.*$
    )""",
    re.IGNORECASE | re.VERBOSE,
)
#: Outlook's unquoted header block of the original ("From: ...", then "Sent:" or "Date:").
_HEADER_FROM = re.compile(
    r"^\*?(?:from|von|de|da|van|från|fra|od|от|kimden|feladó|lähettäjä|发件人|寄件者|差出人)"
    r"\s*:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\*?(?:sent|date|gesendet|envoyé|inviato|enviado|verzonden|skickat|sendt|datum|data|"
    r"отправлено|дата|gönderildi|elküldve|lähetetty|发送时间|日期|寄件日期|送信日時|to|an|à|"
    r"a|para|aan|till|til|do|кому)\s*:", re.IGNORECASE)
#: The verbs of attribution lines ("… wrote:") in the languages players write in.
_WROTE = (r"wrote|writes|has\s+written|schrieb|hat\s+geschrieben|geschrieben|skrev|skrifaði|"
          r"написал\(а\)|написала|написал|пишет|написа|a\s+écrit|a\s+ecrit|écrit|escribió|"
          r"escribio|escribe|ha\s+escrito|scrive|schrijft|skriver|skrive|pisze|píše|ha\s+scritto|scrisse|schreef|heeft\s+geschreven|"
          r"napisał\(a\)|napisała|napisał|napsal\(a\)|napsala|napsal|napísal|írta|kirjoitti|"
          r"escreveu|έγραψε|yazdı|kirjutas|rašė|rakstīja|a\s+scris|je\s+napisao|je\s+napisal|"
          r"寫道|写道|書きました|書き込みました|のメール|작성|כתב|كتب|نوشت|"
          # The Bat!'s "Вы писали 3 декабря 2026 г., 17:50:31:", "Sie schrieben am …:", …
          r"писали|писал|писала|писав|schrieben|schriebst|hai\s+scritto|avete\s+scritto|"
          r"escribiste|escribieron|schreef|skrev|napisałeś|napisałaś")
#: After the verb: a date and a time, whose colons are no end ("17:50:31:").
_ATTRIBUTION_VERB_END = re.compile(rf"(?:{_WROTE})(?:[^:\n]|(?<=\d):(?=\d)){{0,80}}:\s*$",
                                   re.IGNORECASE)
#: A line ending in a colon that holds a time or a year: an attribution in any wording when a
#: quote follows it (The Bat!'s "W liście datowanym 3 grudnia 2026 (17:50:31) można przeczytać:").
_DATED_INTRODUCTION = re.compile(r"(?:\b\d{1,2}[:.]\d{2}\b|\b(?:19|20)\d{2}\b).*:\s*$")
#: "Turnpost <play+…@…>:" and "… (<play+…>) …:" — an address in brackets before the final colon.
_ADDRESS_END = re.compile(r"<?[^<>\s]+@[^<>\s]+>\)?[^:<>\n]{0,80}:\s*$")
#: Attribution openings in many languages, for lines a client wrapped before the verb.
_ATTRIBUTION_START = re.compile(
    r"^(?:(?:on|le|am|el|il|il\s+giorno|op|den|på|em|w\s+dniu|dne|в)\s"
    r"|\d{1,4}[./年-]\s?\d{1,2}|\d{1,2}\.?\s+[^\W\d_]+\.?,?\s+\d{2,4})",
    re.IGNORECASE)
#: An attribution's wrapped first part: ends with an opened "<" or a comma, or holds a time.
_WRAPPED_HEAD = re.compile(r"(?:<|,)\s*$|\b\d{1,2}:\d{2}\b")
_PGP_BEGIN = re.compile(r"^-----BEGIN\s+PGP\s+SIGNED\s+MESSAGE-----\s*$", re.IGNORECASE)
_PGP_HASH = re.compile(r"^Hash:\s*\S+\s*$", re.IGNORECASE)
#: Format characters that change nothing a player means: zero-width characters, soft hyphens,
#: bidi marks and embeddings (a Persian or Hebrew line wrapped in them), variation selectors and
#: the keycap combiner ("2️⃣" is "2").
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b"
                                    "\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff"
                                    "\ufe0e\ufe0f\u20e3"), None)
#: A greeting before the answer ("Hi,", "Hello Turnpost", "Здравствуйте!"): a greeting word,
#: at most three more words (a name), no digits.
_GREETING = re.compile(
    r"^(?:hi|hey|hello|hallo|hello\s+there|dear|good\s+(?:morning|afternoon|evening|day)|"
    r"moin|servus|grüß\s+gott|guten\s+(?:morgen|tag|abend)|liebe[rs]?|sehr\s+geehrte[rs]?|"
    r"bonjour|bonsoir|salut|coucou|cher|chère|ciao|salve|buongiorno|buonasera|hola|"
    r"buenos\s+días|buenas(?:\s+tardes|\s+noches)?|olá|ola|oi|bom\s+dia|boa\s+tarde|hej|hejsan|"
    r"hallå|god\s+(?:morgon|dag)|hoi|dag|goedemorgen|goedemiddag|beste|cześć|dzień\s+dobry|"
    r"witam|witaj|ahoj|dobrý\s+den|szia|sziasztok|helló|jó\s+napot|здравствуйте|здравствуй|привет|"
    r"добрый\s+(?:день|вечер)|доброе\s+утро|вітаю|привіт|γεια(?:\s+σας)?|merhaba|selam|"
    r"سلام|مرحبا|درود|שלום|こんにちは|こんばんは|おはようございます|お世話になっております|"
    r"你好|您好|大家好|안녕하세요)(?:[\s,!.:;\-–—]+[^\d\s]+){0,3}[\s,!.:;\-–—]*$",
    re.IGNORECASE)
#: The text handed to mail-parser-reply at most (its patterns backtrack; the answer is near
#: the top or right after the quote of a turn email, which is far shorter).
_LIBRARY_TEXT_MAX = 30_000
_LIBRARY_LANGUAGES = [language for language in MAIL_LANGUAGES if len(language) == 2]
_REPLY_PARSER = EmailReplyParser(languages=_LIBRARY_LANGUAGES)
#: "Key: value" lines of a header block that mail-parser-reply found.
_HEADER_LINE = re.compile(r"^[*\s>]*[^\s:]{1,20}(?:\s[^\s:]{1,20})?\s*:")


@dataclass
class ReplyText:
    #: The player's own lines, in order, blank lines dropped.
    lines: list[str] = field(default_factory=list)
    #: Which body the lines came from ("text" or "html").
    source: str = "text"

    @property
    def first_line(self) -> str:
        """The answer: the first own line that is not a greeting."""
        for line in self.lines:
            if not _GREETING.match(line):
                return line
        return ""


# ---- bodies -------------------------------------------------------------------------------------


def _body(message: AnymailInboundMessage, content_type: str) -> str | None:
    for part in text_parts(message):
        if part.content_type == content_type:
            return part.decoded_text()
    return None


#: Written where an HTML reply's quoted original begins (Outlook's header block): a stop line.
_HTML_END = "\n________________________________\n"


class _HTMLText(HTMLParser):
    """HTML to plain lines, leaving out quoted originals (blockquote, Gmail/Outlook/Thunderbird/
    Yahoo/Proton/Apple quote containers), signatures, and anything invisible; Outlook's header
    block of the original (after which the original follows unquoted) ends the text."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
              "ul", "ol", "section", "article", "header", "footer"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}
    HIDDEN_TAGS = {"head", "style", "script", "title", "blockquote", "template"}
    HIDDEN_MARKERS = ("gmail_quote", "gmail_attr", "gmail_signature", "moz-cite-prefix",
                      "moz-signature", "yahoo_quoted", "protonmail_quote", "signature",
                      "applemailsignature", "quote")
    #: Containers after which only the original follows (Outlook desktop, web and mobile).
    END_MARKERS = ("divrplyfwdmsg", "appendonsend", "outlookmessageheader",
                   "reference-message-container", "mail-editor-reference-message")
    #: Outlook desktop's header block: a paragraph container with a top border.
    BORDER_TOP = re.compile(r"border-top\s*:\s*(?:solid|[^;]*\bsolid\b)", re.IGNORECASE)

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []
        self.ended = False
        self.preformatted = 0

    @property
    def hidden(self) -> bool:
        return self.ended or any(hidden for _, hidden in self.stack)

    def _end(self) -> None:
        if not self.hidden:
            self.parts.append(_HTML_END)
        self.ended = True

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        marker = f"{attributes.get('class', '')} {attributes.get('id', '')}".lower()
        if any(end in marker for end in self.END_MARKERS) or (
                tag in ("div", "p") and self.BORDER_TOP.search(attributes.get("style", ""))):
            self._end()
        hidden = tag in self.HIDDEN_TAGS or any(m in marker for m in self.HIDDEN_MARKERS) or (
            "display:none" in attributes.get("style", "").replace(" ", "").lower())
        if tag == "hr" and not self.hidden:
            # Outlook separates the original with a rule: it ends the player's text.
            self._end()
        if tag in self.BLOCKS and not self.hidden:
            self.parts.append("\n")
        if tag == "pre":
            self.preformatted += 1
        if tag not in self.VOID:
            self.stack.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if tag == "pre":
            self.preformatted = max(self.preformatted - 1, 0)
        # Close up to the matching open tag; stray end tags are ignored.
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if tag in self.BLOCKS and not self.hidden:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            # Source line breaks are spaces in HTML (a wrapped attribution stays one line).
            self.parts.append(data if self.preformatted else re.sub(r"[ \t\r\n]+", " ", data))

    def text(self) -> str:
        return "".join(self.parts)


def html_to_text(html: str) -> str:
    parser = _HTMLText()
    parser.feed(html)
    parser.close()
    return parser.text()


# ---- the player's lines -------------------------------------------------------------------------


def normalised(text: str) -> str:
    """Text as a player means it: NFKC (full-width letters and digits, "：" as ":"), without
    invisible format characters (bidi marks, zero-width spaces, the keycap combiner), and
    no-break spaces as spaces."""
    text = unicodedata.normalize("NFKC", text.translate(_INVISIBLE))
    return text.translate(_INVISIBLE).replace("\u00a0", " ").replace("\u202f", " ")


def _normalise(text: str) -> list[str]:
    return [line.strip() for line in normalised(text).split("\n")]


@dataclass(frozen=True)
class _Original:
    """What the player's reply is an answer to: lines naming it are never the player's."""

    play_address: str = ""
    subject: str = ""

    def named_in(self, line: str) -> bool:
        lowered = line.lower()
        if self.subject and self.subject in lowered:
            return True
        local, _, domain = self.play_address.lower().partition("@")
        return bool(local and domain) and re.search(
            rf"{re.escape(local)}(?:\+[^@\s<>]*)?@{re.escape(domain)}", lowered) is not None


def _original_subject(subject: str) -> str:
    """The subject the reply answers, without "Re:"/"AW:"/"SV:"… prefixes; "" when too short to
    be told from an answer (a subject of "2" must not hide the line "2")."""
    subject = " ".join(normalised(subject or "").split())
    while True:
        shorter = re.sub(r"^\s*(?:re|aw|sv|vs|odp|ynt|vá|antw|wg|fw|fwd|tr|rif|res|ответ|"
                         r"回复|回覆|答复)\s*(?:\[\d+\])?\s*:\s*", "", subject, flags=re.IGNORECASE)
        if shorter == subject:
            break
        subject = shorter
    return subject.lower() if len(subject) >= 8 and re.search(r"[^\W\d_]", subject) else ""


def _located(lines: list[str], header_lines: list[str]) -> list[int]:
    """The line numbers where `header_lines` stand as whole lines (blank lines between
    allowed), or [] (the library sometimes cuts a header mid-line)."""
    for start, line in enumerate(lines):
        if line != header_lines[0]:
            continue
        numbers, index = [], start
        for wanted in header_lines:
            while index < len(lines) and not lines[index]:
                index += 1
            if index >= len(lines) or lines[index] != wanted:
                break
            numbers.append(index)
            index += 1
        else:
            return numbers
    return []


def _library_headers(lines: list[str]) -> tuple[set[int], set[int]]:
    """The line numbers of attributions and of header blocks that mail-parser-reply finds."""
    text = "\n".join(lines)[:_LIBRARY_TEXT_MAX]
    attributions: set[int] = set()
    blocks: set[int] = set()
    for reply in _REPLY_PARSER.read(text).replies:
        header_lines = [line.strip() for line in reply.headers.split("\n") if line.strip()]
        numbers = _located(lines, header_lines) if header_lines else []
        keyed = sum(bool(_HEADER_LINE.match(line)) for line in header_lines)
        (blocks if keyed >= 2 else attributions).update(numbers)
    return attributions, blocks


def _is_attribution_line(line: str, original: _Original) -> bool:
    if original.named_in(line):
        return True
    if line.startswith(">"):
        return False
    return bool(_ATTRIBUTION_VERB_END.search(line) or _ADDRESS_END.search(line))


def _is_header_block(lines: list[str], index: int) -> bool:
    if not _HEADER_FROM.match(lines[index]):
        return False
    following = [line for line in lines[index + 1:index + 4] if line]
    return bool(following) and bool(_HEADER_NEXT.match(following[0]))


def _quote_follows(lines: list[str], index: int) -> bool:
    following = next((line for line in lines[index + 1:] if line), "")
    return following.startswith(">") and not lines[index].startswith(">")


def _attributions(lines: list[str], original: _Original,
                  library: set[int]) -> set[int]:
    """Line numbers of attribution lines, with the lines a client wrapped them from ("On …,
    Turnpost <" / "play+…> wrote:")."""
    found = {index for index in library if not lines[index].startswith(">")}
    for index, line in enumerate(lines):
        if line and (_is_attribution_line(line, original)
                     or (_DATED_INTRODUCTION.search(line) and _quote_follows(lines, index))):
            found.add(index)
    for index in sorted(found):
        # Walk up the same paragraph while the lines above look like an attribution's head.
        above = index - 1
        while (above >= 0 and index - above <= 2 and lines[above]
               and not lines[above].startswith(">") and above not in found
               and (_WRAPPED_HEAD.search(lines[above])
                    or _ATTRIBUTION_START.match(lines[above]))):
            found.add(above)
            above -= 1
    return found


def own_lines(text: str, *, play_address: str = "", subject: str = "") -> list[str]:
    """The lines the player wrote. Quoted lines (">") and attributions followed by them are
    skipped wherever they are (top and bottom posting); an attribution or header block followed
    by unquoted text (Outlook, Yahoo), a signature, a forwarded original or a PGP signature ends
    the text. Lines naming `play_address` or the original `subject` are never the player's."""
    lines = _normalise(text)
    original = _Original(play_address=play_address, subject=_original_subject(subject))
    library_attributions, library_blocks = _library_headers(lines)
    attributions = _attributions(lines, original, library_attributions)
    own: list[str] = []
    signed = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line or line.startswith(">"):
            index += 1
            continue
        if _PGP_BEGIN.match(line):
            signed = True
            index += 1
            if index < len(lines) and _PGP_HASH.match(lines[index]):
                index += 1
            continue
        if signed and line.startswith("- "):
            line = line[2:].strip()  # dash-escaped line of clear-signed text (RFC 4880 7.1)
        if (_STOP_LINE.match(line) or index in library_blocks
                or _is_header_block(lines, index)):
            break
        if index in attributions:
            while index < len(lines) and (index in attributions or not lines[index]):
                index += 1
            if index < len(lines) and lines[index].startswith(">"):
                continue  # a quote follows: the player may write below it
            break  # the original follows unquoted: nothing below is the player's
        own.append(line)
        index += 1
    return own


def _plain_is_empty(text: str) -> bool:
    return not normalised(text).strip()


def reply_text(message: AnymailInboundMessage, *, play_address: str = "") -> ReplyText:
    """The player's lines from the plain-text body, or from the HTML body when there is no plain
    one or it is blank (HTML-only clients). A plain body with nothing of the player's is not
    second-guessed from the HTML: the reply has no text of its own."""
    subject = _header(message, "Subject")
    plain = _body(message, "text/plain")
    if plain is not None and not _plain_is_empty(plain):
        return ReplyText(lines=own_lines(plain, play_address=play_address, subject=subject),
                         source="text")
    html = _body(message, "text/html")
    if html is not None:
        return ReplyText(lines=own_lines(html_to_text(html), play_address=play_address,
                                         subject=subject), source="html")
    return ReplyText(lines=[], source="text")


# ---- automatic mail -----------------------------------------------------------------------------


def _header(message: AnymailInboundMessage, name: str) -> str:
    try:
        return str(message.get(name) or "")
    except (ValueError, TypeError, IndexError, LookupError):  # an undecodable header
        return ""


def from_address(message: AnymailInboundMessage) -> str:
    """The From address in lower case, or "" when it is missing or not strictly one plain
    address (see `trust.sender_of`)."""
    return sender_of(message).address


_DAEMON = re.compile(r"^(?:mailer-daemon|postmaster|no-?reply|bounces?)(?:[+@]|$)", re.IGNORECASE)
#: Headers whose mere presence marks an automatic answer (RFC 3834 and vendors' own).
_AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponse", "X-Autoresponder",
                      "X-AutoReply-From", "X-Mail-Autoreply", "X-MS-Exchange-Inbox-Rules-Loop",
                      "List-Id")
#: Out-of-office subjects in the common languages (a subject holding one is automatic).
_OUT_OF_OFFICE = re.compile(
    r"automatic\s+reply|auto[\s-]?reply|autoreply|auto[\s-]?response|out\s+of\s+(?:the\s+)?office|"
    r"\bOOO\b|on\s+vacation|away\s+from\s+(?:the\s+)?office|"
    r"automatische\s+antwort|abwesenheitsnotiz|abwesenheit|außer\s+haus|"
    r"réponse\s+automatique|absence\s+du\s+bureau|\babsent(?:e)?\b|"
    r"risposta\s+automatica|fuori\s+(?:sede|ufficio)|"
    r"respuesta\s+automática|respuesta\s+automatica|fuera\s+de\s+la\s+oficina|"
    r"resposta\s+automática|ausente|automatisch\s+antwoord|afwezig(?:heid)?|"
    r"automatiskt\s+svar|automatisk\s+svar|autosvar|frånvaro|fravær|"
    r"automaattinen\s+vastaus|poissa|automatyczna\s+odpowiedź|nieobecność|"
    r"automatická\s+odpověď|nepřítomnost|automatikus\s+válasz|házon\s+kívül|"
    r"otomatik\s+yanıt|ofis\s+dışında|αυτόματη\s+απάντηση|"
    r"автоответ|автоматический\s+ответ|нет\s+на\s+месте|вне\s+офиса|в\s+отпуске|"
    r"自动回复|自動回覆|自動回復|自動応答|自動返信|不在|외부\s*출타|자동\s*회신|자동\s*응답|"
    r"رد\s+تلقائي|پاسخ\s+خودکار|תשובה\s+אוטומטית",
    re.IGNORECASE)
_REPORT_TYPES = ("message/delivery-status", "message/global-delivery-status",
                 "message/disposition-notification", "message/feedback-report")


def _is_report(message: AnymailInboundMessage) -> bool:
    if message.get_content_type() == "multipart/report":
        return True
    return any(part.get_content_type() in _REPORT_TYPES for part in message.walk())


def automatic_reason(message: AnymailInboundMessage, *, own_addresses: list[str]) -> str | None:
    """Why this message is automatic or spam and must not be answered (spam, mail loops, bounces,
    out-of-office replies, list mail), or None for mail written by a person (or with no From
    address we can trust, which the caller refuses)."""
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
    # List mail carries List-Id; Exchange's rule-made answers carry its rules loop header.
    if any(message.get(name) is not None for name in _AUTOMATIC_HEADERS):
        return "auto_reply"
    # Exchange's out-of-office replies ask for no answer to themselves ("All"), often without
    # Auto-Submitted. Outlook puts "DR, RN, NRN, OOF, AutoReply" on mail its user writes, so
    # that value alone is no sign (the subject, checked next, usually is).
    if _header(message, "X-Auto-Response-Suppress").strip().lower() == "all":
        return "auto_reply"
    if _OUT_OF_OFFICE.search(normalised(_header(message, "Subject"))):
        return "auto_reply"
    return_path = message.get("Return-Path")
    if return_path is not None and return_path.strip() in ("<>", ""):
        return "bounce"
    if _is_report(message):
        return "bounce"  # delivery-status notices, read receipts, abuse reports
    address = from_address(message)
    if address and _DAEMON.match(address):
        return "bounce"
    if address and address in own_addresses:
        return "loop"
    return None
