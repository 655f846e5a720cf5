/* The table keeps dealing when the network drops: window.TableOffline, which
   static/round.js asks before and after each tap.

   Online, a tap goes to the server as always; this file only keeps a mirror of the round (its
   rules and the events each answer says were stored; localStorage, after the screen is drawn)
   and pings the server every 3 s (POST .../live/ping: the floor sees the tablet, the queue).
   When a tap gets no answer (the network, a server restart) or a 503, or while steps wait, the
   tap goes to the tablet's own engine instead (static/engine.js: the server's
   dealer_assist.tablet in Pyodide, checked by its hash): it checks the step and computes the
   screen as the server would, and the step is queued durably (static/offline-queue.js) with its
   idempotency key, expected_seq and the time it was tapped. A banner says OFFLINE and how many
   steps wait. A round may start offline: its number is the server's once it accepts it (until
   then the screen says "provisional").
   Back online, the queue is sent in order through the normal record path, which re-checks every
   step; a refused step stops its round's queue and the screen says which step and why (kept
   until the croupier has read it; the floor page shows it too). Nothing a second person signs
   is done offline: the page's other forms say "needs the server". */
(function () {
  "use strict";
  var root = document.getElementById("round");
  var E = root && root.dataset.engine ? JSON.parse(root.dataset.engine) : null;
  var match = location.pathname.match(/\/tables\/(\d+)\/live/);
  if (!root || !E || !match || !window.TabletEngine || !window.OfflineQueue) { return; }
  var W = JSON.parse(root.dataset.words);
  var tableId = match[1];
  var MIRROR = "da-mirror-" + tableId, REFUSED = "da-refused-" + tableId, SINCE = "da-offline-" + tableId;
  var PING_MS = 3000, TAP_MS = 6000;
  var Q = window.OfflineQueue, T = window.TabletEngine;
  var state = {mirror: null, since: read(SINCE), queued: 0, rounds: 0, syncing: false,
               opened: {}, refused: read(REFUSED) || [], onRound: null, banner: null,
               shown: []};

  function read(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function write(key, value) {
    try {
      if (value === null) { localStorage.removeItem(key); } else { localStorage.setItem(key, JSON.stringify(value)); }
    } catch (e) { /* private mode: the queue in IndexedDB still holds the steps */ }
  }
  function now() { return new Date().toISOString(); }

  /* --- the mirror of the round ---------------------------------------------------------- */
  function fromPage() {
    var r = E.round;
    return r ? {ref: String(r.id), id: r.id, number: r.number, status: r.status, rules: r.rules,
                events: r.events, provisional: false} : null;
  }
  var page = fromPage(), kept = read(MIRROR);
  /* a round the server has closed since (the page shows none open and its last round is this
     one or a later: paid, or voided by a pit boss) is not the tablet's to go on with */
  if (kept && !kept.provisional && !page && E.last_round_id != null && kept.id <= E.last_round_id) {
    kept = null;
  }
  /* the page as the server drew it, unless the tablet went on further (a reload offline: the
     page is the service worker's copy; the mirror holds what was recorded since) */
  state.mirror = kept && (!page || kept.ref === page.ref && lastSeq(kept) > lastSeq(page) ||
                          kept.provisional) ? kept : page;
  function lastSeq(m) { return m && m.events.length ? m.events[m.events.length - 1].seq : 0; }
  function keepMirror() { write(MIRROR, state.mirror); }
  function args(m) {
    return {ref: m.ref, round: {id: m.id, number: m.number, status: m.status, rules: m.rules,
                                events: m.events}, lang: E.lang};
  }

  /* what an online answer says was stored: the mirror follows it */
  function seen(kind, body) {
    if (!body || !body.round) { return; }
    var r = body.round;
    if (kind === "start" || !state.mirror || state.mirror.id !== r.id) {
      state.mirror = {ref: String(r.id), id: r.id, number: r.number, status: r.status,
                      rules: body.rules || E.rules, events: [], provisional: false};
    }
    var m = state.mirror, last = lastSeq(m);
    (body.events || []).forEach(function (e) { if (e.seq > last) { m.events.push(e); } });
    m.status = r.status;
    delete state.opened[m.ref];
    setTimeout(keepMirror, 0);  /* after the screen is drawn: nothing added to the tap */
  }

  /* --- a tap recorded by the tablet's engine ------------------------------------------- */
  function problem(status, detail) {
    return {status: status, body: {type: "about:blank", title: detail, status: status, detail: detail}};
  }
  function engineReady() {
    return T.ready ? Promise.resolve() : T.start();
  }
  function offlineTap(kind, body) {
    var tapped = now();
    if (kind === "step" && body.type === "redeal") {
      return Promise.resolve(problem(409, W["needs the server"]));
    }
    return engineReady().then(function () {
      if (kind === "start") {
        var form = [];
        body.forEach(function (v, k) { form.push([k, v]); });
        var key = body.get("key") || String(Date.now());
        var ref = "p-" + key;
        return T.call("start", {ref: ref, rules: E.rules, number: null, key: key, form: form,
                                lang: E.lang}).then(function (a) {
          if (a.problem) { return {status: a.problem.status, body: a.problem}; }
          state.opened[ref] = true;
          var m = {ref: ref, id: null, number: null, status: "open", rules: E.rules,
                   events: a.events, provisional: true};
          return Q.put({key: key, table_id: tableId, round_ref: ref, kind: "start", form: form,
                        tapped_at: tapped, type: "place"}).then(function () {
            state.mirror = m;
            keepMirror();
            return answer(a, m);
          });
        });
      }
      var m = state.mirror;
      if (!m) { return problem(409, W["needs the server"]); }
      var opening = state.opened[m.ref] ? Promise.resolve() :
        T.call("open", args(m)).then(function () { state.opened[m.ref] = true; });
      return opening.then(function () {
        return T.call("step", {ref: m.ref, type: body.type, payload: body.payload,
                               idempotency_key: body.idempotency_key,
                               expected_seq: body.expected_seq, label: body.label || "",
                               lang: E.lang});
      }).then(function (a) {
        if (a.problem) { return {status: a.problem.status, body: a.problem}; }
        if (!a.created) { return answer(a, m); }
        return Q.put({key: body.idempotency_key, table_id: tableId, round_ref: m.ref, kind: "step",
                      type: body.type, payload: body.payload, expected_seq: body.expected_seq,
                      label: body.label || "", tapped_at: tapped}).then(function () {
          a.events.forEach(function (e) { m.events.push(e); });
          if (a.round && !a.round.open) { m.status = a.round.status; }
          keepMirror();
          return answer(a, m);
        });
      });
    }).then(function (res) { return counted().then(function () { return res; }); },
      function () {  /* no engine (it is not the server's, or it could not start) */
        return {status: 0, body: null};
      });
  }
  function answer(a, m) {
    var r = a.round;
    r.offline = true;
    if (m.provisional) { r.number = null; r.provisional = true; }
    if (m.id !== null) { r.id = m.id; }
    /* the screens drawn offline, newest last (a tablet's own trail: the browser tests compare
       each with the server's screen of the same events) */
    state.shown.push({ref: m.ref, round: JSON.parse(JSON.stringify(r))});
    if (state.shown.length > 200) { state.shown.shift(); }
    return {status: a.created ? 201 : 200, body: {round: r, created: a.created, paid: a.paid, offline: true}};
  }

  /* --- the queue going out ----------------------------------------------------------------- */
  function counted() {
    return Q.all(tableId).then(function (items) {
      state.queued = items.length;
      var refs = {};
      items.forEach(function (i) { refs[i.round_ref] = true; });
      state.rounds = Object.keys(refs).length;
      banner();
      return items;
    });
  }
  function sendItem(item, ids) {
    if (item.kind === "start") {
      var form = new URLSearchParams();
      item.form.forEach(function (pair) { form.append(pair[0], pair[1]); });
      form.set("tapped_at", item.tapped_at);
      form.set("offline", "1");
      return window.tablePost(document.querySelector("[data-bets]").action, form);
    }
    var id = ids[item.round_ref] || (/^\d+$/.test(item.round_ref) ? item.round_ref : null);
    if (!id) { return Promise.resolve({status: 409, body: {detail: W["needs the server"]}}); }
    return window.tablePost(root.dataset.steps.replace("/0/", "/" + id + "/"),
                            {type: item.type, payload: item.payload, idempotency_key: item.key,
                             expected_seq: item.expected_seq, label: item.label,
                             tapped_at: item.tapped_at, offline: true});
  }
  function sync() {
    if (state.syncing) { return Promise.resolve(); }
    state.syncing = true;
    var ids = read("da-ids-" + tableId) || {}, stopped = {}, last = null;
    function next() {
      return Q.all(tableId).then(function (items) {
        var item = items.filter(function (i) { return !stopped[i.round_ref]; })[0];
        if (!item) { return true; }
        return sendItem(item, ids).then(function (res) {
          if (!res.status || res.status >= 500) { return false; }  /* still away: later */
          if (res.status < 300) {
            if (item.kind === "start") {
              ids[item.round_ref] = res.body.round.id;
              write("da-ids-" + tableId, ids);
              if (state.mirror && state.mirror.ref === item.round_ref) {
                state.mirror.id = res.body.round.id;
                state.mirror.number = res.body.round.number;
                state.mirror.provisional = false;
                keepMirror();
              }
            }
            if (state.mirror && state.mirror.ref === item.round_ref) { last = res.body; }
            return Q.remove(item.key).then(next);
          }
          /* refused: the round's queue stops here; the step and the ones after it are kept
             with the reason until the croupier has read it */
          stopped[item.round_ref] = true;
          var rest = items.filter(function (i) { return i.round_ref === item.round_ref; });
          state.refused.push({round: ids[item.round_ref] || null,
                              number: item.number || (state.mirror && state.mirror.ref === item.round_ref ? state.mirror.number : null),
                              step: item.label || item.type, type: item.type,
                              detail: (res.body && (res.body.detail || res.body.title)) || String(res.status),
                              tapped_at: item.tapped_at, later: rest.length - 1,
                              items: rest});
          write(REFUSED, state.refused);
          return Promise.all(rest.map(function (i) { return Q.remove(i.key); })).then(next);
        });
      });
    }
    return next().then(function (drained) {
      state.syncing = false;
      return counted().then(function () {
        if (!drained) { return; }
        if (state.refused.length) {
          write(MIRROR, null);  /* the server's round is the record: show it as it is */
          write(SINCE, null);  /* and it answered: online again */
          location.reload();
          return;
        }
        online();
        if (last && state.onRound) { state.onRound(last); }
      });
    }, function () { state.syncing = false; });
  }

  /* --- online, offline ---------------------------------------------------------------------- */
  function offline() {
    if (!state.since) { state.since = now(); write(SINCE, state.since); }
    document.body.classList.add("offline");
    banner();
  }
  function online() {
    if (state.queued) { return; }
    state.since = null;
    write(SINCE, null);
    document.body.classList.remove("offline");
    banner();
  }
  function banner() {
    var b = state.banner;
    if (!b) {
      b = state.banner = document.createElement("p");
      b.className = "offline-banner";
      b.setAttribute("role", "status");
      b.setAttribute("data-offline-banner", "");
      var main = document.querySelector("main") || document.body;
      main.insertBefore(b, main.firstChild);
    }
    var refused = state.refused.map(function (r) {
      return W["refused step"].replace("%(number)s", r.number === null || r.number === undefined ? "" : r.number)
        .replace("%(why)s", r.detail)
        + (r.later ? " " + W["later steps kept"].replace("%(n)s", r.later) : "");
    });
    var lines = [];
    if (state.since || state.queued) {
      lines.push(W.OFFLINE + " · " + W["steps waiting"].replace("%(n)s", state.queued)
                 + (T.error ? " · " + W["engine refused"] : ""));
    }
    b.textContent = "";
    lines.concat(refused).forEach(function (text, i) {
      var line = document.createElement("span");
      line.textContent = text;
      if (i >= lines.length) { line.className = "refused"; line.setAttribute("data-offline-refused", ""); }
      b.appendChild(line);
    });
    if (state.refused.length) {
      var ok = document.createElement("button");
      ok.type = "button";
      ok.className = "secondary";
      ok.textContent = W["I have read it"];
      ok.setAttribute("data-offline-read", "");
      ok.addEventListener("click", function () { state.refused = []; write(REFUSED, []); banner(); });
      b.appendChild(ok);
    }
    b.hidden = !lines.length && !refused.length;
    b.classList.toggle("away", !!state.since);
  }
  function ping() {
    var body = {queued_steps: state.queued, queued_rounds: state.rounds, offline_since: state.since};
    return window.tablePost(root.dataset.ping, body).then(function (res) {
      if (!res.status || res.status >= 500) { offline(); return; }
      if (state.queued) { return sync(); }
      online();
    });
  }

  window.TableOffline = {
    /* which of round.js's taps the tablet can record itself */
    route: function (url, body) {
      if (body instanceof URLSearchParams) { return "start"; }
      return body && body.type && url.indexOf("/live/rounds/") >= 0 ? "step" : null;
    },
    /* taps go to the tablet's engine: the server was away at the last try, or steps wait */
    active: function () { return !!(state.since || state.queued || state.syncing); },
    usable: function () { return !T.error; },
    timeout: TAP_MS,
    tap: function (kind, url, body) { offline(); return offlineTap(kind, body); },
    /* the engine asked, nothing recorded: "refine" (a step knowing what was entered so far),
       "suggest" (a Big/Small split) */
    ask: function (kind, body) {
      var m = state.mirror;
      if (!m) { return Promise.reject(new Error("no round")); }
      return engineReady().then(function () {
        return state.opened[m.ref] ? null : T.call("open", args(m)).then(function () { state.opened[m.ref] = true; });
      }).then(function () {
        return T.call(kind, {ref: m.ref, type: body.type, payload: body.payload, lang: E.lang});
      }).then(function (a) { return a.problem || a; });
    },
    seen: seen,
    onRound: function (fn) { state.onRound = fn; },
    /* the round as the tablet knows it, when the page's copy is older (a reload offline) */
    restore: function () {
      var m = state.mirror;
      /* further than the page: a round not yet the server's, the page's own round with steps
         the page lacks, or an open round the page does not show (a round over is not shown
         again: the page's bets form is the next thing to do) */
      var further = m && (m.provisional || (E.round ? lastSeq(m) > lastSeq(fromPage()) : m.status === "open"));
      if (!further) { return Promise.resolve(null); }
      return engineReady().then(function () { return T.call("open", args(m)); }).then(function (a) {
        state.opened[m.ref] = true;
        return answer({round: a.round, created: false}, m).body.round;
      }, function () { return null; });
    },
    state: state,
  };
  /* once the engine is up, what a first offline tap would load is loaded (and the open round
     mirrored): the first tap with the network cut costs what any other does */
  function warmUp() {
    T.call("warm", {rules: E.rules, lang: E.lang}).then(function () {
      var m = state.mirror;
      return m && m.status === "open" && !state.opened[m.ref] ?
        T.call("open", args(m)).then(function () { state.opened[m.ref] = true; }) : null;
    }).catch(function () { /* the first offline tap loads it */ });
  }
  if (T.ready) { warmUp(); }
  document.addEventListener("tablet-engine", function (e) {
    if (!e.detail || e.detail.error) { banner(); return; }
    warmUp();
  });
  counted().then(function (items) {
    if (items.length || state.since) { offline(); }
    if (items.length && !E.round && !state.mirror) { /* nothing to show: the queue still goes */ }
  });
  setInterval(ping, PING_MS);
  setTimeout(ping, 500);
})();
