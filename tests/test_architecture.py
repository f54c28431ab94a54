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
import approval_compaction.adk as adk
import approval_compaction.js as js
import approval_compaction.lab as lab
import approval_compaction.langchain as langchain
import approval_compaction.openai_agents as openai_agents
from approval_compaction.lab import paths

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
# An SDK's folder holds its findings and report (pandas) and reads the shared sweep's records
# (the study's, with the SDK it drives for the Python study): the JS, ADK and LangChain folders.
SDK_FOLDER_LOADS = frozenset({"agents", "openai", "pandas", "numpy"})
# What importing every module of a subpackage loads of HEAVY: one row per subpackage, so a
# subpackage that starts loading more (or a new one) fails here until this table says so.
LOADS: dict[str, frozenset[str]] = {
    # the core
    "formats": frozenset(),
    "study": frozenset(),  # what every SDK's driver shares: no SDK
    "wire": frozenset({"openai"}),
    # each SDK as one folder (its driver, runs, findings, report): above the lab, which reaches
    # it only by name (its plugin registry; the Python SDK's through sdks). The Python SDK's
    # driver alone loads the SDK only (the probe's test below); its studies (comparison) pandas,
    # its stepper (widget) ipywidgets
    "openai_agents": SDK_FOLDER_LOADS | {"ipywidgets"},
    "js": SDK_FOLDER_LOADS,
    "adk": SDK_FOLDER_LOADS,
    "langchain": SDK_FOLDER_LOADS,
    "analysis": frozenset({"pandas", "numpy"}),
    "display": frozenset({"pandas", "numpy"}),  # the heatmaps (lab), the stepper (openai_agents)
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
    # the harnesses tests start: a browser for the notebooks, hypothesis for the store fuzzer
    # (the JS store fuzzer, which starts the JS driver's runner, is the JS folder's: js.fuzz)
    "testing": frozenset({"playwright", "hypothesis"}),
}


def loaded_after(code: str, among: frozenset[str] = HEAVY) -> set[str]:
    """The top-level packages of ``among`` (the heavy ones) a fresh interpreter has loaded after
    running ``code``."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(set(sys.modules))))"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    modules = json.loads(proc.stdout.splitlines()[-1])
    return {name for name in modules if name in among}


# Scripts another runtime runs (a release's own interpreter), never imported here.
ELSEWHERE_RUN = {
    "approval_compaction.adk.driver",  # google-adk's environment runs it
    "approval_compaction.langchain.driver",  # langchain's environment runs it
}


def submodules(subpackage: str) -> list[str]:
    """Every module of a subpackage, its own subpackages' modules included (not the scripts
    another runtime runs)."""
    folder = paths.PACKAGE / subpackage
    found = pkgutil.walk_packages([str(folder)], prefix=f"approval_compaction.{subpackage}.")
    names = [f"approval_compaction.{subpackage}", *(m.name for m in found)]
    return [n for n in names if n not in ELSEWHERE_RUN]


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
def test_architecture_the_probe_imports_only_what_a_release_environment_holds() -> None:
    """The probe runs inside a release's bare environment (the SDK, and this package on its
    path): it and every module its functions import load none of the lab's tools."""
    code = "\n".join(
        f"import {name}"
        for name in (
            "approval_compaction.lab.releases.probe",
            "approval_compaction.lab.releases.later_turns",
            "approval_compaction.openai_agents.later_turns",
            "approval_compaction.study.fork",
            "approval_compaction.openai_agents.harness",
            "approval_compaction.openai_agents.wiring",
        )
    )
    lab_tools = frozenset({"packaging", "uv", "hypothesis"})
    assert loaded_after(code, HEAVY | lab_tools) <= {"agents", "openai"}


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


# A fresh interpreter whose import system refuses the lab, as an install without ``[lab]`` would.
BLOCK_THE_LAB = """
import importlib.abc, sys

class NoLab(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "approval_compaction.lab" or name.startswith("approval_compaction.lab."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None

sys.meta_path.insert(0, NoLab())
"""


FORMATS = ["table", "json", "csv", "markdown"]
FORMAT_DONE = "-- format done: {} --"


