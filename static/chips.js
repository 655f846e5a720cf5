// The running total under a chip count entered denomination by denomination (templates/_chips.html).
// For the eye only: the server adds the count up again (services/tables/chips.py). A count that is
// not a whole number ("4o") is marked and the total shows none: never a guess.
(() => {
  const locale = document.documentElement.lang === "ru" ? "ru-RU" : "en-US";
  for (const box of document.querySelectorAll("[data-chips]")) {
    const inputs = box.querySelectorAll("[data-denomination]");
    const out = box.nextElementSibling && box.nextElementSibling.querySelector("[data-chip-total]");
    if (!out) continue;
    const sum = () => {
      let total = 0;
      let bad = false;
      for (const i of inputs) {
        const raw = i.value.replace(/\s/g, "");
        const whole = /^\d*$/.test(raw);
        i.toggleAttribute("data-not-whole", !whole);
        if (!whole) i.setAttribute("aria-invalid", "true");
        else if (!i.closest(".invalid")) i.removeAttribute("aria-invalid");
        bad = bad || !whole;
        total += Number(i.dataset.denomination) * (whole && raw ? parseInt(raw, 10) : 0);
      }
      out.textContent = bad ? "–" : total.toLocaleString(locale);
      out.toggleAttribute("data-not-whole", bad);
    };
    for (const i of inputs) i.addEventListener("input", sum);
    sum();
  }
})();
