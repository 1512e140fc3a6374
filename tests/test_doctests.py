"""The examples in the kernel's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["patience", "patience.cards", "patience.language", "patience.variant",
           "patience.game", "patience.generator", "patience.rulediff", "patience.schema",
           "patience.testing.lint", "patience.visibility", "patience.arguments",
           "patience.errors"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
