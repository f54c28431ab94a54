"""Later turns: what every run of the liveness study shares, whoever runs it.

Each liveness situation, and each of the sixteen cases, continued for N turns: the Python SDK's
folder runs them (its ``later_turns``: the one driver takes the steps, here or in a release's
own interpreter through a ``Worker``, and writes ``data/liveness.json``); ``analysis.liveness``
judges the later turns. What the lab's findings, the sweep and the probe read of it stays here
and names no SDK: the modes (``LIVENESS_MODES``), the model the runs answer on
(``LIVENESS_MODEL``: the SDK's ``OpenAIResponsesModel`` over an in-process transport to the
stand-in, so a turn the API would refuse raises as it does for a user), the runs a release
could not make (``unjudged``), how many runs there are, and the file read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...analysis.liveness import SDK_DEFAULT_THRESHOLD, LivenessRun
from ...formats.records import RecordsError, read_json
from ...study.scenario import Case, all_cases
from ...study.words import SITUATIONS, STUDY_FIRST, Mode, Model

LIVENESS_MODES = STUDY_FIRST  # each situation in every mode, the study's first
LIVENESS_MODEL: Model = "responses"  # answers as the Responses API does (its rules)


def unjudged(version: str, why: str, model: Model = LIVENESS_MODEL) -> list[LivenessRun]:
    """Every situation in every mode, each an error run saying why none could run there (the
    release lacks what they use, or could not be installed or probed)."""
    return [
        LivenessRun(name, version, mode, False, (), error=why, model=model)
        for mode in LIVENESS_MODES
        for name in SITUATIONS
    ]


def trigger_threshold(trigger: Any) -> int | None:
    """The candidates at which a driver's trigger asks (None: ``always``, the hook says yes)."""
    if trigger == "default":
        return SDK_DEFAULT_THRESHOLD
    return trigger if isinstance(trigger, int) else None


def liveness_count(
    cases: Sequence[Case] | None = None, modes: Sequence[Mode] = LIVENESS_MODES
) -> int:
    """How many runs ``run_liveness`` makes: every situation and case in each mode."""
    return len(modes) * (len(SITUATIONS) + len(all_cases() if cases is None else cases))


def load_liveness(path: Any) -> tuple[dict[str, Any], list[LivenessRun]]:
    """The file ``liveness`` wrote: its header, and its runs."""

    def parse(data: Any) -> tuple[dict[str, Any], list[LivenessRun]]:
        runs = [LivenessRun.from_json(r) for r in data["runs"]]
        return {k: v for k, v in data.items() if k != "runs"}, runs

    try:
        return read_json(path, parse)
    except RecordsError as error:
        raise RecordsError(f"{error}: run `python -m approval_compaction liveness`") from None
