// Booting Pyodide inside one of the site's workers: shared by the learner worker and the grader worker.
//
// Everything is addressed relative to the bundled worker (dist/assets/*.js): ../pyodide/ (runtime + numpy),
// ../grading/engine.json (the engine's Python files), ../wheels/ (lesson requirements).

import { Res, response } from "./protocol.js";
import { loadPyodideSharing, loadSharedLibraries, recordInstalled, sitePackages } from "./pyodide_private.js";

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
 * on the way through) would have no URL and no cache entry, so Chromium could not keep the compiled WebAssembly for
 * it (V8's code cache is tied to the URL of a cached response), and every visit would compile pyodide.asm.wasm.
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

/** Bytes from base64 (the browser's own decoder where it has one). */
function fromBase64(text) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * engine.json's files as [[path in the Pyodide FS, content]], needing no Python (so a worker decodes them while the
 * runtime starts): each {path: source} file below /lib/werkbank, and `bytecode` ({tag, files: {path: base64 .pyc}},
 * made at build time) in each package's __pycache__, so importing the engine does not compile its source there.
 * Python ignores a .pyc it cannot use. Unsafe paths and tags are left out.
 */
export function engineFiles(files, bytecode = null) {
  const out = [];
  const entries = Array.isArray(files) ? files.map((f) => [f.path, f.content]) : Object.entries(files || {});
  for (const [path, content] of entries) {
    if (enginePath(path)) out.push([`${LIB}/${path}`, String(content)]);
  }
  const tag = bytecode && typeof bytecode.tag === "string" && /^[a-z0-9_-]+$/.test(bytecode.tag) ? bytecode.tag : "";
  for (const [path, data] of tag ? Object.entries(bytecode.files || {}) : []) {
    if (!enginePath(path) || !path.endsWith(".py") || typeof data !== "string") continue;
    const slash = path.lastIndexOf("/");
    out.push([`${LIB}/${path.slice(0, slash)}/__pycache__/${path.slice(slash + 1, -3)}.${tag}.pyc`, fromBase64(data)]);
  }
  return out;
}

/**
 * Fetch grading/engine.json with `fetchFn` and decode it for writeEngine: resolves to {files, requirements} (the
 * lessons' wheel requirements by lesson id). Needs no Python; never leaves a rejection unhandled.
 */
export function fetchEngine(fetchFn) {
  const ready = fetchText("../grading/engine.json", fetchFn).then((text) => {
    const engine = JSON.parse(text);
    return { files: engineFiles(engine.files || {}, engine.bytecode || null), requirements: engine.requirements || {} };
  });
  ready.catch(() => {});
  return ready;
}

/** Write engineFiles' [[path, content]] into the Pyodide FS and put /lib/werkbank on sys.path. */
export function writeEngine(pyodide, files) {
  const made = new Set();
  for (const [full, content] of files) {
    const folder = full.slice(0, full.lastIndexOf("/"));
    if (!made.has(folder)) {
      pyodide.FS.mkdirTree(folder);
      made.add(folder);
    }
    pyodide.FS.writeFile(full, content);
  }
  pyodide.runPython(
    `import sys\nif ${JSON.stringify(LIB)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB)})`,
  );
}

/**
 * Python's hash seed in every worker: a set or dict of strings is iterated in one order on every Check, so code that
 * depends on that order still gets one verdict (the command line's child processes use the same seed; 64-bit CPython
 * and 32-bit Pyodide hash differently all the same).
 */
export const HASH_SEED = "0";

/** Pyodide's runtime, the WebAssembly module every worker instantiates. */
export const RUNTIME_WASM_URL = new URL("pyodide.asm.wasm", PYODIDE_URL).href;

/**
 * Start Pyodide. `fetchFn` is the fetch Pyodide's loader sees while it loads (globalThis.fetch is set to it for the
 * duration). Resolves to {pyodide, shared: true when it instantiated `runtime`}.
 *
 * `runtime`: the runtime already compiled (a WebAssembly.Module another of the page's workers compiled and the page
 * handed over), or null. With one, Pyodide instantiates it instead of fetching and compiling pyodide.asm.wasm: the
 * workers of a page then share one compiled module, so a new worker compiles nothing and runs the code the others
 * have already optimised. Without one, the runtime is compiled here from its URL (so V8's code cache still serves
 * it) and `onCompiled(module)` is called before Python starts, for the page to hand it on.
 */
