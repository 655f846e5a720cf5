"""The two setup commands ``make run`` calls: init-db and create-admin --if-none."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskCliRunner

from tests.web.conftest import Browser


def test_create_admin_prints_the_username_and_a_one_time_password_once(
        app: Flask, runner: FlaskCliRunner) -> None:
    first = runner.invoke(args=["create-admin", "--if-none"])
    assert first.exit_code == 0, first.output
    match = re.search(r"one-time password:\s+(\S+)", first.output)
    assert match and "username:           admin" in first.output
    again = runner.invoke(args=["create-admin", "--if-none"])
    assert again.exit_code == 0
    assert again.output == ""


def test_the_first_admin_must_change_the_printed_password_at_first_login(
        app: Flask, runner: FlaskCliRunner) -> None:
    output = runner.invoke(args=["create-admin", "--if-none"]).output
    password = re.search(r"one-time password:\s+(\S+)", output)
    assert password
    browser = Browser(app.test_client())
    assert browser.login("admin", password.group(1)).headers["Location"] == "/password"


def test_create_admin_without_if_none_refuses_a_taken_username(runner: FlaskCliRunner) -> None:
    runner.invoke(args=["create-admin"])
    second = runner.invoke(args=["create-admin"])
    assert second.exit_code == 1
    assert "already taken" in second.output
    named = runner.invoke(args=["create-admin", "--username", "boss2"])
    assert named.exit_code == 0 and "boss2" in named.output


def test_init_db_on_a_migrated_database_changes_nothing(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0 and "up to date" in result.output


def test_create_admin_names_the_address_the_app_is_served_on(runner: FlaskCliRunner) -> None:
    """"The console says Log in at http://127.0.0.1:5000/ when serving on
    another PORT" (``make run PORT=8000`` passes its host and port; so does ``PORT=``)."""
    given = runner.invoke(args=["create-admin", "--if-none", "--port", "8000"])
    assert given.exit_code == 0, given.output
    assert "Log in at http://127.0.0.1:8000/ " in given.output
    from_env = runner.invoke(args=["create-admin", "--username", "boss2"],
                             env={"PORT": "8123", "HOST": "10.0.0.5"})
    assert "Log in at http://10.0.0.5:8123/ " in from_env.output
    default = runner.invoke(args=["create-admin", "--username", "boss3"], env={"PORT": None})
    assert "Log in at http://127.0.0.1:5000/ " in default.output
