// Every use of Pyodide's private or undocumented internals, in one module, each checked against the one Pyodide
// version it was written for. Nothing else in web/src may touch `pyodide._api`, `pyodide._module`, write to
// `pyodide.loadedPackages` or rely on how `loadPyodide` fetches and instantiates its WebAssembly.
//
// Why they are used at all: a worker installs numpy from its wheel unpacked in JavaScript rather than through
// `loadPackage` (which unpacks in Python inside WebAssembly and imports importlib.metadata), and the workers of a
// page share one compiled runtime. Both mirror what Pyodide does itself, through internals it does not promise to
// keep. So each export first checks that the running Pyodide is SUPPORTED_VERSION and throws otherwise: upgrading
// Pyodide means reading each function below against the new version's source, then changing PYODIDE_VERSION in
// werkbank/vendor/files.py (the build compiles that constant in here, and refuses a node_modules/pyodide of
// another version).

/* global PYODIDE_VERSION */

/**
 * The Pyodide version these internals were written for: werkbank/vendor/files.py PYODIDE_VERSION, compiled in by
 * the build (esbuild's --define). null when the module runs unbundled without it (every export then throws).
 */
export const SUPPORTED_VERSION = typeof PYODIDE_VERSION === "string" ? PYODIDE_VERSION : null;

/**
 * Throw unless `version` (a Pyodide version string) is SUPPORTED_VERSION. `what` names the internal use in the
 * message, so the error says what to re-check.
 */
export function checkVersion(version, what) {
  if (SUPPORTED_VERSION === null) {
    throw new Error(`werkbank: ${what} needs PYODIDE_VERSION, which the build compiles in (werkbank/assets.py)`);
  }
  if (version !== SUPPORTED_VERSION) {
    throw new Error(
      `werkbank: ${what} uses internals of Pyodide ${SUPPORTED_VERSION}, but this is Pyodide ` +
        `${version}; check web/src/pyodide_private.js against it before changing PYODIDE_VERSION`,
    );
  }
}

/**
 * Run Pyodide's `loadPyodide(options)` (from the module pyodide.mjs, passed as `mjs`, whose `version` is checked)
 * with the runtime's WebAssembly taken over, and resolve to {pyodide, shared}.
 *
 * Relies on how Pyodide loads its runtime: it fetches `wasmUrl` with the global `fetch` and hands the response to
 * `WebAssembly.instantiateStreaming`. For the duration of the call the global fetch is `fetchFn` (what the loader
 * sees for every file) and instantiateStreaming is replaced: with `runtime` (a WebAssembly.Module compiled
 * elsewhere) it instantiates that module and never reads the wasm's bytes (`shared` is then true); without one, or
 * when that fails, it compiles from the response (streaming, so V8's code cache still serves it) and calls
 * `onCompiled(module)` before Python starts. Both globals are restored afterwards, whatever happened.
 */
export async function loadPyodideSharing(mjs, options, { wasmUrl, fetchFn, runtime = null, onCompiled = null }) {
  checkVersion(mjs.version, "sharing one compiled runtime");
  const before = self.fetch;
  // a compiled runtime: nothing to fetch for the wasm (Pyodide asks for it all the same; the body is never read)
  self.fetch = (input, init) =>
    runtime && String(input && input.url ? input.url : input) === wasmUrl
      ? Promise.resolve(new Response(new Uint8Array(0), { headers: { "content-type": "application/wasm" } }))
      : fetchFn(input, init);
  const streaming = WebAssembly.instantiateStreaming;
  let shared = false;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (runtime) {
      try {
        const instance = await WebAssembly.instantiate(runtime, imports);
        shared = true;
        return { module: runtime, instance };
      } catch (error) {
        const why = (error && error.message) || error;
        console.warn(`werkbank: the page's compiled runtime did not instantiate (${why}); compiling it here`);
        source = fetchFn(wasmUrl);
      }
    }
    const module = await WebAssembly.compileStreaming(source);
    if (onCompiled) onCompiled(module);
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  try {
    const pyodide = await mjs.loadPyodide(options);
    return { pyodide, shared };
  } finally {
    self.fetch = before;
    WebAssembly.instantiateStreaming = streaming;
  }
}

/**
 * Pyodide's internal API object (`pyodide._api`), for a caller that must keep it before the object loses it (a
 * learner worker's lockdown takes `_api` off `pyodide`) and pass it to the functions below.
 */
export function internals(pyodide) {
  checkVersion(pyodide.version, "Pyodide's internal API (pyodide._api)");
  return pyodide._api;
}

