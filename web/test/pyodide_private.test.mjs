// Unit tests for web/src/pyodide_private.js: every use of Pyodide's internals refuses a Pyodide of another version
// before it touches anything.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.PYODIDE_VERSION = "0.0.0-test"; // esbuild compiles in werkbank/vendor/files.py's in the site
const { SUPPORTED_VERSION, checkVersion, loadPyodideSharing, loadSharedLibraries, recordInstalled, sitePackages } =
  await import("../src/pyodide_private.js");

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
