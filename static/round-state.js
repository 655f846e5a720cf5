/* The table screen's round as state (the first of its three scripts; round-entry.js draws one
   step's inputs, round.js sends the taps and draws the round): window.TableScreen, the one
   namespace they share, with the round as the server last described it (S.round), the entry
   being filled in (S.open, S.values, S.more), the error or note said (S.error, S.note) and
   the idempotency key of the next tap (S.key); and which of the description's steps the
   screen shows, which one's entry is open and the payload it sends. No DOM drawing here.
   round.js adds record, refine, suggest and draw (called by round-entry.js's taps). */
(function () {
  "use strict";
  var root = document.getElementById("round");
  if (!root) { return; }
  var S = {round: JSON.parse(root.dataset.round),
           open: null, values: {}, more: {}, error: null, busy: false, key: newKey(), note: null};

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID().replace(/-/g, ""); }
    return Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  /* --- the description's steps ------------------------------------------------------------ */
  var KNOWN = ["cards", "pick", "number", "choice"];  /* "boxes": the bets form's, between rounds */
  function steps() {
    return ((S.round && S.round.steps) || []).filter(function (s) {
      return s.inputs.every(function (i) { return KNOWN.indexOf(i.kind) >= 0; });
    });
  }
  function same(a, b) { return a && b && a.type === b.type && (a.box || null) === (b.box || null); }
  function onlyCards(step) {
    return step.inputs.length > 0 && step.inputs.every(function (i) { return i.kind === "cards" && i.auto; });
  }
  function oneTap(step) {
    return step.inputs.length === 0 || (step.inputs.length === 1 && step.inputs[0].kind === "choice");
  }
  /* the step whose entry is open: the one tapped, else the next cards to enter in dealing
     order (the dealer's first, then box by box) */
  function entry() {
    var found = S.open && steps().filter(function (s) { return same(s, S.open); })[0];
    if (found) { return found; }
    var due = steps().filter(onlyCards);
    var dealer = due.filter(function (s) { return !s.box; })[0];
    if (dealer) { return dealer; }
    /* a box's hand waits until every box has decided (take the ANTE, buy a game: one tap
       each), whose buttons the card grid would push below the fold */
    if (steps().some(function (s) { return s.box && oneTap(s); })) { return null; }
    return due[0] || null;
  }
  function need(step, input) {
    if (input.count_from) { return (S.values[input.count_from] || []).length; }
    return S.more[input.name] ? input.most : input.count;
  }
  function full(step) {
    return step.inputs.every(function (i) {
      return i.kind !== "cards" || (S.values[i.name] || []).length >= need(step, i);
    });
  }
  function activeCards(step) {
    var open = step.inputs.filter(function (i) {
      return i.kind === "cards" && (S.values[i.name] || []).length < Math.max(need(step, i), i.count_from ? 0 : 1);
    });
    return open[0] || step.inputs.filter(function (i) { return i.kind === "cards"; }).slice(-1)[0];
  }
  function payloadOf(step, extra) {
    var p = {};
    if (step.box) { p.box = step.box; }
    step.inputs.forEach(function (i) {
      var v = S.values[i.name];
      if (i.kind === "cards") { if (v && v.length) { p[i.name] = v; } }
      else if (i.kind === "pick") {
        p[i.name] = v || [];
        if (i.rest) { p[i.rest] = i.choices.filter(function (c) { return (v || []).indexOf(c) < 0; }); }
      } else if (i.kind === "number") {
        var n = String(v === undefined ? "" : v).replace(/\s/g, "");
        p[i.name] = /^\d{1,15}$/.test(n) ? parseInt(n, 10) : n;
      }
    });
    Object.keys(extra || {}).forEach(function (k) { p[k] = extra[k]; });
    return p;
  }

  window.TableScreen = {root: root, W: JSON.parse(root.dataset.words), S: S, newKey: newKey,
                        steps: steps, same: same, onlyCards: onlyCards, oneTap: oneTap, entry: entry,
                        need: need, full: full, activeCards: activeCards, payloadOf: payloadOf};
})();
