"""Time the end-of-shift report for a 12-hour shift of 4,000 Russian poker rounds.

    .venv/bin/python benchmarks/report.py [--rounds 4000] [--repeat 3]

Builds a temporary SQLite database (migrated), opens a shift and fills it with random legal
rounds from the engine's live flow, recorded through the record path with the dealers' reliefs
(``tests/services/conftest_reports.play_shift``; generation is not what is timed), with an
opening count, fills, a credit and the closing.
Then times, each ``--repeat`` times (median and max reported):

* ``data``: :func:`dealer_assist.services.reports.build_shift_report` + SHA-256;
* ``pdf``: the template rendered to HTML and the HTML to PDF by WeasyPrint in its child process
  (``dealer_assist.pdf.html_to_pdf``: includes the child's start-up);
* ``total``: both, what a shift manager waits for after pressing "Download PDF".

Target: total under 10 s. Headline lines come last, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# the script's own directory must not shadow the standard library (benchmarks/http.py exists)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

from pypdf import PdfReader  # noqa: E402
from sqlmodel import Session  # noqa: E402

from dealer_assist import create_app, pdf  # noqa: E402
from dealer_assist.db import make_engine, upgrade  # noqa: E402
from dealer_assist.services import reports  # noqa: E402
from dealer_assist.services.people import passwords  # noqa: E402
from dealer_assist.services.shifts import inventory  # noqa: E402
from tests.factories import SIGNED  # noqa: E402
from tests.services.conftest_reports import T0, make_floor, open_inventory, play_shift  # noqa: E402


def build(url: str, n: int) -> int:
    """A closed shift of ``n`` rounds over 12 hours; returns its id."""
    passwords.configure(time_cost=1, memory_kib=64)
    engine = make_engine(url)
    upgrade(engine)
    with Session(engine, expire_on_commit=False) as session:
        floor = make_floor(session)
        open_inventory(session, floor)
        play_shift(session, floor, n, seed=4000, hours=12, void_rate=0.01)
        win = reports.build_shift_report(session, floor.shift_id)["total"]["house_win"]
        inventory.close_shift(session, credential=SIGNED, shift_id=floor.shift_id,
                              closing_amount=max(0, 200_000 + win - 20_000 + 50_000),
                              croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                              actor_id=floor.pit_boss, now=T0 + timedelta(hours=12, minutes=5))
        session.commit()
        shift_id = floor.shift_id
    engine.dispose()
    return shift_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pdf", type=Path, help="keep the last PDF here (to look at it)")
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.repeat = 20, 1
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        t0 = time.perf_counter()
        shift_id = build(url, args.rounds)
        print(f"generated {args.rounds} rounds in {time.perf_counter() - t0:.1f} s "
              f"(not timed below)")
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url})
        engine = make_engine(url)
        data_t, pdf_t, total_t = [], [], []
        body = b""
        for _ in range(args.repeat):
            t = time.perf_counter()
            with Session(engine) as session:
                data, sha = reports.report_with_digest(session, shift_id)
            t_data = time.perf_counter() - t
            with app.app_context():
                html = pdf.report_html(data, sha, page_size="a4")
            body = pdf.html_to_pdf(html, static_dir=app.static_folder or "", timeout=120)
            t_total = time.perf_counter() - t
            data_t.append(t_data)
            pdf_t.append(t_total - t_data)
            total_t.append(t_total)
        engine.dispose()
        if args.pdf:
            args.pdf.write_bytes(body)
        pages = len(PdfReader(__import__("io").BytesIO(body)).pages)
        print(f"rounds settled {data['rounds']['settled']}, boxes {data['rounds']['boxes']}, "
              f"{pages} pages, {len(body):,} bytes, sha256 {sha[:16]}…")
        for name, times in (("data", data_t), ("pdf", pdf_t), ("total", total_t)):
            print(f"{name:>6}: median {statistics.median(times):.2f} s, max {max(times):.2f} s "
                  f"over {len(times)} runs")
    n = args.rounds
    print(f"report_{n}_rounds_data: {statistics.median(data_t):.2f} s")
    print(f"report_{n}_rounds_pdf: {statistics.median(pdf_t):.2f} s")
    print(f"report_{n}_rounds_total: {statistics.median(total_t):.2f} s")


if __name__ == "__main__":
    main()
