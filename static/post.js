/* One POST from the table screen, sent the same way by the round (static/round.js) and by the
   tablet's offline queue and ping (static/offline.js): the session's CSRF token (the round's
   data-csrf), a form (URLSearchParams) as it is or any other body as JSON, and the answer as
   {status, body}: body null when the answer is not JSON, status 0 when no answer came at all
   (no network, a server away, an aborted request). Never rejects. */
window.tablePost = function (url, body, signal) {
  "use strict";
  var root = document.getElementById("round");
  var headers = {"X-CSRF-Token": root ? root.dataset.csrf : "", "Accept": "application/json"};
  var form = body instanceof URLSearchParams;
  if (!form) { headers["Content-Type"] = "application/json"; }
  return fetch(url, {method: "POST", headers: headers, credentials: "same-origin",
                     body: form ? body : JSON.stringify(body), signal: signal})
    .then(function (r) {
      return r.json().then(function (j) { return {status: r.status, body: j}; },
                           function () { return {status: r.status, body: null}; });
    }, function () { return {status: 0, body: null}; });
};
