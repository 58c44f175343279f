"""The site's interface strings: ``werkbank/catalog/<lang>.json``, loaded and looked up under the engine's one rule.

The loader and the fallback rule are :mod:`graders.engine.i18n`'s (a missing language or key falls back to
``settings.FALLBACK_LANGUAGE``; a key missing there is a bug and raises ``KeyError``). The page builder
(:mod:`werkbank.site`) and the markdown renderer both read UI words through :func:`ui`; the browser applies the same
rule in ``web/src/i18n.js`` to the strings :func:`for_page` embeds.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from graders.engine.i18n import load_catalogs, lookup
from graders.engine.settings import FALLBACK_LANGUAGE, LANGUAGES

FOLDER = Path(__file__).resolve().parent

__all__ = ["catalogs", "ui", "for_page", "FOLDER"]


@lru_cache(maxsize=1)
def catalogs() -> dict[str, dict[str, str]]:
    """Every UI catalog, per language of :data:`settings.LANGUAGES`."""
    return load_catalogs(FOLDER, LANGUAGES)


def ui(lang: str, key: str, **params) -> str:
    """The UI string ``key`` in ``lang`` with ``{name}`` placeholders filled in."""
    return lookup(catalogs(), key, lang, **params)


def for_page(lang: str) -> dict:
    """What a page embeds for ``web/src/i18n.js``: its own catalog, and the fallback language's texts for the keys
    its own catalog lacks (usually none), so the browser applies the same rule without a second copy of English."""
    own = {k: v for k, v in catalogs().get(lang, {}).items() if v}
    fallback = {k: v for k, v in catalogs()[FALLBACK_LANGUAGE].items() if k not in own}
    return {"lang": lang, "strings": own, "fallback": fallback}
