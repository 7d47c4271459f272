"""How each mail client lays out an answer, built as real RFC 822 bytes with the standard
library's email package (so every charset and transfer encoding is the real one): where the
player's text goes, the attribution in the client's words for each language, and how the
original is quoted in the text part and marked up in the HTML part.

The layouts follow the fixtures of public reply-parser test suites (mailgun/talon,
github/email_reply_parser, alfonsrv/mail-parser-reply) and the clients' documented output:
Gmail's `gmail_quote` container and its attribution wrapped before the address, Apple's
`blockquote type="cite"` with a date-first attribution, Outlook's unquoted original under a
"From:/Sent:" block (a `border-top` paragraph on the desktop, `divRplyFwdMsg` after a rule on
the web and on phones), Thunderbird's `moz-cite-prefix`, Yahoo's unquoted `yahoo_quoted`
original, Proton's `protonmail_quote`, K-9's plain text, Samsung's "Original message" block and
The Bat!'s greeting and "you wrote" line with a time to the second above its quote.
"""

from __future__ import annotations

import html as html_lib
from dataclasses import dataclass
from email import message_from_string, policy
from email.message import EmailMessage
from email.utils import make_msgid

NAME = "Turnpost"

#: Attribution lines, per client family and language ({address}: the play address answered).
ATTRIBUTIONS: dict[str, dict[str, str]] = {
    "gmail": {
        "en": "On Thu, Dec 3, 2026 at 5:50 PM Turnpost <{address}> wrote:",
        "de": "Am Do., 3. Dez. 2026 um 17:50 Uhr schrieb Turnpost <{address}>:",
        "fr": "Le jeu. 3 déc. 2026 à 17:50, Turnpost <{address}> a écrit :",
        "es": "El jue, 3 dic 2026 a las 17:50, Turnpost (<{address}>) escribió:",
        "it": "Il giorno gio 3 dic 2026 alle ore 17:50 Turnpost <{address}> ha scritto:",
        "nl": "Op do 3 dec 2026 om 17:50 schreef Turnpost <{address}>:",
        "sv": "Den tors 3 dec. 2026 kl 17:50 skrev Turnpost <{address}>:",
        "pl": "czw., 3 gru 2026 o 17:50 Turnpost <{address}> napisał(a):",
        "hu": "Turnpost <{address}> ezt írta (időpont: 2026. dec. 3., Cs, 17:50):",
        "ru": "чт, 3 дек. 2026 г. в 17:50, Turnpost <{address}>:",
        "ja": "2026年12月3日(木) 17:50 Turnpost <{address}>:",
        "zh": "Turnpost <{address}> 于2026年12月3日周四 17:50写道：",
        "zh-tw": "Turnpost <{address}> 於 2026年12月3日 週四 下午5:50寫道：",
        "pt": "Em qui., 3 de dez. de 2026 às 17:50, Turnpost <{address}> escreveu:",
        "ko": "2026년 12월 3일 (목) 오후 5:50, Turnpost <{address}>님이 작성:",
        "fa": "در تاریخ پنجشنبه ۳ دسامبر ۲۰۲۶ ساعت ۱۷:۵۰ Turnpost <{address}> نوشت:",
    },
    "gmail_android": {
        "en": "On Thu, 3 Dec 2026, 17:50 Turnpost, <{address}> wrote:",
        "de": "Turnpost <{address}> schrieb am Do., 3. Dez. 2026, 17:50:",
        "es": "El jue., 3 dic. 2026 17:50, Turnpost <{address}> escribió:",
    },
    "apple": {
        "en": "On 3 Dec 2026, at 17:50, Turnpost <{address}> wrote:",
        "ru": "3 дек. 2026 г., в 17:50, Turnpost <{address}> написал(а):",
        "sv": "3 dec. 2026 kl. 17:50 skrev Turnpost <{address}>:",
        "de": "Am 03.12.2026 um 17:50 schrieb Turnpost <{address}>:",
        "fr": "Le 3 déc. 2026 à 17:50, Turnpost <{address}> a écrit :",
        "ja": "2026/12/03 17:50、Turnpost <{address}>のメール:",
        "zh": "2026年12月3日 17:50，Turnpost <{address}> 写道：",
        "nl": "Op 3 dec. 2026 om 17:50 heeft Turnpost <{address}> het volgende geschreven:",
        "it": "Il giorno 3 dic 2026, alle ore 17:50, Turnpost <{address}> ha scritto:",
        "es": "El 3 dic 2026, a las 17:50, Turnpost <{address}> escribió:",
        "pl": "Wiadomość napisana przez Turnpost <{address}> w dniu 3.12.2026, o godz. 17:50:",
        "da": "Den 3. dec. 2026 kl. 17.50 skrev Turnpost <{address}>:",
    },
    # Thunderbird names the sender without an address.
    "thunderbird": {
        "en": "On 12/3/26 17:50, Turnpost wrote:",
        "de": "Am 03.12.26 um 17:50 schrieb Turnpost:",
        "ru": "03.12.2026 17:50, Turnpost пишет:",
        "hu": "2026. 12. 03. 17:50 keltezéssel, Turnpost írta:",
        "pl": "W dniu 3.12.2026 o 17:50, Turnpost pisze:",
        "ja": "2026/12/03 17:50, Turnpost さんは書きました:",
        "nl": "Op 03-12-2026 om 17:50 schreef Turnpost:",
        "cs": "Dne 03. 12. 26 v 17:50 Turnpost napsal(a):",
    },
    "yahoo": {
        "en": "On Thursday, December 3, 2026 at 05:50:00 PM GMT+1, Turnpost <{address}> wrote:",
        "de": "Am Donnerstag, 3. Dezember 2026 um 17:50:00 MEZ hat Turnpost <{address}> "
              "Folgendes geschrieben:",
        "fr": "Le jeudi 3 décembre 2026 à 17:50:00 UTC+1, Turnpost <{address}> a écrit :",
    },
    "proton": {
        "en": "On Thursday, December 3rd, 2026 at 17:50, Turnpost <{address}> wrote:",
    },
    "k9": {
        "en": "On December 3, 2026 5:50:00 PM GMT+01:00, Turnpost <{address}> wrote:",
        "de": "Am 3. Dezember 2026 17:50:00 MEZ schrieb Turnpost <{address}>:",
    },
}

