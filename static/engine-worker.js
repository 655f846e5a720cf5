/* The table tablet's rules engine: a Web Worker that runs the server's own
   dealer_assist.rules in Pyodide, so the table keeps dealing when the network drops.

   Served at /tablet/engine-worker.js (web/tablet.py: the one answer whose Content Security
   Policy allows compiling WebAssembly). Everything it loads comes from this server (or from the
   service worker's cache of it): Pyodide's core from /tablet/pyodide/, the engine bundle from
   /tablet/engine.zip. The bundle's SHA-256 must be the hash the page was given (the page got it
   from the server with the page itself): any other bytes and the worker refuses to start and
   answers every call with the same refusal, so the tablet never runs an engine that is not
   the server's. The first start keeps a snapshot of Python's memory after the engine's
   import (Cache Storage, by the bundle's hash); later starts restore it, once the bundle's
   hash is checked all the same.

   Protocol: the page posts {id, op, args}; the worker answers {id, ok: true, result} or
   {id, ok: false, error, ...}. op "init" takes {hash} (once; later inits answer the first
   one's result); every other op calls dealer_assist.tablet.offline.handle(op, JSON args) and
   answers JSON.parse of what it returns. Calls posted while "init" runs wait for it. */
'use strict';

const PYODIDE = '/tablet/pyodide/';
const BUNDLE = '/tablet/engine.zip';
const EXTRACT = '/engine';
const SNAPSHOT_CACHE = 'tablet-snapshot';
const SNAPSHOT_KEY = '/tablet/snapshot?engine=';

let starting = null;  // the Promise of the first init: resolves to its result
let handle = null;    // dealer_assist.tablet.offline.handle, once loaded

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

class Refusal extends Error {
  constructor(error, fields) {
    super(error);
    this.fields = Object.assign({error}, fields || {});
  }
}

/* The bundle of `expected`: its bytes, once their SHA-256 is checked (else a refusal). */
async function verified(expected) {
  const response = await fetch(BUNDLE + '?v=' + expected);
  if (!response.ok) throw new Refusal('engine-unavailable', {status: response.status});
  const buffer = await response.arrayBuffer();
  const served = hex(await crypto.subtle.digest('SHA-256', buffer));
  if (served !== expected) throw new Refusal('engine-mismatch', {served, expected});
  return buffer;
}

/* Pyodide's memory right after the engine's import, made on this tablet from the bundle of
   `hash` at its first start and kept in Cache Storage: a warm start restores it instead of
   booting Python and importing the engine again (seconds on a tablet). Pyodide refuses a
   snapshot of another build; a refused one is dropped and Python boots from scratch. */
const snapshots = {
  key: (hash) => SNAPSHOT_KEY + hash,
  async get(hash) {
    try {
      const hit = await (await caches.open(SNAPSHOT_CACHE)).match(this.key(hash));
      return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
    } catch (err) {
      return null;  // no Cache Storage (a private window): boot from scratch
    }
  },
  async put(hash, bytes) {
    try {
      const cache = await caches.open(SNAPSHOT_CACHE);
      for (const old of await cache.keys()) await cache.delete(old);  // one engine at a time
      await cache.put(this.key(hash), new Response(bytes));
    } catch (err) { /* the next start boots from scratch again */ }
  },
  async drop(hash) {
    try { await (await caches.open(SNAPSHOT_CACHE)).delete(this.key(hash)); } catch (err) { /* */ }
  },
};

/* The bundle's files, read in JavaScript (the zip's central directory; stored or deflated
   entries, inflated by the browser's DecompressionStream) while Python boots: much faster
   than unpacking it with Python's zipfile. Null when it cannot (Pyodide unpacks it then). */
