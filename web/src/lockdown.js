// The learner worker's lockdown: before any learner code runs, take network and code-loading APIs out of reach.
//
// Learner code can reach every global of its worker through Pyodide's `js` module, so whatever is left on the global
// scope (and on the prototypes of reachable objects) is what learner code can use. What this removes:
//
// - network: fetch (replaced by `guard`, see below), XMLHttpRequest, EventSource, WebSocket, WebTransport,
//   navigator.sendBeacon, caches, indexedDB, BroadcastChannel, SharedWorker, Worker, importScripts; and `close`
//   (a worker that closed itself would only leave the page waiting for its time limit);
// - code from strings: eval, the Function / AsyncFunction / GeneratorFunction / AsyncGeneratorFunction constructors
//   (also through `fn.constructor`), and the string forms of setTimeout / setInterval;
// - once sealed, Pyodide's own loaders on the object Python sees as `pyodide_js` (loadPackage,
//   loadPackagesFromImports, _api, _module, mountNativeFS, registerJsModule).
//
// `guard` is the only fetch left, for Pyodide's own loader while numpy and the lesson's wheels load in the
// background after Python is usable: it refuses every request while learner code runs, and any URL outside
// ../pyodide/ and ../wheels/ at any time. `seal()` then refuses everything.

const refuse = (what) =>
  function blocked() {
    throw new TypeError(`${what} is not available to learner code`);
  };

/** Replace (or remove) `name` on `target` so learner code cannot use or restore it. */
function remove(target, name, replacement) {
  try {
    if (!target || !(name in target)) return;
    Object.defineProperty(target, name, { value: replacement, writable: false, configurable: false, enumerable: false });
  } catch {
    try {
      delete target[name];
    } catch {
      /* not ours to change */
    }
  }
}

/** A stand-in for a constructor: `instanceof` still works, calling or constructing throws. */
function inert(original, what) {
  return new Proxy(original, {
    apply() {
      throw new TypeError(`${what} is not available to learner code`);
    },
    construct() {
      throw new TypeError(`${what} is not available to learner code`);
    },
  });
}

/**
 * Lock the worker's global scope down. `allowed` is a list of URL prefixes Pyodide's loader may still fetch from
 * (outside runs); `isRunning()` tells whether learner code is running now. Returns {guard, seal}.
 */
export function lockdown(scope, pyodide, { allowed, isRunning, fetch: realFetch }) {
  const URLc = scope.URL;
  const StringC = String;
  let sealed = false;
  const guard = function fetch(input, init) {
    // refusals throw at once (inside Pyodide's async loader that is a rejection, for learner code an exception)
    if (sealed || isRunning()) throw new TypeError("fetch is not available to learner code");
    let href;
    try {
      href = new URLc(StringC(input && typeof input === "object" && "url" in input ? input.url : input), scope.location.href).href;
    } catch {
      throw new TypeError("bad URL");
    }
    if (!allowed.some((prefix) => href.startsWith(prefix))) {
      throw new TypeError("fetch is not available to learner code");
    }
    return realFetch(href, init && typeof init === "object" ? { method: "GET", credentials: init.credentials } : undefined);
  };

  // network and workers: on the global object and on every prototype of its chain (WorkerGlobalScope, ...)
  const chain = [];
  for (let o = scope; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) chain.push(o);
  for (const name of ["XMLHttpRequest", "EventSource", "WebSocket", "WebTransport", "BroadcastChannel", "SharedWorker",
    "Worker", "importScripts", "caches", "indexedDB", "RTCPeerConnection", "WebSocketStream", "close"]) {
    for (const target of chain) remove(target, name, undefined);
  }
  if (scope.navigator) {
    for (const name of ["sendBeacon", "serviceWorker"]) remove(Object.getPrototypeOf(scope.navigator), name, undefined);
  }

  // code from strings
  remove(scope, "eval", refuse("eval"));
  const FunctionInert = inert(Function, "Function");
  remove(Function.prototype, "constructor", FunctionInert);
  remove(scope, "Function", FunctionInert);
  for (const sample of [async function () {}, function* () {}, async function* () {}]) {
    const proto = Object.getPrototypeOf(sample);
    remove(proto, "constructor", inert(proto.constructor, "Function"));
  }
  for (const name of ["setTimeout", "setInterval"]) {
    const original = scope[name].bind(scope);
    remove(scope, name, function timer(handler, ...rest) {
      if (typeof handler !== "function") throw new TypeError(`${name} with a string is not available to learner code`);
      return original(handler, ...rest);
    });
  }

  // fetch last: the guard, until sealed (and nothing else named fetch further up the chain)
  for (const target of chain.slice(1)) remove(target, "fetch", guard);
  remove(scope, "fetch", guard);
  return {
    guard,
    /** After numpy and the wheels are in: no fetch at all, and Pyodide's loaders off the `pyodide_js` object. */
    seal() {
      sealed = true;
      // (micropip, used for the lesson's wheels before this, reads pyodide._api when it is imported)
      for (const name of ["loadPackage", "loadPackagesFromImports", "_api", "_module", "mountNativeFS", "registerJsModule"]) {
        remove(pyodide, name, refuse(`pyodide.${name}`));
      }
    },
  };
}
