"""Liveness (JS): the Python study's liveness situations, those the JS SDK can express, on an
installed ``@openai/agents``, each followed by N later turns and judged by ``analysis.liveness``.

The harness (``js/harness.mjs``) runs each situation in each plan of the sweep (every mode;
``auto`` with the agent's ``store`` unset and ``false``): ``abandoned`` (a question pauses for
approval and the user asks something else), ``lost`` (the worker holding the paused state is
replaced by a new one over the same store), ``clean`` (the control), ``mcp_abandoned`` (a hosted
MCP server's approval request, ``hostedMcpTool`` with ``requireApproval``, left unanswered),
``resumed`` and ``mcp_resumed`` (the state kept as text, questions asked, then approved and
resumed late). ``poisoned`` is the Python study's only: it needs a store an affected Python
release wrote. A run's mode is the plan's name (``auto-store-false``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...analysis.liveness import DEFAULT_TURNS, LivenessRun
from ...study.liveness import SITUATIONS as PYTHON_SITUATIONS
from .harness import Plan, run_situations
from .sweep import PLANS

SITUATIONS: tuple[str, ...] = tuple(s for s in PYTHON_SITUATIONS if s != "poisoned")


def liveness_plans(workaround: bool = False, turns: int = DEFAULT_TURNS) -> tuple[Plan, ...]:
    """The sweep's plans (every mode), each running every situation instead of the cases."""
    return tuple(
        replace(plan, cases=(), situations=SITUATIONS, later=turns, workaround=workaround)
        for plan in PLANS
    )


def run_js_liveness(
    package: Path, workaround: bool = False, release: str | None = None,
    turns: int = DEFAULT_TURNS,
) -> list[LivenessRun]:  # fmt: skip
    """Every situation in every plan on the package installed in ``package``."""
    ran = run_situations(liveness_plans(workaround, turns), package, release)
    return [run for runs in ran for run in runs]
