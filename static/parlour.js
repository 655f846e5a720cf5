/* Parlour Americana page: quick 52-card entry, the betting buttons and the play-out replay.
   Everything also works without script: the text fields are what the server reads. */
(() => {
  const form = document.getElementById("hand-form");
  if (form) { cards(form); betting(form.querySelector(".betting")); }
  replay();

  function cards(form) {
    const targets = [...form.querySelectorAll("[data-target]")];
    const grid = [...form.querySelectorAll(".parlour-grid .gc")];
    const input = (t) => form.elements[t.dataset.target];
    const owner = new Map();
    const full = Math.ceil(52 / targets.length);
    for (const t of targets) for (const c of input(t).value.split(/[\s,]+/)) {
      const code = normal(c); if (code) owner.set(code, t);
    }
    let active = targets.find((t) => !input(t).value.trim()) || targets[0];
    const mine = (t) => grid.map((b) => b.dataset.card).filter((c) => owner.get(c) === t);
    function render() {
      for (const b of grid) {
        const t = owner.get(b.dataset.card);
        b.className = b.className.replace(/\s?o[0-9x]\b/g, "");
        if (t) { b.dataset.tag = t.dataset.tag; b.classList.add(t.className.match(/o[0-9x]/)[0]); }
        else delete b.dataset.tag;
      }
      for (const t of targets) {
        const codes = mine(t);
        input(t).value = codes.join(" ");
        t.querySelector("[data-count]").textContent = codes.length;
        t.classList.toggle("active", t === active);
      }
    }
    targets.forEach((t) => t.addEventListener("click", () => { active = t; render(); }));
    grid.forEach((b) => b.addEventListener("click", () => {
      const c = b.dataset.card;
      if (owner.get(c) === active) owner.delete(c); else owner.set(c, active);
      if (mine(active).length >= full) {
        const next = targets.find((t) => mine(t).length < Math.floor(52 / targets.length));
        if (next) active = next;
      }
      render();
    }));
    form.querySelector("[data-rest]").addEventListener("click", () => {
      for (const b of grid) if (!owner.has(b.dataset.card)) owner.set(b.dataset.card, active);
      render();
    });
    form.querySelector("[data-clear]").addEventListener("click", () => {
      for (const c of mine(active)) owner.delete(c);
      render();
    });
    render();
  }

  function normal(token) {
    const t = token.trim(); if (t.length < 2) return "";
    const rank = t.slice(0, -1).toUpperCase().replace("10", "T");
    const suit = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" }[t.slice(-1)] || t.slice(-1).toLowerCase();
    return rank + suit;
  }

  /* the betting round, mirroring rules/games/parlour/betting.py: whose turn, which actions are legal */
  function betting(box) {
    const order = box.dataset.order.split("|");
    const line = box.querySelector('input[name="betting"]');
    const amount = box.querySelector("[data-amount-input]");
    let acts = parse(line.value);
    function parse(text) {
      return text.split(/[,;\n]/).map((s) => s.trim()).filter(Boolean).map((s) => {
        const p = [...order].sort((a, b) => b.length - a.length).find((n) => s.startsWith(n + " "));
        const w = p ? s.slice(p.length).trim().split(/\s+/) : [];
        return { player: p, type: w[0], amount: w[1] ? parseInt(w[1], 10) : null };
      });
    }
    function state() {
      const put = Object.fromEntries(order.map((p) => [p, 0]));
      const folded = new Set(); let current = 0; let pending = [...order];
      for (const a of acts) {
        if (!pending.length || a.player !== pending[0]) return null;
        if (a.type === "bet" || a.type === "raise") {
          current += a.amount || 0; put[a.player] = current;
          const i = order.indexOf(a.player);
          pending = [...order.slice(i + 1), ...order.slice(0, i)].filter((p) => !folded.has(p));
        } else {
          if (a.type === "call") put[a.player] = current;
          else if (put[a.player] < current) folded.add(a.player);
          pending.shift();
          if (order.filter((p) => !folded.has(p)).length === 1) pending = [];
        }
      }
      return { put, current, pending };
    }
    function render() {
      const s = state();
      const turn = s && s.pending[0];
      box.querySelector("[data-turn]").textContent = !s ? "Check the betting line"
        : turn ? `${turn} to act` + (s.current ? ` · ${s.current - s.put[turn]} to call` : "")
        : acts.length ? "Betting closed" : "Nobody has acted";
      const can = { pass: !!turn, call: !!turn && s.put[turn] < s.current,
                    bet: !!turn && s.current === 0, raise: !!turn && s.current > 0 };
      for (const b of box.querySelectorAll("[data-act]")) b.disabled = !can[b.dataset.act];
      line.value = acts.map((a) => [a.player, a.type, a.amount].filter((x) => x !== null && x !== undefined).join(" ")).join(", ");
    }
    box.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => {
      const s = state(); if (!s || !s.pending.length) return;
      const type = b.dataset.act;
      const n = Math.max(1, parseInt(amount.value, 10) || 1);
      acts.push({ player: s.pending[0], type, amount: type === "bet" || type === "raise" ? n : null });
      render();
    }));
    box.querySelectorAll("[data-amount]").forEach((b) => b.addEventListener("click", () => {
      amount.value = Math.max(1, (parseInt(amount.value, 10) || 1) + parseInt(b.dataset.amount, 10));
    }));
    box.querySelector("[data-undo-bet]").addEventListener("click", () => { acts.pop(); render(); });
    line.addEventListener("change", () => { acts = parse(line.value); render(); });
    render();
  }

  function replay() {
    const list = document.querySelector("[data-plays]");
    if (!list) return;
    const items = [...list.children];
    const count = document.querySelector("[data-replay-count]");
    let shown = 1;
    function render() {
      items.forEach((li, i) => { li.classList.toggle("hidden", i >= shown); li.classList.toggle("now", i === shown - 1); });
      count.textContent = `${shown} / ${items.length}`;
      items[shown - 1].scrollIntoView({ block: "nearest" });
    }
    const go = { first: () => 1, next: () => Math.min(items.length, shown + 1), all: () => items.length };
    document.querySelectorAll("[data-replay]").forEach((b) => b.addEventListener("click", () => {
      shown = go[b.dataset.replay](); render();
    }));
    render();
  }
})();
