"""Shift report as HTML and PDF. The only module that imports WeasyPrint (lazily, so the app
starts without loading it).

:func:`report_html` renders ``templates/reports/shift.html`` (Jinja autoescape: every value from
the database is text, never markup) for the on-screen preview and for the PDF alike.
:func:`html_to_pdf` turns it into a PDF:

* **Fetching.** WeasyPrint gets a :class:`StaticFetcher`-style fetcher that serves the app's own
  ``static/`` files, read from disk, for URLs under :data:`BASE_URL` ``static/`` (the template
  links its stylesheet relatively), and ``data:`` URLs; anything else (``file://``,
  ``http(s)://``, a path that climbs out of ``static/``) is refused with an error that
  WeasyPrint logs and skips. Nothing leaves the machine and no other local file is read.
* **Time limit.** Rendering runs in a child process, ``python -m dealer_assist.pdf`` (HTML in
  on stdin, PDF out on stdout): ``subprocess.run(timeout=...)`` kills it when the time is up
  and :class:`RenderTimeout` is raised. A thread could not be stopped; a process can. A fresh
  interpreter (not a fork) never inherits the web server's threads, locks or database
  connections; it costs about a second of start-up (importing WeasyPrint) per PDF.
"""

from __future__ import annotations

import json
import mimetypes
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import render_template

from . import i18n
from .rules.games.poker.profile import STAKE_NAMES

#: a base URL no real host answers to; only ``BASE_URL + "static/..."`` is ever served
BASE_URL = "https://dealer-assist.invalid/"
PAGE_SIZES = {"a4": "A4", "letter": "letter"}
DEFAULT_TIMEOUT = 60.0
CHART_W, CHART_H, CHART_POINTS = 640, 170, 480


class RenderTimeout(Exception):
    """The PDF took longer than its time limit and was abandoned."""


class RenderFailed(Exception):
    """WeasyPrint failed in the child process (the message says why)."""


# --- presentation helpers (pure) ------------------------------------------------------------------

#: the one money and date formatter (``i18n``): ``1 234`` / ``1,234``, dates by locale
money = i18n.money
when = i18n.when
duration = i18n.duration


