"""Server-rendered pages for the croupier, pit boss and managers."""

from flask import Blueprint, render_template

bp = Blueprint("web", __name__)


@bp.get("/")
def home() -> str:
    return render_template("home.html")