#: Outlook's and Samsung's header block above the unquoted original: From, Sent (Date), To,
#: Subject labels and the date, per language.
HEADER_LABELS: dict[str, tuple[str, str, str, str, str]] = {
    "en": ("From", "Sent", "To", "Subject", "Thursday, December 3, 2026 5:50 PM"),
    "de": ("Von", "Gesendet", "An", "Betreff", "Donnerstag, 3. Dezember 2026 17:50"),
    "fr": ("De", "Envoyé", "À", "Objet", "jeudi 3 décembre 2026 17:50"),
    "es": ("De", "Enviado", "Para", "Asunto", "jueves, 3 de diciembre de 2026 17:50"),
    "it": ("Da", "Inviato", "A", "Oggetto", "giovedì 3 dicembre 2026 17:50"),
    "nl": ("Van", "Verzonden", "Aan", "Onderwerp", "donderdag 3 december 2026 17:50"),
    "ru": ("От", "Отправлено", "Кому", "Тема", "3 декабря 2026 г. 17:50"),
    "pl": ("Od", "Wysłane", "Do", "Temat", "czwartek, 3 grudnia 2026 17:50"),
    "ja": ("差出人", "送信日時", "宛先", "件名", "2026年12月3日 17:50"),
    "zh": ("发件人", "发送时间", "收件人", "主题", "2026年12月3日 17:50"),
    "sv": ("Från", "Skickat", "Till", "Ämne", "den 3 december 2026 17:50"),
    "hu": ("Feladó", "Elküldve", "Címzett", "Tárgy", "2026. december 3., csütörtök 17:50"),
}
SAMSUNG_LABELS: dict[str, tuple[str, str, str, str, str, str]] = {
    # original-message rule, From, Date, To, Subject, footer
    "en": ("-------- Original message --------", "From", "Date", "To", "Subject",
           "Sent from my Galaxy"),
    "de": ("-------- Ursprüngliche Nachricht --------", "Von", "Datum", "An", "Betreff",
           "Von meinem Samsung Galaxy Smartphone gesendet."),
    "ru": ("-------- Исходное сообщение --------", "От", "Дата", "Кому", "Тема",
           "Отправлено с устройства Galaxy"),
}
#: How clients prefix the subject of an answer, per language.
SUBJECT_PREFIX = {"en": "Re: ", "de": "AW: ", "fr": "RE : ", "es": "RE: ", "it": "R: ",
                  "nl": "RE: ", "sv": "SV: ", "pl": "Odp: ", "ru": "RE: ", "ja": "RE: ",
                  "zh": "回复：", "zh-tw": "回覆：", "hu": "Re: ", "pt": "Re: ", "ko": "RE: ",
                  "fa": "Re: ", "da": "SV: ", "cs": "Re: "}


