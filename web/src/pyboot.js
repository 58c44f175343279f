// Booting Pyodide inside one of the site's workers: shared by the learner worker and the grader worker.
//
// Everything is addressed relative to the bundled worker (dist/assets/*.js): ../pyodide/ (runtime + numpy),
// ../grading/engine.json (the engine's Python files), ../wheels/ (lesson requirements).

import { Res, response } from "./protocol.js";

export const HERE = import.meta.url;
export const LIB = "/lib/werkbank";
export const PYODIDE_URL = new URL("../pyodide/", HERE).href;
export const WHEELS_URL = new URL("../wheels/", HERE).href;

/**
 * A fetch that reports bytes received as a percentage between `from` and `to` of a boot stage. `expected` is a
 * floor for the total (bytes), so the first small file does not look like the whole stage. `base` is the fetch to
 * wrap.
 *
 * The bytes are counted on a clone; the caller gets the response itself. A Response made anew (to count its bytes
 * on the way through) has no URL and no cache entry, so Chromium could never keep the compiled WebAssembly for it
 * (V8's code cache is tied to the URL of a cached response): every visit compiled pyodide.asm.wasm again.
 */
export function meteredFetch(post, runId, stage, from, to, expected, base) {
  let loaded = 0;
  let total = 0;
  let lastReport = 0;
  const report = (force) => {
    if (!force && Date.now() - lastReport < 100) return;
    lastReport = Date.now();
    const part = Math.min(1, loaded / Math.max(total, expected, 1));
    post(response(Res.PROGRESS, runId, { stage, percent: Math.round(from + (to - from) * part), loaded, total }));
  };
  const count = async (copy, length) => {
    const compressed = Boolean(copy.headers.get("content-encoding")); // the body yields more than content-length
    const reader = copy.body.getReader();
    let seen = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (compressed) continue;
      seen += value.byteLength;
      loaded += value.byteLength;
      report(false);
    }
    loaded += length - Math.min(seen, length);
    report(true);
  };
  return async (input, init) => {
    const res = await base(input, init);
    const length = Number(res.headers.get("content-length")) || 0;
    if (!res.ok || !res.body || !length) return res;
    total += length;
    count(res.clone(), length).catch(() => {});
    return res;
  };
}

/** The text of a file relative to the worker, with `fetchFn`. */
export async function fetchText(relative, fetchFn) {
  const url = new URL(relative, HERE);
  const res = await fetchFn(url.href);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.text();
}

/** A safe relative path of the engine (no "..", not absolute). */
function enginePath(path) {
  return typeof path === "string" && !path.includes("..") && !path.startsWith("/");
}

/**
 * Write the engine's {path: source} files below /lib/werkbank in the Pyodide file system and put it on sys.path.
 * `bytecode` ({tag, files: {path: base64 .pyc}}, engine.json's, made at build time) goes into each package's
 * __pycache__, so importing the engine does not compile its source here; Python ignores a .pyc it cannot use.
 */
export function installEngine(pyodide, files, bytecode = null) {
  const entries = Array.isArray(files) ? files.map((f) => [f.path, f.content]) : Object.entries(files || {});
  for (const [path, content] of entries) {
    if (!enginePath(path)) continue;
    const full = `${LIB}/${path}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    pyodide.FS.writeFile(full, String(content));
  }
  const tag = bytecode && typeof bytecode.tag === "string" && /^[a-z0-9_-]+$/.test(bytecode.tag) ? bytecode.tag : "";
  for (const [path, data] of tag ? Object.entries(bytecode.files || {}) : []) {
    if (!enginePath(path) || !path.endsWith(".py") || typeof data !== "string") continue;
    const slash = path.lastIndexOf("/");
    const folder = `${LIB}/${path.slice(0, slash)}/__pycache__`;
    pyodide.FS.mkdirTree(folder);
    pyodide.FS.writeFile(`${folder}/${path.slice(slash + 1, -3)}.${tag}.pyc`, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
  }
  pyodide.runPython(`import sys\nif ${JSON.stringify(LIB)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB)})`);
}

/**
 * Start Pyodide. `fetchFn` is the fetch Pyodide's loader sees while it loads (globalThis.fetch is set to it for the
 * duration). Resolves to the pyodide object.
 */
export async function startPyodide({ post, runId, emit, fetchFn }) {
  const { loadPyodide } = await import("../pyodide/pyodide.mjs");
  const before = self.fetch;
  self.fetch = meteredFetch(post, runId, "runtime", 2, 70, 12_000_000, fetchFn); // wasm + stdlib, ~12.5 MB
  try {
    return await loadPyodide({
      indexURL: PYODIDE_URL,
      stdout: (line) => emit("stdout", line + "\n"),
      stderr: (line) => emit("stderr", line + "\n"),
    });
  } finally {
    self.fetch = before;
  }
}

/** Load numpy (and micropip when `micropip`), with `fetchFn` as the global fetch meanwhile. */
export async function loadPackages(pyodide, names, { post, runId, fetchFn }) {
  const before = self.fetch;
  self.fetch = meteredFetch(post, runId, "numpy", 70, 92, 3_000_000, fetchFn); // the numpy wheel, ~3 MB
  try {
    await pyodide.loadPackage(names, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  } finally {
    self.fetch = before;
  }
}

/** Parse a JSON string a Python entry point returned; anything else is an error. */
export function fromPython(value, what) {
  if (typeof value !== "string") throw new Error(`${what} returned ${typeof value}, not JSON text`);
  return JSON.parse(value);
}

/** True when Pyodide can no longer be used (its fatal error handler ran, or it stopped answering). */
export function isFatal(pyodide, error) {
  if (error && (error.pyodide_fatal_error || /fatal(ly)? (error|failed)/i.test(String(error.message || "")))) return true;
  if (!pyodide) return false;
  try {
    pyodide.runPython("None");
    return false;
  } catch {
    return true;
  }
}
