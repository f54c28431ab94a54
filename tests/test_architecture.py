"""The architecture as a user meets it: a light front door, lazy commands, and one-way layers.

Each check runs in a fresh interpreter, so what it sees loaded is what that import or command
loads, not what this test session happens to hold.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import approval_compaction
from approval_compaction import paths

HEAVY = frozenset(
    {
        "agents",
        "openai",
        "pandas",
        "numpy",
        "matplotlib",
        "ipywidgets",
        "ipykernel",
        "nbformat",
        "nbclient",
        "nbconvert",
        "tqdm",
        "hypothesis",
        "sqlalchemy",
        "playwright",
    }
)
# What importing every module of a subpackage loads of HEAVY: one row per subpackage, so a
# subpackage that starts loading more (or a new one) fails here until this table says so.
LOADS: dict[str, frozenset[str]] = {
    # the core
    "formats": frozenset(),
    "study": frozenset({"agents", "openai"}),
    "wire": frozenset({"openai"}),
    "analysis": frozenset({"pandas", "numpy"}),
    "display": frozenset({"agents", "openai", "pandas", "numpy", "matplotlib", "ipywidgets"}),
    "fix": frozenset({"agents", "openai"}),  # the workaround needs the SDK and nothing else
    # the user's tool: it imports the SDK's sessions and SQLAlchemy when it opens a store; its
    # ``check`` runs the study's conversations on the SDK (``doctor.command`` loads it only then)
    "doctor": frozenset({"agents", "openai"}),
    # the lab, every subpackage of it
    "lab": frozenset(
        {
            "agents",
            "openai",
            "pandas",
            "numpy",
            "matplotlib",
            "hypothesis",
            "ipykernel",
            "nbformat",
            "nbclient",
            "nbconvert",
        }
    ),
    # the harnesses tests start: a browser for the notebooks, hypothesis for the doctor's store
    # fuzzer
    "testing": frozenset({"playwright", "hypothesis"}),
}


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(set(sys.modules))))"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    modules = json.loads(proc.stdout.splitlines()[-1])
    return {name for name in modules if name in HEAVY}


def submodules(subpackage: str) -> list[str]:
    """Every module of a subpackage, its own subpackages' modules included."""
    folder = paths.PACKAGE / subpackage
    found = pkgutil.walk_packages([str(folder)], prefix=f"approval_compaction.{subpackage}.")
    return [f"approval_compaction.{subpackage}", *(m.name for m in found)]


def subpackages() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(paths.PACKAGE)]) if m.ispkg)


def test_architecture_front_door_loads_nothing_heavy() -> None:
    assert loaded_after("import approval_compaction") == set()


def test_architecture_help_loads_nothing_heavy() -> None:
    code = "from approval_compaction.cli import parser\nparser().format_help()"
    assert loaded_after(code) == set()


def test_architecture_every_subpackage_has_a_row() -> None:
    assert subpackages() == sorted(LOADS)


@pytest.mark.subprocess
@pytest.mark.parametrize("subpackage", sorted(LOADS))
def test_architecture_each_subpackage_loads_what_its_row_says(subpackage: str) -> None:
    """Every module of the subpackage imports on its own, and together they load exactly the
    heavy packages of its row (the analysis never the SDK, the study never pandas, ...)."""
    code = "\n".join(f"import {name}" for name in submodules(subpackage))
    assert loaded_after(code) == LOADS[subpackage]


