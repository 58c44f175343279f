// The Python memory snapshot of a build, made at build time by werkbank/snapshot.py; not a command of its own.
//
//   node werkbank/node/snapshot.mjs DIST OUT
//
// Boots DIST's own Pyodide (dist/pyodide/: the very pyodide.asm.js/.wasm and python_stdlib.zip the site serves) with
// Pyodide 0.27.7's experimental `_makeSnapshot`, writes the engine (DIST/grading/engine.json) where the workers write
// it, imports the learner host (graders.hosts.pyodide: the runner and the standard library it needs) and the
// runner's preloaded standard modules, records a fingerprint of the standard library zip (a worker refuses the image
// over another one) and engine.json's sha-256 (sys._werkbank_engine_sha256: a worker that
// fetched another engine imports it afresh), then writes `pyodide.makeMemorySnapshot()` (the whole wasm memory plus the
// JS references Python holds, which must be none beyond Pyodide's own) to OUT.
//
// What a snapshot cannot hold, and the workers therefore redo after restoring it (web/src/pyboot.js): files (the
// Emscripten file system lives in JS, so the engine's files are written again), numpy (its shared libraries are
// separate wasm instances; it is loaded after the restore, as without a snapshot) and the stdout/stderr hooks.
// sys.path is left without "" and the engine's folder, so that after the restore (Pyodide puts "" back) and the
// workers' installEngine it reads as after a normal boot.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const LIB = "/lib/werkbank";
const [dist, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${dist}/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dist}/pyodide/`, _makeSnapshot: true });
const { zipFingerprint } = await import(new URL("../../web/src/pyboot.js", import.meta.url).href);
const stdlib = zipFingerprint(readFileSync(`${dist}/pyodide/python_stdlib.zip`));
const engineBytes = readFileSync(`${dist}/grading/engine.json`);
const engine = JSON.parse(engineBytes.toString("utf8"));
const engineSha = createHash("sha256").update(engineBytes).digest("hex");
for (const [path, content] of Object.entries(engine.files || {})) {
  const full = `${LIB}/${path}`;
  pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
  pyodide.FS.writeFile(full, String(content));
}
const report = pyodide.runPython(`
import sys
sys.path.insert(0, ${JSON.stringify(LIB)})
import graders.hosts.pyodide
from graders.engine import runner as _r
for _n in _r.PRELOAD:
    if _n.split(".")[0] != "numpy":
        __import__(_n)
del _r, _n
sys.path[:] = [p for p in sys.path if p not in ("", ${JSON.stringify(LIB)})]
sys._werkbank_engine_sha256 = ${JSON.stringify(engineSha)}  # web/src/pyboot.js: forgetSnapshotEngine
sys._werkbank_stdlib = ${JSON.stringify(stdlib)}  # web/src/pyboot.js: checkRestored
f"{len(sys.modules)} modules"
`);
const image = pyodide.makeMemorySnapshot();
writeFileSync(out, image);
process.stdout.write(JSON.stringify({ bytes: image.length, modules: report, version: pyodide.version }) + "\n");
