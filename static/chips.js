// The running total under a chip count entered denomination by denomination (templates/_chips.html).
// For the eye only: the server adds the count up again (services/chips.py).
(() => {
  for (const box of document.querySelectorAll("[data-chips]")) {
    const inputs = box.querySelectorAll("[data-denomination]");
    const out = box.nextElementSibling && box.nextElementSibling.querySelector("[data-chip-total]");
    if (!out) continue;
    const sum = () => {
      let total = 0;
      for (const i of inputs) {
        total += Number(i.dataset.denomination) * (parseInt(i.value.replace(/\s/g, ""), 10) || 0);
      }
      out.textContent = total.toLocaleString("en-US");
    };
    for (const i of inputs) i.addEventListener("input", sum);
    sum();
  }
})();