@pytest.mark.subprocess
@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "csv"])
def test_architecture_matrix_pays_for_neither_pandas_nor_matplotlib(fmt: str) -> None:
    """``matrix`` in every format prints from the records (issue 34: the table imported pandas
    to print what a list of rows prints)."""
    code = (
        "import contextlib, io\n"
        "from approval_compaction.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['matrix', '--format', '{fmt}', '--case', 'runner=run,decision=reject,"
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


FRONT_DOOR = re.compile(r"\bac\.([A-Za-z_]\w*)")


def notebook_uses() -> dict[str, set[str]]:
    """Each ``ac.NAME`` a notebook's cells (code or prose) name, with the notebooks naming it."""
    found: dict[str, set[str]] = {}
    for path in sorted(paths.NOTEBOOKS.glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            for name in FRONT_DOOR.findall("".join(cell["source"])):
                found.setdefault(name, set()).add(path.name)
    return found


def readme_uses() -> set[str]:
    """What the README documents of the front door: ``ac.NAME``, the names a code block imports
    ``from approval_compaction``, and public names it quotes as code."""
    text = "\n".join(p.read_text() for p in [paths.README, *sorted(paths.DOCS.glob("*.md"))])
    imported = re.findall(r"^from approval_compaction import ([\w, ]+)$", text, re.M)
    names = {n.strip() for line in imported for n in line.split(",")}
    quoted = set(re.findall(r"`([A-Za-z_]\w*)[`(]", text)) & set(approval_compaction.__all__)
    return names | quoted | set(FRONT_DOOR.findall(text))


def test_architecture_front_door_holds_only_what_the_notebooks_and_readme_use() -> None:
    """The front door stays curated: a name no notebook or the README uses is imported from its
    module instead; every ``ac.NAME`` a notebook or the README uses is in the door."""
    used = set(notebook_uses()) | readme_uses()
    assert sorted(set(approval_compaction.__all__) - used) == []
    assert sorted(used - set(approval_compaction.__all__)) == []


def test_architecture_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        approval_compaction.nothing_here  # noqa: B018  # the lookup is the behaviour under test


# Modules that need no mirror test because they hold no logic: no function, no class. The test
# below checks that each still holds none, so this list cannot hide code.
NO_LOGIC = {
    "__main__.py",  # the entry point: turns the collector off and calls cli.main
    "study/words.py",  # the shared vocabulary: Literal types and their tuples of values
    # a subpackage's __init__ holds its docstring only
    *(f"{m.name}/__init__.py" for m in pkgutil.iter_modules([str(paths.PACKAGE)]) if m.ispkg),
    *(f"lab/{m.name}/__init__.py" for m in pkgutil.iter_modules([str(paths.PACKAGE / "lab")])),
    "lab/releases/upstream/__init__.py",
}
# A module whose mirror is not tests/<subpackage>/test_<module>.py, and why.
MIRROR_ELSEWHERE = {
    "__init__.py": "test_architecture.py",  # the front door: this file
    "testing/install.py": "test_install.py",  # the install a team makes, built by it
}


def has_logic(path: Path) -> bool:
    """Whether a module defines a function or a class at its top level."""
    nodes = ast.parse(path.read_text()).body
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) for n in nodes)


def mirror_of(module: str) -> Path:
    """Where a module's test lives: tests/<subpackage>/test_<module>.py (the lab's subpackages
    by their own name: tests/releases/ for lab/releases/)."""
    if module in MIRROR_ELSEWHERE:
        return paths.ROOT / "tests" / MIRROR_ELSEWHERE[module]
    relative = Path(module.removeprefix("lab/"))
    return paths.ROOT / "tests" / relative.parent / f"test_{relative.stem}.py"


def source_modules() -> list[str]:
    return sorted(p.relative_to(paths.PACKAGE).as_posix() for p in paths.PACKAGE.rglob("*.py"))


def test_architecture_every_module_with_logic_has_its_mirror_test() -> None:
    missing = [
        f"{module} (tests/{mirror_of(module).relative_to(paths.ROOT / 'tests')})"
        for module in source_modules()
        if module not in NO_LOGIC and not mirror_of(module).is_file()
    ]
    assert missing == [], "modules with logic and no mirror test"


def test_architecture_modules_without_a_mirror_hold_no_logic() -> None:
    listed = [m for m in sorted(NO_LOGIC) if (paths.PACKAGE / m).is_file()]
    assert listed == sorted(NO_LOGIC), "NO_LOGIC names a module that does not exist"
    assert [m for m in listed if has_logic(paths.PACKAGE / m)] == []
