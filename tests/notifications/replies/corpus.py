"""The corpus: answers to a turn email of the toy game (choices 1–3, "Seat 1 bid N.") as real
clients write them, each with the outcome it must have:

- ("played", N): choice N is played, nothing else;
- "asked": a short question listing the candidates comes back, nothing is played;
- "refused": nothing is played and the player is told why (no text of their own, unreadable);
- "dropped": automatic mail, recorded and not answered.

Formats (attributions, quote markup, header blocks, auto-reply headers) are facts taken from
public reply-parser test suites and the clients' own output; the texts are written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PLAYED, ASKED, REFUSED, DROPPED = "played", "asked", "refused", "dropped"


@dataclass(frozen=True)
class Case:
    id: str
    client: str
    language: str
    #: The player's own text; "{player}" stands for their display name (a copied choice line).
    own: str
    expected: str
    choice: int | None = None
    charset: str = "utf-8"
    cte: str | None = None
    options: dict = field(default_factory=dict)
    headers: tuple[tuple[str, str], ...] = ()
    subject: str | None = None
    html: bool = True
    text: bool = True
    #: Built as a delivery report (multipart/report) of this type instead of a client answer.
    report: str = ""

    @property
    def layout(self) -> str:
        if self.expected == DROPPED:
            return "auto-reply"
        if not self.own:
            return "quote-only"
        return "bottom-posted" if self.options.get("bottom") else "top-posted"


def played(id: str, client: str, language: str, own: str, choice: int, **fields) -> Case:
    return Case(id, client, language, own, PLAYED, choice, **fields)


def asked(id: str, client: str, language: str, own: str, **fields) -> Case:
    return Case(id, client, language, own, ASKED, **fields)


def refused(id: str, client: str, language: str, own: str, **fields) -> Case:
    return Case(id, client, language, own, REFUSED, **fields)


def dropped(id: str, client: str, language: str, own: str, **fields) -> Case:
    return Case(id, client, language, own, DROPPED, **fields)


BOTTOM = {"bottom": True}
#: Exchange's out-of-office headers (no Auto-Submitted, as the German one in the report).
EXCHANGE_OOF = (("X-Auto-Response-Suppress", "All"), ("X-MS-Exchange-Inbox-Rules-Loop",
                                                      "bob@example.com"))

CASES: list[Case] = [
    # ---- Gmail web and Android: top and bottom posting, attribution wrapped before the address
    played("gmail-en-top", "gmail", "en", "2", 2),
    played("gmail-en-bottom", "gmail", "en", "3", 3, options=BOTTOM),
    played("gmail-de-bottom", "gmail", "de", "2", 2, options=BOTTOM, cte="quoted-printable"),
    played("gmail-ru-bottom", "gmail", "ru", "1", 1, options=BOTTOM, charset="koi8-r"),
    played("gmail-nl-bottom", "gmail", "nl", "3", 3, options=BOTTOM),
    played("gmail-hu-bottom", "gmail", "hu", "2", 2, options=BOTTOM, charset="iso-8859-2"),
    played("gmail-pl-bottom", "gmail", "pl", "1", 1, options=BOTTOM, charset="iso-8859-2"),
    played("gmail-ja-bottom", "gmail", "ja", "2番でお願いします", 2, options=BOTTOM,
           charset="iso-2022-jp"),
    played("gmail-ja-top", "gmail", "ja", "３", 3, charset="iso-2022-jp"),
    played("gmail-zh-top", "gmail", "zh", "我选2", 2, charset="gbk", cte="base64"),
    played("gmail-zh-tw-top", "gmail", "zh-tw", "我選3，謝謝", 3, charset="big5"),
    played("gmail-fr-top", "gmail", "fr", "Bonjour,\n\n1 s'il vous plaît", 1,
           charset="iso-8859-15"),
    played("gmail-es-top", "gmail", "es", "Hola\n2", 2),
    played("gmail-it-bottom", "gmail", "it", "Ciao,\n3", 3, options=BOTTOM),
    played("gmail-sv-top", "gmail", "sv", "Hej!\n\n1", 1),
    played("gmail-pt-top", "gmail", "pt", "Olá\nopção 2", 2, charset="iso-8859-1"),
    played("gmail-ko-top", "gmail", "ko", "안녕하세요\n2번", 2, charset="euc-kr"),
    played("gmail-fa-bidi", "gmail", "fa", "سلام\n\u200f\u202bگزینه ۲\u202c\u200f", 2),
    played("gmail-keycap", "gmail", "en", "2\ufe0f\u20e3", 2),
    played("gmail-greeting-name", "gmail", "en", "Hello Turnpost,\n\n3\n\nCheers, Bob", 3),
    played("gmail-android-en", "gmail_android", "en", "1", 1),
    played("gmail-android-de-bottom", "gmail_android", "de", "3", 3, options=BOTTOM),
    played("gmail-choice-line-copied", "gmail", "en", "2. {player} bid 2.", 2),
    asked("gmail-two-numbers", "gmail", "en", "5 or 8?"),
    asked("gmail-one-or-other", "gmail", "en", "2 or 3, I can't decide"),
    refused("gmail-quote-only", "gmail", "en", ""),
    refused("gmail-ru-quote-only", "gmail", "ru", "", charset="windows-1251"),
    refused("gmail-out-of-range", "gmail", "en", "7"),
    # ---- Apple Mail and iOS Mail: date-first attributions, blockquote type=cite
    played("apple-en-top", "apple", "en", "2", 2),
    played("apple-keycap", "apple", "en", "3\ufe0f\u20e3", 3),
    played("apple-de-bottom", "apple", "de", "1", 1, options=BOTTOM, cte="quoted-printable"),
    played("apple-fr-top", "apple", "fr", "2", 2, options={"old": True}),
    played("apple-ja-top", "apple", "ja", "１番", 1, charset="iso-2022-jp"),
    played("apple-zh-top", "apple", "zh", "选3", 3, charset="gb2312"),
    played("apple-pl-top", "apple", "pl", "Cześć,\n2", 2, charset="iso-8859-2"),
    played("apple-da-top", "apple", "da", "Hej\n3", 3),
    refused("apple-ru-quote-only", "apple", "ru", "", options={"old": True}),
    refused("apple-sv-quote-only", "apple", "sv", "", options={"old": True}),
    refused("apple-en-quote-only", "apple", "en", ""),
    refused("apple-nl-quote-only", "apple", "nl", "", cte="base64"),
    refused("apple-it-quote-only", "apple", "it", ""),
    refused("apple-es-quote-only", "apple", "es", "", charset="iso-8859-1"),
    # ---- Outlook desktop, web and phone: the original unquoted under a header block
    played("outlook-en-top", "outlook", "en", "2", 2),
    played("outlook-de-top", "outlook", "de", "Hallo,\n\n3\n\nGrüße\nBob", 3,
           charset="windows-1252", cte="quoted-printable"),
    played("outlook-ru-top", "outlook", "ru", "Здравствуйте!\n\nХод 2", 2,
           charset="windows-1251"),
    played("outlook-fr-top", "outlook", "fr", "1", 1, charset="windows-1252"),
    played("outlook-ja-top", "outlook", "ja", "２でお願いします。", 2, charset="shift_jis"),
    played("outlook-zh-top", "outlook", "zh", "3", 3, charset="gb2312"),
    played("outlook-utf7", "outlook", "en", "Hi,\n1", 1, charset="utf-7"),
    refused("outlook-en-quote-only", "outlook", "en", ""),
    refused("outlook-es-signature-only", "outlook", "es", "Saludos,\nBob"),
    played("outlook-web-en-top", "outlook_web", "en", "3", 3),
    played("outlook-web-it-top", "outlook_web", "it", "2", 2, charset="iso-8859-1"),
    played("outlook-web-html-only", "outlook_web", "nl", "1", 1, text=False),
    refused("outlook-web-quote-only-html", "outlook_web", "en", "", text=False),
    played("outlook-mobile-en", "outlook_mobile", "en", "2", 2),
    played("outlook-mobile-hu", "outlook_mobile", "hu", "Szia,\n3", 3, charset="iso-8859-2"),
    refused("outlook-mobile-quote-only", "outlook_mobile", "sv", ""),
    # ---- Thunderbird: bottom posting, attribution without address, moz-cite-prefix
    played("thunderbird-en-bottom", "thunderbird", "en", "2", 2, options=BOTTOM),
    played("thunderbird-de-bottom", "thunderbird", "de", "Hallo\n\n1", 1, options=BOTTOM,
           charset="iso-8859-15"),
    played("thunderbird-ru-bottom", "thunderbird", "ru", "3", 3, options=BOTTOM,
           charset="koi8-r"),
    played("thunderbird-hu-bottom", "thunderbird", "hu", "2", 2, options=BOTTOM,
           charset="iso-8859-2"),
    played("thunderbird-pl-bottom", "thunderbird", "pl", "1", 1, options=BOTTOM),
    played("thunderbird-ja-bottom", "thunderbird", "ja", "3番", 3, options=BOTTOM,
           charset="iso-2022-jp"),
    played("thunderbird-nl-bottom-plain", "thunderbird", "nl", "2", 2,
           options={"bottom": True, "plain_only": True}),
    played("thunderbird-cs-top", "thunderbird", "cs", "Ahoj,\n3", 3, charset="iso-8859-2"),
    played("thunderbird-pgp-signed", "thunderbird", "en",
           "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n2\n\n- -- \nBob\n"
           "-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEEexample\n=abcd\n"
           "-----END PGP SIGNATURE-----", 2, options={"plain_only": True}),
    refused("thunderbird-quote-only", "thunderbird", "de", "", options=BOTTOM),
    # ---- Yahoo: the original follows its attribution unquoted
    played("yahoo-en-top", "yahoo", "en", "1", 1),
    played("yahoo-de-top", "yahoo", "de", "2", 2, charset="iso-8859-1"),
    refused("yahoo-fr-quote-only", "yahoo", "fr", ""),
    # ---- Proton Mail, K-9 Mail, Samsung Email
    played("proton-en-top", "proton", "en", "3", 3),
    refused("proton-quote-only", "proton", "en", ""),
    played("k9-en-top", "k9", "en", "2", 2),
    played("k9-de-bottom", "k9", "de", "Moin\n3", 3, options=BOTTOM),
    refused("k9-quote-only", "k9", "en", ""),
    played("samsung-en-top", "samsung", "en", "1", 1),
    played("samsung-de-top", "samsung", "de", "2", 2),
    played("samsung-ru-top", "samsung", "ru", "3", 3, charset="windows-1251", cte="base64"),
    refused("samsung-quote-only", "samsung", "en", ""),
    # ---- The Bat!: its greeting, then "you wrote" with a time to the second above the quote
    played("the-bat-ru-bottom", "the_bat", "ru", "2", 2, charset="windows-1251"),
    played("the-bat-ru-top", "the_bat", "ru", "3", 3, options={"bottom": False},
           charset="koi8-r"),
    played("the-bat-en-bottom", "the_bat", "en", "1", 1),
    played("the-bat-uk-bottom", "the_bat", "uk", "3", 3, charset="windows-1251"),
    played("the-bat-de-bottom", "the_bat", "de", "2", 2, charset="iso-8859-1"),
    played("the-bat-it-bottom", "the_bat", "it", "1", 1),
    played("the-bat-fr-top", "the_bat", "fr", "2", 2, options={"bottom": False},
           charset="iso-8859-1"),
    played("the-bat-es-bottom", "the_bat", "es", "3", 3),
    played("the-bat-pl-bottom", "the_bat", "pl", "2", 2, charset="iso-8859-2"),
    refused("the-bat-ru-quote-only", "the_bat", "ru", "", charset="windows-1251"),
    # ---- a place or good and a count: the toy game's "bid 2" ("Seat 1 bid 2.")
    played("gmail-en-word-and-count", "gmail", "en", "Hi,\n\nbid 2", 2),
    played("gmail-it-count-first", "gmail", "it", "Ciao!\n3 bid per favore", 3),
    played("the-bat-ru-word-and-count", "the_bat", "ru", "bid 1", 1, charset="koi8-r"),
    # ---- automatic answers: out-of-office, vacation responders, lists, bounces, receipts
    dropped("exchange-oof-de", "plain", "de",
            "3. bis 11. Dezember bin ich nicht im Büro. In dringenden Fällen wenden Sie sich "
            "bitte an Alice.", headers=EXCHANGE_OOF,
            subject="Automatische Antwort: {subject}", charset="windows-1252"),
    dropped("exchange-oof-en", "plain", "en", "2 December to 11 December I am away.",
            headers=(*EXCHANGE_OOF, ("Auto-Submitted", "auto-generated")),
            subject="Automatic reply: {subject}"),
    dropped("exchange-oof-fr", "plain", "fr", "Absent du 3 au 11 décembre.",
            headers=EXCHANGE_OOF, subject="Réponse automatique : {subject}",
            charset="iso-8859-1"),
    dropped("oof-subject-only-it", "plain", "it", "1 dicembre: sono fuori sede.",
            subject="Risposta automatica: {subject}"),
    dropped("oof-subject-only-es", "plain", "es", "Estaré fuera hasta el 3.",
            subject="Respuesta automática: {subject}"),
    dropped("oof-subject-only-en", "plain", "en", "2 weeks away, back on the 14th.",
            subject="Out of Office: {subject}"),
    dropped("oof-abwesenheitsnotiz", "plain", "de", "Bis 3.1. abwesend.",
            subject="Abwesenheitsnotiz: {subject}", charset="iso-8859-1"),
    dropped("oof-ru", "plain", "ru", "Я в отпуске до 3 января.",
            subject="Автоответ: {subject}", charset="koi8-r"),
    dropped("oof-zh", "plain", "zh", "我12月3日前不在办公室。",
            subject="自动回复: {subject}", charset="gbk"),
    dropped("oof-ja", "plain", "ja", "3日まで不在です。",
            subject="自動応答: {subject}", charset="iso-2022-jp"),
    dropped("gmail-vacation", "plain", "en", "1 week off. I'll answer when I'm back.",
            headers=(("Auto-Submitted", "auto-replied"), ("Precedence", "bulk"))),
    dropped("x-autoreply", "plain", "en", "2", headers=(("X-Autoreply", "yes"),)),
    dropped("x-autorespond", "plain", "en", "3", headers=(("X-Autorespond", "vacation"),)),
    dropped("precedence-junk", "plain", "en", "1", headers=(("Precedence", "junk"),)),
    dropped("precedence-list", "plain", "en", "2", headers=(("Precedence", "list"),)),
    dropped("list-id", "gmail", "en", "2",
            headers=(("List-Id", "Board games <games.lists.example.org>"),)),
    dropped("empty-return-path", "plain", "en", "3", headers=(("Return-Path", "<>"),)),
    dropped("postfix-bounce", "plain", "en", "", report="delivery-status"),
    dropped("read-receipt", "plain", "en", "", report="disposition-notification"),
]
