/* Table screen: the card grid types into the cards field; a submitted form cannot be sent twice.
   Small and dependency-free; without it the text field and the buttons still work. */
(function () {
  "use strict";
  var field = document.getElementById("cards");

  function tokens() {
    return field.value.split(/[\s,;]+/).filter(Boolean);
  }
  function norm(t) {
    var s = t.trim();
    var rank = s.slice(0, -1).toUpperCase().replace("10", "T");
    var suit = s.slice(-1).toLowerCase();
    suit = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[suit] || suit;
    return rank + suit;
  }
  function most() {
    if (field.dataset.maxFrom) {
      return document.querySelectorAll('input[name="' + field.dataset.maxFrom + '"]:checked').length;
    }
    return parseInt(field.dataset.max || "5", 10);
  }
  function refresh() {
    var chosen = tokens().map(norm);
    var full = chosen.length >= most();
    document.querySelectorAll(".card-grid .gc").forEach(function (b) {
      var on = chosen.indexOf(b.dataset.card) >= 0;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (!b.hasAttribute("aria-disabled")) { b.disabled = full && !on; }
    });
    var counter = document.querySelector("[data-count]");
    if (counter) {
      counter.textContent = field.dataset.maxFrom && !most() ? "tap the cards to discard first"
        : chosen.length + " / " + most();
    }
  }
  if (field) {
    document.querySelectorAll(".card-grid .gc").forEach(function (b) {
      b.addEventListener("click", function () {
        var list = tokens().map(norm);
        var at = list.indexOf(b.dataset.card);
        if (at >= 0) { list.splice(at, 1); } else if (list.length < most()) { list.push(b.dataset.card); }
        field.value = list.join(" ");
        refresh();
        if (field.hasAttribute("data-limit-after") && at < 0 && list.length === most()) {
          /* the hand to insure is in: the screen asks the engine for its limit (the box's
             presumptive payout) before the amount is typed (issue 35 item 22) */
          var here = new URL(window.location.href), step = field.form;
          here.searchParams.set("do", step.querySelector('input[name="type"]').value);
          here.searchParams.set("box", step.querySelector('input[name="box"]').value);
          here.searchParams.set("cards", field.value);
          var typed = step.querySelector('input[name="amount"]');
          if (typed && typed.value) { here.searchParams.set("amount", typed.value); }
          window.location.replace(here.toString());
        }
        if (field.hasAttribute("data-auto") && at < 0 && list.length === most()) {
          /* an exact count (the reveal, a hand at the showdown): the last tap records it */
          var form = field.form;
          if (form && !form.dataset.sent) {
            if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
          }
        }
      });
    });
    field.addEventListener("input", refresh);
    document.querySelectorAll('input[name="discard"]').forEach(function (c) {
      c.addEventListener("change", refresh);
    });
    var label = field.closest("label");
    if (label) {
      var span = document.createElement("span");
      span.className = "count";
      span.setAttribute("data-count", "");
      label.appendChild(span);
    }
    refresh();
  }

  document.querySelectorAll("[data-fill]").forEach(function (b) {
    b.addEventListener("click", function () {
      var input = document.querySelector('input[name="' + b.dataset.fill + '"]');
      if (input) { input.value = b.dataset.value; input.focus(); }
    });
  });
  document.querySelectorAll("[data-clear-bets]").forEach(function (b) {
    b.addEventListener("click", function () {
      b.form.querySelectorAll("input[inputmode=numeric]").forEach(function (i) { i.value = ""; });
    });
  });

  /* who plays a box (issue 23): one tap gives a box the player and the ANTE of the box beside
     it (all boxes of one player carry equal antes: an ANTE already in the box, typed or carried
     from the last round, would only be refused at Start round; issue 35 item 18); boxes of one
     player are marked as such */
  function playerOf(form, n) {
    return form.querySelector('select[name="player_' + n + '"]');
  }
  function markLinked(form) {
    form.querySelectorAll("select[data-player-box]").forEach(function (s) {
      var prev = playerOf(form, parseInt(s.dataset.playerBox, 10) - 1);
      var box = s.closest("fieldset");
      if (box) { box.classList.toggle("same-player", !!prev && prev.value === s.value); }
    });
  }
  document.querySelectorAll("[data-link-player]").forEach(function (b) {
    b.addEventListener("click", function () {
      var n = parseInt(b.dataset.linkPlayer, 10);
      var prev = playerOf(b.form, n - 1), mine = playerOf(b.form, n);
      if (prev && mine) { mine.value = prev.value; }
      var before = b.form.querySelector('input[name="ante_' + (n - 1) + '"]');
      var ante = b.form.querySelector('input[name="ante_' + n + '"]');
      if (before && ante && before.value.trim()) { ante.value = before.value; }
      markLinked(b.form);
    });
  });
  document.querySelectorAll("select[data-player-box]").forEach(function (s) {
    s.addEventListener("change", function () { markLinked(s.form); });
    markLinked(s.form);
  });

  /* a refused value: its message goes as soon as the croupier changes the input */
  document.querySelectorAll("[data-error-for]").forEach(function (msg) {
    var input = document.querySelector('[name="' + msg.dataset.errorFor + '"]');
    if (!input) { return; }
    var before = input.value;
    function stale() {
      if (input.value === before) { return; }
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      msg.remove();
    }
    input.addEventListener("input", stale);
    input.addEventListener("change", stale);
    document.querySelectorAll(".card-grid .gc").forEach(function (b) {
      b.addEventListener("click", function () { if (input === field) { stale(); } });
    });
  });

  /* a void waits for a pit boss: look again every 15 s, to move on once it is decided */
  var wait = document.querySelector("[data-void-wait]");
  if (wait) {
    setTimeout(function () { window.location.replace(wait.dataset.voidWait); }, 15000);
  }

  /* one tap, one request: disable every submit button once a step form is sent */
  document.querySelectorAll("form.step").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (form.dataset.sent) { e.preventDefault(); return; }
      form.dataset.sent = "1";
      setTimeout(function () {
        document.querySelectorAll("form.step button").forEach(function (b) { b.disabled = true; });
        document.body.classList.add("busy");
      }, 0);
    });
  });
})();