@pytest.fixture(scope="module")
def without_the_lab() -> tuple[dict[str, str], str]:
    """What ``matrix`` printed in each format, in one fresh interpreter with the lab blocked (one
    interpreter for the four: each would pay the same imports), and its stderr."""
    code = BLOCK_THE_LAB + "from approval_compaction.cli import main\n"
    for fmt in FORMATS:
        code += (
            f"main(['matrix', '--format', '{fmt}', '--case', 'runner=run,decision=reject,"
            "compaction=on,state_boundary=json'])\n"
            f"print({FORMAT_DONE.format(fmt)!r}, flush=True)\n"
        )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    printed, rest = {}, proc.stdout
    for fmt in FORMATS:
        printed[fmt], _, rest = rest.partition(FORMAT_DONE.format(fmt) + "\n")
    return printed, proc.stderr


@pytest.mark.parametrize("fmt", FORMATS)
def test_architecture_matrix_runs_without_the_lab(
    fmt: str, without_the_lab: tuple[dict[str, str], str]
) -> None:
    """A team's install (core, or ``[doctor]``) prints ``matrix`` in every format from core code:
    with the lab unimportable, the command prints one case's verdicts."""
    printed, stderr = without_the_lab
    assert "(blocked)" not in stderr
    assert "compaction_input_paired" in printed[fmt]


DOORS = {
    "approval_compaction": approval_compaction,
    "approval_compaction.lab": lab,
    "approval_compaction.adk": adk,  # an SDK folder's own door (notebook 13)
    "approval_compaction.langchain": langchain,  # an SDK folder's own door (notebook 14)
    "approval_compaction.js": js,  # and the JS SDK's (notebook 11)
    "approval_compaction.openai_agents": openai_agents,  # and the Python SDK's
}


@pytest.mark.parametrize(
    ("door", "name"),
    [(d, n) for d, module in DOORS.items() for n in module.__all__],
    ids=lambda value: value.rpartition(".")[2],
)
def test_architecture_every_public_name_resolves_to_its_module(door: str, name: str) -> None:
    """Each door's name is what its module defines (the lab's door hands on the core's)."""
    module = DOORS[door]
    value = getattr(module, name)
    if name in module._DOOR.modules:
        assert value is importlib.import_module(module._DOOR.modules[name], door)
    elif name in module._DOOR.names:
        assert getattr(importlib.import_module(module._DOOR.names[name], door), name) is value
    elif name in getattr(module, "_RENAMED", {}):
        defined_in, defined = module._RENAMED[name]
        assert getattr(importlib.import_module(defined_in, door), defined) is value
    else:
        assert value is getattr(approval_compaction, name)
    assert name in dir(module)


def test_architecture_the_core_door_leads_nowhere_into_the_lab() -> None:
    """A team's install imports the core's door: none of its names is the lab's."""
    door = approval_compaction._DOOR
    targets = [*door.names.values(), *door.modules.values()]
    assert [t for t in targets if t.startswith(".lab")] == []
    assert [t for t in lab._DOOR.names.values() if t.startswith(".lab")] == []  # relative to it


def test_architecture_the_lab_door_holds_every_core_name() -> None:
    assert set(approval_compaction.__all__) <= set(lab.__all__)


def _code_cells(path: Path) -> list[ast.Module]:
    """A notebook's code cells as syntax trees (IPython's ``%`` and ``!`` lines left out)."""
    trees = []
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            lines = "".join(cell["source"]).splitlines()
            trees.append(ast.parse("\n".join(x for x in lines if x.lstrip()[:1] not in "%!")))
    return trees


def notebook_imports() -> dict[str, list[tuple[str, str | None]]]:
    """Each notebook's imports of the package: (module, name) for ``from M import N``, and
    (module, alias) with the name None for ``import M as A``."""
    found: dict[str, list[tuple[str, str | None]]] = {}
    for path in sorted(paths.NOTEBOOKS.glob("*.ipynb")):
        seen = found.setdefault(path.name, [])
        for tree in _code_cells(path):
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    seen += [(node.module, a.name) for a in node.names]
                elif isinstance(node, ast.Import):
                    seen += [(a.name, None) for a in node.names]
    return {
        name: [(m, n) for m, n in seen if m.partition(".")[0] == "approval_compaction"]
        for name, seen in found.items()
    }