async function unzipped(buffer) {
  try {
    const view = new DataView(buffer);
    let end = buffer.byteLength - 22;
    while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
    let at = view.getUint32(end + 16, true);
    const text = new TextDecoder();
    const files = [];
    for (let n = view.getUint16(end + 10, true); n > 0; n -= 1) {
      if (view.getUint32(at, true) !== 0x02014b50) return null;
      const method = view.getUint16(at + 10, true);
      const size = view.getUint32(at + 20, true);
      const nameLength = view.getUint16(at + 28, true);
      const local = view.getUint32(at + 42, true);
      const name = text.decode(new Uint8Array(buffer, at + 46, nameLength));
      if (name.startsWith('/') || name.split('/').includes('..') || ![0, 8].includes(method)) {
        return null;
      }
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      files.push({name, method, raw: new Uint8Array(buffer, start, size)});
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return await Promise.all(files.map(async ({name, method, raw}) => ({name, data: method === 0
      ? raw : new Uint8Array(await new Response(new Blob([raw]).stream()
        .pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer())})));
  } catch (err) {
    return null;
  }
}

function unpack(pyodide, buffer, files) {
  if (!files) {
    pyodide.unpackArchive(buffer, 'zip', {extractDir: EXTRACT});
    return 'pyodide';
  }
  for (const {name, data} of files) {
    const path = EXTRACT + '/' + name;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    pyodide.FS.writeFile(path, data);
  }
  return files.length;
}

/* None when the engine's import left what a snapshot cannot hold (a JavaScript object held by
   Python): every start then boots from scratch, as correct and slower. */
function snapshotOf(pyodide) {
  try {
    return pyodide.makeMemorySnapshot();
  } catch (err) {
    return null;
  }
}

async function boot(snapshot) {
  const options = {indexURL: PYODIDE, packages: []};
  if (snapshot) return loadPyodide(Object.assign(options, {_loadSnapshot: snapshot}));
  return loadPyodide(Object.assign(options, {_makeSnapshot: true}));
}

async function load(expected) {
  if (!/^[0-9a-f]{64}$/.test(expected || '')) {
    throw new Refusal('engine-mismatch', {served: null, expected: expected || null});
  }
  const started = performance.now();
  const phases = {};
  const lap = (name) => { phases[name] = Math.round(performance.now() - started); };
  importScripts(PYODIDE + 'pyodide.js');
  lap('script');
  const [buffer, snapshot] = await Promise.all([verified(expected), snapshots.get(expected)]);
  lap('bundle');
  const files = unzipped(buffer);  // while Python boots
  let pyodide = null;
  if (snapshot) {
    pyodide = await boot(snapshot).catch(() => null);
    if (!pyodide) await snapshots.drop(expected);
  }
  phases.snapshot = Boolean(pyodide);
  const fresh = !pyodide;
  if (fresh) pyodide = await boot(null);
  lap('pyodide');
  // the files again after a snapshot too (its memory holds the imported modules, not the
  // files: a later import or a catalog is read from them)
  phases.files = unpack(pyodide, buffer, await files);
  lap('unpack');
  pyodide.runPython(`import sys\nif ${JSON.stringify(EXTRACT)} not in sys.path: sys.path.insert(0, ${JSON.stringify(EXTRACT)})\nimport dealer_assist.tablet.offline`);
  const memory = fresh ? snapshotOf(pyodide) : null;
  handle = pyodide.pyimport('dealer_assist.tablet.offline').handle;
  lap('engine');
  if (memory) snapshots.put(expected, memory);  // after the answer; the page need not wait
  return {hash: expected, pyodide: pyodide.version,
          python: pyodide.runPython('import sys; sys.version'), phases,
          ms: Math.round(performance.now() - started)};
}

function lastLine(err) {
  const lines = String((err && err.message) || err).trim().split('\n');
  return lines[lines.length - 1];
}

function failure(err) {
  if (err instanceof Refusal) return err.fields;
  return {error: lastLine(err)};
}

async function answer(message) {
  const {id, op, args} = message || {};
  try {
    if (op === 'init') {
      if (!starting) starting = load(args && args.hash);
      return {id, ok: true, result: await starting};
    }
    if (!starting) throw new Refusal('engine-not-started');
    await starting;  // a refused start refuses every call the same way
    if (typeof op !== 'string' || !op) throw new Refusal('bad-op');
    const out = handle(op, JSON.stringify(args === undefined ? {} : args));
    return {id, ok: true, result: JSON.parse(out)};
  } catch (err) {
    return Object.assign({id, ok: false}, failure(err));
  }
}

self.onmessage = (event) => {
  answer(event.data).then((reply) => self.postMessage(reply));
};
