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
import unicodedata
from pathlib import Path

from .settings import FALLBACK_LANGUAGE, LANGUAGES

_CATALOG_DIR = Path(__file__).with_name("catalog")


def _unique_keys(pairs: list) -> dict:
    """A JSON object's members as a dict; a key given twice is an error (json would keep the last one silently)."""
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} is given twice")
        seen[key] = value
    return seen


def load_catalogs(folder: Path, languages=LANGUAGES) -> dict[str, dict[str, str]]:
    """Every ``<lang>.json`` of ``folder`` for ``languages`` (a missing file is an empty catalog). A key given twice
    in one file raises ValueError naming the file."""
    catalogs = {}
    for lang in languages:
        path = Path(folder) / f"{lang}.json"
        try:
            catalogs[lang] = (
                json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_unique_keys) if path.is_file() else {}
            )
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
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


#: Unicode's isolate controls: LRI, RLI and FSI open an isolate, PDI closes it.
_OPENS_ISOLATE = frozenset("\u2066\u2067\u2068")
FSI, PDI = "\u2068", "\u2069"
#: Bidirectional classes of the characters that can reorder the text around them: right-to-left letters and digits,
#: and the explicit embeddings, overrides and isolates.
_DIRECTIONAL = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def isolate(value: str) -> str:
    """``value`` (text filled into a message: an exception name, an exit code, a case's label, ...) such that it
    cannot change the direction of the message around it. A closing isolate it did not open is dropped and an
    isolate it opened is closed; then, when it holds a right-to-left letter or a direction control (an override
    like U+202E, which the closing PDI ends), it is wrapped in FSI ... PDI, Unicode's first-strong isolate. The page
    shows such a span as a ``<bdi>`` element (web/src/verdict.js). Plain text comes back unchanged."""
    if value.isascii():
        return value
    out, depth = [], 0
    for ch in value:
        if ch in _OPENS_ISOLATE:
            depth += 1
        elif ch == PDI:
            if depth == 0:
                continue
            depth -= 1
        out.append(ch)
    balanced = "".join(out) + PDI * depth
    if any(unicodedata.bidirectional(ch) in _DIRECTIONAL for ch in balanced):
        return FSI + balanced + PDI
    return balanced


def decimal(value: float, lang: str) -> str:
    """A number as ``lang`` writes it: a decimal comma in Dutch ("5,0"), a point elsewhere (web/src/i18n.js too)."""
    written = str(value)
    return written.replace(".", ",") if lang == "nl" else written


def text(key: str, lang: str, **params) -> str:
    """An engine message in the learner's language; every text filled in is :func:`isolate`-d, and every float is
    written as the language writes it (:func:`decimal`)."""
    filled = {
        k: isolate(v) if type(v) is str else decimal(v, lang) if type(v) is float else v for k, v in params.items()
    }
    return lookup(CATALOGS, key, lang, **filled)
