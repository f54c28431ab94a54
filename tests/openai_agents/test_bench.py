"""Bench: a configuration judged in a forked child of a release's worker, stopped when told."""

from __future__ import annotations

import needs
import pytest

from approval_compaction.lab.mechanism.catalogue import PINNED
from approval_compaction.lab.releases import environments
from approval_compaction.openai_agents.anatomy import FUNCTION
from approval_compaction.openai_agents.bench import Bench


@pytest.mark.releases
def test_anatomy_bench_stops_a_configuration_at_its_first_verdict() -> None:
    """The search's question (is it fixed?) stops at the report's case on the older release:
    one case run, not sixteen."""
    needs.release(PINNED)
    envs = environments.default_envs()
    with Bench(envs, jobs=1) as bench:
        ran = bench.run(PINNED, {}, FUNCTION.steps(first=True), stop=lambda r: bool(r.runs))
        assert list(ran.runs) == [0] and not ran.complete and not ran.failure
        again = bench.run(PINNED, {}, FUNCTION.steps(first=True)[:2])
        assert sorted(again.runs) == [0, 1] and again.complete


@pytest.mark.releases
def test_bench_a_module_that_does_not_import_is_unavailable_with_the_reason() -> None:
    needs.release(PINNED)
    with Bench(environments.default_envs(), jobs=1) as bench:
        ran = bench.run(PINNED, {"agents/items.py": "import no_such_module\n"}, FUNCTION.steps())
    assert ran.unavailable == (
        "import agents failed: ModuleNotFoundError: No module named 'no_such_module'"
    )
    assert ran.complete and not ran.runs
