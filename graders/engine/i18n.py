"""Translation: one catalog format, one lookup, one fallback rule.

Catalogs are JSON files ``catalog/<lang>.json`` mapping a message key to a text with ``{name}`` placeholders
(``str.format`` syntax). The engine's own messages live in ``graders/engine/catalog/``; the site's interface strings
use the same format in ``werkbank/catalog/`` and the same rule in ``web/src/i18n.js``.

The rule: a language the catalog does not offer is read as :data:`settings.FALLBACK_LANGUAGE`; a key missing in the
asked language falls back to that language too; a key missing there is a bug and raises ``KeyError``. Texts a
grader writes per case (``{"nl": ..., "en": ...}``) are looked up by :func:`pick` under the same rule.
"""

from __future__ import annotations

import json
from pathlib import Path

from .settings import FALLBACK_LANGUAGE, LANGUAGES

_CATALOG_DIR = Path(__file__).with_name("catalog")


def load_catalogs(folder: Path, languages=LANGUAGES) -> dict[str, dict[str, str]]:
    """Every ``<lang>.json`` of ``folder`` for ``languages`` (a missing file is an empty catalog)."""
    catalogs = {}
    for lang in languages:
        path = Path(folder) / f"{lang}.json"
        catalogs[lang] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return catalogs


def pick(table: dict, lang: str) -> str:
    """The text for ``lang`` from a ``{lang: text}`` table, under the fallback rule (``""`` when there is none)."""
    return table.get(lang) or table.get(FALLBACK_LANGUAGE) or ""


def lookup(catalogs: dict[str, dict[str, str]], key: str, lang: str, **params) -> str:
    """The message ``key`` of ``catalogs`` in ``lang`` with ``params`` filled in (see the module's rule). Without
    ``params`` the template comes back as it is, placeholders included, for a caller that fills it in later."""
    own = catalogs.get(lang) or {}
    template = own.get(key) or catalogs[FALLBACK_LANGUAGE][key]
    return template.format(**params) if params else template


#: The engine's messages, per language.
CATALOGS = load_catalogs(_CATALOG_DIR)


def text(key: str, lang: str, **params) -> str:
    """An engine message in the learner's language."""
    return lookup(CATALOGS, key, lang, **params)
