"""Winnability studies: solve many deals of a variant, store the results, report on them.

``patience stats`` runs a study (``patience.studies.runner``) into a SQLite file
(``patience.studies.database``); ``patience report`` summarizes it
(``patience.studies.report``). See ``docs/studies.md``.
"""

from patience.errors import StudyError, StudyStopped
from patience.studies.database import (
    DealRanges,
    DealResult,
    ResultsDatabase,
    RunKey,
    default_database_path,
)
from patience.studies.runner import DEFAULT_SOLVER, Study, Workers, parse_deals, run_study

__all__ = [
    "DEFAULT_SOLVER",
    "DealRanges",
    "DealResult",
    "ResultsDatabase",
    "RunKey",
    "Study",
    "StudyError",
    "StudyStopped",
    "Workers",
    "default_database_path",
    "parse_deals",
    "run_study",
]
