/* The table tablet's rules engine (issue 34): a Web Worker that runs the server's own
   dealer_assist.rules in Pyodide, so the table keeps dealing when the network drops.

   Served at /tablet/engine-worker.js (web/tablet.py: the one answer whose Content Security
   Policy allows compiling WebAssembly). Everything it loads comes from this server (or from the
   service worker's cache of it): Pyodide's core from /tablet/pyodide/, the engine bundle from
   /tablet/engine.zip. The bundle's SHA-256 must be the hash the page was given (the page got it
   from the server with the page itself): any other bytes and the worker refuses to start and
   answers every call with the same refusal, so the tablet never runs an engine that is not
   the server's.

   Protocol: the page posts {id, op, args}; the worker answers {id, ok: true, result} or
   {id, ok: false, error, ...}. op "init" takes {hash} (once; later inits answer the first
   one's result); every other op calls dealer_assist.tablet.offline.handle(op, JSON args) and
   answers JSON.parse of what it returns. Calls posted while "init" runs wait for it. */
'use strict';

const PYODIDE = '/tablet/pyodide/';
const BUNDLE = '/tablet/engine.zip';
const EXTRACT = '/engine';

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

async function load(expected) {
  if (!/^[0-9a-f]{64}$/.test(expected || '')) {
    throw new Refusal('engine-mismatch', {served: null, expected: expected || null});
  }
  const started = performance.now();
  importScripts(PYODIDE + 'pyodide.js');
  // the bundle downloads while Pyodide boots
  const bundle = fetch(BUNDLE + '?v=' + expected).then((r) => {
    if (!r.ok) throw new Refusal('engine-unavailable', {status: r.status});
    return r.arrayBuffer();
  });
  const pyodide = await loadPyodide({indexURL: PYODIDE, packages: []});
  const buffer = await bundle;
  const served = hex(await crypto.subtle.digest('SHA-256', buffer));
  if (served !== expected) throw new Refusal('engine-mismatch', {served, expected});
  pyodide.unpackArchive(buffer, 'zip', {extractDir: EXTRACT});
  pyodide.runPython(`import sys\nif ${JSON.stringify(EXTRACT)} not in sys.path: sys.path.insert(0, ${JSON.stringify(EXTRACT)})`);
  handle = pyodide.pyimport('dealer_assist.tablet.offline').handle;
  return {hash: served, pyodide: pyodide.version,
          python: pyodide.runPython('import sys; sys.version'),
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
