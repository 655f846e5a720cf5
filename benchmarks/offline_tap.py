"""A tap on the table's tablet, online and offline, in Debian's Chromium here: from
the tap to the new screen drawn (the renderer's Performance marks "tap" and "drawn").

    .venv/bin/python benchmarks/offline_tap.py [--rounds 4] [--smoke]

The same Russian poker rounds are dealt three ways on the table's bound device, in one run:

* ``online, no offline machinery``: the page with static/offline.js and static/engine.js
  blocked -- the table screen as it was before (the peer);
* ``online, offline machinery``: the page as served -- the engine warm in its worker, the
  mirror of the round kept, the ping every 3 s;
* ``offline``: the network cut (``context.set_offline``) -- every tap checked and drawn by the
  tablet's own engine (Pyodide) and queued in IndexedDB; the queue is sent once the network is
  back (the stored events are counted).

Targets (the issue): offline p95 < 50 ms; online the machinery adds nothing (the same p95 within
the run-to-run spread). Headline figures last.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]  # its http.py
sys.path.insert(0, str(HERE.parent))
sys.path.insert(1, str(HERE))

from tablet_engine import ARGS, BOOT_MS, CHROMIUM, serving  # noqa: E402

from dealer_assist.edge.device import COOKIE  # noqa: E402
from dealer_assist.web import tablet_bundle  # noqa: E402

#: one Russian round: the bets, an exchange, BETs, the dealer's cards, each box's hand, Paid
#: (the deal with nothing face up records itself with the start)
ROUND = [("fill", 'input[name="ante_1"]', "100"), ("fill", 'input[name="ante_2"]', "100"),
         ("tap", 'button[data-step="start"]'),
         ("tap", 'article.box[data-box="1"] [data-step="exchange"][data-value="1"]'),
         ("tap", 'article.box[data-box="1"] [data-step="bet"]'),
         ("tap", 'article.box[data-box="2"] [data-step="bet"]'),
         *(("tap", f'.card-grid button[data-card="{c}"]') for c in "Kh Kd 4s 5c 6d".split()),
         *(("tap", f'.card-grid button[data-card="{c}"]') for c in "As Ad Ah 2c 3d".split()),
         *(("tap", f'.card-grid button[data-card="{c}"]') for c in "Qs Qd 7h 8c 9c".split()),
         ("tap", 'button[data-step="paid"]')]
TIMES = """() => {
  const taps = performance.getEntriesByName('tap'), drawn = performance.getEntriesByName('drawn');
  return taps.map(t => { const d = drawn.find(x => x.startTime > t.startTime);
                         return d ? d.startTime - t.startTime : null; }).filter(x => x !== null);
}"""


def deal(page: Any, rounds: int) -> list[float]:
    """``rounds`` rounds on the page; the tap-to-drawn times of the taps that recorded."""
    page.evaluate("() => performance.clearMarks()")
    for _ in range(rounds):
        for kind, selector, *text in ROUND:
            if kind == "fill":
                page.fill(selector, text[0])
            else:
                page.click(selector)
                page.wait_for_selector("body:not(.busy)", state="attached")
        error = page.query_selector("[data-error-for], .field-msg.error, .flash-error")
        if error:
            raise SystemExit(f"the round was refused: {error.inner_text()}")
    return list(page.evaluate(TIMES))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds per way")
    parser.add_argument("--smoke", action="store_true", help="one round each way (and one "
                        "not counted)")
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 1
    if not Path(CHROMIUM).exists() or not tablet_bundle.pyodide_installed():
        raise SystemExit(f"{CHROMIUM} and node_modules/pyodide are required (make test)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp)) as (url, token, _tally), \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        results: dict[str, list[float]] = {}
        for way in ("online, no offline machinery", "online, offline machinery", "offline"):
            context = browser.new_context(viewport={"width": 768, "height": 1024})
            origin = url.split("/tables/")[0]  # the cookie's path is "/", not the page's
            context.add_cookies([{"name": COOKIE, "value": token, "url": origin}])
            page = context.new_page()
            if way.startswith("online, no"):
                page.route("**/static/offline.js*", lambda route: route.abort())
                page.route("**/static/engine.js*", lambda route: route.abort())
            page.goto(url)
            if not way.startswith("online, no"):
                page.wait_for_function("() => TabletEngine.ready || TabletEngine.error",
                                       timeout=BOOT_MS)
            if way == "offline":
                context.set_offline(True)
            deal(page, 1)  # a first round, not counted: the server's and the page's first calls
            results[way] = deal(page, args.rounds)
            if way == "offline":
                queued = page.evaluate("() => TableOffline.state.queued")
                context.set_offline(False)
                page.wait_for_function("() => TableOffline.state.queued === 0", timeout=60_000)
                print(f"offline: {queued} steps queued, all sent once the network was back")
            context.close()
            times = results[way]
            print(f"{way}: {len(times)} recording taps, median {statistics.median(times):.1f} "
                  f"ms, p95 {p95(times):.1f} ms, max {max(times):.1f} ms")
            print("  by tap (ms): " + " ".join(f"{t:.0f}" for t in times))
        browser.close()
    base = p95(results["online, no offline machinery"])
    with_it = p95(results["online, offline machinery"])
    print(f"offline target p95 < 50 ms: "
          f"{'met' if p95(results['offline']) < 50 else 'MISSED'}")
    print(f"offline_tap_p95: {p95(results['offline']):.1f} ms")
    print(f"online_tap_p95_with_offline_machinery: {with_it:.1f} ms")
    print(f"online_tap_p95_without: {base:.1f} ms")
    print(f"online_with_vs_without_p95_ratio: {with_it / base:.2f} x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
