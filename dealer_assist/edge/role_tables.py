"""The docs' role tables, made from the roles every view declares.

A table in a Markdown file between ``<!-- role-table: PATTERN ... -->`` and
``<!-- /role-table -->`` lists every route whose endpoint matches one of the patterns
(``fnmatch``: ``reports.*``, ``api.get_slip``) with its methods and the roles that
``@role_required`` declares for it. :func:`refresh` rewrites those blocks from the running app
(``flask --app dealer_assist roles --write README.md docs/*.md``) and
``tests/web/test_role_docs.py`` fails when a block says anything else, so the docs cannot drift
from the declarations again.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch

from flask import Flask

from ..models import Role
from .roles import ALL_ROLES, PUBLIC, declared_roles

#: how the docs name each role, in this order
ROLE_WORDS = {Role.CROUPIER.value: "croupier", Role.PIT_BOSS.value: "pit boss",
              Role.SHIFT_MANAGER.value: "shift manager", Role.ADMIN.value: "admin",
              Role.AUDITOR.value: "auditor", Role.COUNT_TEAM.value: "count team",
              Role.CAGE_CASHIER.value: "cage cashier"}
BLOCK = re.compile(r"(<!-- role-table: (?P<patterns>[^>]*?) -->\n)(?P<body>.*?)"
                   r"(<!-- /role-table -->)", re.S)
_CONVERTER = re.compile(r"<(?:[a-z]+:)?([a-z_]+)>")


def who(roles: frozenset[str] | None) -> str:
    """The declared roles in the docs' words."""
    if not roles:
        return "nobody (undeclared)"
    if PUBLIC in roles:
        return "anyone, without signing in"
    if roles >= ALL_ROLES:
        return "every account"
    return ", ".join(word for role, word in ROLE_WORDS.items() if role in roles)


def rows(app: Flask, patterns: list[str]) -> list[tuple[str, str, str]]:
    """(path, methods, roles) of every route whose endpoint matches a pattern, by path."""
    out = []
    for rule in app.url_map.iter_rules():
        if not any(fnmatch(rule.endpoint, p) for p in patterns):
            continue
        methods = ", ".join(sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))
        out.append((_CONVERTER.sub(r"<\1>", rule.rule), methods,
                    who(declared_roles(app, rule.endpoint))))
    return sorted(out)


def render(app: Flask, patterns: list[str]) -> str:
    lines = ["| Path | Methods | Roles |", "|---|---|---|"]
    lines += [f"| `{path}` | {methods} | {roles} |" for path, methods, roles in
              rows(app, patterns)]
    return "\n".join(lines) + "\n"


def blocks(text: str) -> list[tuple[list[str], str]]:
    """(patterns, body) of every role table in ``text``."""
    return [(m["patterns"].split(), m["body"]) for m in BLOCK.finditer(text)]


def refresh(app: Flask, text: str) -> str:
    """``text`` with every role table made again from the declared roles."""
    return BLOCK.sub(lambda m: m.group(1) + render(app, m["patterns"].split()) + m.group(4),
                     text)
