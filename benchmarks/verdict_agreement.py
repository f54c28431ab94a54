"""Verdict agreement: per published file, the releases whose verdict text differs from the
record (``lab.findings.verdict``), and each statement that says so.

The record is computed from ``--data`` (default: this checkout's ``data/``); the published
files are read under ``--root`` (default: this checkout), so another checkout's pages can be
measured against the same record.

    python benchmarks/verdict_agreement.py [--root PATH] [--data PATH] [--quiet]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from approval_compaction import paths
from approval_compaction.lab.findings.load import load_findings
from approval_compaction.lab.findings.verdict import disagreements, published


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(paths.ROOT))
    parser.add_argument("--data", default=str(paths.DATA))
    parser.add_argument("--quiet", action="store_true", help="counts only")
    args = parser.parse_args()
    verdicts = load_findings(Path(args.data)).verdicts
    total = 0
    for name, text in published(Path(args.root)).items():
        wrong = disagreements(text, verdicts)
        total += len(wrong)
        print(f"{name}: {len(wrong)} releases differ{': ' + ', '.join(wrong) if wrong else ''}")
        if not args.quiet:
            for said in wrong.values():
                for phrase, statement in dict.fromkeys(said):
                    print(f"    {phrase!r}: {statement[:160]}")
    print(f"total: {total} (file, release) pairs differ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