/**
 * The interpreter's site-packages folder, where Pyodide's own loader installs a wheel (`_api.sitepackages`).
 * `api`, here and below: Pyodide's internal API object (null: `pyodide._api`); a learner worker passes the one
 * it kept, since its lockdown takes `_api` off the pyodide object.
 */
export function sitePackages(pyodide, api = null) {
  checkVersion(pyodide.version, "site-packages (pyodide._api.sitepackages)");
  return String((api || pyodide._api).sitepackages);
}

/**
 * A fingerprint of a shared library's bytes for finding the module compiled from them (loadSharedLibraries): its
 * size, then FNV-1a over its first 4 KB (the dylink section and the imports) and every 61st byte after. Only modules
 * compiled from the same verified wheel by a worker of the same page are looked up by it.
 */
export function libraryPrint(bytes) {
  let hash = 0x811c9dc5;
  const head = Math.min(bytes.length, 4096);
  const step = (at) => {
    hash ^= bytes[at];
    hash = Math.imul(hash, 0x01000193) >>> 0;
  };
  for (let at = 0; at < head; at++) step(at);
  for (let at = head; at < bytes.length; at += 61) step(at);
  return `${bytes.length}:${hash.toString(16)}`;
}

/**
 * Load a wheel's shared libraries (full paths of files already written, in archive order) the way Pyodide's own
 * loadPackage does after unpacking it (`_api.loadDynlibsFromPackage`); `fileName` is the wheel's file name, from
 * which Pyodide derives the package's `<name>.libs` folder. Resolves to [{print, module, shared}]: the WebAssembly
 * module each library was instantiated from, by libraryPrint of its bytes (`shared`: it came from `compiled`).
 *
 * `compiled`: such a list from another worker of the page. A library whose bytes have a module there is instantiated
 * from it instead of being compiled again, so the page's workers share one compiled copy of numpy, and the code an
 * engine has optimised in one worker runs optimised in the next (WebKit optimises WebAssembly only once it runs hot,
 * and a learner worker serves one Check). Relies on how Pyodide's loader (Emscripten's dynamic linking) instantiates
 * a library: `WebAssembly.instantiate(bytes, imports)`, resolving to {module, instance}. For the duration of the
 * call that function is wrapped; it is restored afterwards, whatever happened.
 */
export async function loadSharedLibraries(pyodide, fileName, paths, api = null, compiled = null) {
  checkVersion(pyodide.version, "loading shared libraries (pyodide._api.loadDynlibsFromPackage)");
  // as unpackWheel accepted it (protocol.js checks every entry); a module that does not instantiate is compiled below
  const given = new Map((compiled || []).map((entry) => [entry.print, entry.module]));
  const used = [];
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (source, imports, ...rest) => {
    const bytes = ArrayBuffer.isView(source)
      ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
      : source instanceof ArrayBuffer
        ? new Uint8Array(source)
        : null;
    if (!bytes) return instantiate.call(WebAssembly, source, imports, ...rest);
    const print = libraryPrint(bytes);
    const module = given.get(print);
    const made = module
      ? instantiate.call(WebAssembly, module, imports).then(
          (instance) => ({ module, instance }),
          (error) => {
            console.warn(
              `werkbank: a shared library did not instantiate from the page's copy (${error}); compiling it`,
            );
            return instantiate.call(WebAssembly, source, imports);
          },
        )
      : instantiate.call(WebAssembly, source, imports);
    return made.then((result) => {
      used.push({ print, module: result.module, shared: result.module === module });
      return result;
    });
  };
  try {
    await (api || pyodide._api).loadDynlibsFromPackage({ file_name: fileName }, paths);
  } finally {
    WebAssembly.instantiate = instantiate;
  }
  return used;
}

/**
 * Record a wheel installed into site-packages by hand as Pyodide's loadPackage records its own: the dist-info's
 * INSTALLER and PYODIDE_SOURCE files (`distInfo`: its folder name, or null when the wheel has none) and the package
 * in `pyodide.loadedPackages`, so that a later loadPackage of it installs nothing again.
 */
export function recordInstalled(pyodide, name, distInfo, api = null) {
  checkVersion(pyodide.version, "recording an installed package (pyodide.loadedPackages)");
  if (distInfo) {
    const site = sitePackages(pyodide, api);
    pyodide.FS.writeFile(`${site}/${distInfo}/INSTALLER`, "pyodide.loadPackage");
    pyodide.FS.writeFile(`${site}/${distInfo}/PYODIDE_SOURCE`, "pyodide");
  }
  pyodide.loadedPackages[name] = "default channel";
}
