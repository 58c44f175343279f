// Booting Pyodide inside one of the site's workers: shared by the learner worker and the grader worker.
//
// Everything is addressed relative to the bundled worker (dist/assets/*.js): ../pyodide/ (runtime + numpy),
// ../grading/engine.json (the engine's Python files), ../wheels/ (lesson requirements).

import { Res, response } from "./protocol.js";

export const HERE = import.meta.url;
export const LIB = "/lib/werkbank";
export const PYODIDE_URL = new URL("../pyodide/", HERE).href;
export const WHEELS_URL = new URL("../wheels/", HERE).href;
/** The build's memory snapshot of Python (werkbank/snapshot.py), gzip-compressed. */
export const SNAPSHOT_URL = new URL("../snapshot/python.bin.gzip", HERE).href;

/**
 * A fetch that reports bytes received as a percentage between `from` and `to` of a boot stage. `expected` is a
 * floor for the total (bytes), so the first small file does not look like the whole stage. `base` is the fetch to
 * wrap.
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
  return async (input, init) => {
    const res = await base(input, init);
    const length = Number(res.headers.get("content-length")) || 0;
    if (!res.ok || !res.body || !length) return res;
    total += length;
    if (res.headers.get("content-encoding")) {
      // compressed on the wire: the body yields more bytes than content-length says; count the file when done
      res
        .clone()
        .arrayBuffer()
        .then(() => {
          loaded += length;
          report(true);
        })
        .catch(() => {});
      return res;
    }
    const reader = res.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          report(true);
          return;
        }
        loaded += value.byteLength;
        report(false);
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** The text of a file relative to the worker, with `fetchFn`. */
export async function fetchText(relative, fetchFn) {
  const url = new URL(relative, HERE);
  const res = await fetchFn(url.href);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.text();
}

/** Write the engine's {path: source} files below /lib/werkbank in the Pyodide file system and put it on sys.path. */
export function installEngine(pyodide, files) {
  const entries = Array.isArray(files) ? files.map((f) => [f.path, f.content]) : Object.entries(files || {});
  for (const [path, content] of entries) {
    if (typeof path !== "string" || path.includes("..") || path.startsWith("/")) continue;
    const full = `${LIB}/${path}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    pyodide.FS.writeFile(full, String(content));
  }
  pyodide.runPython(`import sys\nif ${JSON.stringify(LIB)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB)})`);
}

/**
 * A fingerprint of a zip archive: its size and an FNV-1a hash of its last 256 KB (the central directory, which holds
 * every member's name, size, offset and CRC, is at the end). The snapshot records the one of the standard library it
 * was made with (werkbank/node/snapshot.mjs); an image restored over another standard library would import from
 * offsets that are no longer true.
 */
export function zipFingerprint(bytes) {
  let hash = 0x811c9dc5;
  for (let i = Math.max(0, bytes.length - 262144); i < bytes.length; i++) {
    hash ^= bytes[i];
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${bytes.length}:${hash.toString(16)}`;
}

/** Throw unless the restored Python was made with the standard library this site serves (now in its file system). */
function checkRestored(pyodide) {
  const [path, expected] = pyodide
    .runPython("import sys\nnext((p for p in sys.path if p.endswith('.zip')), '') + '\\n' + getattr(sys, '_werkbank_stdlib', '')")
    .split("\n");
  const actual = path ? zipFingerprint(pyodide.FS.readFile(path)) : "";
  if (!expected || actual !== expected) throw new Error(`it was made with another standard library (${expected} here ${actual})`);
}

/** The snapshot image, inflated, fetched with `fetchFn`; rejects when it is missing or unreadable. */
async function snapshotImage(fetchFn) {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream here");
  const res = await fetchFn(SNAPSHOT_URL);
  if (!res.ok || !res.body) throw new Error(`${new URL(SNAPSHOT_URL).pathname}: HTTP ${res.status}`);
  const inflated = res.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

/**
 * Start Pyodide. `fetchFn` is the fetch Pyodide's loader sees while it loads (globalThis.fetch is set to it for the
 * duration). With `snapshot`, Python starts from the build's memory snapshot (Pyodide 0.27.7's experimental
 * `_loadSnapshot`: the state right after start-up with the engine's learner host imported, see
 * werkbank/node/snapshot.mjs) instead of starting up; when the image is missing or does not load, it boots as
 * without one and says so in the console. Resolves to {pyodide, snapshot: true when it started from the image}.
 */
export async function startPyodide({ post, runId, emit, fetchFn, snapshot = false }) {
  const { loadPyodide } = await import("../pyodide/pyodide.mjs");
  const before = self.fetch;
  self.fetch = meteredFetch(post, runId, "runtime", 2, 70, 12_000_000, fetchFn); // wasm + stdlib, ~12.5 MB
  const options = {
    indexURL: PYODIDE_URL,
    stdout: (line) => emit("stdout", line + "\n"),
    stderr: (line) => emit("stderr", line + "\n"),
  };
  try {
    if (snapshot) {
      try {
        const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshotImage(fetchFn) });
        // Pyodide keeps its options (API.config), and with them the promise of the 20 MB image it has copied in
        pyodide._api.config._loadSnapshot = null;
        checkRestored(pyodide);
        // every interpreter started from the image would otherwise share its random module's state
        pyodide.runPython("import random as _werkbank_random\n_werkbank_random.seed()\ndel _werkbank_random");
        return { pyodide, snapshot: true };
      } catch (error) {
        console.warn(`werkbank: starting Python from the memory snapshot failed (${(error && error.message) || error}); booting it without one`);
      }
    }
    return { pyodide: await loadPyodide(options), snapshot: false };
  } finally {
    self.fetch = before;
  }
}

/**
 * After a start from the snapshot: the engine modules it holds were imported from this build's engine.json; if the
 * engine text the worker fetched is another one (or cannot be compared), forget them, so they are imported afresh
 * from the files installEngine wrote. `always` forgets them in any case.
 */
export async function forgetSnapshotEngine(pyodide, engineText, always = false) {
  let digest = "";
  try {
    const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(engineText));
    digest = Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  } catch {
    /* no crypto.subtle (not a secure context): compare nothing, forget */
  }
  pyodide.runPython(
    `import sys\nif ${always ? "True" : "False"} or getattr(sys, "_werkbank_engine_sha256", None) != ${JSON.stringify(digest)}:\n` +
      "    for _n in [n for n in sys.modules if n == 'graders' or n.startswith('graders.')]: del sys.modules[_n]",
  );
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
