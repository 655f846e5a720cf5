/* close an open header menu on a tap elsewhere or on Escape (a file, not inline: the CSP
   allows script only from this site) */
document.addEventListener("click", (e) => {
  for (const d of document.querySelectorAll("details.menu[open]")) if (!d.contains(e.target)) d.open = false;
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") for (const d of document.querySelectorAll("details.menu[open]")) d.open = false;
});
/* a <select data-autosubmit> submits its form when changed (was an inline onchange) */
for (const s of document.querySelectorAll("select[data-autosubmit]")) {
  s.addEventListener("change", () => s.form.submit());
}
