/* The table screen, what one step's inputs look like (the second of its three scripts, after
   round-state.js): a card, the entry of the step being filled in (its cards, typed or tapped on
   the grid, picks, numbers, one-tap choices, its message) and a step's button. It draws from
   the engine's own description of each step and knows no game and no step type
   (dealer_assist/rules/inputs.py, web/live_screen.py; DESIGN.md principle 9). A tap that
   records, asks or redraws goes to round.js (TableScreen.record, refine, suggest, draw). */
(function () {
  "use strict";
  var TS = window.TableScreen;
  if (!TS) { return; }
  var S = TS.S, W = TS.W, RANKS = TS.root.dataset.usedGrid, SUITS = TS.root.dataset.suits;
  var same = TS.same, entry = TS.entry, onlyCards = TS.onlyCards, oneTap = TS.oneTap;
  var need = TS.need, full = TS.full, activeCards = TS.activeCards;
  function record(step, extra) { TS.record(step, extra); }
  function refine(step) { TS.refine(step); }
  function suggest(step) { TS.suggest(step); }
  function draw() { TS.draw(); }

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) { return; }
      if (k === "text") { e.textContent = v; } else if (k === "on") { e.addEventListener("click", v); }
      else { e.setAttribute(k, v === true ? "" : v); }
    });
    (kids || []).forEach(function (c) {
      if (c !== null && c !== undefined && c !== false) {
        e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
      }
    });
    return e;
  }
  function face(code) {
    var rank = code.slice(0, -1), suit = code.slice(-1);
    return (rank === "T" ? "10" : rank) + ({s: "♠", h: "♥", d: "♦", c: "♣"}[suit] || suit);
  }
  function card(code, big) {
    var red = "hd".indexOf(code.slice(-1)) >= 0;
    return el("span", {"class": "pc" + (red ? " red" : "") + (big ? " big" : ""), text: face(code)});
  }
  function cards(list, big) { return (list || []).map(function (c) { return card(c, big); }); }
  function norm(t) {
    var s = t.trim(), rank = s.slice(0, -1).toUpperCase().replace("10", "T");
    var suit = s.slice(-1).toLowerCase();
    return rank + ({"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[suit] || suit);
  }
  function tokens(text) {
    return (text || "").split(/[\s,;]+/).filter(Boolean).map(norm);
  }

  function message(err, forName) {
    return el("p", {"class": "field-msg " + (err.kind || "error"), role: err.kind ? "status" : "alert",
                    "data-error-for": forName || null, text: err.message});
  }
  function errorFor(name) { return S.error && S.error.field === name ? S.error : null; }
  function inputView(step, input) {
    var err = errorFor(input.name);
    var out = [];
    if (input.kind === "cards") {
      var got = S.values[input.name] || [];
      var field = el("input", {name: input.name, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
                               "aria-invalid": err && !err.kind ? "true" : null, "data-cards": input.name});
      field.value = got.map(face).join(" ");
      field.addEventListener("change", function () {
        var typed = tokens(field.value);
        /* a change fired as the field leaves the page (redrawn once its step was sent), or one
           that changes nothing, sends nothing: a tap is one request */
        if (S.busy || !same(entry(), step) || typed.join(" ") === (S.values[input.name] || []).join(" ")) { return; }
        S.values[input.name] = typed;
        if (onlyCards(step) && full(step)) { record(step); return; }
        draw();
      });
      out.push(el("label", {"class": "field cards-field"}, [
        input.said, " ", el("small", {text: "(" + W["tap below or type"] + ")"}), field,
        el("span", {"class": "count", "data-count": input.name, text: got.length + " / " + need(step, input)})]));
    } else if (input.kind === "pick") {
      var chosen = S.values[input.name] || [];
      out.push(el("p", {"class": "hint", text: input.said}));
      out.push(el("div", {"class": "picks", "data-picks": input.name}, input.choices.map(function (c) {
        var box = el("input", {type: "checkbox", name: input.name, value: c});
        box.checked = chosen.indexOf(c) >= 0;
        box.addEventListener("change", function () {
          var list = (S.values[input.name] || []).filter(function (x) { return x !== c; });
          if (box.checked) { list.push(c); }
          S.values[input.name] = list;
          draw();
        });
        return el("label", {"class": "pick"}, [box, card(c)]);
      })));
    } else if (input.kind === "number") {
      var limit = input.low_said ? " (" + input.low_said + (input.high_said ? "–" + input.high_said : " " + W["up to the presumptive payout"]) + ")" : "";
      var box2 = el("input", {name: input.name, inputmode: "numeric", autocomplete: "off", required: true,
                              "aria-invalid": err && !err.kind ? "true" : null});
      box2.value = S.values[input.name] === undefined ? "" : S.values[input.name];
      box2.addEventListener("input", function () { S.values[input.name] = box2.value; });
      out.push(el("label", {"class": "field"}, [input.said + limit, box2]));
      if (input.quick && input.quick.length) {
        out.push(el("div", {"class": "quick"}, input.quick.map(function (v) {
          return el("button", {type: "button", "class": "secondary", "data-fill": input.name, "data-value": v,
                               text: String(v), on: function () { S.values[input.name] = String(v); draw(); }});
        })));
      }
    } else if (input.kind === "choice") {
      out.push(choices(step, input));
    }
    if (err) { out.push(message(err, input.name)); }
    return out;
  }
  function choices(step, input) {
    return el("span", {"class": "counts", "data-counts": step.type}, [step.said + ":"].concat(
      input.choices.map(function (v) {
        var label = (input.labels || {})[String(v)] || String(v);
        var note = (input.notes || {})[String(v)];
        var extra = {}; extra[input.name] = v;
        return el("button", {type: "button", "class": "secondary", "data-step": step.type, "data-box": step.box || null,
                             "data-value": String(v), text: label + (note ? " (" + note + ")" : ""),
                             on: function () { record(step, extra); }});
      })));
  }
  function grid(step) {
    var used = (S.round && S.round.used) || [];
    var target = activeCards(step);
    var taken = [];
    step.inputs.forEach(function (i) { if (i.kind === "cards") { taken = taken.concat(S.values[i.name] || []); } });
    var room = target ? need(step, target) - (S.values[target.name] || []).length : 0;
    var buttons = [];
    SUITS.split("").forEach(function (suit) {
      RANKS.split("").forEach(function (rank) {
        var code = rank + suit, on = taken.indexOf(code) >= 0, gone = used.indexOf(code) >= 0;
        buttons.push(el("button", {type: "button", "class": "gc" + ("hd".indexOf(suit) >= 0 ? " red" : "") + (on ? " on" : ""),
                                   "data-card": code, "aria-pressed": on ? "true" : "false",
                                   disabled: gone || (!on && room <= 0), "aria-disabled": gone ? "true" : null,
                                   text: face(code), on: function () { tapCard(step, code); }}));
      });
    });
    return el("div", {"class": "card-grid", role: "group", "aria-label": W.Cards}, buttons);
  }
  function tapCard(step, code) {
    var removed = false;
    step.inputs.forEach(function (i) {
      var list = S.values[i.name] || [];
      if (i.kind === "cards" && list.indexOf(code) >= 0) { S.values[i.name] = list.filter(function (c) { return c !== code; }); removed = true; }
    });
    if (!removed) {
      var target = activeCards(step);
      if (!target) { return; }
      var list = (S.values[target.name] || []).slice();
      if (list.length >= need(step, target)) { return; }
      list.push(code);
      S.values[target.name] = list;
      if (S.error && S.error.field) { S.error = null; }
    }
    if (!removed && onlyCards(step) && full(step)) { record(step); return; }
    if (!removed && full(step) && step.inputs.some(function (i) { return i.refines; })) { refine(step); }
    draw();
  }
  function entryView(step) {
    var withGrid = step.inputs.some(function (i) { return i.kind === "cards"; });
    var side = [el("h2", {text: (step.box ? W.Box + " " + step.box + ": " : "") + step.said})];
    step.inputs.forEach(function (i) { side = side.concat(inputView(step, i)); });
    if (S.error && !S.error.field) { side.push(message(S.error)); }
    else if (S.error && !step.inputs.some(function (i) { return i.name === S.error.field; })) { side.push(message(S.error)); }
    var acts = [];
    if (S.open) {
      acts.push(el("button", {type: "button", "class": "secondary", "data-cancel": true, text: W.Cancel,
                              on: function () { S.open = null; S.values = {}; S.error = null; draw(); }}));
    }
    if (step.suggests) {
      acts.push(el("button", {type: "button", "class": "secondary", "data-suggest": true, text: W.Suggest,
                              on: function () { suggest(step); }}));
    }
    if (!onlyCards(step) && !oneTap(step)) {
      acts.push(el("button", {type: "button", "class": "primary", "data-step": step.type, "data-record": true,
                              text: S.error && S.error.kind === "suggestion" ? W.Accept : step.said,
                              on: function () { record(step); }}));
    }
    return el("section", {"class": "step entry" + (withGrid ? " with-grid" : ""), "data-entry": step.type,
                          "data-box": step.box || null},
              [el("div", {"class": "entry-side"}, side), withGrid ? grid(step) : null,
               acts.length ? el("div", {"class": "actions"}, acts) : null]);
  }
  function stepButton(step, open) {
    if (oneTap(step) && step.inputs.length === 1) { return choices(step, step.inputs[0]); }
    var text = step.said + (step.amount_said ? " " + step.amount_said : "");
    return el("button", {type: "button", "class": oneTap(step) ? "primary" : "secondary", "data-step": step.type,
                         "data-box": step.box || null, text: text, "aria-expanded": open ? "true" : null,
                         on: function () {
                           if (oneTap(step)) { record(step); return; }
                           S.open = {type: step.type, box: step.box || null}; S.values = {}; S.error = null; S.more = {};
                           step.inputs.forEach(function (i) { if (i.chosen) { S.values[i.name] = i.chosen.slice(); } });
                           draw();
                         }});
  }

  TS.el = el; TS.cards = cards; TS.message = message; TS.entryView = entryView; TS.stepButton = stepButton;
})();
