"""A variant file changed as plain data, compiled: what mutation testing
(``patience.testing.mutants``) and the semantic checks (``patience.testing.semantic``) both
load, so it lives below both.
"""

from __future__ import annotations

from typing import Any

import yaml

from patience.errors import PatienceError
from patience.variant import Variant, load_variant_text


def load_mutant_flat(variant: Variant, flat: dict[str, Any], *,
                     tabulate: bool = True) -> Variant | None:
    """A changed definition (plain data, as ``Definition.flat``) compiled, or None when
    the loader refuses it. Without ``tabulate`` no card predicate becomes a table (the
    same moves, generated more slowly, compiled much faster: for a move-set comparison
    on a sample)."""
    text = str(yaml.safe_dump(flat, sort_keys=False, allow_unicode=True, width=1000))
    try:
        return load_variant_text(text, f"{variant.path} (mutant)", tabulate=tabulate)
    except PatienceError:
        return None
    except (ValueError, KeyError, IndexError, RecursionError):  # a change the loader misses
        return None
