// The learner worker's lockdown: before any learner code runs, leave only an allow-list within its reach.
//
// Learner code reaches every member of its worker's global scope through Pyodide's `js` module, every member of
// the prototypes of that scope and of every object it can get hold of (a JsProxy's prototype chain and
// `constructor`), and Pyodide's own API object as `pyodide_js`. So what is left on those objects is what learner
// code can use. `lockdown` walks them and removes everything not named below: the global object and each prototype
// of its chain (DedicatedWorkerGlobalScope, WorkerGlobalScope, EventTarget; whichever members an engine puts on
// which of them), `navigator` and its prototypes, and the `pyodide` API object. What stays is ECMAScript itself,
// the few web APIs Pyodide and this worker use once Python runs (timers, crypto, performance, text codecs, URL,
// MessageChannel, DecompressionStream, structuredClone), and `navigator`'s descriptive members. Everything else
// goes, whatever it is called in a given engine or version: the network (fetch, XMLHttpRequest, WebSocket,
// EventSource, WebTransport, sendBeacon, FontFace and `fonts`, importScripts, Worker, SharedWorker, Notification,
// BroadcastChannel, RTC*), storage of every kind (caches, indexedDB, navigator.storage and the origin-private file
// system, storageBuckets, locks, webkitRequestFileSystem), devices (usb, hid, serial, gpu), postMessage and the
// worker's own message handlers, and Pyodide's loaders (loadPackage, _api, _module, ...).
//
// Some members stay but are replaced:
// - code from strings: `eval` throws; the Function / AsyncFunction / GeneratorFunction / AsyncGeneratorFunction
//   constructors (also reached as `fn.constructor`) throw; setTimeout / setInterval take functions only;
// - EventTarget's addEventListener / removeEventListener / dispatchEvent refuse the worker's global object (so
//   learner code can neither listen to the page's messages nor send the worker a forged one) and work on any other
//   target (MessagePort, AbortSignal, ...).
//
// Nothing that learner code could replace is called after the lockdown: the replacements call the originals with
// Reflect.apply captured here.

/** Own members of the global object (and of its prototypes) that stay. */
export const GLOBALS = new Set([
  // ECMAScript, ECMA-402, WebAssembly, console
  "globalThis",
  "Infinity",
  "NaN",
  "undefined",
  "eval",
  "isFinite",
  "isNaN",
  "parseFloat",
  "parseInt",
  "decodeURI",
  "decodeURIComponent",
  "encodeURI",
  "encodeURIComponent",
  "escape",
  "unescape",
  "AggregateError",
  "Array",
  "ArrayBuffer",
  "AsyncDisposableStack",
  "Atomics",
  "BigInt",
  "BigInt64Array",
  "BigUint64Array",
  "Boolean",
  "DataView",
  "Date",
  "DisposableStack",
  "Error",
  "EvalError",
  "FinalizationRegistry",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "Function",
  "Int8Array",
  "Int16Array",
  "Int32Array",
  "Intl",
  "Iterator",
  "JSON",
  "Map",
  "Math",
  "Number",
  "Object",
  "Promise",
  "Proxy",
  "RangeError",
  "ReferenceError",
  "Reflect",
  "RegExp",
  "Set",
  "SharedArrayBuffer",
  "String",
  "SuppressedError",
  "Symbol",
  "SyntaxError",
  "Temporal",
  "TypeError",
  "Uint8Array",
  "Uint8ClampedArray",
  "Uint16Array",
  "Uint32Array",
  "URIError",
  "WeakMap",
  "WeakRef",
  "WeakSet",
  "WebAssembly",
  "console",
  // the web platform, as far as Pyodide and this worker use it once Python runs
  "constructor",
  "self",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "queueMicrotask",
  "structuredClone",
  "atob",
  "btoa",
  "crypto",
  "performance",
  "navigator",
  "isSecureContext",
  "crossOriginIsolated",
  "addEventListener",
  "removeEventListener",
  "dispatchEvent",
  "TextEncoder",
  "TextDecoder",
  "URL",
  "DOMException",
  "MessageChannel",
  "DecompressionStream",
]);

/** Members of `navigator` (and its prototypes) that stay: what describes the browser, nothing that does anything. */
export const NAVIGATOR = new Set([
  "constructor",
  "hardwareConcurrency",
  "language",
  "languages",
  "userAgent",
  "platform",
  "appCodeName",
  "appName",
  "appVersion",
  "product",
  "onLine",
]);

/** Members of Pyodide's API object (`pyodide_js`) that stay: running Python and its file system, no loaders. */
export const PYODIDE = new Set([
  "ERRNO_CODES",
  "FS",
  "PATH",
  "checkInterrupt",
  "ffi",
  "globals",
  "loadedPackages",
  "pyimport",
  "pyodide_py",
  "runPython",
  "runPythonAsync",
  "toPy",
  "version",
  "length",
  "name",
  "prototype",
]);

const reason = (what) => `${what} is not available to learner code`;

/**
 * Remove every own string-keyed member of `target` not in `allowed`. A member that cannot be deleted (not
 * configurable) is set to undefined when writable; a constant (a primitive value) may stay; anything else is
 * reported in `stuck` as "label.name".
 */
