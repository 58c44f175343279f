// werkbank's one service worker: an offline copy of the whole build, and cross-origin isolation on any host.
//
// It is written to dist/sw.js (the site root, so its scope covers every page) by werkbank/offline.py, which puts
// the build's file list in place of the BUILD literal below: {version, files: {"relative/path": "sha256-<b64>"}}.
//
// Caching: one cache per build ("werkbank-<version>"). Every request for a file of the build is answered from that
// cache; a miss is fetched once (checked against the build's sha-256 with fetch's `integrity`), stored, then served.
// The page asks for the rest of the build with {type: "precache"}, so after one visit the whole site works offline.
// A new build's worker copies unchanged files from the old cache and downloads only what changed, and only then
// reports itself "installed" (the page shows "update available"); it takes over when the page posts
// {type: "skip-waiting"}. Old caches are deleted when the new worker activates.
//
// Isolation: a page is crossOriginIsolated (a process of its own, shared with no cross-origin page) only when its document
// comes with COOP same-origin + COEP require-corp. A plain static host sends neither, so every same-origin response
// that passes through here gets COOP, COEP and CORP added when the host did not send them.
//
// Workers: each worker script goes out with its own content security policy (a page's does not reach a worker):
// scripts and requests of the site's origin only (BUILD.workerPolicy, werkbank.offline.WORKER_CSP; not a list of
// URLs, which Firefox does not match in a worker's policy). And a learner worker (learner code runs in it) gets
// nothing from here but the exact files it loads (BUILD.workers, from werkbank.offline.worker_files): any other
// request of its, of any method, to any origin, is a network error. Its paths are compared decoded against the exact list, and what
// it gets is the cached file of that list, never what a host makes of the URL it asked for.

const BUILD = /* @build */ { version: "dev", files: {}, isolation: [], workers: {}, workerPolicy: "" } /* @end-build */;

const PREFIX = "werkbank-";
const CACHE = PREFIX + BUILD.version;
const SCOPE = new URL(self.registration.scope);
const MANIFEST_URL = new URL(".werkbank-manifest.json", SCOPE).href; // the build's file list, kept in its cache
const FILES = new Map(Object.entries(BUILD.files)); // relative path -> "sha256-<base64>"
const PARALLEL = 6;
const ISOLATION = BUILD.isolation; // [name, value] pairs: werkbank.offline.ISOLATION_HEADERS, written in by the build
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const LEARNER_WORKER = "assets/worker.js";
const WORKERS = new Map(Object.entries(BUILD.workers || {})); // worker script -> {script: [...], connect: [...]}
const learner = WORKERS.get(LEARNER_WORKER);
const LEARNER_FILES = new Set(learner ? [...learner.script, ...learner.connect] : []);

const inflight = new Map(); // relative path -> Promise (fetch + store of that file)
let firstInstall = false; // this worker installed with no active one before it (a first visit)

/** The build-relative path a URL stands for ("" and "dir/" mean their index.html), or null outside the scope. */
function pathOf(url) {
  const u = new URL(url);
  if (u.origin !== SCOPE.origin || !u.pathname.startsWith(SCOPE.pathname)) return null;
  let rel;
  try {
    rel = decodeURIComponent(u.pathname.slice(SCOPE.pathname.length));
  } catch {
    return null;
  }
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  return rel;
}

/** The absolute URL (no query) under which a build file is stored. */
function urlOf(path) {
  return new URL(path.split("/").map(encodeURIComponent).join("/"), SCOPE).href;
}

/** The content security policy of a worker script (see the top of this file), or null for any other path. */
function policyOf(path) {
  return WORKERS.has(path) ? BUILD.workerPolicy || null : null;
}

/** The headers this worker puts on a build file's response: isolation, and a worker script's policy. */
function headersFor(path) {
  const policy = policyOf(path);
  return policy ? [...ISOLATION, ["Content-Security-Policy", policy]] : ISOLATION;
}

