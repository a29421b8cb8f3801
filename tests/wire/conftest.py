"""Shared fixtures for the rules-core tests (tests/wire).

`rng` is a seeded `random.Random`, so a rolled die is the same face on every run. The hypothesis
profile "wire" keeps the property tests small enough for the whole wire suite to run in a few
seconds; the test modules apply it with `@settings(settings.get_profile("wire"))`, so loading it
here does not change the defaults of anyone else's property tests.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings

SEED = 20261130

settings.register_profile(
    "wire",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(SEED)
