"""tests/derived.py: a stamped check runs when its inputs' hash is not the stamp's, never writes a stamp for a
failure, and is skipped only for exactly the inputs it passed on."""

from __future__ import annotations

import json

import pytest

from tests import derived


def _tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("a = 1\n")
    (tmp_path / "src" / "b.py").write_text("b = 2\n")
    return tmp_path


def test_the_digest_follows_every_input(tmp_path):
    root = _tree(tmp_path)
    first = derived.inputs_digest(["src/*.py"], {"python": "3.11"}, root=root)
    assert derived.inputs_digest(["src/*.py"], {"python": "3.11"}, root=root) == first
    (root / "src" / "a.py").write_text("a = 2\n")  # a changed file
    second = derived.inputs_digest(["src/*.py"], {"python": "3.11"}, root=root)
    (root / "src" / "c.py").write_text("")  # a new file the glob matches
    third = derived.inputs_digest(["src/*.py"], {"python": "3.11"}, root=root)
    (root / "src" / "c.py").rename(root / "src" / "d.py")  # the same content under another name
    fourth = derived.inputs_digest(["src/*.py"], {"python": "3.11"}, root=root)
    fifth = derived.inputs_digest(["src/*.py"], {"python": "3.12"}, root=root)  # another tool version
    assert len({first, second, third, fourth, fifth}) == 5
    with pytest.raises(ValueError, match="matches no file"):
        derived.inputs_digest(["src/*.py", "docs/*.md"], root=root)


def test_a_check_runs_unless_its_stamp_has_these_inputs(tmp_path, monkeypatch):
    monkeypatch.delenv(derived.RERUN, raising=False)
    runs = []

    def check():
        runs.append(1)
        return {"found": len(runs)}

    assert derived.stamped("demo", "item", "hash-1", check, folder=tmp_path) is True  # no stamp yet
    assert json.loads((tmp_path / "demo.json").read_text())["item"]["found"] == {"found": 1}
    assert derived.stamped("demo", "item", "hash-1", check, folder=tmp_path) is False  # same inputs: not again
    assert derived.stamped("demo", "other", "hash-1", check, folder=tmp_path) is True  # another item
    assert derived.stamped("demo", "item", "hash-2", check, folder=tmp_path) is True  # changed inputs
    monkeypatch.setenv(derived.RERUN, "1")
    assert derived.stamped("demo", "item", "hash-2", check, folder=tmp_path) is True  # asked to run them all
    assert len(runs) == 4
    monkeypatch.delenv(derived.RERUN)

    def changed():  # the same inputs, but the check itself is another one
        runs.append(2)
        return {}

    assert derived.stamped("demo", "item", "hash-2", changed, folder=tmp_path) is True


def test_a_failing_check_fails_and_writes_no_stamp(tmp_path, monkeypatch):
    monkeypatch.delenv(derived.RERUN, raising=False)

    def failing():
        raise AssertionError("a surviving mutant")

    with pytest.raises(AssertionError, match="surviving"):
        derived.stamped("demo", "item", "hash-1", failing, folder=tmp_path)
    assert not (tmp_path / "demo.json").exists()

    def passing():
        return "ok"

    derived.stamped("demo", "item", "hash-1", passing, folder=tmp_path)
    stamp = json.loads((tmp_path / "demo.json").read_text())["item"]
    with pytest.raises(AssertionError):  # a stamp for other inputs does not excuse a failure on these
        derived.stamped("demo", "item", "hash-2", failing, folder=tmp_path)
    assert json.loads((tmp_path / "demo.json").read_text())["item"] == stamp


def test_a_stamp_waits_while_another_process_writes_the_file(tmp_path):
    """Under pytest-xdist two processes may stamp items of one check at the same moment: a stamp is read, changed
    and written under the check's lock file, so neither item is lost. Here the lock is held as another process
    writing would hold it: the stamp waits for it, then keeps both items."""
    import fcntl
    import threading

    derived.stamped("demo", "theirs", "hash", lambda: "ok", folder=tmp_path)
    done = threading.Event()
    with open(tmp_path / ".demo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        thread = threading.Thread(
            target=lambda: (derived.stamped("demo", "mine", "hash", lambda: "ok", folder=tmp_path), done.set())
        )
        thread.start()
        assert not done.wait(0.5), "the stamp was written while another process held the file"
        fcntl.flock(lock, fcntl.LOCK_UN)
    assert done.wait(30)
    thread.join()
    assert sorted(json.loads((tmp_path / "demo.json").read_text(encoding="utf-8"))) == ["mine", "theirs"]