function strip(target, allowed, label, stuck) {
  for (const key of Reflect.ownKeys(target)) {
    if (typeof key !== "string" || allowed.has(key)) continue;
    if (Reflect.deleteProperty(target, key)) continue;
    const desc = Reflect.getOwnPropertyDescriptor(target, key);
    if (!desc) continue;
    if ("value" in desc) {
      const value = desc.value;
      if (value === null || (typeof value !== "object" && typeof value !== "function")) continue; // a constant
      if (desc.writable && Reflect.set(target, key, undefined)) continue;
    }
    stuck.push(`${label}.${key}`);
  }
}

/** `object` and its prototypes below Object.prototype. */
function chainOf(object) {
  const chain = [];
  for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) chain.push(o);
  return chain;
}

/** Put `value` on `target` as `name` for good (not writable, not configurable); false when that is refused. */
function fix(target, name, value) {
  try {
    Object.defineProperty(target, name, { value, writable: false, configurable: false, enumerable: false });
    return true;
  } catch {
    return false;
  }
}

/** The stand-ins `inert` made (a second lockdown in the same realm finds the constructors replaced already). */
const inerts = new WeakSet();

/** A stand-in for a constructor: `instanceof` still works, calling or constructing throws. */
function inert(original, what) {
  if (inerts.has(original)) return original;
  const stand = new Proxy(original, {
    apply() {
      throw new TypeError(reason(what));
    },
    construct() {
      throw new TypeError(reason(what));
    },
  });
  inerts.add(stand);
  return stand;
}

/**
 * Lock `scope` (the worker's global object) and `pyodide` (its API object) down to the allow-lists above. Returns
 * {stuck: ["where.name", ...]}: members not on a list that could not be taken away (empty in the browsers we know;
 * the worker warns about any). Call it once, after the last use of anything it removes.
 */
export function lockdown(scope, pyodide) {
  const apply = Reflect.apply;
  const stuck = [];

  // Replacements first (they capture the originals), then the walks.
  const refuseEval = function evaluate() {
    throw new TypeError(reason("eval"));
  };
  const FunctionInert = inert(Function.prototype.constructor, "Function");
  const constructors = [[Function.prototype, FunctionInert]];
  for (const sample of [async function () {}, function* () {}, async function* () {}]) {
    const proto = Object.getPrototypeOf(sample);
    constructors.push([proto, inert(proto.constructor, "Function")]);
  }
  const timers = {};
  for (const name of ["setTimeout", "setInterval"]) {
    const original = scope[name];
    timers[name] = function timer(handler) {
      if (typeof handler !== "function") throw new TypeError(reason(`${name} with a string`));
      return apply(original, scope, arguments);
    };
  }
  // EventTarget's methods: wherever the engine keeps them on the global object's chain (EventTarget.prototype)
  const events = [];
  for (const target of chainOf(scope)) {
    for (const name of ["addEventListener", "removeEventListener", "dispatchEvent"]) {
      const desc = Reflect.getOwnPropertyDescriptor(target, name);
      if (!desc || typeof desc.value !== "function") continue;
      const original = desc.value;
      events.push([
        target,
        name,
        function listen() {
          if (this === scope) throw new TypeError(reason(`${name} on the worker`));
          return apply(original, this, arguments);
        },
      ]);
    }
  }

  for (const target of chainOf(scope)) strip(target, GLOBALS, target === scope ? "self" : "self.[[Prototype]]", stuck);
  const nav = scope.navigator;
  if (nav) for (const target of chainOf(nav)) strip(target, NAVIGATOR, "navigator", stuck);
  if (pyodide) strip(pyodide, PYODIDE, "pyodide", stuck);
  // Python's module table still holds what Pyodide's own modules imported from the API object before this
  // (`pyodide_js._api`, Pyodide's internal API with its loaders): a member taken off `pyodide` must not stay
  // reachable as a module. (Imported again, it is looked up on the stripped object, and not found.)
  if (pyodide && typeof pyodide.runPython === "function") {
    pyodide.runPython(
      "import sys as _s\nfor _n in [n for n in _s.modules if n.startswith('pyodide_js.')]: del _s.modules[_n]\ndel _s",
    );
  }

  if (!fix(scope, "eval", refuseEval)) stuck.push("self.eval");
  if (!fix(scope, "Function", FunctionInert)) stuck.push("self.Function");
  for (const [proto, replacement] of constructors) {
    if (proto.constructor !== replacement && !fix(proto, "constructor", replacement)) stuck.push("constructor");
  }
  for (const name of ["setTimeout", "setInterval"]) {
    // on the object that has it (the global object in some engines, WorkerGlobalScope.prototype in Chromium)
    const owner = chainOf(scope).find((o) => Object.hasOwn(o, name)) || scope;
    if (!fix(owner, name, timers[name])) stuck.push(`self.${name}`);
  }
  for (const [target, name, replacement] of events) if (!fix(target, name, replacement)) stuck.push(name);
  return { stuck };
}
