/* Registers the table tablet's service worker (/sw.js, static/service-worker.js)
   from the table screen of a table's device (data-sw on this script's tag names it), then asks
   it to keep this page and the static files it loaded (they were fetched before the worker
   controlled the page), so a reload while offline still opens the table screen.

   window.TabletSW = {ready: Promise of the number of files kept, kept: that number once done}
   (a "tablet-sw" event on document says when). No service worker (an old browser, a page that
   is not a table's device): ready resolves to 0 and the table works online as before. */
(function () {
  'use strict';
  const tag = document.currentScript;
  const url = tag && tag.dataset.sw;
  const state = {kept: null, ready: null};
  window.TabletSW = state;

  function loaded() {
    const urls = [location.pathname];
    for (const entry of performance.getEntriesByType('resource')) {
      const u = new URL(entry.name, location.href);
      if (u.origin === location.origin && u.pathname.startsWith('/static/')) urls.push(u.pathname);
    }
    return urls;
  }

  function keep(worker) {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve((event.data && event.data.kept) || 0);
      worker.postMessage({type: 'keep', urls: loaded()}, [channel.port2]);
    });
  }

  async function register() {
    if (!url || !('serviceWorker' in navigator)) return 0;
    if (!navigator.onLine) return 0;  // opened from the cache: nothing new to keep
    await navigator.serviceWorker.register(url, {scope: '/'});
    const registration = await navigator.serviceWorker.ready;
    return keep(registration.active);
  }

  state.ready = new Promise((resolve) => {
    const go = () => register().catch(() => 0).then((kept) => {
      state.kept = kept;
      document.dispatchEvent(new CustomEvent('tablet-sw', {detail: {kept}}));
      resolve(kept);
    });
    if (document.readyState === 'complete') go();
    else window.addEventListener('load', go, {once: true});
  });
})();
