/* Poker screen, stud street: one card grid fills the seats' up cards in turn. A tap puts the
   card on the seat being filled (the first empty one, or the one tapped to change it) and moves
   on; a card already picked is greyed out. Without it the seats' fields can be typed. */
(function () {
  "use strict";
  var form = document.querySelector("[data-street]");
  if (!form) { return; }
  var seats = Array.prototype.slice.call(form.querySelectorAll("[data-street-seat] input"));
  var grid = Array.prototype.slice.call(form.querySelectorAll(".street-grid .gc"));
  var target = null;

  function norm(t) {
    var s = (t || "").trim();
    if (!s) { return ""; }
    var suit = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[s.slice(-1)] || s.slice(-1).toLowerCase();
    return s.slice(0, -1).toUpperCase().replace("10", "T") + suit;
  }
  function said(code) {  /* "Th" -> "10♥": the card as the dealer reads it (the engine reads both) */
    var rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
    return rank + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[code.slice(-1)];
  }
  function current() {
    if (target && seats.indexOf(target) >= 0) { return target; }
    return seats.filter(function (i) { return !i.value.trim(); })[0] || null;
  }
  function refresh() {
    var picked = seats.map(function (i) { return norm(i.value); });
    grid.forEach(function (b) {
      var on = picked.indexOf(b.dataset.card) >= 0;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var now = current();
    seats.forEach(function (i) { i.closest("label").classList.toggle("now", i === now); });
  }
  grid.forEach(function (b) {
    b.addEventListener("click", function () {
      var owner = seats.filter(function (i) { return norm(i.value) === b.dataset.card; })[0];
      if (owner) { owner.value = ""; target = owner; refresh(); return; }  /* a second tap takes it back */
      var seat = current();
      if (!seat) { return; }
      seat.value = said(b.dataset.card);
      target = null;
      refresh();
    });
  });
  seats.forEach(function (i) {
    i.addEventListener("focus", function () { target = i; refresh(); });
    i.addEventListener("input", function () { target = i.value.trim() ? null : i; refresh(); });
    i.closest("label").addEventListener("click", function () { target = i; refresh(); });
  });
  form.addEventListener("submit", function (e) {
    if (form.dataset.sent) { e.preventDefault(); return; }
    form.dataset.sent = "1";
  });
  refresh();
})();
