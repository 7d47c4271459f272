"""Compiles the gettext catalogs (every `locale/<lang>/LC_MESSAGES/*.po` of the project and its
apps) into the `.mo` files Django reads, in pure Python, so a fresh machine needs no GNU gettext.
`make install`, the test run and the image build call it; a catalog is compiled only when its
`.po` is newer than its `.mo`. Fuzzy entries are left out, as msgfmt leaves them out."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
#: Where catalogs live: the project's own `locale/` and each app's.
LOCALE_DIRS = [ROOT / "locale", ROOT / "accounts" / "locale", ROOT / "games" / "locale",
               ROOT / "notifications" / "locale", ROOT / "games" / "engines" / "locale"]


def catalog_files() -> list[Path]:
    return sorted(po for folder in LOCALE_DIRS if folder.is_dir()
                  for po in folder.glob("*/LC_MESSAGES/*.po"))


def compile_catalogs(force: bool = False) -> list[Path]:
    """Writes each stale `.mo`; returns the catalogs compiled."""
    compiled = []
    for po_path in catalog_files():
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        with mo_path.open("wb") as mo_file:
            write_mo(mo_file, catalog, use_fuzzy=False)
        compiled.append(po_path)
    return compiled


if __name__ == "__main__":
    done = compile_catalogs(force="--force" in sys.argv)
    print(f"compiled {len(done)} catalog(s)")
