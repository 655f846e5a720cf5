"""The table screen's scripts: the round's renderer in three files by concept
(``static/round-state.js``, ``static/round-entry.js``, ``static/round.js``) that share one
``window.TableScreen``, loaded in that order after the ones they use; and every page script
within the project's module guideline ("Modules stay under ~400 lines")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.web.conftest import Browser, text
from tests.web.test_relief_pages import floor  # noqa: F401 (the fixture)

STATIC = Path(__file__).resolve().parents[2] / "static"
#: the project's guideline for a module ("Modules stay under ~400 lines")
MOST_LINES = 400


def test_the_table_screen_loads_the_rounds_three_scripts_in_order_after_the_ones_they_use(
        browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    assert browser.login("carla").status_code == 302
    screen = text(browser.get(f"/tables/{floor['table']}/live"))
    scripts = re.findall(r'<script src="/static/([\w.-]+\.js)', screen)
    first = scripts.index("round-state.js") if "round-state.js" in scripts else -1
    assert scripts[first:first + 3] == ["round-state.js", "round-entry.js", "round.js"], scripts
    for used in ("post.js", "offline-queue.js", "engine.js", "live.js", "offline.js"):
        assert scripts.index(used) < scripts.index("round-state.js"), (used, scripts)


def test_every_page_script_keeps_within_the_module_guideline_of_about_400_lines() -> None:
    long = {p.name: n for p in sorted(STATIC.glob("*.js"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert long == {}, f"over {MOST_LINES} lines: {long}"


def test_the_rounds_scripts_share_one_namespace_and_no_other_global() -> None:
    """One window.TableScreen between the three (window.tablePost and window.TableOffline,
    the contracts of post.js and offline.js, are only read)."""
    for name in ("round-state.js", "round-entry.js", "round.js"):
        source = (STATIC / name).read_text(encoding="utf-8")
        assigned = set(re.findall(r"window\.(\w+)\s*=(?!=)", source))
        assert assigned <= {"TableScreen"}, (name, assigned)