@dataclass(frozen=True)
class Original:
    """The turn email being answered, as the client sees it."""

    subject: str
    text: str
    address: str
    sender: str

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


@dataclass(frozen=True)
class Parts:
    text: str | None
    html: str | None


def _esc(text: str) -> str:
    return html_lib.escape(text, quote=False)


def _divs(lines: list[str]) -> str:
    return "".join(f"<div>{_esc(line) if line.strip() else '<br>'}</div>" for line in lines)


def _gt(lines: list[str]) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def _wrap_attribution(line: str, width: int = 78) -> str:
    """Gmail and others wrap a long attribution before the address ("… Turnpost <" /
    "play+…@…>:")."""
    if len(line) <= width or " <" not in line:
        return line
    head, _, tail = line.partition(" <")
    return f"{head} <\n{tail}"


def _own(own: str) -> list[str]:
    return own.split("\n") if own else []


def _header_block(language: str, original: Original, *, bold: bool = False) -> list[str]:
    sender, sent, to, subject, date = HEADER_LABELS[language]
    colon = " :" if language == "fr" else ":"
    values = [(sender, f"{NAME} <{original.address}>"), (sent, date),
              (to, f"Bob <{original.sender}>"), (subject, original.subject)]
    if bold:
        return [f"<b>{_esc(label)}{colon}</b> {_esc(value)}" for label, value in values]
    return [f"{label}{colon} {value}" for label, value in values]


# ---- the clients ---------------------------------------------------------------------------------


def gmail(own: str, language: str, original: Original, *, bottom: bool = False,
          family: str = "gmail") -> Parts:
    attribution = ATTRIBUTIONS[family][language].format(address=original.address)
    quote = _gt(original.lines)
    wrapped = _wrap_attribution(attribution)
    mine = "\n".join(_own(own))
    text = (f"{wrapped}\n\n{quote}\n\n{mine}\n" if bottom else
            f"{mine}\n\n{wrapped}\n\n{quote}\n")
    quote_html = (f'<div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
                  f"{_esc(attribution)}<br></div><blockquote class=\"gmail_quote\" "
                  f'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);'
                  f'padding-left:1ex">{_divs(original.lines)}</blockquote>')
    if bottom:
        body = f'<div dir="ltr">{quote_html}{_divs(_own(own))}</div></div>'
    else:
        body = f'<div dir="ltr">{_divs(_own(own))}</div><br>{quote_html}</div>'
    return Parts(text, body)


def gmail_android(own: str, language: str, original: Original, **options) -> Parts:
    return gmail(own, language, original, family="gmail_android", **options)


def apple(own: str, language: str, original: Original, *, bottom: bool = False,
          old: bool = False) -> Parts:
    """iOS Mail puts the attribution in a blockquote of its own; older macOS Mail in a div
    above the quote (its text part quotes with "> " either way)."""
    attribution = ATTRIBUTIONS["apple"][language].format(address=original.address)
    mine = "\n".join(_own(own))
    quote = _gt(original.lines)
    text = (f"{attribution}\n\n{quote}\n\n{mine}\n" if bottom else
            f"{mine}\n\n{attribution}\n\n{quote}\n")
    own_html = "".join(f'<div dir="ltr">{_esc(line)}</div>' for line in _own(own))
    if old:
        quote_html = (f"<div><br><div>{_esc(attribution)}</div><br "
                      f'class="Apple-interchange-newline"><blockquote type="cite">'
                      f"{_divs(original.lines)}</blockquote></div>")
    else:
        quote_html = (f'<div dir="ltr"><br><blockquote type="cite">{_esc(attribution)}<br><br>'
                      f'</blockquote></div><blockquote type="cite"><div dir="ltr">'
                      f"{_divs(original.lines)}</div></blockquote>")
    body = quote_html + own_html if bottom else own_html + quote_html
    return Parts(text, f'<html><head><meta http-equiv="content-type" content="text/html; '
                       f'charset=utf-8"></head><body dir="auto">{body}</body></html>')


