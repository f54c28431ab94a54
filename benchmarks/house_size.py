"""The house's size: ``src/`` lines in all and per subpackage, the front door's public names,
and the modules that drive the SDK (call ``Runner.run``/``run_streamed`` or build
``OpenAIResponsesCompactionSession``), read from each module's syntax tree.

Issue 18's goals: ``src/`` at most 11,500 lines (14,442 at its filing, commit ``6761199``), at
most 80 public names (151), one place that drives the scenario. With ``--rev`` the figures are
read from a commit of this repository instead of the working tree, so before and after come
from the same code:

    python benchmarks/house_size.py [--rev 6761199]
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from collections import Counter
from collections.abc import Iterator

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


def area(module: str) -> str:
    """The subpackage a module belongs to, or the module itself at the top."""
    return module.split("/", 1)[0] if "/" in module else module


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
    print(f"public names: {len(public_names(found['__init__.py']))}")
    drivers = sorted(module for module, text in found.items() if driving(text))
    print(f"modules that drive the SDK: {len(drivers)} ({', '.join(drivers)})")


if __name__ == "__main__":
    main()
