"""numpy as the site's workers install it (web/src/pyboot.js: the wheel unpacked in JavaScript) against Pyodide's own
``loadPackage``, in real Pyodide under Node: the same files, the same shared libraries, a working numpy."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from werkbank import vendor

REPO = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
const [dist, pyboot, version] = process.argv.slice(2);
globalThis.PYODIDE_VERSION = version; // what the build compiles into the workers
const { fetchWheel, installWheel } = await import(pyboot);
const { loadPyodide } = await import(dist + "/pyodide/pyodide.mjs");

// the browser's fetch, for files of dist/pyodide/, with its integrity check
const fetchFn = async (url, init) => {
  const bytes = readFileSync(`${dist}/pyodide/${new URL(url).pathname.split("/").pop()}`);
  if (init && init.integrity && init.integrity !== `sha256-${createHash("sha256").update(bytes).digest("base64")}`) {
    throw new TypeError("integrity mismatch");
  }
  return new Response(bytes);
};

const TREE = `
import hashlib, json, os, site
root = site.getsitepackages()[0]
out = {}
for folder, _, names in os.walk(root):
    for name in names:
        path = os.path.join(folder, name)
        out[os.path.relpath(path, root)] = hashlib.sha256(open(path, "rb").read()).hexdigest()
json.dumps(out)
`;
const libs = (py) => Object.keys(py._module.LDSO.loadedLibsByName).filter((k) => k.includes("site-packages")).sort();

const ours = await loadPyodide({ indexURL: dist + "/pyodide/" });
await installWheel(ours, await fetchWheel("numpy", fetchFn));
const stock = await loadPyodide({ indexURL: dist + "/pyodide/" });
await stock.loadPackage("numpy", { messageCallback: () => {} });

const messages = [];
await ours.loadPackage("numpy", { messageCallback: (m) => messages.push(m) });
console.log(JSON.stringify({
  ours: JSON.parse(ours.runPython(TREE)),
  stock: JSON.parse(stock.runPython(TREE)),
  ours_libs: libs(ours),
  stock_libs: libs(stock),
  again: messages,
  works: ours.runPython(`
import numpy, numpy.linalg, numpy.random, importlib.metadata
[int(numpy.arange(5).sum()), float(numpy.linalg.det(numpy.eye(3))), importlib.metadata.version("numpy"),
 numpy.random.default_rng(1).integers(0, 10, 3).tolist()]
`).toJs(),
}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_workers_numpy_install_equals_pyodides_load_package(dist, tmp_path):
    script = tmp_path / "install.mjs"
    script.write_text(SCRIPT, encoding="utf-8")
    args = [str(dist), (REPO / "web/src/pyboot.js").as_uri(), vendor.PYODIDE_VERSION]
    done = subprocess.run(["node", str(script), *args], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(got["stock"]) > 300  # numpy's files, its dist-info, and what Pyodide itself keeps there
    assert got["ours"] == got["stock"]  # every file, byte for byte, INSTALLER and PYODIDE_SOURCE included
    assert got["ours_libs"] == got["stock_libs"] and len(got["ours_libs"]) > 10
    assert any("already loaded" in m for m in got["again"])  # marked loaded: loadPackage installs nothing again
    numpy = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())["packages"]["numpy"]["version"]
    assert got["works"][:3] == [10, 1.0, numpy]
    assert len(got["works"][3]) == 3