def outlook(own: str, language: str, original: Original, **_options) -> Parts:
    """Outlook for Windows/Mac: the original unquoted under a header block; in HTML, the block
    is a paragraph container with a top border."""
    mine = "\n".join(_own(own))
    block = "\n".join(_header_block(language, original))
    text = f"{mine}\n\n{block}\n\n{original.text}\n"
    paragraphs = "".join(f'<p class="MsoNormal">{_esc(line) or "&nbsp;"}</p>'
                         for line in _own(own))
    header = "<br>".join(_header_block(language, original, bold=True))
    rest = "".join(f'<p class="MsoNormal">{_esc(line) or "&nbsp;"}</p>'
                   for line in original.lines)
    body = (f'<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>'
            f"p.MsoNormal {{margin:0cm;}}</style></head><body lang=\"DE\">"
            f'<div class="WordSection1">{paragraphs}<p class="MsoNormal">&nbsp;</p>'
            f'<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
            f'<p class="MsoNormal">{header}</p></div><p class="MsoNormal">&nbsp;</p>{rest}'
            f"</div></body></html>")
    return Parts(text, body)


def outlook_web(own: str, language: str, original: Original, *, mobile: str = "",
                **_options) -> Parts:
    """Outlook on the web (and, with `mobile` naming the phone, Outlook for iOS/Android): a
    rule, then the header block in `divRplyFwdMsg`, then the original unquoted."""
    mine = "\n".join(_own(own))
    footer = f"\n\nGet Outlook for {mobile}<https://aka.ms/o0ukef>" if mobile else ""
    block = "\n".join(_header_block(language, original))
    text = f"{mine}{footer}\n________________________________\n{block}\n\n{original.text}\n"
    signature = (f'<div id="ms-outlook-mobile-signature"><div dir="ltr">Get '
                 f'<a href="https://aka.ms/o0ukef">Outlook for {mobile}</a></div></div>'
                 if mobile else "")
    header = "<br>".join(_header_block(language, original, bold=True))
    body = (f'<html><head></head><body><div dir="ltr">{_divs(_own(own))}</div>{signature}'
            f'<div id="appendonsend"></div><hr style="display:inline-block;width:98%" '
            f'tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" '
            f'style="font-size:11pt" color="#000000">{header}</font><div>&nbsp;</div></div>'
            f"{_divs(original.lines)}</body></html>")
    return Parts(text, body)


def outlook_mobile(own: str, language: str, original: Original, **options) -> Parts:
    return outlook_web(own, language, original, mobile="iOS", **options)


def thunderbird(own: str, language: str, original: Original, *, bottom: bool = False,
                plain_only: bool = False) -> Parts:
    attribution = ATTRIBUTIONS["thunderbird"][language]
    mine = "\n".join(_own(own))
    quote = _gt(original.lines)
    text = (f"{attribution}\n{quote}\n\n{mine}\n" if bottom else
            f"{mine}\n\n{attribution}\n{quote}\n")
    if plain_only:
        return Parts(text, None)
    quote_html = (f'<div class="moz-cite-prefix">{_esc(attribution)}<br></div>'
                  f'<blockquote type="cite" cite="mid:turn@turnpost">'
                  f"{_divs(original.lines)}</blockquote>")
    own_html = "".join(f"<p>{_esc(line)}</p>" for line in _own(own))
    body = quote_html + own_html if bottom else own_html + quote_html
    return Parts(text, f"<!DOCTYPE html><html><head></head><body>{body}</body></html>")


def yahoo(own: str, language: str, original: Original, **_options) -> Parts:
    """Yahoo quotes nothing with ">": the original follows its attribution, indented."""
    attribution = ATTRIBUTIONS["yahoo"][language].format(address=original.address)
    mine = "\n".join(_own(own))
    indented = "\n".join(f" {line}" for line in original.lines)
    text = f"{mine}\n\n\n    {attribution}  \n \n \n{indented}\n"
    body = (f'<html><head></head><body><div class="ydp3f1 yahoo-style-wrap">'
            f'{_divs(_own(own))}</div><div id="yahoo_quoted_8812" class="yahoo_quoted">'
            f'<div style="font-family:Helvetica"><div>{_esc(attribution)}</div><div><br></div>'
            f'<div><div id="yiv8812">{_divs(original.lines)}</div></div></div></div>'
            f"</body></html>")
    return Parts(text, body)