def chart(cumulative: Sequence[int], numbers: Sequence[int] | None = None) -> dict[str, Any]:
    """Geometry of the house's cumulative result: an SVG polyline, its zero line and ticks;
    ``numbers``: the settled rounds' numbers, whose first and last label the ends (a voided
    round leaves a gap: the last point is not "round <count>").

    At most :data:`CHART_POINTS` points (each bucket keeps its extreme values so a spike is
    not smoothed away); integer arithmetic, so the same data draws the same picture.
    """
    values = [0, *cumulative]
    if len(values) > CHART_POINTS:
        step = -(-len(values) // (CHART_POINTS // 2))
        sampled: list[int] = []
        for i in range(0, len(values), step):
            bucket = values[i:i + step]
            lo, hi = min(bucket), max(bucket)
            sampled += [lo, hi] if bucket.index(lo) < bucket.index(hi) else [hi, lo]
        sampled.append(values[-1])
        values = sampled
    top, bottom = max(0, *values), min(0, *values)
    span = (top - bottom) or 1
    pad = 6

    def y(v: int) -> float:
        return round(pad + (top - v) * (CHART_H - 2 * pad) / span, 1)

    n = len(values) - 1 or 1
    points = " ".join(f"{round(i * CHART_W / n, 1)},{y(v)}" for i, v in enumerate(values))
    return {"width": CHART_W, "height": CHART_H, "points": points, "zero": y(0),
            "top": top, "bottom": bottom, "end": values[-1], "rounds": len(cumulative),
            "end_y": y(values[-1]), "first": numbers[0] if numbers else 1,
            "last": numbers[-1] if numbers else len(cumulative)}


def report_context(data: dict[str, Any], sha256: str, *, page_size: str = "a4",
                   printed_at: str | None = None) -> dict[str, Any]:
    size = PAGE_SIZES.get(page_size.lower())
    if size is None:
        raise ValueError(f"page size must be one of {', '.join(PAGE_SIZES)}")
    transfers = data["inventory"]["transfers"]
    return {"r": data, "sha256": sha256, "page_size": size,
            "chart": chart(data["cumulative"], data.get("cumulative_rounds")),
            "fills": [t for t in transfers if t["kind"] == "fill"],
            "credits": [t for t in transfers if t["kind"] == "credit"],
            "money": money, "when": when, "duration": duration, "printed_at": printed_at}


def report_html(data: dict[str, Any], sha256: str, *, page_size: str = "a4",
                printed_at: str | None = None, preview: bool = False,
                links: Sequence[tuple[str, str]] = ()) -> str:
    """The report page (needs an app context: it renders a template). ``links``: the preview's
    toolbar (label, URL)."""
    poker = data.get("schema", "").startswith("dealer_assist/poker-")
    return render_template("reports/poker_shift.html" if poker else "reports/shift.html",
                           preview=preview, links=list(links), stake_names=STAKE_NAMES,
                           **report_context(data, sha256, page_size=page_size,
                                            printed_at=printed_at))


def print_html(template: str, *, page_size: str = "a4", preview: bool = False,
               links: Sequence[tuple[str, str]] = (), **context: Any) -> str:
    """Any other printed page (a slip, the hold report) with the same helpers: the
    template, its page size, the preview's toolbar (label, URL)."""
    size = PAGE_SIZES.get(page_size.lower())
    if size is None:
        raise ValueError(f"page size must be one of {', '.join(PAGE_SIZES)}")
    return render_template(template, page_size=size, preview=preview, links=list(links),
                           money=money, when=when, **context)


# --- fetching ------------------------------------------------------------------------------

def make_fetcher(static_dir: str | Path) -> Any:
    """A WeasyPrint URL fetcher that serves only ``static_dir`` (and ``data:`` URLs).

    ``fetcher.asked`` lists every URL WeasyPrint asked for; ``fetcher.refused`` those refused.
    """
    # late: WeasyPrint (a second of start-up) loads only in the renderer's child process
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    root = Path(static_dir).resolve()
    prefix = BASE_URL + "static/"

    class StaticFetcher(URLFetcher):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(timeout=1, allowed_protocols=("data",), allow_redirects=False)
            self.asked: list[str] = []
            self.refused: list[str] = []

        def fetch(self, url: str, headers: Any = None) -> Any:
            self.asked.append(url)
            if url.startswith("data:"):
                return super().fetch(url, headers)
            path = (root / url[len(prefix):].split("?")[0].split("#")[0]).resolve() \
                if url.startswith(prefix) else None
            if path is None or not path.is_relative_to(root) or not path.is_file():
                self.refused.append(url)
                raise ValueError(f"refused to fetch {url!r}: only the app's static files")
            mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})

    return StaticFetcher()


# --- rendering -----------------------------------------------------------------------------

def render_in_process(html: str, static_dir: str) -> tuple[bytes, list[str]]:
    """Render ``html`` to PDF bytes here (the child's work); also returns the URLs asked for."""
    # late: WeasyPrint loads only in the renderer's child process (see the module docstring)
    from weasyprint import HTML

    fetcher = make_fetcher(static_dir)
    pdf = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).write_pdf()
    return bytes(pdf), list(fetcher.asked)


def html_to_pdf_with_log(html: str, *, static_dir: str | Path,
                         timeout: float = DEFAULT_TIMEOUT) -> tuple[bytes, list[str]]:
    """PDF bytes and the URLs the renderer asked for; :class:`RenderTimeout` after ``timeout``.

    The work is done by ``python -m dealer_assist.pdf`` (see :func:`main`) in a child process,
    killed when the time is up.
    """
    request = json.dumps({"html": html, "static_dir": str(static_dir)}).encode("utf-8")
    try:
        done = subprocess.run([sys.executable, "-m", "dealer_assist.pdf"], input=request,
                              capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RenderTimeout(f"the PDF took longer than {timeout:g} s and was abandoned") from None
    if done.returncode != 0 or b"\n" not in done.stdout:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
        raise RenderFailed(f"the PDF renderer failed: {detail[0]}")
    head, pdf = done.stdout.split(b"\n", 1)
    return pdf, list(json.loads(head))


def html_to_pdf(html: str, *, static_dir: str | Path, timeout: float = DEFAULT_TIMEOUT) -> bytes:
    return html_to_pdf_with_log(html, static_dir=static_dir, timeout=timeout)[0]


def main() -> None:
    """The child: a JSON request on stdin; one JSON line (URLs asked for) and the PDF on stdout."""
    request = json.loads(sys.stdin.buffer.read())
    pdf, asked = render_in_process(request["html"], request["static_dir"])
    sys.stdout.buffer.write(json.dumps(asked).encode() + b"\n" + pdf)
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
