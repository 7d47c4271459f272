"""Brings the engines' gettext catalogs (games/engines/locale/<lang>/LC_MESSAGES/<slug>.po) in
line with their message catalogs (games.engines.texts.Catalog): every msgid an engine can
render is added (untranslated, for a translator to fill), msgids no engine uses any more are
dropped, translations already made are kept.

    python -m config.engine_catalogs        # then translate the empty msgstr entries
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "games" / "engines" / "locale"
#: The languages besides English, as their locale folders are named.
LANGUAGES = ("fa", "zh_Hans", "it")


def engine_catalogs() -> dict:
    from games.engines.registry import all_engines

    return {engine.slug: engine.text_catalog for engine in all_engines()
            if engine.text_catalog is not None}


def po_path(language: str, slug: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{slug}.po"


def read_catalog(path: Path, language: str) -> PoCatalog:
    with path.open("rb") as po_file:
        return read_po(po_file, locale=language)


def sync(language: str, slug: str, catalog) -> PoCatalog:
    path = po_path(language, slug)
    old = read_catalog(path, language) if path.exists() else None
    new = PoCatalog(locale=language, domain=slug, project="Turnpost", fuzzy=False)
    for context, msgid, plural in catalog.msgids():
        key = (msgid, plural) if plural else msgid
        previous = old.get(msgid, context=context) if old is not None else None
        string = previous.string if previous is not None else (("", "") if plural else "")
        new.add(key, string, context=context)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as po_file:
        write_po(po_file, new, width=100, omit_header=False)
    return new


if __name__ == "__main__":
    for slug, catalog in engine_catalogs().items():
        for language in LANGUAGES:
            sync(language, slug, catalog)
    print("synced", ", ".join(engine_catalogs()))