def proton(own: str, language: str, original: Original, **_options) -> Parts:
    attribution = ATTRIBUTIONS["proton"][language].format(address=original.address)
    mine = "\n".join(_own(own))
    text = (f"{mine}\n\n\nSent with Proton Mail secure email.\n\n{attribution}\n\n"
            f"{_gt(original.lines)}\n")
    body = (f'<div style="font-family: Arial">{_divs(_own(own))}</div>'
            f'<div class="protonmail_signature_block"><div>Sent with Proton Mail secure '
            f'email.</div></div><div class="protonmail_quote">{_esc(attribution)}<br><br>'
            f'<blockquote class="protonmail_quote" type="cite">{_divs(original.lines)}'
            f"</blockquote><br></div>")
    return Parts(text, body)


def k9(own: str, language: str, original: Original, *, bottom: bool = False) -> Parts:
    """K-9 Mail (Thunderbird for Android): plain text only, with its footer."""
    attribution = ATTRIBUTIONS["k9"][language].format(address=original.address)
    mine = "\n".join(_own(own))
    footer = "-- \nSent from my Android device with K-9 Mail. Please excuse my brevity."
    quote = _gt(original.lines)
    text = (f"{attribution}\n{quote}\n\n{mine}\n{footer}\n" if bottom else
            f"{mine}\n{footer}\n\n{attribution}\n{quote}\n")
    return Parts(text, None)


#: The Bat!'s reply template per language: its greeting, then "you wrote" with the date and a
#: time to the second, then the quote ("> ") and the cursor below it, then its signature.
THE_BAT = {
    "en": ("Hello Turnpost,", "You wrote 3 December 2026, 17:50:31:", "Best regards,"),
    "ru": ("Здравствуйте, Turnpost.", "Вы писали 3 декабря 2026 г., 17:50:31:",
           "С уважением,"),
    "uk": ("Вітаю, Turnpost.", "Ви писали 3 грудня 2026 р., 17:50:31:", "З повагою,"),
    "de": ("Hallo Turnpost,", "am 3. Dezember 2026 um 17:50:31 schrieben Sie:",
           "Mit freundlichen Grüßen"),
    "it": ("Ciao Turnpost,", "il 3 dicembre 2026 alle 17:50:31 hai scritto:", "Cordiali saluti,"),
    "fr": ("Bonjour Turnpost,", "Le 3 décembre 2026 à 17:50:31, vous avez écrit :",
           "Cordialement,"),
    "es": ("Hola Turnpost,", "El 3 de diciembre de 2026, a las 17:50:31, escribiste:",
           "Saludos,"),
    "pl": ("Witaj Turnpost,",
           "W Twoim liście datowanym 3 grudnia 2026 (17:50:31) można przeczytać:", "Pozdrawiam,"),
}


def the_bat(own: str, language: str, original: Original, *, bottom: bool = True) -> Parts:
    """The Bat! (Ritlabs): plain text, a localized greeting and attribution above the quote."""
    greeting, attribution, regards = THE_BAT[language]
    mine = "\n".join(_own(own))
    quote = _gt(original.lines)
    signature = f"-- \n{regards}\n Bob"
    text = (f"{greeting}\n\n{attribution}\n\n{quote}\n\n{mine}\n\n{signature}\n" if bottom
            else f"{greeting}\n\n{mine}\n\n{attribution}\n\n{quote}\n\n{signature}\n")
    return Parts(text, None)


def samsung(own: str, language: str, original: Original, **_options) -> Parts:
    rule, sender, date, to, subject, footer = SAMSUNG_LABELS[language]
    mine = "\n".join(_own(own))
    values = [(sender, f"{NAME} <{original.address}> "), (date, "03.12.2026 17:50 (GMT+01:00) "),
              (to, f"Bob <{original.sender}> "), (subject, f"{original.subject} ")]
    block = "\n".join(f"{label}: {value}" for label, value in values)
    text = f"{mine}\n\n\n\n{footer}\n\n\n{rule}\n{block}\n\n{original.text}\n"
    header = "".join(f"<div>{_esc(label)}: {_esc(value)}</div>" for label, value in values)
    body = (f'<html><head></head><body><div dir="auto">{_divs(_own(own))}</div>'
            f'<div dir="auto"><br></div><div id="composer_signature" dir="auto"><div '
            f'style="font-size:85%;color:#575757" dir="auto">{_esc(footer)}</div></div>'
            f'<div dir="auto"><br></div><div align="left" dir="auto" '
            f'style="font-size:100%;color:#000000"><div>{_esc(rule)}</div>{header}'
            f"<div><br></div></div>{_divs(original.lines)}</body></html>")
    return Parts(text, body)


