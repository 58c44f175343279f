// Unit tests for web/src/pyboot.js: where the engine's files and its ahead-of-time bytecode land in Pyodide's FS.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.PYODIDE_VERSION = "0.0.0-test"; // esbuild compiles in werkbank/vendor/files.py's in the site
const { engineFiles, fetchWheel, installWheel, LIB, loadNumpy, meteredFetch, writeEngine, zipEntries } = await import(
  "../src/pyboot.js"
);
const { deflateRawSync } = await import("node:zlib");
const { createHash } = await import("node:crypto");

/** The engine's files written the way a worker does (decoded first, then written). */
const installEngine = (py, files, bytecode) => writeEngine(py, engineFiles(files, bytecode));

/** A stand-in for the pyodide object: an in-memory file table and the Python it was asked to run. */
function fakePyodide() {
  const files = new Map();
  const ran = [];
  return {
    files,
    ran,
    FS: { mkdirTree() {}, writeFile: (path, data) => files.set(path, data) },
    loadedPackages: {},
    version: globalThis.PYODIDE_VERSION,
    runPython: (code) => ran.push(code),
  };
}

test("the engine's bytecode goes into each package's __pycache__, named by the interpreter's cache tag", () => {
  const py = fakePyodide();
  const pyc = Buffer.from([0xcb, 0x0d, 0x0d, 0x0a, 1, 0, 0, 0]).toString("base64");
  installEngine(
    py,
    { "graders/engine/values.py": "X = 1\n", "graders/engine/catalog/en.json": "{}" },
    {
      tag: "cpython-312",
      files: { "graders/engine/values.py": pyc },
    },
  );
  assert.equal(py.files.get(`${LIB}/graders/engine/values.py`), "X = 1\n");
  const written = py.files.get(`${LIB}/graders/engine/__pycache__/values.cpython-312.pyc`);
  assert.deepEqual(Array.from(written), [0xcb, 0x0d, 0x0d, 0x0a, 1, 0, 0, 0]);
  assert.ok(py.ran.some((code) => code.includes("sys.path.insert(0")));
});

test("bytecode with an unsafe path or tag, or for a file that is not Python, is not written", () => {
  const py = fakePyodide();
  const pyc = Buffer.from([1, 2, 3]).toString("base64");
  installEngine(
    py,
    { "graders/a.py": "" },
    { tag: "cpython-312", files: { "../evil.py": pyc, "/abs.py": pyc, "graders/c.json": pyc } },
  );
  installEngine(py, {}, { tag: "../x", files: { "graders/a.py": pyc } });
  installEngine(py, {}, null);
  assert.deepEqual([...py.files.keys()], [`${LIB}/graders/a.py`]);
});

test("the metered fetch hands out the response itself (its URL keeps V8's code cache) and counts its bytes", async () => {
  const body = new Uint8Array(300_000).fill(7);
  const original = new Response(body, { headers: { "content-length": String(body.length) } });
  const posted = [];
  const fetchFn = meteredFetch(
    (msg) => posted.push(msg),
    "run-1",
    "runtime",
    2,
    70,
    100_000,
    async () => original,
  );
  const got = await fetchFn("https://example.test/pyodide/pyodide.asm.wasm");
  assert.equal(got, original); // not a Response made anew, which would have no URL and no cache entry
  assert.equal((await got.arrayBuffer()).byteLength, body.length); // the caller still gets every byte
  for (let i = 0; i < 50 && !posted.some((m) => m.loaded === body.length); i++)
    await new Promise((r) => setTimeout(r, 10));
  const last = posted.at(-1);
  assert.equal(last.type, "progress");
  assert.equal(last.loaded, body.length);
  assert.equal(last.percent, 70);
});

// ---------------------------------------------------------------- numpy's wheel, unpacked in JavaScript

/** A zip record: `size` bytes, `signature` first, then each [offset, bits, value] field (little-endian). */
function record(size, signature, fields) {
  const bytes = Buffer.alloc(size);
  bytes.writeUInt32LE(signature, 0);
  for (const [at, bits, value] of fields) {
    if (bits === 16) bytes.writeUInt16LE(value, at);
    else bytes.writeUInt32LE(value, at);
  }
  return bytes;
}