def test_architecture_notebooks_import_only_the_two_doors() -> None:
    """A notebook imports ``approval_compaction`` or ``approval_compaction.lab`` and names from
    their ``__all__``: never a module behind them, so moving a module breaks no notebook."""
    wrong = [
        f"{notebook}: {module}{'.' + name if name else ''}"
        for notebook, imports in notebook_imports().items()
        for module, name in imports
        if module not in DOORS or (name is not None and name not in DOORS[module].__all__)
    ]
    assert wrong == []


def test_architecture_a_notebook_on_the_core_door_uses_only_core_names() -> None:
    """A notebook that imports the core's door as ``ac`` uses no lab name through it (the core's
    door would raise AttributeError when the notebook runs)."""
    wrong = []
    for path in sorted(paths.NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        if re.search(r"^import approval_compaction as ac$", code, re.M):
            used = set(re.findall(r"\bac\.([A-Za-z_]\w*)", code))
            outside = sorted(used - set(approval_compaction.__all__))
            wrong += [f"{path.name}: ac.{n}" for n in outside]
    assert wrong == []


def test_architecture_the_import_check_sees_a_deep_import(tmp_path: Path) -> None:
    cell = {
        "cell_type": "code",
        "source": ["from approval_compaction.study import capture\n"],
    }
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps({"cells": [cell]}))
    (node,) = [n for t in _code_cells(path) for n in ast.walk(t) if isinstance(n, ast.ImportFrom)]
    assert node.module not in DOORS


FRONT_DOOR = re.compile(r"\bac\.([A-Za-z_]\w*)")