/** Fetch one build file (verified against its sha-256) and store it; concurrent callers share one download. */
function store(path) {
  let pending = inflight.get(path);
  if (!pending) {
    pending = (async () => {
      const response = await fetch(urlOf(path), {
        integrity: FILES.get(path),
        cache: "no-cache", // revalidate with the host: a stale HTTP-cache copy of an older build never gets in
        credentials: "same-origin",
        redirect: "follow",
      });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      const cache = await caches.open(CACHE);
      // stored with the isolation headers already in place, so `respond` can hand out the Cache API's own response:
      // Chromium reuses the compiled code of a wasm module (V8's code cache) only for a response that came from
      // CacheStorage unchanged, never for a Response the service worker built
      await cache.put(urlOf(path), isolate(response, path));
    })();
    inflight.set(path, pending);
    pending.then(
      () => inflight.delete(path),
      () => inflight.delete(path),
    );
  }
  return pending;
}

/** Entries of older werkbank caches whose bytes equal a file of this build: url -> old cache name. */
async function reusable() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const listed = await cache.match(MANIFEST_URL);
    if (!listed) continue;
    let files;
    try {
      files = await listed.json();
    } catch {
      continue;
    }
    for (const [path, integrity] of Object.entries(files)) {
      if (FILES.get(path) === integrity && !found.has(urlOf(path))) found.set(urlOf(path), name);
    }
  }
  return found;
}

