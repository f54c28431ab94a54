"""Paths: every location the project reads or writes, built in one place."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
NOTEBOOKS = ROOT / "notebooks"
RENDERED = DATA / "rendered"
SWEEP = DATA / "sweep.json"
RELEASE_DATES = DATA / "release-dates.json"