def notebook_uses() -> dict[str, set[str]]:
    """Each name a notebook takes from a door (``ac.NAME`` in its cells, code or prose, or
    ``from <door> import NAME``), with the notebooks naming it."""
    found: dict[str, set[str]] = {}
    for path in sorted(paths.NOTEBOOKS.glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            for name in FRONT_DOOR.findall("".join(cell["source"])):
                found.setdefault(name, set()).add(path.name)
    for notebook, imports in notebook_imports().items():
        for _, name in imports:
            if name is not None:
                found.setdefault(name, set()).add(notebook)
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
    """The doors stay curated: a name no notebook or the README uses is imported from its
    module instead; every name a notebook or the README takes from a door is in it."""
    used = set(notebook_uses()) | readme_uses()
    lab_own = set(lab.__all__) - set(approval_compaction.__all__)
    assert sorted(set(approval_compaction.__all__) - used) == []
    assert sorted(lab_own - used) == []
    assert sorted(used - set(lab.__all__)) == []


def test_architecture_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        approval_compaction.nothing_here  # noqa: B018  # the lookup is the behaviour under test


# Modules that need no mirror test because they hold no logic: no function, no class. The test
# below checks that each still holds none, so this list cannot hide code.
NO_LOGIC = {
    "__main__.py",  # the entry point: turns the collector off and calls cli.main
    "study/words.py",  # the shared vocabulary: Literal types and their tuples of values
    "langchain/words.py",  # the LangChain study's settings and file names
    "adk/words.py",  # the ADK study's compaction kinds
    # a subpackage's __init__ holds its docstring only
    *(f"{m.name}/__init__.py" for m in pkgutil.iter_modules([str(paths.PACKAGE)]) if m.ispkg),
    *(
        f"lab/{m.name}/__init__.py"
        for m in pkgutil.iter_modules([str(paths.PACKAGE / "lab")])
        if m.ispkg
    ),
    "lab/releases/upstream/__init__.py",
} - {"lab/__init__.py", "langchain/__init__.py", "adk/__init__.py", "js/__init__.py"}  # doors
# A module whose mirror is not tests/<subpackage>/test_<module>.py, and why.
MIRROR_ELSEWHERE = {
    "__init__.py": "test_architecture.py",  # the front door: this file
    "lab/__init__.py": "test_architecture.py",  # the lab's front door: this file
    "langchain/__init__.py": "test_architecture.py",  # the LangChain folder's door: this file
    "adk/__init__.py": "test_architecture.py",  # the ADK folder's door: this file
    "js/__init__.py": "test_architecture.py",  # the JS folder's door: this file
    "openai_agents/__init__.py": "test_architecture.py",  # the Python SDK folder's door: this file
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


LONGEST = 100  # lines a function of src/ may span, its docstring included
# Functions still longer, each with why; the test fails once one is back under the limit, so
# the list only shrinks.
LONG_FUNCTIONS = {
    "doctor/indb.py:query": "one SQL text, built per dialect",
    "openai_agents/anatomy.py:anatomy": "the fix's anatomy experiment, one step after another",
    "lab/share/later_turns_comment.py:build": "the upstream comment, assembled in order",
}


def long_functions() -> dict[str, int]:
    """Each function of src/ longer than ``LONGEST`` lines, with its length."""
    found = {}
    for module in source_modules():
        for node in ast.walk(ast.parse((paths.PACKAGE / module).read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LONGEST:
                    found[f"{module}:{node.name}"] = length
    return found


def test_architecture_no_function_is_longer_than_about_a_hundred_lines() -> None:
    assert sorted(long_functions()) == sorted(LONG_FUNCTIONS)


# Issue 62: each SDK besides openai-agents lives in one folder and the shared code names none of
# them (the words ``grep -rniw`` finds, as whole words). The files that still do, and why; the
# test fails once one names none, so the list only shrinks.
SDK_NAMED = re.compile(
    r"(?<!\w)(?:js|javascript|@openai/agents|adk|google-adk|langchain)(?!\w)", re.IGNORECASE
)
SDK_FOLDERS = ("js/", "adk/", "langchain/")
NAMES_AN_SDK = {
    "sdks.py": "the one list of the folders (FOLDERS), which the core loads by name",
    "wire/rules.py": "public sources cited by each rule (openai-agents-js, LangChain.js): data",
    "wire/standin.py": "the public answer it reproduces cited (openai/openai-agents-js#760)",
    "lab/share/sanitize.py": "`javascript:` links and scripts, a browser's word, not the SDK's",
    "lab/share/render.py": "require.js and `javascript:` links, a browser's words",
    "lab/share/glossary.py": "the collection's words: each SDK's spelling of a shared setting, "
    "and the files that pin each release",
}


def sdk_naming_modules() -> list[str]:
    """Each module outside the SDK folders with a line that names one of those SDKs."""
    return [
        module
        for module in source_modules()
        if not module.startswith(SDK_FOLDERS)
        and SDK_NAMED.search((paths.PACKAGE / module).read_text())
    ]


def test_architecture_the_shared_code_names_no_sdk_folder() -> None:
    assert sdk_naming_modules() == sorted(NAMES_AN_SDK)


def test_architecture_the_sdk_name_check_sees_a_name_as_grep_does() -> None:
    said = ["adk.check", "the JS SDK", "@openai/agents", "google-adk 1.0", "LangChain's"]
    unsaid = ["json", "jsontext", "adk_kinds", "readkey", "openai-agents"]
    assert all(SDK_NAMED.search(text) for text in said)
    assert not any(SDK_NAMED.search(text) for text in unsaid)


def folder_tables() -> list[list[list[str]]]:
    """docs/layout.md's tables under "One folder per SDK": each a list of rows of cells."""
    section = (paths.DOCS / "layout.md").read_text().split("## One folder per SDK", 1)[1]
    tables: list[list[list[str]]] = []
    for block in re.split(r"\n\s*\n", section):
        rows = [line for line in block.splitlines() if line.startswith("|")]
        if rows:
            tables.append([[c.strip() for c in r.strip("|").split("|")] for r in rows[2:]])
    return tables


def test_architecture_the_layout_table_has_one_row_per_file_every_folder_has() -> None:
    """docs/layout.md's first table: each file every SDK folder holds, by the same name in each
    folder's column; the second names every other file of a folder in its column (the third,
    what lies beside the folders, is not checked)."""
    folders = [paths.PACKAGE / f.removesuffix("/") for f in SDK_FOLDERS]
    held = [{p.name for p in f.iterdir() if p.suffix in (".py", ".mjs")} for f in folders]
    shared, others = folder_tables()[:2]
    first = [row[0].strip("`") for row in shared]
    assert sorted(first) == sorted(set.intersection(*held))
    assert all(len(row) == 2 + len(folders) for row in shared)
    assert all(cell.startswith(row[0]) for row in shared for cell in row[2:])
    for column, files in enumerate(held, start=1):
        named = set(re.findall(r"`([\w.]+\.(?:py|mjs))`", " ".join(r[column] for r in others)))
        assert named == files - set(first), folders[column - 1].name
