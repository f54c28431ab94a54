"""The liveness patch's runs on openai-agents: every liveness situation and case continued on
the patched SDK (``liveness_patch_runs``), and each situation on the release and on the patched
SDK over HTTP (``liveness_patch_http``), each through a ``Worker`` in that SDK's environment.

The patch, its other proofs and the files they go to are the lab's
(``lab.releases.later_turns_patch``), which loads this module by name (``sdks.sdk_module``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..formats.records import read_json
from ..lab import paths
from ..lab.releases import environments
from ..lab.releases.later_turns import LIVENESS_MODEL
from ..lab.releases.patched import Patched, patched_environment
from ..study.words import SITUATIONS, Model
from . import worker as _worker
from .later_turns import run_liveness, run_situation


def patched_liveness(
    patched: Patched,
    turns: int,
    poisoned: Sequence[Any] | None = None,
    model: Model = LIVENESS_MODEL,
) -> dict[str, Any]:
    """Every liveness situation and case continued ``turns`` turns on the patched SDK, through
    a ``Worker`` on its scratch environment (the poisoned history: the committed one), on
    ``model`` (by default one that answers as the Responses API does)."""

    if poisoned is None:
        poisoned = read_json(paths.DATA_FILES.liveness, dict)["poisoned_history"]
    env = patched_environment(patched)
    with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
        runs = run_liveness(turns, poisoned=poisoned, worker=worker, model=model)
    return {
        "turns": turns,
        "model": model,
        "base": patched.base,
        "patch": patched.label,
        "poisoned_history": list(poisoned),
        "runs": [run.to_json() for run in runs],
    }


def over_http(
    patched: Patched, turns: int, poisoned: Sequence[Any] | None = None
) -> dict[str, Any]:
    """Each situation on the release and on the patched SDK with the
    SDK's ``OpenAIResponsesModel`` over HTTP to the stand-in, whose compaction endpoint keeps
    the user's messages as ``responses.compact`` does, in ``input`` mode."""

    if poisoned is None:
        poisoned = read_json(paths.DATA_FILES.liveness, dict)["poisoned_history"]
    released = environments.release_environment(patched.base, environments.default_envs())
    found: dict[str, Any] = {}
    for sdk, env in (("released", released), ("patched", patched_environment(patched))):
        with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
            found[sdk] = [
                run_situation(
                    name, "input", turns, poisoned=poisoned, worker=worker, model="responses"
                ).to_json()
                for name in SITUATIONS
            ]
    return {"turns": turns, "base": patched.base, "patch": patched.label, "runs": found}
