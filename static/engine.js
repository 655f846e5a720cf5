/* The page's side of the tablet's rules engine: window.TabletEngine.

     TabletEngine.hash          the engine bundle's SHA-256 the server gave this page
                                (data-engine-hash on this script's tag)
     TabletEngine.start(hash)   -> Promise of {hash, pyodide, python, ms}; starts the worker
                                (static/engine-worker.js) once; rejects with an Error whose
                                .error is e.g. "engine-mismatch" (and .served, .expected) when
                                the bundle is not the one the page was given
     TabletEngine.call(op, args) -> Promise of dealer_assist.tablet.offline.handle's answer
     TabletEngine.ready         true once the engine answers
     TabletEngine.error         the start's refusal, if any

   Marks performance "engine-start" and "engine-ready" (and the measure "engine-start-ready").
   With data-engine-autostart on its tag (a table's device) it starts AUTOSTART_MS after the
   script ran (or the attribute's number of ms), so the engine is warm before the network drops
   while a tablet passing through the screen costs nothing; call start to have it at once
   (e.g. at the first failed request: it is idempotent). A start that failed may be tried again
   (a new worker). */
(function () {
  'use strict';
  const tag = document.currentScript;
  const WORKER = (tag && tag.dataset.engineWorker) || '/tablet/engine-worker.js';
  const AUTOSTART_MS = 2000;
  let worker = null;
  let started = null;
  let seq = 0;
  const pending = new Map();

  function refusal(message) {
    const err = new Error(message.error || 'engine-error');
    Object.assign(err, message);
    return err;
  }

  function post(op, args) {
    return new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, {resolve, reject});
      worker.postMessage({id, op, args});
    });
  }

  function receive(event) {
    const message = event.data || {};
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(refusal(message));
  }

  function broken(event) {
    const err = refusal({error: 'worker-error', detail: (event && event.message) || ''});
    for (const waiting of pending.values()) waiting.reject(err);
    pending.clear();
  }

  const engine = {
    hash: (tag && tag.dataset.engineHash) || '',
    ready: false,
    error: null,
    start(hash) {
      if (started) return started;
      performance.mark('engine-start');
      engine.error = null;
      worker = new Worker(WORKER);
      worker.onmessage = receive;
      worker.onerror = broken;
      started = post('init', {hash: hash || engine.hash}).then((info) => {
        engine.ready = true;
        performance.mark('engine-ready');
        performance.measure('engine-start-ready', 'engine-start', 'engine-ready');
        document.dispatchEvent(new CustomEvent('tablet-engine', {detail: info}));
        return info;
      }, (err) => {
        engine.error = err;
        worker.terminate();
        started = null;
        document.dispatchEvent(new CustomEvent('tablet-engine', {detail: {error: err.error}}));
        throw err;
      });
      return started;
    },
    call(op, args) {
      if (!started) return Promise.reject(engine.error || refusal({error: 'engine-not-started'}));
      return started.then(() => post(op, args === undefined ? {} : args));
    },
  };
  window.TabletEngine = engine;

  if (tag && tag.dataset.engineAutostart !== undefined && engine.hash) {
    const wait = Number(tag.dataset.engineAutostart || AUTOSTART_MS);
    setTimeout(() => engine.start().catch(() => {}), wait);  // .error says why
  }
})();
