/* The pit's live floor: ask for news every few seconds and swap them in, no reload.
   The server answers 304 while nothing changed (ETag), so an idle floor costs one small query.
   Polling, not server-sent events: see docs/operations.md (waitress threads). */
(function () {
  const root = document.querySelector("[data-floor]");
  if (!root) return;
  const url = root.dataset.url;
  const every = Math.max(1, parseFloat(root.dataset.poll || "2")) * 1000;
  let etag = null;
  let busy = false;
  async function tick() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const headers = etag ? {"If-None-Match": etag} : {};
      const resp = await fetch(url, {headers, credentials: "same-origin", cache: "no-store"});
      if (resp.status === 200) {
        etag = resp.headers.get("ETag");
        root.innerHTML = await resp.text();
        root.dataset.updated = String(Date.now());
      } else if (resp.status === 304) {
        root.dataset.checked = String(Date.now());
      } else if (resp.status === 401 || resp.status === 403 || resp.redirected) {
        window.location.reload();
      }
    } catch (e) {
      root.dataset.offline = String(Date.now());
    } finally {
      busy = false;
    }
  }
  setInterval(tick, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
})();
