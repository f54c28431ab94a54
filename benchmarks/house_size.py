"""The house's size: ``src/`` lines in all, per wing (core, doctor, lab, and the test
infrastructure) and per subpackage, the front door's public names, each wing's public names (its
modules' top-level names without a leading underscore), the import circles between modules, the
imports inside functions by what they import, and the modules that drive the SDK (call
``Runner.run``/``run_streamed`` or build ``OpenAIResponsesCompactionSession``), all read from
each module's syntax tree.

Today's goals: the core with its front door (everything outside ``lab/``, ``doctor/`` and
``testing/``) about 6,500 lines; the doctor about 3,900 (the 3,000 first set for it, plus what
came in since with a job of its own: ``doctor check``, 408 lines, and the doctor's command
declarations, 85, moved from the lab and ``cli.py`` so that a ``[doctor]`` install runs every
doctor command; and about 370 of hardening for a store in use: backups claimed exclusively, a
held lock, a refused write, a full disk, WAL and symlinked stores); no import circle; imports
inside functions only for the lazy front doors, the lazy command handlers and optional extras;
one place that drives the SDK. With ``--rev`` the figures are read from a commit of this repository
instead of the working tree, so before and after come from the same code:

    python benchmarks/house_size.py [--rev 6761199]
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping

from approval_compaction import paths

SOURCE = "src/approval_compaction"
DRIVING = {"Runner.run", "Runner.run_streamed", "OpenAIResponsesCompactionSession"}


def modules(rev: str | None) -> Iterator[tuple[str, str]]:
    """Each module under ``src/approval_compaction`` as (path inside the package, text)."""
    if rev is None:
        for path in sorted(paths.PACKAGE.rglob("*.py")):
            yield path.relative_to(paths.PACKAGE).as_posix(), path.read_text()
        return
    git = ["git", "-C", str(paths.ROOT)]
    listed = subprocess.run(
        [*git, "ls-tree", "-r", "--name-only", rev, SOURCE], capture_output=True, text=True
    )
    for name in sorted(n for n in listed.stdout.splitlines() if n.endswith(".py")):
        text = subprocess.run([*git, "show", f"{rev}:{name}"], capture_output=True, text=True)
        yield name.removeprefix(f"{SOURCE}/"), text.stdout


FRONT = {"__init__.py", "__main__.py", "cli.py"}
LAB_BEFORE = {"releases", "mechanism", "explore", "affected", "findings", "share"}
# What an import inside a function may be for: a module of an optional extra (or of the lab's
# tools), imported only where it is needed.
EXTRAS = {
    "pandas", "matplotlib", "numpy", "msgspec", "sqlalchemy", "aiosqlite", "asyncpg", "asyncmy",
    "redis", "cryptography", "starlette", "uvicorn", "nbformat", "nbclient", "nbconvert",
    "ipywidgets", "IPython", "ipykernel", "hypothesis", "tqdm", "playwright", "packaging",
    "markdown_it", "pytest", "httpx", "jupyterlab", "uv",
}  # fmt: skip


def area(module: str) -> str:
    """The subpackage a module belongs to (the lab's by their own name), or the module itself."""
    parts = module.split("/")
    if parts[0] == "lab" and len(parts) > 2:
        return f"lab/{parts[1]}"
    return parts[0] if len(parts) > 1 else module


def wing(module: str) -> str:
    """The wing a module belongs to: the front door, core, doctor, lab or testing."""
    if module in FRONT:
        return "front door"
    top = module.split("/", 1)[0]
    if top in LAB_BEFORE or module in ("fix/comparison.py", "fix/liveness.py"):
        return "lab"  # where the lab's modules were before it had its own folder (--rev)
    return top if top in ("doctor", "lab", "testing") else "core"


def dotted(module: str) -> str:
    """``lab/releases/sweep.py`` as ``approval_compaction.lab.releases.sweep``."""
    parts = ["approval_compaction", *module.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import of a module, and whether it is inside a function (``TYPE_CHECKING`` blocks
    left out: they never run)."""

    def walk(
        body: list[ast.stmt], inside: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:  # noqa: E501
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node, inside
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                yield from walk(node.orelse, inside)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from walk(node.body, True)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    yield from walk(getattr(node, field, None) or [], inside)

    yield from walk(tree.body, False)


def targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import reaches (``from .x import y``: ``<package>.x.y``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = dotted(module).split(".")
    if not module.endswith("__init__.py"):
        base = base[:-1]
    if node.level:
        base = base[: len(base) - node.level + 1]
        prefix = ".".join([*base, *([node.module] if node.module else [])])
    else:
        prefix = node.module or ""
    return [f"{prefix}.{a.name}" for a in node.names]


def graph(found: Mapping[str, str]) -> tuple[dict[str, set[str]], Counter[str]]:
    """The import graph between the package's modules (inside functions too), and the imports
    inside functions by what they are for."""
    names = {dotted(m): m for m in found}
    edges: dict[str, set[str]] = defaultdict(set)
    inside: Counter[str] = Counter()
    for module, text in found.items():
        for node, in_function in _imports(ast.parse(text)):
            reached = targets(module, node)
            if in_function:
                inside[_purpose(module, reached[0])] += 1
            for name in reached:
                while name and name not in names:
                    name = name.rpartition(".")[0]
                if name and names[name] != module:
                    edges[module].add(names[name])
    return edges, inside


def _purpose(module: str, name: str) -> str:
    top = name.split(".", 1)[0]
    if module == "__init__.py":
        return "front door"
    if module == "cli.py":
        return "command handlers (cli)"
    if top in EXTRAS:
        return "optional extras"
    if top in ("agents", "openai"):
        return "the SDK"
    return "the package's own" if top == "approval_compaction" else "the standard library"


def circles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The import circles: each set of modules that reach each other (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def top_level_names(text: str) -> set[str]:
    """A module's public top-level names: functions, classes and assignments without ``_``."""
    names: set[str] = set()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    names.add(target.id)
    return {name for name in names if not name.startswith("_")}


def public_names(front_door: str) -> list[str]:
    """The front door's ``__all__``: a literal list, or the names of its ``_SOURCES`` table."""
    tree = ast.parse(front_door)
    values = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    if isinstance(values.get("__all__"), ast.List | ast.Tuple):
        return sorted(ast.literal_eval(values["__all__"]))
    sources = ast.literal_eval(values["_SOURCES"])
    return sorted(name for names in sources.values() for name in names)


def driving(text: str) -> set[str]:
    """The SDK-driving calls a module makes (a docstring showing one does not count)."""
    calls = {ast.unparse(n.func) for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call)}
    return calls & DRIVING


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a commit to measure instead of the working tree")
    args = parser.parse_args()
    found = dict(modules(args.rev))
    lines = Counter({module: len(text.splitlines()) for module, text in found.items()})
    per_area: Counter[str] = Counter()
    for module, count in lines.items():
        per_area[area(module)] += count
    print(f"src/ at {args.rev or 'the working tree'}: {sum(lines.values()):,} lines")
    for name, count in sorted(per_area.items(), key=lambda item: -item[1]):
        print(f"  {name:<16} {count:>6,}")
    per_wing: Counter[str] = Counter()
    public: Counter[str] = Counter()
    for module, count in lines.items():
        per_wing[wing(module)] += count
        public[wing(module)] += len(top_level_names(found[module]))
    print("per wing: lines, public top-level names")
    for name, count in sorted(per_wing.items(), key=lambda item: -item[1]):
        print(f"  {name:<16} {count:>6,} {public[name]:>6,}")
    core = per_wing["core"] + per_wing["front door"]
    print(f"goals: core with its front door {core:,} (about 6,500), doctor {per_wing['doctor']:,}"
          " (about 3,900)")  # fmt: skip
    print(f"public names (the front door's __all__): {len(public_names(found['__init__.py']))}")
    edges, inside = graph(found)
    found_circles = circles(edges)
    print(f"import circles: {len(found_circles)}")
    for group in found_circles:
        print(f"  {' <-> '.join(group)}")
    print(f"imports inside functions: {sum(inside.values())}")
    for purpose, count in inside.most_common():
        print(f"  {purpose:<28} {count:>4}")
    drivers = sorted(module for module, text in found.items() if driving(text))
    print(f"modules that drive the SDK: {len(drivers)} ({', '.join(drivers)})")


if __name__ == "__main__":
    main()
