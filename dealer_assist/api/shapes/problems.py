"""Problem bodies (RFC 9457): the shape of every failure, and one reusable answer per status."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from .base import Absent, Obj, Shape


class Problem(Shape):
    """RFC 9457 problem body"""

    type: str
    title: str
    status: int
    detail: str
    field: str | Absent = None


class RulesProblem(Problem):
    """422: well-formed JSON that breaks a rule"""

    code: Annotated[str | Absent, Field(description=(
        "machine-readable: invalid_field, card_parse_error, duplicate_card, card_not_in_deck, "
        "card_count, invalid_stake, illegal_action, house_rules_error (calculators and "
        "rounds)"))] = None
    field: Annotated[str | Absent, Field(description="path of the offending entry")] = None
    value: Annotated[Any, Field(description="the offending value")] = None


class OpenApiDocument(Shape):
    """An OpenAPI 3.1 document (this API's own)."""

    openapi: str
    info: Obj | Absent = None
    jsonSchemaDialect: str | Absent = None  # noqa: N815  (OpenAPI's own name)
    servers: list[Obj] | Absent = None
    paths: Obj
    components: Obj | Absent = None


def _answer(description: str, schema: str, **example: Any) -> dict[str, Any]:
    return {"description": description, "content": {"application/problem+json": {
        "schema": {"$ref": f"#/components/schemas/{schema}"},
        "example": {"type": "about:blank", **example}}}}


#: the reusable problem answers, by name (``components.responses``)
RESPONSES: dict[str, Any] = {
    "BadRequest": _answer("the body is not JSON, or does not fit the documented shape",
                          "Problem", title="Malformed JSON", status=400,
                          detail="the request body is not valid JSON"),
    "Unauthorized": _answer("no login session", "Problem", title="Not signed in", status=401,
                            detail="sign in first (session cookie)"),
    "Forbidden": _answer("wrong role, or a write without the X-CSRF-Token header", "Problem",
                         title="Not allowed", status=403,
                         detail="only table staff record rounds"),
    "NotFound": _answer("unknown id, game or route", "Problem", title="Not Found", status=404,
                        detail="No round with id 42."),
    "Conflict": _answer("a key reused for another step, a stale expected_seq, a closed "
                        "round, no open shift", "Problem", title="Conflict", status=409,
                        detail="This round is closed."),
    "Unprocessable": _answer(
        "well-formed JSON that breaks a rule", "RulesProblem",
        title="The request breaks a rule", status=422, code="duplicate_card",
        field="dealer.draw", value="7d",
        detail="7d (card 2) is already on the table (first named in boxes[0].cards)"),
    "ServiceUnavailable": {
        **_answer("the database stayed busy through every retry: nothing was recorded, send "
                  "the same request again (same Idempotency-Key) after Retry-After seconds",
                  "Problem", title="Busy", status=503,
                  detail="The database is busy; nothing was recorded. Try again in a moment.",
                  retry_after=1),
        "headers": {"Retry-After": {"description": "seconds to wait before sending it again",
                                    "schema": {"type": "integer"}}}},
    "TooManyRequests": {
        **_answer("the public calculators' rate limit (PUBLIC_API_RATE_LIMIT) is reached",
                  "Problem", title="Too Many Requests", status=429, detail="60 per 1 minute"),
        "headers": {"Retry-After": {"description": "seconds until a call is accepted again",
                                    "schema": {"type": "integer"}}}},
}
