// Unit tests for web/src/pyboot.js: where the engine's files and its ahead-of-time bytecode land in Pyodide's FS.
import assert from "node:assert/strict";
import { test } from "node:test";

const { installEngine, LIB, meteredFetch } = await import("../src/pyboot.js");

/** A stand-in for the pyodide object: an in-memory file table and the Python it was asked to run. */
function fakePyodide() {
  const files = new Map();
  const ran = [];
  return {
    files,
    ran,
    FS: { mkdirTree() {}, writeFile: (path, data) => files.set(path, data) },
    runPython: (code) => ran.push(code),
  };
}

test("the engine's bytecode goes into each package's __pycache__, named by the interpreter's cache tag", () => {
  const py = fakePyodide();
  const pyc = Buffer.from([0xcb, 0x0d, 0x0d, 0x0a, 1, 0, 0, 0]).toString("base64");
  installEngine(py, { "graders/engine/values.py": "X = 1\n", "graders/engine/catalog/en.json": "{}" }, {
    tag: "cpython-312",
    files: { "graders/engine/values.py": pyc },
  });
  assert.equal(py.files.get(`${LIB}/graders/engine/values.py`), "X = 1\n");
  const written = py.files.get(`${LIB}/graders/engine/__pycache__/values.cpython-312.pyc`);
  assert.deepEqual(Array.from(written), [0xcb, 0x0d, 0x0d, 0x0a, 1, 0, 0, 0]);
  assert.ok(py.ran.some((code) => code.includes("sys.path.insert(0")));
});

test("bytecode with an unsafe path or tag, or for a file that is not Python, is not written", () => {
  const py = fakePyodide();
  const pyc = Buffer.from([1, 2, 3]).toString("base64");
  installEngine(py, { "graders/a.py": "" }, { tag: "cpython-312", files: { "../evil.py": pyc, "/abs.py": pyc, "graders/c.json": pyc } });
  installEngine(py, {}, { tag: "../x", files: { "graders/a.py": pyc } });
  installEngine(py, {}, null);
  assert.deepEqual([...py.files.keys()], [`${LIB}/graders/a.py`]);
});

test("the metered fetch hands out the response itself (its URL keeps V8's code cache) and counts its bytes", async () => {
  const body = new Uint8Array(300_000).fill(7);
  const original = new Response(body, { headers: { "content-length": String(body.length) } });
  const posted = [];
  const fetchFn = meteredFetch((msg) => posted.push(msg), "run-1", "runtime", 2, 70, 100_000, async () => original);
  const got = await fetchFn("https://example.test/pyodide/pyodide.asm.wasm");
  assert.equal(got, original); // not a Response made anew, which would have no URL and no cache entry
  assert.equal((await got.arrayBuffer()).byteLength, body.length); // the caller still gets every byte
  for (let i = 0; i < 50 && !posted.some((m) => m.loaded === body.length); i++) await new Promise((r) => setTimeout(r, 10));
  const last = posted.at(-1);
  assert.equal(last.type, "progress");
  assert.equal(last.loaded, body.length);
  assert.equal(last.percent, 70);
});
