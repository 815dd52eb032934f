"""Fixtures for the compute tests: the parsed reference printouts.

A missing reference folder is a failure, not a skip: CI has ../shared beside the clone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from reference import (
    AttentionReference,
    ReferenceFormatError,
    ReferenceNotFound,
    load_attention,
    load_lecture,
)

T = TypeVar("T")


def _load_or_fail(load: Callable[[], T]) -> T:
    try:
        return load()
    except (ReferenceNotFound, ReferenceFormatError) as exc:
        message = str(exc)
    pytest.fail(message, pytrace=False)


@pytest.fixture(scope="session")
def attention_ref() -> AttentionReference:
    """Every number ``attention.py`` prints (``shared/seeds/reference/attention.txt``)."""
    return _load_or_fail(load_attention)


@pytest.fixture(scope="session")
def lecture_ref() -> dict:
    """Every item the lecture script prints (``shared/seeds/reference/self_attention.txt``)."""
    return _load_or_fail(load_lecture)
