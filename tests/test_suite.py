"""The test session's own arrangement: the slowest files are handed to xdist's workers first (tests/conftest.py)."""

from __future__ import annotations

from tests.conftest import REPO_ROOT, SLOW_FIRST


def test_every_slow_first_entry_is_a_test_file():
    missing = [path for path in SLOW_FIRST if not (REPO_ROOT / path).is_file()]
    assert missing == [], f"SLOW_FIRST names files that do not exist: {missing}"


def test_the_session_runs_the_slowest_files_first_in_their_order(request):
    files = list(dict.fromkeys(item.nodeid.split("::", 1)[0] for item in request.session.items))
    slow = [path for path in files if path in SLOW_FIRST]
    assert files[: len(slow)] == slow, "a file outside SLOW_FIRST is collected before one of it"
    assert slow == sorted(slow, key=SLOW_FIRST.index)