/** Run `task` over `items`, at most `limit` at a time; resolves to the list of errors. */
async function pool(items, limit, task) {
  const errors = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        errors.push(`${item}: ${(error && error.message) || error}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return errors;
}

/** Download order: what Python's boot waits for first (the runtime, then the page's scripts), the rest after. */
function rank(path) {
  if (path.startsWith("pyodide/pyodide.asm") || path === "pyodide/python_stdlib.zip") return 0;
  if (path.startsWith("pyodide/") || path.startsWith("assets/") || path === "grading/engine.json") return 1;
  return 2;
}

/**
 * Make the cache hold every file of the build: copy unchanged files from older caches, download the rest.
 * Resolves to {version, total, fetched, copied, errors}.
 */
async function complete() {
  const cache = await caches.open(CACHE);
  await cache.put(
    MANIFEST_URL,
    new Response(JSON.stringify(BUILD.files), { headers: { "Content-Type": "application/json" } }),
  );
  const have = new Set((await cache.keys()).map((request) => request.url));
  const missing = [...FILES.keys()].filter((path) => !have.has(urlOf(path))).sort((a, b) => rank(a) - rank(b));
  const donors = missing.length ? await reusable() : new Map();
  let copied = 0;
  let fetched = 0;
  const errors = await pool(missing, PARALLEL, async (path) => {
    const url = urlOf(path);
    const donor = donors.get(url);
    if (donor) {
      const old = await (await caches.open(donor)).match(url);
      if (old) {
        await cache.put(url, isolated(old, path) ? old : isolate(old, path));
        copied += 1;
        return;
      }
    }
    await store(path);
    fetched += 1;
  });
  return { version: BUILD.version, total: FILES.size, fetched, copied, errors };
}

/** True when the response already carries every header of headersFor(path) (a worker's policy exactly). */
function isolated(response, path = null) {
  const policy = policyOf(path);
  if (policy && response.headers.get("Content-Security-Policy") !== policy) return false;
  return ISOLATION.every(([name]) => response.headers.has(name));
}

/**
 * The response with COOP/COEP/CORP added where the host left them out, and a worker script's policy in place of
 * any other (opaque responses pass unchanged).
 */
function isolate(response, path = null) {
  if (response.type === "opaque" || response.type === "opaqueredirect" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of headersFor(path)) {
    if (!headers.has(name) || name === "Content-Security-Policy") headers.set(name, value);
  }
  // Always a fresh Response: it also drops the `redirected` flag and the stored URL (index.html for "/").
  return new Response(NULL_BODY.has(response.status) ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** A build file from the cache (stored first if need be), or undefined when it cannot be. */
async function cached(path) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(urlOf(path));
  if (hit) return hit;
  try {
    await store(path);
    return await cache.match(urlOf(path));
  } catch {
    return undefined; // the host's bytes differ from the build's or storage failed
  }
}

async function respond(request) {
  const path = pathOf(request.url);
  if (path !== null && FILES.has(path)) {
    const hit = await cached(path);
    if (hit) return request.mode !== "navigate" && isolated(hit, path) ? hit : isolate(hit, path);
  }
  try {
    return isolate(await fetch(request), path); // not saved (or not storable): the network as is
  } catch (error) {
    if (request.mode === "navigate") {
      return new Response("Offline, and this page is not part of the saved copy of the site.", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    throw error;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      if (self.registration.active) {
        // An update: become "installed" (and so "update available") only with a complete copy of the new build.
        const report = await complete();
        if (report.errors.length) throw new Error(`werkbank: update incomplete: ${report.errors.join("; ")}`);
      } else {
        // The first install: take control at once so the page can reload into isolation quickly (saving the build
        // starts once active, see below).
        firstInstall = true;
        await self.skipWaiting();
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
      // A first install starts saving the build now (the runtime's files first) rather than when the reloaded page
      // asks for it: that page's first requests then join downloads already under way instead of waiting for each
      // to be fetched, checked and stored in turn. Not awaited: the reload must not wait.
      // The page still asks for the full copy with {type: "precache"}, which waits for all of it.
      if (firstInstall) complete().catch(() => {});
    })(),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || typeof data !== "object") return;
  if (data.type === "skip-waiting") {
    event.waitUntil(self.skipWaiting());
  } else if (data.type === "precache") {
    event.waitUntil(
      complete().then(
        (report) => event.source && event.source.postMessage({ type: "precached", ...report }),
        (error) =>
          event.source &&
          event.source.postMessage({ type: "precached", version: BUILD.version, errors: [String(error)] }),
      ),
    );
  } else if (data.type === "version" && event.source) {
    event.source.postMessage({ type: "version", version: BUILD.version });
  }
});

// ---------------------------------------------------------------- learner workers

/** clientId -> "learner" (a learner worker) or "other", for the clients seen so far. */
const roles = new Map();

/** Whether the client that made a request is a learner worker (its script is LEARNER_WORKER). */
async function roleOf(clientId) {
  let role = roles.get(clientId);
  if (role) return role;
  let client = null;
  try {
    client = await self.clients.get(clientId);
  } catch {
    client = null;
  }
  role = client && client.type === "worker" && pathOf(client.url) === LEARNER_WORKER ? "learner" : "other";
  if (client) {
    if (roles.size >= 256) roles.clear(); // clients come and go; a lookup costs little
    roles.set(clientId, role);
  }
  return role;
}

/**
 * What a learner worker gets: a file of its exact list (LEARNER_FILES, compared with the path decoded, so no
 * spelling of a path, "..%2f" or any other, names anything else), always the build's copy of it; anything else is a
 * network error.
 */
async function forLearner(request) {
  const path = request.method === "GET" ? pathOf(request.url) : null;
  if (path === null || !LEARNER_FILES.has(path) || !FILES.has(path)) return Response.error();
  const hit = await cached(path);
  if (hit) return isolated(hit, path) ? hit : isolate(hit, path);
  return isolate(await fetch(urlOf(path), { credentials: "same-origin", integrity: FILES.get(path) }), path);
}

/** Any other client's request: the build's files from the cache, the rest as the browser would fetch it. */
function ordinary(request) {
  if (request.method !== "GET" || new URL(request.url).origin !== SCOPE.origin) return fetch(request);
  return respond(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const role = event.clientId ? roles.get(event.clientId) : "other"; // a navigation has no client yet
  if (role !== "other") {
    // a learner worker's, or a client not seen yet: the answer waits for which it is
    event.respondWith(
      roleOf(event.clientId).then((found) => (found === "learner" ? forLearner(request) : ordinary(request))),
    );
    return;
  }
  if (request.method !== "GET") return;
  if (new URL(request.url).origin !== SCOPE.origin) return; // the site makes no cross-origin requests
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  event.respondWith(respond(request));
});
