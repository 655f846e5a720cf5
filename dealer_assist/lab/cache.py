"""One object per profile version and process: the lab's look-up tables take seconds to build.

A profile with dict fields is not hashable, so the key is its fingerprint (plus whatever else
the object depends on: the ANTE, the cap).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ..rules.profiles import HouseProfile
from .version import fingerprint

T = TypeVar("T")


def per_version(cache: dict[Any, T], build: Callable[..., T], profile: HouseProfile,
                *extra: Hashable) -> T:
    """``cache``'s object for (profile version, *extra), built by ``build(profile, *extra)``
    the first time."""
    key = (fingerprint(profile), *extra)
    if key not in cache:
        cache[key] = build(profile, *extra)
    return cache[key]