/** A zip archive of [{path, data, stored?, size?}] (no CRC: the wheel's sha-256 is what is checked). */
function makeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { path, data, stored, size } of entries) {
    const name = Buffer.from(path, "utf8");
    const raw = Buffer.from(data ?? "");
    const plain = stored || path.endsWith("/");
    const packed = plain ? raw : deflateRawSync(raw);
    const method = plain ? 0 : 8;
    const declared = size ?? raw.length;
    locals.push(
      record(30, 0x04034b50, [
        [8, 16, method],
        [18, 32, packed.length],
        [22, 32, declared],
        [26, 16, name.length],
      ]),
      name,
      packed,
    );
    centrals.push(
      record(46, 0x02014b50, [
        [10, 16, method],
        [20, 32, packed.length],
        [24, 32, declared],
        [28, 16, name.length],
        [42, 32, offset],
      ]),
      name,
    );
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = record(22, 0x06054b50, [
    [8, 16, entries.length],
    [10, 16, entries.length],
    [12, 32, directory.length],
    [16, 32, offset],
  ]);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const WHEEL = "demo-1.0-cp312-cp312-pyodide_2024_0_wasm32.whl";
const sha256 = (bytes) => createHash("sha256").update(bytes).digest();

/** A fetch serving pyodide-lock.json (with `entry` for "demo") and the wheel; records each request's init. */
function wheelServer(wheel, entry = {}) {
  const asked = [];
  const lock = {
    packages: {
      demo: { file_name: WHEEL, depends: [], install_dir: "site", sha256: sha256(wheel).toString("hex"), ...entry },
    },
  };
  const fetchFn = async (url, init) => {
    asked.push({ url: String(url), init });
    if (String(url).endsWith("/pyodide-lock.json")) return new Response(JSON.stringify(lock));
    if (String(url).endsWith(`/${WHEEL}`)) return new Response(wheel);
    return new Response("", { status: 404 });
  };
  return { fetchFn, asked };
}

const DEMO = [
  { path: "demo/" },
  { path: "demo/__init__.py", data: "X = 1\n".repeat(50) },
  { path: "demo/_core.cpython-312-wasm32-emscripten.so", data: "\0asm-core" },
  { path: "demo/raw.txt", data: "kept as is", stored: true },
  { path: "demo.libs/libhelper.so.1", data: "\0asm-helper" },
  { path: "demo-1.0.dist-info/METADATA", data: "Name: demo\n" },
];

test("fetchWheel reads a lock package's wheel, asks for it with the lock's sha-256 as integrity, and inflates it", async () => {
  const wheel = makeZip(DEMO);
  const { fetchFn, asked } = wheelServer(wheel);
  const got = await fetchWheel("demo", fetchFn);
  assert.equal(got.fileName, WHEEL);
  assert.deepEqual(
    got.files.map((f) => f.path),
    DEMO.filter((e) => !e.path.endsWith("/")).map((e) => e.path),
  );
  for (const file of got.files) {
    const source = DEMO.find((e) => e.path === file.path);
    assert.equal(Buffer.from(file.data).toString(), source.data);
  }
  const wheelAsk = asked.find((a) => a.url.endsWith(WHEEL));
  assert.equal(wheelAsk.init.integrity, `sha256-${sha256(wheel).toString("base64")}`);
});

test("fetchWheel refuses what Pyodide's own loader would have to handle: dependencies, data files, no hash, bad archives", async () => {
  const wheel = makeZip(DEMO);
  await assert.rejects(fetchWheel("other", wheelServer(wheel).fetchFn), /not a self-contained wheel/);
  await assert.rejects(
    fetchWheel("demo", wheelServer(wheel, { depends: ["numpy"] }).fetchFn),
    /not a self-contained wheel/,
  );
  await assert.rejects(
    fetchWheel("demo", wheelServer(wheel, { install_dir: "dynlib" }).fetchFn),
    /not a self-contained wheel/,
  );
  await assert.rejects(fetchWheel("demo", wheelServer(wheel, { sha256: "" }).fetchFn), /no sha-256/);
  const data = makeZip([...DEMO, { path: "demo-1.0.data/scripts/run", data: "#!" }]);
  await assert.rejects(fetchWheel("demo", wheelServer(data).fetchFn), /data files/);
  await assert.rejects(fetchWheel("demo", wheelServer(new Uint8Array(100)).fetchFn), /not a zip archive/);
  const short = makeZip([{ path: "demo/__init__.py", data: "X = 1\n", size: 99 }]);
  await assert.rejects(fetchWheel("demo", wheelServer(short).fetchFn), /6 bytes, not 99/);
  const missing = async (url) =>
    String(url).endsWith(".json") ? wheelServer(wheel).fetchFn(url) : new Response("", { status: 404 });
  await assert.rejects(fetchWheel("demo", missing), /HTTP 404/);
});

test("zipEntries skips folders, keeps archive order and refuses encrypted entries", () => {
  const zip = makeZip([{ path: "a/" }, { path: "a/b.py", data: "1" }, { path: "a/c.py", data: "2", stored: true }]);
  assert.deepEqual(
    zipEntries(zip).map((e) => [e.path, e.method, e.size]),
    [
      ["a/b.py", 8, 1],
      ["a/c.py", 0, 1],
    ],
  );
  const view = new DataView(zip.buffer);
  const central = view.getUint32(zip.length - 22 + 16, true);
  view.setUint16(central + 46 + 2 + 8, 1, true); // the second central entry (after "a/"): flags = encrypted
  assert.throws(() => zipEntries(zip), /encrypted/);
});

/** A stand-in pyodide for installWheel: the FS, the dynamic-library loader, the package record. */
function fakeRuntime() {
  const py = fakePyodide();
  py.dynlibs = [];
  py._api = {
    sitepackages: "/lib/python3.12/site-packages",
    loadDynlibsFromPackage: async (pkg, libs) => py.dynlibs.push([pkg.file_name, [...libs]]),
  };
  return py;
}

test("installWheel writes the files into site-packages, records the installer, loads the shared libraries in order", async () => {
  const py = fakeRuntime();
  const wheel = await fetchWheel("demo", wheelServer(makeZip(DEMO)).fetchFn);
  await installWheel(py, wheel);
  const site = "/lib/python3.12/site-packages";
  assert.equal(py.files.get(`${site}/demo/raw.txt`).length, 10);
  assert.equal(py.files.get(`${site}/demo-1.0.dist-info/INSTALLER`), "pyodide.loadPackage");
  assert.equal(py.files.get(`${site}/demo-1.0.dist-info/PYODIDE_SOURCE`), "pyodide");
  assert.deepEqual(py.dynlibs, [
    [WHEEL, [`${site}/demo/_core.cpython-312-wasm32-emscripten.so`, `${site}/demo.libs/libhelper.so.1`]],
  ]);
  assert.equal(py.loadedPackages.demo, "default channel"); // a later loadPackage("demo") does nothing
  assert.ok(py.ran.some((code) => code.includes("path_importer_cache") && code.includes(site)));
  assert.ok(!py.ran.some((code) => code.includes("importlib.invalidate_caches")));
});

test("installWheel refuses a path that leaves site-packages, before writing anything", async () => {
  for (const path of ["../evil.py", "/abs.py", "demo//x.py", "demo/../../x.py"]) {
    const py = fakeRuntime();
    const files = [
      { path: "demo/__init__.py", data: new Uint8Array(1) },
      { path, data: new Uint8Array(1) },
    ];
    await assert.rejects(installWheel(py, { name: "demo", fileName: WHEEL, files }), /unsafe path/);
    assert.equal(py.files.size, 0); // not even the safe file listed before it
    assert.deepEqual(py.dynlibs, []);
  }
});

test("loadNumpy falls back to Pyodide's loadPackage (with the given fetch meanwhile) when the wheel did not unpack", async () => {
  const py = fakeRuntime();
  const calls = [];
  const mine = async () => new Response("");
  const before = globalThis.fetch;
  const loadPackage = async (names) => calls.push([names, globalThis.fetch === mine]);
  const failed = Promise.reject(new Error("no DecompressionStream"));
  const warn = console.warn;
  console.warn = () => {};
  try {
    await loadNumpy(py, failed, { loadPackage, fetchFn: mine });
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(calls, [[["numpy"], true]]);
  assert.equal(globalThis.fetch, before);
  const wheel = await fetchWheel("demo", wheelServer(makeZip(DEMO)).fetchFn);
  await loadNumpy(py, Promise.resolve(wheel), { loadPackage });
  assert.equal(calls.length, 1); // unpacked: no loadPackage
  assert.equal(py.dynlibs.length, 1);
});
