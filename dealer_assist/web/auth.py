"""Login, logout and changing one's own password."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from sqlmodel import Session

from .. import db, i18n
from ..edge import (
    PageBlueprint,
    Refused,
    any_role,
    end_login,
    form_error,
    on_refusal,
    public,
    same_site,
    start_login,
)
from ..models import utcnow
from ..services.errors import AuthenticationFailed, Throttled
from ..services.people import auth, users

bp = PageBlueprint("auth", __name__)


def _policy() -> auth.ThrottlePolicy:
    cfg = current_app.config
    return auth.ThrottlePolicy(int(cfg["LOGIN_MAX_FAILURES"]), int(cfg["LOGIN_LOCK_BASE_SECONDS"]),
                               int(cfg["LOGIN_LOCK_MAX_SECONDS"]),
                               max_per_ip=int(cfg["LOGIN_MAX_FAILURES_PER_IP"]),
                               max_per_user=2 * int(cfg["LOGIN_MAX_FAILURES"]),
                               otp_lifetime=timedelta(hours=float(cfg["OTP_LIFETIME_HOURS"])))


def _safe_next(target: str | None) -> str:
    """Only same-site paths: ``?next=https://evil.example`` must not redirect off-site."""
    return same_site(target) or url_for("web.home")


def _login_refused(err: Refused, **_: Any) -> Any:
    """The form again; a failed attempt counts (the edge commits a wrong password's failure)."""
    page, status = form_error(err, "login.html", username=g.get("login_username", ""),
                              next=request.form.get("next", ""))
    headers = {"Retry-After": str(err.retry_after)} if isinstance(err, Throttled) else {}
    return page, status, headers


@bp.route("/login", methods=["GET", "POST"])
@on_refusal(_login_refused)
@public
def login() -> Any:
    if request.method == "GET":
        if g.get("user") and g.get("device") is None:  # a table device's dealer is no login
            return redirect(url_for("web.home"))
        return render_template("login.html", next=request.args.get("next", ""))
    username = request.form.get("username", "")[:64]
    g.login_username = username  # the audit hook logs a refusal only for a login that ran
    dbs = db.get_session()
    result = auth.login(dbs, username=username, password=request.form.get("password", ""),
                        ip=request.remote_addr or "unknown", policy=_policy())
    picked = session.get(i18n.SESSION_KEY)
    start_login(result.token, dbs)
    if picked in i18n.LANGUAGES:  # the switch used before signing in becomes the profile's
        session[i18n.SESSION_KEY] = picked
        users.set_language(dbs, result.user_id, str(picked), only_if_unset=True)
    if result.must_change_password:
        flash(gettext("Choose your own password to continue."), "info")
        return redirect(url_for("auth.change_password"))
    if users.needs_pin(dbs, result.user_id):  # set at a full sign-in
        flash(gettext("Set your PIN (the name menu, PIN): a relief and a co-signature ask for "
                      "it."), "info")
    return redirect(_safe_next(request.form.get("next")))


@bp.post("/logout")
@public
def logout() -> Any:
    end_login(db.get_session())
    flash(gettext("You are signed out."), "info")
    return redirect(url_for("auth.login"))


@bp.route("/password", methods=["GET", "POST"])
@on_refusal(lambda err, **_: form_error(err, "change_password.html"))
@any_role
def change_password() -> Any:
    if request.method == "GET":
        return render_template("change_password.html")
    if request.form.get("new_password") != request.form.get("confirm_password"):
        flash(gettext("The two new passwords differ."), "error")
        return render_template("change_password.html", error_field="confirm_password"), 422
    password_guarded(lambda dbs: users.change_password(
        dbs, g.user.id, current=request.form.get("current_password", ""),
        new=request.form.get("new_password", ""),
        min_length=int(current_app.config["PASSWORD_MIN_LENGTH"]),
        keep_session_id=g.user.session_id))
    flash(gettext("Your password has been changed."), "success")
    return redirect(url_for("web.home"))


def password_guarded(act: Callable[[Session], object]) -> None:
    """Run ``act``, which proves itself with the signed-in person's password (a new password,
    a new PIN), under the login's throttle: refused while locked (``Throttled``); a wrong
    password counts like a failed login (the edge commits the failure it raises again, and
    nothing else: what ``act`` began is rolled back first). ``/pin`` guesses are
    throttled as ``/password``'s are."""
    dbs = db.get_session()
    ip = request.remote_addr or "unknown"
    auth.check_throttle(dbs, g.user.username, ip, _policy(), utcnow())
    try:
        act(dbs)
    except AuthenticationFailed:
        dbs.rollback()
        auth.record_failure(dbs, g.user.username, ip, _policy())
        raise


@bp.post("/language")
@public
def set_language() -> Any:
    """The header switch: one tap picks the language; a signed-in user's profile keeps it
    (``user_account.language``), a visitor's session keeps it until they sign in. A table
    device keeps it in its own session: the tablet's language, never the account of the
    dealer tapped in there."""
    chosen = request.form.get("language", "")
    if chosen not in i18n.LANGUAGES:
        abort(400, description=gettext("Unknown language."))
    session[i18n.SESSION_KEY] = chosen
    user = g.get("user")
    if user is not None and g.get("device") is None:
        users.set_language(db.get_session(), user.id, chosen)
    return redirect(_safe_next(request.form.get("next")))
