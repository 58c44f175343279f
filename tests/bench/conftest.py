"""tests/bench/ holds the benchmark (``make bench``), not tests: pytest must not collect anything here."""

collect_ignore_glob = ["*"]
