"""What each way in loads of the package: modules and lines, per wing.

Runs each in a fresh interpreter and counts the ``approval_compaction`` modules it has loaded
afterwards, their lines, and how many of them are the lab's:
- ``import approval_compaction``;
- notebook 01's first three code cells (its imports, parameters and agent);
- ``doctor scan`` of a small synthetic store (healthy, poisoned, pending sessions);
- ``doctor check`` with one turn and one later turn.

Goals: the front door loads nothing but itself; notebook 01's first cells and every doctor
command load no lab module. With ``--src FOLDER`` (a ``src/`` of another commit, e.g. from
``git archive``) the same figures come from that code, for a before and after:

    python benchmarks/wing_loads.py [--src /tmp/before/src]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from approval_compaction.lab import paths
from approval_compaction.lab.stores.synthetic import generate

PROBE = """
import contextlib, io, json, sys
{code}
found = {{}}
for name, module in list(sys.modules.items()):
    file = getattr(module, "__file__", None)
    if name.startswith("approval_compaction") and file:
        with open(file) as f:
            found[name] = sum(1 for _ in f)
print(json.dumps(found))
"""
CLI = """
from approval_compaction.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main({argv!r})
"""


def notebook_cells(name: str = "01-walkthrough.ipynb", count: int = 3) -> str:
    """The first ``count`` code cells of a notebook, as one script."""
    cells = json.loads((paths.NOTEBOOKS / name).read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return "\n".join(code[:count])


def loaded(code: str, src: Path | None) -> dict[str, int]:
    """The package's modules a fresh interpreter holds after ``code``, with their lines."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=paths.ROOT,
    )
    found: dict[str, int] = json.loads(done.stdout.splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, help="a src/ folder to measure instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = str(Path(folder) / "store.db")
        asyncio.run(generate(store, 3, 6))
        ways = {
            "import approval_compaction": "import approval_compaction",
            "notebook 01, cells 1-3": notebook_cells(),
            "doctor scan": CLI.format(argv=["doctor", "scan", store]),
            "doctor check": CLI.format(
                argv=["doctor", "check", "--turns", "1", "--later", "1", "--format", "json"]
            ),
        }
        print(f"{'way in':<28} {'modules':>8} {'lines':>8} {'lab modules':>12}")
        for name, code in ways.items():
            found = loaded(code, args.src)
            lab = [m for m in found if m.startswith("approval_compaction.lab")]
            print(f"{name:<28} {len(found):>8} {sum(found.values()):>8,} {len(lab):>12}")


if __name__ == "__main__":
    main()
