"""The lessons' figures as pure logic, in Node (no page): the reliability figure of perplexity-calibration
(``web/src/figures/reliability.js`` ``summarize``) bins, averages and scores like the lesson's reference solution.
The figures on built pages: tests/browser/test_figures.py."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from werkbank.lessons import load_lesson

REPO = Path(__file__).resolve().parents[1]
ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"
PERPLEXITY = load_lesson("perplexity-calibration")


def _settings() -> str:
    from graders.engine.settings import for_web

    return json.dumps(for_web())


@pytest.fixture(scope="module")
def summarize_in_node(tmp_path_factory):
    """``summarize(cases) -> results``: web/src/figures/reliability.js's ``summarize`` run in Node on each
    ``[conf, right, bins]`` (pure arithmetic, no page needed)."""
    folder = tmp_path_factory.mktemp("summarize")
    entry = folder / "entry.js"
    entry.write_text(
        f'export {{ summarize }} from "{(REPO / "web" / "src" / "figures" / "reliability.js").as_posix()}";\n',
        encoding="utf-8",
    )
    bundle = folder / "summarize.mjs"
    subprocess.run(
        [
            str(ESBUILD),
            str(entry),
            "--bundle",
            "--format=esm",
            "--platform=node",
            f"--define:SETTINGS={_settings()}",
            f"--outfile={bundle}",
        ],
        check=True,
        capture_output=True,
        cwd=REPO,
    )
    script = (
        "const { summarize } = await import(process.argv[1]); let input = '';"
        "for await (const chunk of process.stdin) input += chunk;"
        "console.log(JSON.stringify(JSON.parse(input).map(([c, r, b]) => summarize(c, r, b))));"
    )

    def summarize(cases):
        out = subprocess.run(
            ["node", "--input-type=module", "-e", script, bundle.as_uri()],
            input=json.dumps(cases),
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout)

    return summarize


def test_the_reliability_figure_bins_like_the_reference(summarize_in_node):
    namespace: dict = {}
    exec(PERPLEXITY.checkpoint("3").solution(), namespace)
    rng = random.Random(11)
    cases = []
    for bins in (1, 2, 5, 10, 15):
        conf = [round(rng.random(), 3) for _ in range(60)] + [0.0, 0.1, 0.3, 0.5, 0.6, 0.7, 1.0]
        right = [1 if rng.random() < p else 0 for p in conf]
        cases.append((conf, right, bins))
    for (conf, right, bins), got in zip(cases, summarize_in_node(cases)):
        ece, populated = namespace["expected_calibration_error"](conf, right, bins=bins)
        mean_conf, accuracy, count = namespace["reliability_diagram"](conf, right, bins=bins)
        assert got["ece"] == pytest.approx(ece, abs=1e-12)
        assert got["brier"] == pytest.approx(namespace["brier_score"](conf, right), abs=1e-12)
        assert got["populated"] == populated
        assert got["data"]["count"] == count.tolist()
        assert got["data"]["conf"] == pytest.approx(mean_conf.tolist(), abs=1e-12)
        assert got["data"]["acc"] == pytest.approx(accuracy.tolist(), abs=1e-12)
