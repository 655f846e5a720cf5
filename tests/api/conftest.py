"""API tests: every answer they get is checked against the OpenAPI document
(``tests/openapi_answers.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.openapi_answers import problems, recording


@pytest.fixture(autouse=True)
def answers_fit_the_document(request: pytest.FixtureRequest) -> Iterator[None]:
    with recording() as seen:
        yield
    if request.node.get_closest_marker("off_the_document") is None:
        assert [p for answer in seen for p in problems(answer)] == []
