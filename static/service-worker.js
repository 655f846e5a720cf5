/* The table tablet's service worker, served at /sw.js with scope "/" by
   web/tablet.py, which puts its first line: self.TABLET = {pyodide, engine, files}, the
   Pyodide version, the engine bundle's hash and Pyodide's core files. A new version of either
   is a new service worker: it caches the new files when it installs and drops the old caches
   when it takes over.

   What it keeps, so that a reload while offline still opens the table screen and starts the
   engine:
   - the table screen (/tables/<id>/live) and the static files: network first (what the server
     says now), the cache when the network fails or is slower than NETWORK_WAIT_MS; the screen
     only as the server answers it to the table's device (X-Table-Device: 1), never a person's
     own page, and no longer once the server answers it otherwise (the device revoked);
   - the engine's worker script (/tablet/engine-worker.js) the same way;
   - Pyodide's core (/tablet/pyodide/*): cache first, in a cache named by the Pyodide version;
   - the engine bundle (/tablet/engine.zip?v=<hash>): cache first, by its hash; only bytes whose
     SHA-256 is that hash are ever kept.
   Nothing else is touched: every other request (every step a tap posts, every API call) goes
   straight to the network (the static routing API where the browser has it, else the fetch
   handler returns at once without answering). */
'use strict';

const V = self.TABLET;
const RUNTIME = 'tablet-runtime-' + V.pyodide;
const ENGINE = 'tablet-engine-' + V.engine;
const PAGES = 'tablet-pages';
// (the engine worker keeps its own: 'tablet-snapshot', Python's memory after the import)
const KEEP = new Set([RUNTIME, ENGINE, PAGES, 'tablet-snapshot']);
const NETWORK_WAIT_MS = 4000;
const SCREEN = /^\/tables\/\d+\/live$/;
const WORKER = '/tablet/engine-worker.js';

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/* the bundle of `hash` from the network, into the cache only when its bytes are that hash */
async function fetchEngine(hash) {
  const response = await fetch('/tablet/engine.zip?v=' + hash, {cache: 'no-cache'});
  if (!response.ok) return response;
  const buffer = await response.clone().arrayBuffer();
  if (hex(await crypto.subtle.digest('SHA-256', buffer)) === hash) {
    const cache = await caches.open('tablet-engine-' + hash);
    await cache.put('/tablet/engine.zip?v=' + hash, response.clone());
  }
  return response;
}

async function precache() {
  const runtime = await caches.open(RUNTIME);
  await runtime.addAll(V.files.map((f) => '/tablet/pyodide/' + f));
  await (await caches.open(PAGES)).add(WORKER);
  const engine = await fetchEngine(V.engine);
  if (!engine.ok) throw new Error('engine bundle: ' + engine.status);
}

/* Every request this worker does not keep goes straight to the network without waking it (the
   static routing API): a step a tap posts, an API call, any other page. Where the browser lacks
   it, the fetch handler lets them pass (a woken worker: a few ms). */
async function route(event) {
  if (!event.addRoutes || typeof URLPattern === 'undefined') return;
  const ours = ['/static/*', '/tablet/*', '/tables/:id/live'].map(
    (pathname) => ({urlPattern: new URLPattern({pathname})}));
  try {
    await event.addRoutes([{condition: {not: {requestMethod: 'GET'}}, source: 'network'},
                           {condition: {not: {or: ours}}, source: 'network'}]);
  } catch (err) {
    try {
      await event.addRoutes([{condition: {requestMethod: 'POST'}, source: 'network'}]);
    } catch (err2) { /* the fetch handler lets them pass */ }
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    await route(event);
    await precache();
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('tablet-') && !KEEP.has(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/* The network's answer (kept in PAGES when it is a plain 200), or the cache's when the network
   fails, answers 5xx (the app down behind its TLS proxy: 502, 503, 504) or keeps us waiting
   longer than NETWORK_WAIT_MS (then the network's answer still refreshes the cache when it
   comes). */
async function networkFirst(request, key, deviceOnly) {
  const cache = await caches.open(PAGES);
  const network = fetch(request).then(async (response) => {
    const plain = response.ok && response.type === 'basic' && !response.redirected;
    if (plain && (!deviceOnly || response.headers.get('X-Table-Device') === '1')) {
      await cache.put(key, response.clone());
    } else if (deviceOnly && response.status < 500) {
      await cache.delete(key);  // no longer the device's screen (revoked, a person signed in)
    }
    return response;
  });
  let timer;
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, NETWORK_WAIT_MS); });
  try {
    const first = await Promise.race([network, slow.then(() => null)]);
    if (first && first.status < 500) return first;
    const cached = await cache.match(key);
    return cached || first || await network;
  } catch (err) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function cacheFirst(key, name, fill) {
  const hit = await caches.match(key);
  if (hit) return hit;
  return fill ? fill() : fetch(key).then(async (response) => {
    if (response.ok) await (await caches.open(name)).put(key, response.clone());
    return response;
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith('/tablet/pyodide/')) {
    event.respondWith(cacheFirst(path, RUNTIME));
  } else if (path === '/tablet/engine.zip' && /^[0-9a-f]{64}$/.test(url.searchParams.get('v'))) {
    const hash = url.searchParams.get('v');
    event.respondWith(cacheFirst(path + '?v=' + hash, 'tablet-engine-' + hash,
                                 () => fetchEngine(hash)));
  } else if (SCREEN.test(path) && request.mode === 'navigate') {
    event.respondWith(networkFirst(request, path, true));
  } else if (path.startsWith('/static/') || path === WORKER) {
    event.respondWith(networkFirst(request, path));
  }
});

/* sw-register.js: keep the page that registered us and what it loaded (it was fetched before
   this worker controlled it), answered on the message's port once they are kept */
self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type !== 'keep') return;
  const urls = (data.urls || []).filter((u) => {
    const path = new URL(u, self.location.origin).pathname;
    return SCREEN.test(path) || path.startsWith('/static/');
  });
  event.waitUntil((async () => {
    const cache = await caches.open(PAGES);
    let kept = 0;
    for (const u of urls) {
      try {
        const response = await fetch(u, {credentials: 'same-origin'});
        const screen = SCREEN.test(new URL(u, self.location.origin).pathname);
        if (response.ok && !response.redirected
            && (!screen || response.headers.get('X-Table-Device') === '1')) {
          await cache.put(new URL(u, self.location.origin).pathname, response);
          kept += 1;
        }
      } catch (err) { /* offline already: kept what we could */ }
    }
    if (event.ports[0]) event.ports[0].postMessage({kept});
  })());
});
