"""The architecture as a user meets it: a light front door, lazy commands, and one-way layers.

Each check runs in a fresh interpreter, so what it sees loaded is what that import or command
loads, not what this test session happens to hold.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import pytest

import approval_compaction
from approval_compaction import paths

HEAVY = ("agents", "openai", "pandas", "matplotlib", "numpy", "nbformat", "nbclient")


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(set(sys.modules))))"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    modules = json.loads(proc.stdout.splitlines()[-1])
    return {name for name in modules if name.split(".")[0] in HEAVY and "." not in name}


def submodules(subpackage: str) -> list[str]:
    folder = paths.PACKAGE / subpackage
    prefix = f"approval_compaction.{subpackage}."
    return [prefix + m.name for m in pkgutil.iter_modules([str(folder)])]


def imports_of(subpackage: str) -> str:
    return "\n".join(f"import {name}" for name in submodules(subpackage))


def test_architecture_front_door_loads_nothing_heavy() -> None:
    assert loaded_after("import approval_compaction") == set()


def test_architecture_help_loads_nothing_heavy() -> None:
    code = "from approval_compaction.cli import parser\nparser().format_help()"
    assert loaded_after(code) == set()


def test_architecture_analysis_does_not_load_the_sdk() -> None:
    loaded = loaded_after(imports_of("analysis"))
    assert "agents" not in loaded and "openai" not in loaded
    assert "pandas" in loaded  # the check can fail: the frames do load pandas


def test_architecture_study_does_not_load_pandas_or_matplotlib() -> None:
    loaded = loaded_after(imports_of("study"))
    assert not loaded & {"pandas", "matplotlib"}
    assert "agents" in loaded  # the harness does load the SDK


def test_architecture_formats_load_neither_the_sdk_nor_pandas() -> None:
    assert loaded_after(imports_of("formats")) == set()


def test_architecture_matrix_json_pays_for_neither_pandas_nor_matplotlib() -> None:
    code = (
        "import contextlib, io\n"
        "from approval_compaction.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['matrix', '--format', 'json', '--case', 'runner=run,decision=reject,"
        "compaction=on,state_boundary=json'])"
    )
    loaded = loaded_after(code)
    assert "agents" in loaded
    assert not loaded & {"pandas", "matplotlib"}


@pytest.mark.parametrize("name", approval_compaction.__all__)
def test_architecture_every_public_name_resolves_to_its_module(name: str) -> None:
    module = approval_compaction._MODULE_OF[name]
    value = getattr(approval_compaction, name)
    assert getattr(importlib.import_module(module, "approval_compaction"), name) is value
    assert name in dir(approval_compaction)


def test_architecture_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        approval_compaction.nothing_here  # noqa: B018  # the lookup is the behaviour under test


def test_architecture_every_subpackage_module_imports() -> None:
    """No module is orphaned by the layout: each one imports on its own."""
    names = [
        name for sub in ("study", "analysis", "formats", "display") for name in submodules(sub)
    ]
    names += [name for sub in ("releases", "fix", "share") for name in submodules(sub)]
    for name in names:
        importlib.import_module(name)
    assert len(names) >= 30
