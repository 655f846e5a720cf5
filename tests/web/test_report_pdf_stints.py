""""the Russian PDF's dealer stints column squeezed to 8 lines". The shift
report of a table where two dealers relieved each other, printed in Russian: every stint
(``08:00–08:30``) stays on one line and the column takes no more lines than the stints."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from dealer_assist.models import Shift
from dealer_assist.services.people import reliefs
from dealer_assist.services.shifts import shifts
from tests.factories import SIGNED, make_table, make_user
from tests.web.conftest import Browser, arrange

ROOT = Path(__file__).resolve().parents[2]
STINT = re.compile(r"\d\d:\d\d–(\d\d:\d\d|сейчас)")


def _relieved_shift(session: Any) -> int:
    """Carla and Dimitri take turns every half hour: Carla three stints, Dimitri two."""
    make_user(session, "maria", "shift_manager", language="ru")
    carla = make_user(session, "carla", "croupier")
    dimitri = make_user(session, "dimitri", "croupier")
    table = make_table(session, name="RP 1")
    shift = shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    opened = session.get(Shift, shift.id).opened_at
    for n, who in enumerate((dimitri, carla, dimitri, carla), start=1):
        reliefs.relieve(session, table_id=table.id, now=opened + timedelta(minutes=30 * n),
                        relief=reliefs.Relief(who.id, SIGNED))
    return int(shift.id)


def _lines(pdf: Path) -> list[str]:
    done = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True)
    return done.stdout.splitlines()


def test_the_russian_report_prints_each_stint_on_one_line(browser: Browser, app: Flask,
                                                          tmp_path: Path) -> None:
    shift_id = arrange(app, _relieved_shift)
    browser.login("maria")
    resp = browser.get(f"/reports/shifts/{shift_id}.pdf")
    assert resp.status_code == 200
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(resp.data)
    out = ROOT / "test-artifacts" / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "70", str(pdf), str(out / "issue35-dealers-ru")],
                   check=True)
    lines = _lines(pdf)
    start = next(i for i, line in enumerate(lines) if line.strip() == "Дилеры")
    end = next(i for i in range(start + 1, len(lines)) if "Dimitri" in lines[i])
    carla = [line for line in lines[start:end + 8] if line.strip()]
    found = [m.group(0) for line in carla for m in STINT.finditer(line)]
    assert len(found) == 5, ("stints cut over lines", carla)
    rows = [i for i, line in enumerate(lines) if STINT.search(line)]
    assert len(rows) <= 5, ("the stints take too many lines", lines[start:end + 8])