def plain(own: str, language: str, original: Original, **_options) -> Parts:
    """An automatic answer or a bare note: just the text."""
    return Parts(own + "\n", None)


CLIENTS = {
    "gmail": gmail, "gmail_android": gmail_android, "apple": apple, "outlook": outlook,
    "outlook_web": outlook_web, "outlook_mobile": outlook_mobile, "thunderbird": thunderbird,
    "yahoo": yahoo, "proton": proton, "k9": k9, "samsung": samsung, "the_bat": the_bat,
    "plain": plain,
}


# ---- the message --------------------------------------------------------------------------------


def _encodable(text: str, charset: str) -> str:
    """What a client in `charset` can send of `text` (it writes "?" for the rest)."""
    return text.encode(charset, errors="replace").decode(charset)


def message(*, client: str, own: str, language: str, original: Original, charset: str = "utf-8",
            cte: str | None = None, html: bool = True, text: bool = True,
            headers: tuple[tuple[str, str], ...] = (), subject: str | None = None,
            sender_name: str = "Bob", options: dict | None = None) -> bytes:
    """One answer to `original` as `client` writes it, encoded in `charset`."""
    parts = CLIENTS[client](own, language, original, **(options or {}))
    body_text = _encodable(parts.text, charset) if parts.text is not None and text else None
    body_html = _encodable(parts.html, charset) if parts.html is not None and html else None
    mail = EmailMessage(policy=policy.SMTP)
    mail["From"] = f"{sender_name} <{original.sender}>"
    mail["To"] = f"{NAME} <{original.address}>"
    mail["Subject"] = subject if subject is not None else (
        SUBJECT_PREFIX.get(language, "Re: ") + original.subject)
    mail["Date"] = "Thu, 03 Dec 2026 17:55:00 +0100"
    mail["Message-ID"] = make_msgid(domain="client.example.net")
    mail["MIME-Version"] = "1.0"
    for name, value in headers:
        mail[name] = value
    if body_text is not None:
        mail.set_content(body_text, charset=charset, cte=cte)
        if body_html is not None:
            mail.add_alternative(body_html, subtype="html", charset=charset, cte=cte)
    elif body_html is not None:
        mail.set_content(body_html, subtype="html", charset=charset, cte=cte)
    return mail.as_bytes()


def delivery_report(original: Original, *, report_type: str = "delivery-status",
                    sender: str = "Mail Delivery System <MAILER-DAEMON@mx.example.net>",
                    own: str = "This is the mail system at host mx.example.net.") -> bytes:
    """A bounce or read receipt (RFC 3464/8098 multipart/report), parsed back by the standard
    library so its structure is checked, then written out."""
    subject = ("Undelivered Mail Returned to Sender" if report_type == "delivery-status"
               else f"Read: {original.subject}")
    fields = ("Reporting-MTA: dns; mx.example.net\n\nFinal-Recipient: rfc822; "
              f"{original.sender}\nAction: failed\nStatus: 5.1.1\n"
              if report_type == "delivery-status" else
              "Reporting-UA: mail.example.net; Mail\nFinal-Recipient: rfc822; "
              f"{original.sender}\nDisposition: manual-action/MDN-sent-manually; displayed\n")
    raw = (f"From: {sender}\nTo: {NAME} <{original.address}>\nSubject: {subject}\n"
           f"Message-ID: {make_msgid(domain='mx.example.net')}\n"
           "Date: Thu, 03 Dec 2026 17:55:00 +0100\nMIME-Version: 1.0\n"
           f'Content-Type: multipart/report; report-type={report_type}; boundary="rpt"\n\n'
           f"--rpt\nContent-Type: text/plain; charset=utf-8\n\n{own}\n\n2\n\n"
           f"--rpt\nContent-Type: message/{report_type}\n\n{fields}\n--rpt--\n")
    report = message_from_string(raw, policy=policy.SMTP)
    assert report.get_content_type() == "multipart/report" and not report.defects
    return report.as_bytes()
