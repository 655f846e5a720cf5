/* Table screen, the bets form: clear the bets, one tap gives a box the player of the box beside
   it, a refused value's message goes once the croupier changes it. The round itself is drawn
   by round.js. */
(function () {
  "use strict";
  document.querySelectorAll("[data-clear-bets]").forEach(function (b) {
    b.addEventListener("click", function () {
      b.form.querySelectorAll("input[inputmode=numeric]").forEach(function (i) { i.value = ""; });
    });
  });

  /* who plays a box: one tap gives a box the player and the ANTE of the box beside
     it (all boxes of one player carry equal antes: an ANTE already in the box, typed or carried
     from the last round, would only be refused at Start round); boxes of one
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
  });

})();
