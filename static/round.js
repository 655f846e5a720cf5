/* The table screen's one renderer (the last of its three scripts, after round-state.js, the
   round as state, and round-entry.js, one step's inputs; window.TableScreen is what they
   share): draws the round from the engine's own description of each step (its inputs: cards,
   picks, numbers, one-tap choices) and sends each tap as one request, whose JSON answer is the
   next screen. It knows no game and no step type (dealer_assist/rules/inputs.py,
   web/live_screen.py; DESIGN.md principle 9). */
(function () {
  "use strict";
  var TS = window.TableScreen;
  if (!TS) { return; }
  var root = TS.root, W = TS.W, S = TS.S, newKey = TS.newKey;
  var steps = TS.steps, same = TS.same, entry = TS.entry, payloadOf = TS.payloadOf;
  var el = TS.el, cards = TS.cards, message = TS.message, entryView = TS.entryView, stepButton = TS.stepButton;
  var bets = document.querySelector("[data-bets]");
  var rated = document.querySelector("[data-rated]");
  var said = document.querySelector("[data-said]");
  var undoButton = document.querySelector('[data-step="undo"]');
  var misdeal = document.querySelector("[data-misdeal]");
  var phase = document.querySelector("[data-phase]");
  var title = document.querySelector("[data-round-title]");

  /* --- one tap, one request ---------------------------------------------------------------- */
  function send(url, body, done) {
    if (S.busy) { return; }
    S.busy = true;
    performance.mark("tap");
    document.body.classList.add("busy");
    /* the table keeps dealing when the server is away (static/offline.js): such a tap is
       recorded by the tablet's own engine and queued */
    var off = window.TableOffline, route = off && off.route(url, body);
    var finish = function (res) {
      S.busy = false;
      document.body.classList.remove("busy");
      if (res.status >= 200 && res.status < 300 && res.body) {
        if (route && !res.body.offline) { off.seen(route, res.body); }
        done(res.body);
      } else { refused(res); }
      draw();
    };
    if (route && off.active()) { off.tap(route, url, body).then(finish); return; }
    var abort = route && off.usable() && window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, off.timeout) : null;
    window.tablePost(url, body, abort ? abort.signal : undefined)
      .then(function (res) {
        if (timer) { clearTimeout(timer); }
        if (route && off.usable() && (!res.status || res.status === 503)) {
          return off.tap(route, url, body);  /* the same key: a step the server did get records once */
        }
        return res;
      })
      .then(finish);
  }
  function refused(res) {
    var p = res.body || {};
    if (!res.status || res.status >= 500 || !res.body) {  /* nothing recorded: tap again, same key */
      S.error = {message: W.offline, field: null};
      return;
    }
    if (res.status === 401 || (res.status === 409 && S.round && !p.field)) {
      /* signed out, or the round moved on elsewhere: the screen as it is now, with the why */
      try { sessionStorage.setItem("live-said", p.detail || p.title || ""); } catch (e) { /* private mode */ }
      window.location.reload();
      return;
    }
    S.key = newKey();  /* a refused step stored nothing: the next tap is a new request */
    S.error = {message: p.detail || p.title, field: p.field || null};
    var step = entry();
    if (step && p.code === "card_count") {  /* the engine asks for another card: keep them */
      var asked = false;
      step.inputs.forEach(function (i) {
        if (i.kind === "cards" && i.most > i.count && !S.more[i.name]) { S.more[i.name] = true; asked = true; }
      });
      if (asked) { S.error.kind = "note"; }  /* no mistake: the rules give one more card */
    }
  }
  function answered(body) {
    S.round = body.round;
    S.open = null; S.values = {}; S.more = {}; S.error = null; S.key = newKey();
    S.note = (body.round.moved || []).join(" · ") || null;
    if (!body.round.open) { closed(body); }
  }
  function record(step, extra) {
    send(root.dataset.steps.replace("/0/", "/" + S.round.id + "/"),
         {type: step.type, payload: payloadOf(step, extra), idempotency_key: S.key,
          expected_seq: S.round.last_seq, label: step.said}, answered);
  }
  function meta(type) {
    send(root.dataset.steps.replace("/0/", "/" + S.round.id + "/"),
         {type: type, payload: {}, idempotency_key: S.key, expected_seq: S.round.last_seq}, answered);
  }
  /* the hand is in: the engine says the step again knowing it (the insurance's limit) */
  function refine(step) {
    document.body.classList.add("busy");
    ask("refine", {type: step.type, payload: payloadOf(step)}).then(function (j) {
      document.body.classList.remove("busy");
      if (j.step) {
        S.round.steps = S.round.steps.map(function (s) { return same(s, j.step) ? j.step : s; });
      } else { S.error = {message: j.detail || j.title, field: j.field || null}; }
      draw();
    }, function () {  /* the limit stays unknown: recording still checks it */
      document.body.classList.remove("busy");
    });
  }
  function suggest(step) {
    if (S.busy) { return; }
    S.busy = true;
    ask("suggest", {type: step.type, payload: payloadOf(step)}).then(function (j) {
      S.busy = false;
      if (j.payload) {
        step.inputs.forEach(function (i) { if (j.payload[i.name]) { S.values[i.name] = j.payload[i.name]; } });
        S.error = {message: j.said, field: null, kind: "suggestion"};
      } else { S.error = {message: j.detail || j.title, field: j.field || null}; }
      draw();
    }, function () { S.busy = false; S.error = {message: W.offline}; draw(); });
  }
  /* the engine asked, nothing recorded (``refine``, ``suggest``): the server's, or the
     tablet's own while the server is away */
  function ask(kind, body) {
    var off = window.TableOffline;
    if (off && off.active()) { return off.ask(kind, body); }
    return window.tablePost(root.dataset[kind].replace("/0/", "/" + S.round.id + "/"), body)
      .then(function (res) {
        if (!res.body) { throw new Error("no answer"); }  /* the server away: said as offline */
        return res.body;
      });
  }
  /* Paid: the bets form comes back for the next round, with the link to the round just paid */
  function closed(body) {
    if (said) {
      said.textContent = "";
      said.appendChild(document.createTextNode(body.paid || ""));
      if (body.round_page && misdeal) {
        said.appendChild(document.createTextNode(" "));
        said.appendChild(el("a", {"class": "button secondary", href: body.round_page, "data-last-round-link": true,
                                  text: W["Last round"] + " (" + body.round.number + ") · " + W.Dispute}));
      }
      said.hidden = false;
    }
    if (bets) {
      var key = bets.querySelector('input[name="key"]');
      if (key) { key.value = newKey(); }
    }
  }
  if (bets) {
    bets.addEventListener("submit", function (e) {
      e.preventDefault();
      clearBetErrors();
      send(bets.action, new URLSearchParams(new FormData(bets)), function (body) {
        answered(body);
        if (said) { said.hidden = true; }
      });
    });
  }
  function clearBetErrors() {
    if (!bets) { return; }
    bets.querySelectorAll("[data-error-for]").forEach(function (m) { m.remove(); });
    bets.querySelectorAll("[aria-invalid]").forEach(function (i) { i.removeAttribute("aria-invalid"); });
  }
  if (undoButton) { undoButton.addEventListener("click", function () { meta("undo"); }); }
  /* a refused value (a step's input or the bets form's): its message goes as soon as the
     croupier changes it */
  document.addEventListener("input", function (e) {
    var input = e.target, name = input && input.name;
    if (!name || input.getAttribute("aria-invalid") !== "true") { return; }
    input.removeAttribute("aria-invalid");
    document.querySelectorAll('[data-error-for="' + name + '"]').forEach(function (m) { m.remove(); });
    if (S.error && S.error.field === name) { S.error = null; }
  });


  function payoutsView(lines, canPay) {
    var paid = canPay ? [el("div", {"class": "paid-bar"}, [el("button", {
      type: "button", "class": "paid", "data-step": "paid", text: W.Paid, on: function () { meta("paid"); }})])] : [];
    return el("section", {"class": "payouts", "aria-label": W.Settlement}, lines.map(function (p) {
      return el("article", {"class": "payout " + p.action.toLowerCase(), "data-box": p.box, "data-net": p.net}, [
        el("header", {}, [el("h2", {}, [W.Box + " " + p.box, p.player ? el("small", {"class": "who", text: " " + p.player}) : null]),
                          el("span", {"class": "net", lang: document.documentElement.lang || null,
                                      text: p.said + (p.net ? " " + p.net_said : "")})]),
        p.hand ? el("p", {"class": "hand", text: p.hand + (p.small_hand ? " · " + W["Small:"] + " " + p.small_hand : "")}) : null,
        el("ul", {}, p.wagers.map(function (w) {
          return el("li", {"class": "wager " + w.action.toLowerCase(), "data-wager": w.name, "data-action": w.action,
                           "data-amount": w.amount}, [el("span", {"class": "what", text: w.title}),
                                                      el("strong", {text: w.said + " " + w.amount_said}),
                                                      el("small", {text: w.why})]);
        }))]);
    }).concat(paid));
  }
  function dealerView(r, current) {
    var d = r.dealer, shown = d.cards.length ? d.cards : d.up;
    var line = [el("h2", {text: W.Dealer}),
                el("p", {"class": "cards"}, shown.length ? cards(shown, true) : [el("span", {"class": "muted", text: W["no cards yet"]})]
                  .concat(d.up.length && !d.cards.length ? [" ", el("span", {"class": "muted", "data-up": true, text: W["face up"]})] : [])
                  .concat(d.draw.length ? [" ", el("span", {"class": "muted", text: W.drew}), " "].concat(cards(d.draw, true)) : [])
                  .concat(d.small.length ? [" ", el("span", {"class": "muted", text: W.small}), " "].concat(cards(d.small, true)) : []))];
    if (d.hand) { line.push(el("p", {"class": "hand" + (d.bought ? " first" : "")}, [d.hand + " · ", el("strong", {text: d.game})])); }
    if (d.bought) {
      line.push(el("p", {"class": "hand bought", "data-bought": true}, [W["Bought game:"] + " "].concat(cards(d.bought.cards, true))
        .concat([" " + (d.bought.hand || "") + " · ", el("strong", {text: d.bought.game})])));
    }
    var tableSteps = steps().filter(function (s) { return !s.box && !same(s, current); }).map(function (s) { return stepButton(s, false); });
    line.push(el("div", {"class": "table-steps"}, tableSteps));
    return el("section", {"class": "dealer", "aria-label": W.Dealer}, line);
  }
  function boxView(b, current) {
    var mine = steps().filter(function (s) { return s.box === b.box && !same(s, current); });
    return el("article", {"class": "box" + (b.folded ? " folded" : "") + (current && current.box === b.box ? " active" : ""),
                          "data-box": b.box}, [
      el("h2", {}, [W.Box + " " + b.box, b.player ? el("span", {"class": "who", "data-player": true, text: " " + b.player}) : null,
                    " ", el("small", {text: b.stakes})]),
      b.collected ? el("p", {"class": "collected", "data-collected": b.collected_amount, text: b.collected}) : null,
      el("p", {"class": "cards"}, b.cards.length ? cards(b.cards).concat(b.small.length ? [el("span", {"class": "muted", text: "|"})].concat(cards(b.small)) : [])
                                             : [el("span", {"class": "muted", text: b.empty})]),
      b.extra ? el("p", {"class": "cards extra", "data-extra-cards": true}, cards(b.extra.cards).concat([" ", el("span", {"class": "muted", text: b.extra.said})])) : null,
      b.hand ? el("p", {"class": "hand", text: b.hand}) : null,
      b.status ? el("p", {"class": "status", text: b.status}) : null,
      b.dark ? el("p", {"class": "dark", "data-dark": true, text: b.dark}) : null,
      el("div", {"class": "box-steps"}, mine.map(function (s) { return stepButton(s, false); }))]);
  }
  function draw() {
    var r = S.round, live = r && r.open;
    if (bets) { bets.hidden = !!live; }
    if (rated) { rated.hidden = !!live; }
    if (title) {
      title.textContent = live ? " · " + W.Round + " " + (r.provisional ? "(" + W.provisional + ")" : r.number) : "";
    }
    if (phase && live) { phase.textContent = r.phase; phase.classList.toggle("frozen", !!r.frozen); }
    if (undoButton) { undoButton.hidden = !(live && r.undo); undoButton.textContent = live && r.undo ? "↶ " + r.undo : ""; }
    if (misdeal) {
      misdeal.hidden = !(live && !r.frozen && !r.offline);  /* a void waits for the server */
      if (live) { misdeal.href = misdeal.dataset.href.replace("/0", "/" + r.id); }
    }
    root.textContent = "";
    if (!live) {  /* the bets form is the screen between rounds: drawn too */
      if (S.error && bets && !bets.hidden) { betError(); }
      performance.mark("drawn");
      return;
    }
    var kids = [];
    if (S.note) { kids.push(el("p", {"class": "flash flash-collect", role: "status", "data-moved": true, text: S.note})); }
    if (r.void) {
      kids.push(r.void.pending
        ? el("section", {"class": "void-wait", role: "status", "data-void-wait": true},
             [el("h2", {"class": "reason", text: "“" + r.void.reason + "”"}), el("p", {"class": "hint", text: r.void.said})])
        : el("p", {"class": "void-refused", role: "status", "data-void-refused": true, text: r.void.said}));
    }
    var current = r.frozen ? null : entry();
    var shown = null;
    if (current) { shown = entryView(current); kids.push(shown); }
    else if (S.error) { kids.push(message(S.error)); }
    if (r.payouts) { kids.push(payoutsView(r.payouts, r.can_pay)); }
    kids.push(dealerView(r, current));
    kids.push(el("section", {"class": "boxes", "aria-label": W.Boxes}, r.boxes.map(function (b) { return boxView(b, current); })));
    kids.forEach(function (k) { root.appendChild(k); });
    /* what the croupier needs next is in view: an entry just opened (the grid), or Paid ✓ once
       the round can be paid (the page does not reload, so nothing scrolls back by itself) */
    var key = current ? current.type + "/" + (current.box || "") : r.can_pay ? "paid" : null;
    if (key && key !== lastShown) {
      var target = current ? shown : root.querySelector('[data-step="paid"]');
      if (target && target.scrollIntoView) { target.scrollIntoView({block: "nearest"}); }
    }
    lastShown = key;
    /* a step whose words outgrow half a box (a longer language) takes the whole row */
    root.querySelectorAll(".box-steps > button").forEach(function (b) {
      if (b.scrollWidth > b.clientWidth + 1) { b.classList.add("wide"); }
    });
    performance.mark("drawn");
  }
  function betError() {
    var err = S.error, input = err.field && bets.querySelector('[name="' + err.field + '"]');
    var msg = message(err, input ? err.field : null);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.closest("label").insertAdjacentElement("afterend", msg);
    } else { bets.insertBefore(msg, bets.querySelector(".bet-boxes")); }
    S.error = null;
  }
  var waiting = null, lastShown = null;
  function poll() {  /* a void waits for a pit boss: look again every 15 s */
    if (S.round && S.round.frozen && !waiting) {
      waiting = setTimeout(function () { window.location.reload(); }, 15000);
    }
  }
  TS.record = record; TS.refine = refine; TS.suggest = suggest; TS.draw = draw;  /* round-entry.js's taps */
  try {
    S.note = sessionStorage.getItem("live-said") || null;
    sessionStorage.removeItem("live-said");
  } catch (e) { /* private mode */ }
  draw();
  poll();
  document.addEventListener("click", poll);
  if (window.TableOffline) {
    /* a reload while offline: the page is the service worker's copy; the tablet's own engine
       shows the round as it went on since */
    var loaded = S.round;  /* the engine may answer late (a slow tablet): a tap since wins */
    TableOffline.restore().then(function (r) {
      if (r && S.round === loaded && !S.busy) { S.round = r; draw(); }
    });
    TableOffline.onRound(function (body) {  /* the queue went out: the server's own screen */
      if (!S.busy && (!S.round || S.round.id === body.round.id || S.round.provisional)) {
        S.round = body.round;
        if (!S.round.open) { closed(body); }
        draw();
      }
    });
  }
})();
