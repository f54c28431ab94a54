"""Doctor for a JS team: the wall time of ``doctor check --js`` and of ``doctor items``.

``doctor check --js`` runs the JS driver on the pinned ``@openai/agents`` in this checkout's
``node_modules`` with its defaults (24 pause positions, 10 later turns each), as a team runs it.
``doctor items`` judges and heals a JS session exported as JSON, of 1k to 1M items (plain turns
with a paired call, and one output whose call is gone), writing the healed list; ``--forms`` adds
the same export read the slower ways (its orphan's text holding a lone surrogate escape, which
``msgspec`` refuses, or its orphan's output nested 1,000 deep, past the parsers). Each is a
whole command in a fresh interpreter, timed warm (bytecode caches on, as users have them), best
of ``--rounds``; ``--no-check`` leaves ``check --js`` out.

    .venv/bin/python benchmarks/doctor_js.py [--rounds 3] [--sizes 1000,100000,1000000]
        [--forms plain,surrogate,deep] [--no-check]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCTOR = [sys.executable, "-m", "approval_compaction", "doctor"]


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1, 4):  # healthy, healed, affected: the doctor's statuses
        raise SystemExit(f"{' '.join(argv[3:])} failed: {done.stderr.strip()[-500:]}")
    return took


def export(count: int) -> list[dict[str, object]]:
    """A JS session of ``count`` items: turns of four items, then one orphan output."""
    items: list[dict[str, object]] = []
    turn = 0
    while len(items) < count - 1:
        call = f"call_{turn}"
        items += [
            {"type": "message", "role": "user", "content": f"question {turn}"},
            {"type": "function_call", "callId": call, "name": "lookup", "arguments": "{}",
             "status": "completed", "providerData": {"id": f"fc_{turn}"}},
            {"type": "function_call_result", "callId": call, "name": "lookup",
             "status": "completed", "output": {"type": "text", "text": f"value {turn}"}},
            {"type": "message", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": f"answer {turn}"}]},
        ]  # fmt: skip
        turn += 1
    orphan = {"type": "function_call_result", "callId": "gone", "name": "lookup",
              "status": "completed", "output": {"type": "text", "text": "late"}}  # fmt: skip
    return [*items[: count - 1], orphan]


def written(items: list[dict[str, object]], form: str) -> str:
    """The export's text: as ``json`` writes it, or with its orphan changed as ``form`` says."""
    if form == "surrogate":
        orphan = {**items[-1], "output": {"type": "text", "text": "half \ud83d"}}
        return json.dumps([*items[:-1], orphan])
    if form == "deep":
        nested = "[" * 1000 + "]" * 1000
        orphan = '{"type": "function_call_result", "callId": "gone", "output": ' + nested + "}"
        return json.dumps(items[:-1])[:-1] + ", " + orphan + "]"
    return json.dumps(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--forms", default="plain")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    timed([*DOCTOR, "check", "--help"], env)  # warm the bytecode caches
    if not args.no_check:
        check = [*DOCTOR, "check", "--js", str(ROOT), "--format", "json"]
        best = min(timed(check, env) for _ in range(args.rounds))
        print(f"doctor check --js (24 positions, 10 later turns): {best:.1f} s")
    with tempfile.TemporaryDirectory(prefix="doctor-js-bench-") as folder:
        for size in (int(n) for n in args.sizes.split(",")):
            for form in args.forms.split(","):
                path = Path(folder) / f"export-{size}-{form}.json"
                path.write_text(written(export(size), form))
                healed = Path(folder) / f"healed-{size}.json"
                items = [*DOCTOR, "items", str(path), "--output", str(healed), "--force"]
                best = min(timed(items, env) for _ in range(args.rounds))
                megabytes = path.stat().st_size / 1e6
                print(
                    f"doctor items, {size:>9,} items ({megabytes:6.1f} MB, {form:9}), healed: "
                    f"{best:6.2f} s"
                )


if __name__ == "__main__":
    main()