export async function startPyodide({ post, runId, emit, fetchFn, runtime: given = null, onCompiled = null }) {
  // only compiled code is taken (whatever else an INIT carried is ignored), instantiated with this worker's own
  // memory and imports
  const runtime = given instanceof WebAssembly.Module ? given : null;
  const mjs = await import("../pyodide/pyodide.mjs");
  const metered = meteredFetch(post, runId, "runtime", 2, 70, runtime ? 4_000_000 : 12_000_000, fetchFn);
  const options = {
    indexURL: PYODIDE_URL,
    stdout: (line) => emit("stdout", `${line}\n`),
    stderr: (line) => emit("stderr", `${line}\n`),
    env: { PYTHONHASHSEED: HASH_SEED }, // the same string hashes on every Check, as in the command line's runs
  };
  return loadPyodideSharing(mjs, options, { wasmUrl: RUNTIME_WASM_URL, fetchFn: metered, runtime, onCompiled });
}

/** The shared-library names Pyodide's installer loads from a wheel (`.so`, `.so.1`, ...). */
const SHAREDLIB = /\.so(\.\d+)*$/;

/** The bytes of a base-16 sha-256 as the `integrity` value of a fetch. */
function integrityOf(hex) {
  if (!/^[0-9a-f]{64}$/.test(String(hex))) return undefined;
  const bytes = String(hex)
    .match(/../g)
    .map((pair) => parseInt(pair, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The file entries of a zip archive (a wheel): [{path, method, size, data}] with `data` still compressed. Only what
 * a wheel uses: no ZIP64, no encryption, methods 0 (stored) and 8 (deflate). Throws on anything else.
 */
export function zipEntries(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  while (end >= stop && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < stop) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new Error("ZIP64 archive");
  const names = new TextDecoder("utf-8", { fatal: true });
  const out = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("bad zip central directory");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const path = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (path.endsWith("/")) continue;
    if (flags & 1) throw new Error(`${path}: encrypted`);
    if (method !== 0 && method !== 8) throw new Error(`${path}: compression method ${method}`);
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`${path}: bad local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    out.push({ path, method, size, data: bytes.subarray(start, start + packed) });
  }
  return out;
}

/**
 * Inflate one entry with the browser's own zlib (DecompressionStream), checking its size. Written and read by hand:
 * a Blob's stream piped into a Response is slower per entry in Chromium, and numpy's wheel has hundreds of entries.
 */
async function inflate(entry) {
  if (entry.method === 0) return entry.data.slice();
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  writer.write(entry.data).catch(() => {}); // a failure shows in the reader too
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const parts = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  if (length !== entry.size) throw new Error(`${entry.path}: ${length} bytes, not ${entry.size}`);
  if (parts.length === 1) return parts[0];
  const data = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  return data;
}

/** True when this browser can inflate a wheel itself (DecompressionStream with raw deflate): fetchWheel works. */
export function canUnpack() {
  try {
    new DecompressionStream("deflate-raw");
    return true;
  } catch {
    return false;
  }
}

/**
 * Fetch the wheel at `url` (checked against the base-16 `sha256`, as the fetch's `integrity`) and unpack it here:
 * resolves to {name, fileName, files: [{path, data}]} for installWheel. Refuses a wheel with a `.data` folder.
 */
export async function fetchArchive(url, sha256, name, fetchFn) {
  const fileName = new URL(url).pathname.split("/").pop();
  const integrity = integrityOf(sha256);
  if (!integrity) throw new Error(`${name}: no sha-256`);
  const res = await fetchFn(url, { integrity });
  if (!res.ok) throw new Error(`${fileName}: HTTP ${res.status}`);
  const entries = zipEntries(new Uint8Array(await res.arrayBuffer()));
  if (entries.some((e) => e.path.split("/")[0].endsWith(".data"))) throw new Error(`${fileName}: data files`);
  const files = [];
  for (const e of entries) files.push({ path: e.path, data: await inflate(e) }); // one at a time: less memory, as fast
  return { name, fileName, files };
}

/**
 * Fetch a package of ../pyodide/pyodide-lock.json and unpack it here, with no side effect on any interpreter:
 * resolves to {name, fileName, files: [{path, data}]} for installWheel. It needs no Python, so a worker can do it
 * before its runtime starts (the held grader worker does). The wheel is checked against the lock's sha-256 (the
 * fetch's `integrity`), as Pyodide's own loadPackage does.
 *
 * Why not pyodide.loadPackage: it unpacks in Python inside WebAssembly (a temporary file, zipfile, zlib compiled
 * to wasm, then the archive read twice more) and then imports importlib.metadata; DecompressionStream inflates
 * natively, in a fraction of that time. And a learner worker needs no global fetch for it (see lockdown.js).
 */
export async function fetchWheel(name, fetchFn) {
  const lockRes = await fetchFn(new URL("pyodide-lock.json", PYODIDE_URL).href);
  if (!lockRes.ok) throw new Error(`pyodide-lock.json: HTTP ${lockRes.status}`);
  const entry = ((await lockRes.json()).packages || {})[name];
  if (
    !entry ||
    !/^[\w.+-]+\.whl$/.test(entry.file_name) ||
    (entry.depends || []).length ||
    entry.install_dir !== "site"
  ) {
    throw new Error(`${name}: not a self-contained wheel in the lock`);
  }
  return fetchArchive(new URL(entry.file_name, PYODIDE_URL).href, entry.sha256, name, fetchFn);
}

/**
 * A lesson's wheel from ../wheels/ ({name, file, sha256}, as grading/engine.json lists them), unpacked for
 * installWheel: a learner worker installs the lesson's pure-Python wheels this way, with the fetch it kept, rather
 * than through micropip (which needs a global fetch and Pyodide's loaders).
 */
export function fetchLessonWheel(requirement, fetchFn) {
  const file = String(requirement && requirement.file);
  if (!/^[\w.+-]+\.whl$/.test(file)) return Promise.reject(new Error(`${file}: not a wheel file name`));
  return fetchArchive(new URL(file, WHEELS_URL).href, requirement.sha256, String(requirement.name), fetchFn);
}

/**
 * Install what fetchWheel unpacked into site-packages, as Pyodide's loadPackage would: the files, the dist-info's
 * INSTALLER and PYODIDE_SOURCE, the package's shared libraries loaded in archive order, and the package marked
 * loaded (a later loadPackage of it does nothing). `api`: Pyodide's internal API, from pyodide_private.js internals()
 * (a learner worker passes the one it kept: the lockdown takes `_api` off the pyodide object); null: the object's own.
 * A wheel unpacked by another worker may carry `compiled`, its shared libraries as that worker compiled them, which
 * are instantiated rather than compiled again. Resolves to the libraries' compiled modules (loadSharedLibraries).
 */
export async function installWheel(pyodide, wheel, api = null) {
  const site = sitePackages(pyodide, api);
  const unsafe = wheel.files.find(
    ({ path }) => path.startsWith("/") || path.split("/").some((part) => part === ".." || part === ""),
  );
  if (unsafe) throw new Error(`${wheel.fileName}: unsafe path ${unsafe.path}`); // before anything is written
  const made = new Set();
  const libs = [];
  for (const { path, data } of wheel.files) {
    const full = `${site}/${path}`;
    const folder = full.slice(0, full.lastIndexOf("/"));
    if (!made.has(folder)) {
      pyodide.FS.mkdirTree(folder);
      made.add(folder);
    }
    pyodide.FS.writeFile(full, data);
    if (SHAREDLIB.test(path)) libs.push(full);
  }
  // The import system may have listed site-packages before these files existed; refresh only that folder's finder
  // (importlib.invalidate_caches(), which loadPackage calls, also imports importlib.metadata, a slow import).
  pyodide.runPython(
    `import sys\n_f = sys.path_importer_cache.get(${JSON.stringify(site)})\nif _f is not None: _f.invalidate_caches()\ndel _f`,
  );
  const compiled = await loadSharedLibraries(pyodide, wheel.fileName, libs, api, wheel.compiled || null);
  const distInfo = [...new Set(wheel.files.map((f) => f.path.split("/")[0]))].find((d) => d.endsWith(".dist-info"));
  recordInstalled(pyodide, wheel.name, distInfo || null, api);
  return compiled;
}

/**
 * numpy into `pyodide`: from `wheel` (a fetchWheel("numpy") promise, started as early as possible) when it
 * unpacked, else through Pyodide's own `loadPackage` (given, since the learner worker's lockdown takes it off the
 * pyodide object), with `fetchFn` as the global fetch meanwhile if given: a browser without DecompressionStream, or
 * an archive fetchWheel does not read. Resolves to numpy's compiled shared libraries (installWheel), or to null after
 * loadPackage.
 */
export async function loadNumpy(pyodide, wheel, { loadPackage, fetchFn }) {
  let unpacked = null;
  try {
    unpacked = await wheel;
  } catch (error) {
    console.warn("werkbank: numpy through loadPackage:", (error && error.message) || error);
  }
  if (unpacked) return installWheel(pyodide, unpacked);
  const before = globalThis.fetch;
  if (fetchFn) globalThis.fetch = fetchFn;
  try {
    await loadPackage(["numpy"], { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  } finally {
    if (fetchFn) globalThis.fetch = before;
  }
  return null;
}

/** Parse a JSON string a Python entry point returned; anything else is an error. */
export function fromPython(value, what) {
  if (typeof value !== "string") throw new Error(`${what} returned ${typeof value}, not JSON text`);
  return JSON.parse(value);
}

/** True when Pyodide can no longer be used (its fatal error handler ran, or it stopped answering). */
export function isFatal(pyodide, error) {
  if (error && (error.pyodide_fatal_error || /fatal(ly)? (error|failed)/i.test(String(error.message || ""))))
    return true;
  if (!pyodide) return false;
  try {
    pyodide.runPython("None");
    return false;
  } catch {
    return true;
  }
}
