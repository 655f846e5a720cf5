"""Shared fixtures, after the Flask tutorial: ``app``, ``client``, ``runner``.

Rules tests (``tests/rules``) use no fixtures and no database.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from dealer_assist import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
    })
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
