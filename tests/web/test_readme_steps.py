"""Defect 16: the README walks each role through opening and closing a shift, the
inventory, approvals and reports, step by step, and every button and page it names exists."""

from __future__ import annotations

import re
from pathlib import Path

from dealer_assist.services.people import users

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ROLE_TITLES = " ".join(str(title) for title in users.ROLE_TITLES.values())
#: the pages' words: the templates, and the table screen's round, which static/round.js draws
#: from the words web/live_screen.py and web/live.py say
TEMPLATES = " ".join(p.read_text(encoding="utf-8") for p in [
    *(ROOT / "templates").rglob("*.html"), ROOT / "dealer_assist" / "web" / "live_screen.py",
    ROOT / "dealer_assist" / "tablet" / "screen.py",
    ROOT / "dealer_assist" / "web" / "live.py"])


def _section(title: str) -> str:
    start = README.index(title)
    following = README.find("\n**", start + len(title))
    return README[start:following if following > 0 else None]


def test_the_readme_has_a_step_by_step_part_for_each_role() -> None:
    for title in ("**Opening a shift", "**Pit boss: fills, credits and closing",
                  "**Pit boss and shift manager: what waits for you.**", "**Reports"):
        steps = re.findall(r"^\d+\. ", _section(title), re.M)
        assert len(steps) >= 2, f"{title} has no numbered steps"


def test_every_button_and_page_the_readme_names_exists_in_the_templates() -> None:
    named = ["Open shift with this count", "Inventory, fills and credits", "Close shift",
             "The count is final", "Waiting for you", "Approvals", "Disputes", "Review",
             "Frozen", "Record", "Download PDF",
             # the relief and the table device
             "Relieve dealer", "Take the table", "Make this tablet the table's device"]
    for label in named:
        assert label in README, label
        assert label in TEMPLATES or label == "Download PDF", label


def test_the_first_round_walk_through_is_still_there() -> None:
    assert "## First steps" in README and "Paid ✓" in README


def test_the_players_walk_through_names_what_the_screens_show() -> None:
    """The README's players part names the table screen's and the pages' labels."""
    steps = re.findall(r"^\d+\. ", _section("**Players at the boxes and their ratings"), re.M)
    assert len(steps) >= 3
    for label in ("Same player as box", "Rated player sits down", "Rated players at this table",
                  "Leaves", "Rating slips (CSV)", "In the dark"):
        assert label in README and label in TEMPLATES, label


def test_the_readme_walks_the_cage_the_count_team_the_void_and_the_hold_report() -> None:
    """"README: the drop box and soft count, the hold report, voiding a slip
    and the new roles are missing; 'add the slip number as a note' is obsolete (slips are
    numbered); Profiles shows no pay tables although the README sends people there"."""
    assert "add the slip number as a note" not in README
    for title in ("**Cage cashier: fills and credits.**",
                  "**Count team: the drop box and the soft count.**"):
        assert title in README, title
    for label in ("Cage", "Issue", "Sign for it", "Void the slip", "Soft count", "Count",
                  "Record the count", "Win, drop and hold", "Count team (soft count)",
                  "Cage cashier"):
        assert f"*{label}*" in README, label
        assert label in TEMPLATES or label in ROLE_TITLES, label
    pays = (ROOT / "templates" / "admin" / "profiles.html").read_text(encoding="utf-8")
    assert "pick one from **Profiles**" in README and "its pay tables" in README
    assert "p.pays" in pays
