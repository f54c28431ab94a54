"""Checks: the project's upstream-form regression test under the release's own ruff and pyright.

The tools are the checkout's (its development environment installs them) and are configured as
its Makefile configures them, so a check that passes here passes in the SDK's own CI.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .. import environments
from .checkout import Checkout

CHECK_TIMEOUT_SECONDS = 600


@dataclass(frozen=True)
class SuiteCheck:
    """The upstream-form regression test under the release's own tools."""

    sdk_version: str
    check: str  # ruff check, ruff format, pyright
    passed: bool
    message: str


def check_commands(checkout: Checkout, test: str) -> dict[str, list[str]]:
    """The release's own ruff and pyright on one test file, as its Makefile configures them."""
    tools = checkout.python.parent
    return {
        "ruff check": [str(tools / "ruff"), "check", test],
        "ruff format": [str(tools / "ruff"), "format", "--check", test],
        "pyright": [str(tools / "pyright"), "--project", "pyrightconfig.json", test],
    }


def run_checks(
    checkout: Checkout, test: str, run: environments.Runner = environments.run
) -> list[SuiteCheck]:
    """Each check of the upstream-form test: passed, or the first line it complained with."""
    env = environments.isolated_environ(with_package=False)
    env["PATH"] = os.pathsep.join([str(checkout.python.parent), env.get("PATH", "")])
    found = []
    for name, command in check_commands(checkout, test).items():
        proc = run(command, CHECK_TIMEOUT_SECONDS, cwd=checkout.folder, env=env)
        complaint = _complaint(proc.stdout + proc.stderr) if proc.returncode else ""
        found.append(SuiteCheck(checkout.version, name, proc.returncode == 0, complaint))
    return found


def _complaint(text: str) -> str:
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    told = [line for line in lines if re.search(r"error|Would reformat|\b[A-Z]+\d+\b", line)]
    return (told or lines or ["no output"])[0][:300]
