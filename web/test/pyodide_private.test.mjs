// Unit tests for web/src/pyodide_private.js: every use of Pyodide's internals refuses a Pyodide of another version
// before it touches anything.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.PYODIDE_VERSION = "0.0.0-test"; // esbuild compiles in werkbank/vendor/files.py's in the site
const {
  SUPPORTED_VERSION,
  checkVersion,
  libraryPrint,
  loadPyodideSharing,
  loadSharedLibraries,
  recordInstalled,
  sitePackages,
} = await import("../src/pyodide_private.js");

/** A stand-in pyodide of `version` that records every access to its internals. */
function fakePyodide(version) {
  const touched = [];
  const files = new Map();
  const loadedPackages = {};
  const api = {
    sitepackages: "/lib/python3.12/site-packages",
    loadDynlibsFromPackage: async (pkg, paths) => touched.push(["dynlibs", pkg.file_name, paths]),
  };
  return {
    version,
    touched,
    files,
    FS: { writeFile: (path, data) => files.set(path, data) },
    get _api() {
      touched.push(["_api"]);
      return api;
    },
    get loadedPackages() {
      touched.push(["loadedPackages"]);
      return loadedPackages;
    },
  };
}

test("the supported version is the one the build compiles in", () => {
  assert.equal(SUPPORTED_VERSION, "0.0.0-test");
  assert.doesNotThrow(() => checkVersion("0.0.0-test", "x"));
  assert.throws(
    () => checkVersion("0.28.0", "doing x"),
    /doing x uses internals of Pyodide 0\.0\.0-test, but this is Pyodide 0\.28\.0/,
  );
});

test("with the supported version, the internals are used as Pyodide's own loader uses them", async () => {
  const py = fakePyodide(SUPPORTED_VERSION);
  assert.equal(sitePackages(py), "/lib/python3.12/site-packages");
  const wheel = "demo-1.0-cp312-cp312-pyodide_2024_0_wasm32.whl";
  await loadSharedLibraries(py, wheel, ["/a.so"]);
  recordInstalled(py, "demo", "demo-1.0.dist-info");
  assert.deepEqual(
    py.touched.filter((t) => t[0] === "dynlibs"),
    [["dynlibs", wheel, ["/a.so"]]],
  );
  assert.equal(py.files.get("/lib/python3.12/site-packages/demo-1.0.dist-info/INSTALLER"), "pyodide.loadPackage");
  assert.equal(py.files.get("/lib/python3.12/site-packages/demo-1.0.dist-info/PYODIDE_SOURCE"), "pyodide");
  assert.equal(py.loadedPackages.demo, "default channel");
});

test("every export refuses another Pyodide version before touching its internals", async () => {
  const py = fakePyodide("0.28.0");
  assert.throws(() => sitePackages(py), /Pyodide 0\.28\.0/);
  await assert.rejects(loadSharedLibraries(py, "demo.whl", []), /Pyodide 0\.28\.0/);
  assert.throws(() => recordInstalled(py, "demo", "demo-1.0.dist-info"), /Pyodide 0\.28\.0/);
  assert.deepEqual(py.touched, []);
  assert.equal(py.files.size, 0);
});

test("loadPyodideSharing refuses another version before hooking anything, and restores what it hooks", async () => {
  globalThis.self = globalThis;
  const fetchBefore = globalThis.fetch;
  const streamingBefore = WebAssembly.instantiateStreaming;
  let called = 0;
  const mjs = (version) => ({
    version,
    loadPyodide: async () => {
      called += 1;
      throw new Error("boom");
    },
  });
  const hooks = { wasmUrl: "http://x/pyodide.asm.wasm", fetchFn: async () => new Response("") };
  await assert.rejects(loadPyodideSharing(mjs("0.28.0"), {}, hooks), /Pyodide 0\.28\.0/);
  assert.equal(called, 0);
  await assert.rejects(loadPyodideSharing(mjs(SUPPORTED_VERSION), {}, hooks), /boom/);
  assert.equal(called, 1);
  assert.equal(globalThis.fetch, fetchBefore);
  assert.equal(WebAssembly.instantiateStreaming, streamingBefore);
});

test("no other module of web/src touches Pyodide's internals", async () => {
  const { readdirSync, readFileSync } = await import("node:fs");
  const src = new URL("../src/", import.meta.url);
  const offenders = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const url = new URL(entry.name + (entry.isDirectory() ? "/" : ""), dir);
      if (entry.isDirectory()) walk(url);
      else if (entry.name.endsWith(".js") && entry.name !== "pyodide_private.js") {
        const code = readFileSync(url, "utf8").replace(/^\s*(\/\/|\*).*$/gm, ""); // comments may name them
        const internal = ["_api.", "._module.", "loadDynlibsFromPackage", "loadedPackages[", "instantiateStreaming ="];
        for (const name of internal) {
          if (code.includes(name)) offenders.push(`${entry.name}: ${name}`);
        }
      }
    }
  };
  walk(src);
  assert.deepEqual(offenders, []);
});

