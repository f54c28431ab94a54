"""Provenance: which notebooks run an SDK live, and which committed data files each one reads.

While a notebook executes, two hidden cells bracket it in the same kernel: the first counts every
run the installed SDK's runner starts (``AgentRunner.run``, ``run_streamed``, ``run_sync``), every
run the other SDKs' drivers return (``drivers``, each plugin's ``runs``: they run in their own
process, one line per case or situation) and, through an audit hook, every file under
``data/`` the kernel opens for reading; the last prints
what it saw. The executor removes both cells, so the notebook is unchanged, and records the result
in ``data/notebooks.json``; the README's notebook table is written from that file. So "live" and
"reads committed data" are observed, not declared.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...formats.records import read_json_list, write_json
from .. import paths

SETUP = "from approval_compaction.lab.share.provenance import watch as _watch\n_watch()"
REPORT = "from approval_compaction.lab.share.provenance import seen as _seen\nprint(_seen())"
RUNNER_METHODS = ("run", "run_streamed", "run_sync")


def drivers() -> list[tuple[str, str, str]]:
    """The other SDKs' drivers, from the plugins: module, the function returning one list of
    lines per plan, and the package's name."""
    from ..plugins import plugins

    return [p.runs for p in plugins() if p.runs is not None]


@dataclass(frozen=True)
class Provenance:
    """What one notebook did: how many SDK runs it started and which data files it read."""

    notebook: str
    title: str
    sdk_runs: int
    data_read: tuple[str, ...]
    driven: tuple[tuple[str, int], ...] = ()  # another SDK's runs, by SDK, through its driver

    @property
    def live(self) -> bool:
        return self.sdk_runs > 0 or any(n for _, n in self.driven)


_state: dict[str, Any] = {"runs": 0, "read": set(), "driven": {}}


def _driving(method: Callable[..., Any], sdk: str) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        lines = method(*args, **kwargs)
        _state["driven"][sdk] = _state["driven"].get(sdk, 0) + sum(map(len, lines))
        return lines

    return counted


def _counting(method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        _state["runs"] += 1
        return method(*args, **kwargs)

    return counted


def _audit(data: Path) -> Callable[[str, tuple[Any, ...]], None]:
    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event != "open" or not isinstance(args[0], str | Path):
            return
        mode = args[1] if len(args) > 1 and isinstance(args[1], str) else "r"
        path = Path(args[0]).resolve()
        if "r" in mode and "+" not in mode and path.is_relative_to(data) and path.is_file():
            # A file in a folder under data/ (counterexamples/...) is named by its folder.
            parts = path.relative_to(data).parts
            name = parts[0] + ("/" if len(parts) > 1 else "")
            _state["read"].add(f"{data.name}/{name}")

    return hook


def watch(data: Path = paths.DATA) -> None:
    """Start counting SDK runs and data reads in this interpreter (the hidden first cell)."""
    from agents.run import AgentRunner

    for name in RUNNER_METHODS:
        setattr(AgentRunner, name, _counting(getattr(AgentRunner, name)))
    for module, function, sdk in drivers():
        found = importlib.import_module(module)
        setattr(found, function, _driving(getattr(found, function), sdk))
    sys.addaudithook(_audit(data.resolve()))


def seen() -> str:
    """What was counted, as one line of JSON (the hidden last cell prints it)."""
    seen = {"sdk_runs": _state["runs"], "data_read": sorted(_state["read"])}
    return json.dumps(seen | ({"driven": _state["driven"]} if _state["driven"] else {}))


def parse(notebook: str, title: str, printed: str) -> Provenance:
    """The hidden last cell's line, as this notebook's provenance."""
    values = json.loads(printed)
    driven = tuple(sorted((str(k), int(v)) for k, v in values.get("driven", {}).items()))
    return Provenance(notebook, title, int(values["sdk_runs"]), tuple(values["data_read"]), driven)


def load(path: Path) -> dict[str, Provenance]:
    """The recorded provenance by notebook name (empty when the file does not exist yet)."""
    if not path.is_file():
        return {}

    def parse(row: dict[str, Any]) -> Provenance:
        driven = tuple((str(k), int(v)) for k, v in row.get("driven", []))
        return Provenance(**{**row, "data_read": tuple(row["data_read"]), "driven": driven})

    return {r.notebook: r for r in read_json_list(path, parse)}


def write(path: Path, records: dict[str, Provenance]) -> None:
    rows = [asdict(records[name]) for name in sorted(records)]
    for row in rows:  # a notebook that drives no other SDK keeps its record as it was
        if not row["driven"]:
            del row["driven"]
    write_json(path, rows, indent=1)


GROUPED = 3  # files sharing a name's first word, from which the table names them as one pattern


def grouped(names: Sequence[str]) -> list[str]:
    """``names`` in order, the JSON files sharing their first word (up to its ``-``) named as one
    pattern with their count when there are ``GROUPED`` or more (``sweep-*.json (10 files)``):
    the README's table says which files a notebook reads, ``data/notebooks.json`` each name."""
    word = {n: n.split("-", 1)[0] + "-" for n in names if "-" in n and n.endswith(".json")}
    counts = Counter(word.values())
    said: list[str] = []
    for name in names:
        head = word.get(name)
        if head is None or counts[head] < GROUPED:
            said.append(name)
        elif f"{head}*.json ({counts[head]} files)" not in said:
            said.append(f"{head}*.json ({counts[head]} files)")
    return said


def table(records: dict[str, Provenance]) -> str:
    """The README's notebook table: each notebook, whether it runs the SDK, what it reads."""
    lines = [
        "| notebook | SDK runs it starts | committed data it reads, in `data/` |",
        "|---|---|---|",
    ]
    for name in sorted(records):
        record = records[name]
        runs = [f"{record.sdk_runs} runs"] if record.sdk_runs else []
        runs += [f"{n} {sdk} driver start{'s' if n > 1 else ''}" for sdk, n in record.driven if n]
        live = ", ".join(runs) or "none"
        read = ", ".join(grouped([p.removeprefix("data/") for p in record.data_read])) or "none"
        lines.append(f"| [{name[:2]} · {record.title}](notebooks/{name}) | {live} | {read} |")
    return "\n".join(lines)
