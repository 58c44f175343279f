// Unit tests for web/src/lockdown.js on made-up global scopes: whichever object of the chain an engine puts a member
// on (the global object itself, as WebIDL's [Global] asks and Firefox does, or WorkerGlobalScope.prototype, as
// Chromium does), everything not on the allow-list goes, and what cannot go is reported.
import assert from "node:assert/strict";
import { test } from "node:test";

const { lockdown, GLOBALS, NAVIGATOR } = await import("../src/lockdown.js");

/** A global-scope-like chain: own members on `self`, the rest on two prototypes (like WorkerGlobalScope, EventTarget). */
function makeScope({ own = {}, scopeProto = {}, eventProto = {}, navigator = {} } = {}) {
  const eventTarget = { ...eventProto };
  const workerScope = Object.assign(Object.create(eventTarget), scopeProto);
  const self = Object.assign(Object.create(workerScope), own);
  const navProto = { ...navigator };
  Object.defineProperty(workerScope, "navigator", { get: () => nav, configurable: true });
  const nav = Object.create(navProto);
  return { self, workerScope, eventTarget, nav, navProto };
}

const noop = () => {};
const timer = function setTimeout(fn) {
  return typeof fn;
};

// lockdown replaces Function.prototype.constructor (and the async/generator ones) for good: run it on this realm once
let realm = null;
function lockedOnce() {
  if (!realm) {
    realm = makeScope({
      own: { fetch: noop, FontFace: noop, Object, eval: globalThis.eval, Function, console, caches: {} },
      scopeProto: { setTimeout: timer, setInterval: timer, indexedDB: {}, fonts: {}, importScripts: noop, crypto: {} },
      eventProto: {
        addEventListener() {
          return "added";
        },
        dispatchEvent() {
          return "sent";
        },
        when: noop,
      },
      navigator: { userAgent: "test", storage: {}, locks: {}, storageBuckets: {}, hardwareConcurrency: 2, gpu: {} },
    });
    const pyodide = {
      runPython: noop,
      FS: {},
      loadPackage: noop,
      _api: {},
      _module: {},
      mountNativeFS: noop,
      version: "x",
    };
    realm.pyodide = pyodide;
    realm.result = lockdown(realm.self, pyodide);
  }
  return realm;
}

test("everything not on the allow-list goes, on the global object and on every prototype of its chain", () => {
  const { self, nav, pyodide, result } = lockedOnce();
  for (const name of ["fetch", "FontFace", "caches", "indexedDB", "fonts", "importScripts", "when"]) {
    assert.equal(self[name], undefined, name);
  }
  for (const name of ["storage", "locks", "storageBuckets", "gpu"])
    assert.equal(nav[name], undefined, `navigator.${name}`);
  assert.equal(nav.userAgent, "test");
  assert.equal(nav.hardwareConcurrency, 2);
  assert.equal(self.Object, Object);
  assert.ok(self.crypto && self.console);
  for (const name of ["loadPackage", "_api", "_module", "mountNativeFS"]) assert.equal(pyodide[name], undefined, name);
  assert.equal(typeof pyodide.runPython, "function");
  assert.deepEqual(result.stuck, []);
});

test("eval, the Function constructors and string timers refuse; function timers still run", () => {
  const { self } = lockedOnce();
  assert.throws(() => self.eval("1"), /eval is not available/);
  assert.throws(() => self.Function("return 1"), /Function is not available/);
  assert.throws(() => new function () {}.constructor("return 1")(), /Function is not available/);
  assert.throws(() => async function () {}.constructor("return 1"), /Function is not available/);
  assert.throws(() => self.setTimeout("code", 0), /setTimeout with a string/);
  assert.equal(
    self.setTimeout(() => {}, 0),
    "function",
  );
  assert.ok((() => {}) instanceof self.Function, "instanceof still works");
});

test("the worker's own events are out of reach; other event targets keep them", () => {
  const { self, eventTarget } = lockedOnce();
  assert.throws(() => self.addEventListener("message", noop), /addEventListener on the worker/);
  assert.throws(() => self.dispatchEvent({}), /dispatchEvent on the worker/);
  const port = Object.create(eventTarget);
  assert.equal(port.addEventListener("message", noop), "added");
  assert.equal(port.dispatchEvent({}), "sent");
});

test("a member that cannot be deleted is reported unless it is a constant", () => {
  const { self } = makeScope({ scopeProto: { setTimeout: timer, setInterval: timer } });
  Object.defineProperty(self, "PERSISTENT", { value: 1, configurable: false });
  Object.defineProperty(self, "stuckApi", { value: {}, configurable: false, writable: false });
  Object.defineProperty(self, "writableApi", { value: {}, configurable: false, writable: true });
  const { stuck } = lockdown(self, null);
  assert.deepEqual(stuck, ["self.stuckApi"]);
  assert.equal(self.writableApi, undefined);
  assert.equal(self.PERSISTENT, 1);
});

test("the allow-lists name no network, storage or code-loading API", () => {
  for (const name of [
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "EventSource",
    "importScripts",
    "Worker",
    "SharedWorker",
    "FontFace",
    "fonts",
    "caches",
    "indexedDB",
    "BroadcastChannel",
    "postMessage",
    "onmessage",
    "close",
    "Blob",
    "Request",
    "Response",
    "Notification",
    "WebTransport",
    "OffscreenCanvas",
    "createImageBitmap",
  ]) {
    assert.ok(!GLOBALS.has(name), name);
  }
  for (const name of [
    "storage",
    "locks",
    "storageBuckets",
    "sendBeacon",
    "serviceWorker",
    "permissions",
    "usb",
    "gpu",
  ]) {
    assert.ok(!NAVIGATOR.has(name), name);
  }
});