/** A WebAssembly module exporting `f` returning `value`; with `needsImport`, it also imports the function m.g. */
function wasmBytes(value, needsImport = false) {
  const type = [0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f]; // one type: () -> i32
  const imports = needsImport ? [0x02, 0x07, 0x01, 0x01, 0x6d, 0x01, 0x67, 0x00, 0x00] : []; // m.g
  const func = [0x03, 0x02, 0x01, 0x00];
  const index = needsImport ? 1 : 0;
  const exports = [0x07, 0x05, 0x01, 0x01, 0x66, 0x00, index];
  const code = [0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, value, 0x0b]; // i32.const value
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...type,
    ...imports,
    ...func,
    ...exports,
    ...code,
  ]);
}

/**
 * A stand-in pyodide whose dynamic-library loader instantiates each path's bytes as Emscripten's does (a copy read
 * from its file system, through WebAssembly.instantiate), recording the instance it got per path.
 */
function linkingPyodide(files) {
  const instances = new Map();
  const api = {
    sitepackages: "/lib/python3.12/site-packages",
    loadDynlibsFromPackage: async (_pkg, paths) => {
      for (const path of paths) {
        const result = await WebAssembly.instantiate(files.get(path).slice(), {});
        instances.set(path, result);
      }
    },
  };
  return { version: SUPPORTED_VERSION, _api: api, instances };
}

test("libraryPrint tells libraries apart by size and content, and gives equal bytes one print", () => {
  const a = wasmBytes(1);
  assert.equal(libraryPrint(a), libraryPrint(a.slice()));
  assert.notEqual(libraryPrint(a), libraryPrint(wasmBytes(2)));
  assert.notEqual(libraryPrint(a), libraryPrint(new Uint8Array([...a, 0])));
  const long = new Uint8Array(20_000).fill(7);
  const changed = long.slice();
  changed[4096 + 61 * 10] = 8; // a sampled byte past the head
  assert.notEqual(libraryPrint(long), libraryPrint(changed));
});

test("shared libraries compiled in one worker are instantiated, not compiled, in the next", async () => {
  const files = new Map([
    ["/site/a.so", wasmBytes(1)],
    ["/site/b.so", wasmBytes(2)],
  ]);
  const instantiate = WebAssembly.instantiate;
  const first = linkingPyodide(files);
  const compiled = await loadSharedLibraries(first, "demo.whl", ["/site/a.so", "/site/b.so"]);
  assert.equal(WebAssembly.instantiate, instantiate); // restored
  assert.deepEqual(
    compiled.map((c) => [c.print, c.shared]),
    [
      [libraryPrint(files.get("/site/a.so")), false],
      [libraryPrint(files.get("/site/b.so")), false],
    ],
  );
  assert.ok(compiled.every((c) => c.module instanceof WebAssembly.Module));

  const next = linkingPyodide(files);
  const used = await loadSharedLibraries(next, "demo.whl", ["/site/a.so", "/site/b.so"], null, compiled);
  assert.deepEqual(
    used.map((c) => c.shared),
    [true, true],
  );
  assert.equal(next.instances.get("/site/a.so").module, compiled[0].module); // the first worker's module itself
  assert.equal(next.instances.get("/site/b.so").instance.exports.f(), 2); // each library linked to its own module
  assert.equal(WebAssembly.instantiate, instantiate);
});

test("a shared library whose given module does not instantiate is compiled from its bytes, with a warning", async () => {
  const bytes = wasmBytes(3);
  const files = new Map([["/site/c.so", bytes]]);
  // a module under the print of c.so that needs an import the loader does not give: instantiating it fails
  const wrong = [{ print: libraryPrint(bytes), module: new WebAssembly.Module(wasmBytes(3, true)) }];
  const warnings = [];
  const warn = console.warn;
  console.warn = (message) => warnings.push(String(message));
  try {
    const py = linkingPyodide(files);
    const used = await loadSharedLibraries(py, "demo.whl", ["/site/c.so"], null, wrong);
    assert.equal(used[0].shared, false);
    assert.notEqual(py.instances.get("/site/c.so").module, wrong[0].module);
    assert.equal(py.instances.get("/site/c.so").instance.exports.f(), 3);
  } finally {
    console.warn = warn;
  }
  assert.match(warnings.join("\n"), /did not instantiate from the page's copy/);
});

test("the loader's own failure still restores WebAssembly.instantiate", async () => {
  const instantiate = WebAssembly.instantiate;
  const py = {
    version: SUPPORTED_VERSION,
    _api: { loadDynlibsFromPackage: async () => Promise.reject(new Error("no")) },
  };
  await assert.rejects(loadSharedLibraries(py, "demo.whl", ["/x.so"]), /no/);
  assert.equal(WebAssembly.instantiate, instantiate);
});
