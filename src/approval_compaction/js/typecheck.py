"""Typecheck: the TypeScript forms of the JS fixes and the regression tests, checked as
openai-agents-js checks its own code: ``tsc`` with its compiler options, ``prettier`` with its
settings and ``eslint`` with its rules (``js/fix/typecheck/``), against the declarations of an
installed ``@openai/agents``.

A form (``js/fix/agents-openai-0.20.0*.ts``) is pieces, each after a ``// @@ slot: where it
goes`` line; ``assemble`` puts them into the host (``js/fix/typecheck/host.ts``) in place of
the lines between its ``// @@slot`` and ``// @@end``. The regression tests are checked as
``packages/agents-openai/tsconfig.test.json`` checks them: beside a ``src/index.ts`` that is the
installed package (``export * from '@openai/agents-openai'``), so their ``'../src'`` is it. A
folder of links (``node_modules/@openai``, ``zod``, ``openai`` from the package's folder,
``vitest`` from ``js/sdk-test``) resolves every import. The tools are ``js/sdk-test``'s, at the
versions the repository's lock pins.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import InvestigationError
from ..lab import paths
from ..lab.releases.driven import CheckRecord
from .harness import node_binary
from .sdk_test import SDK_TEST

FIX = paths.ROOT / "js" / "fix"
TYPECHECK = FIX / "typecheck"
HOST = TYPECHECK / "host.ts"
FORMS = {
    "pending": FIX / "agents-openai-0.20.0.ts",
    "stall": FIX / "agents-openai-0.20.0-stall.ts",
}
# The slots a piece may name that live outside the host: a form's other files (agents-core).
ELSEWHERE = frozenset({"core-export"})
TOOLS = {
    "tsc": SDK_TEST / "node_modules" / "typescript" / "bin" / "tsc",
    "prettier": SDK_TEST / "node_modules" / "prettier" / "bin" / "prettier.cjs",
    "eslint": SDK_TEST / "node_modules" / "eslint" / "bin" / "eslint.js",
}
LINKED = ("@openai", "zod", "openai")  # from the package's folder; vitest from js/sdk-test
TIMEOUT = 300.0
_PIECE = re.compile(r"^// @@ ([\w-]+):.*$", re.M)
_ERROR = re.compile(r"^(?P<file>[^\s(]+)\(\d+,\d+\): error (?P<code>TS\d+): ", re.M)


class TypecheckError(InvestigationError):
    """A form or host that cannot be assembled, or a tool that is not installed, in one line."""


def pieces(form: str) -> dict[str, str]:
    """A form's pieces by slot: the lines after each ``// @@ slot:`` line."""
    marks = list(_PIECE.finditer(form))
    if not marks:
        raise TypecheckError("a TypeScript form has no `// @@ slot:` line")
    found = {}
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        end = after.start() if after else len(form)
        found[mark.group(1)] = form[mark.end() + 1 : end].rstrip("\n") + "\n"
    return found


def assemble(host: str, given: Mapping[str, str]) -> str:
    """The host with each slot's lines replaced by the piece of that name (or kept), and the
    slot markers dropped."""
    out: list[str] = []
    lines = iter(host.splitlines(keepends=True))
    used = set()
    for line in lines:
        slot = re.fullmatch(r"\s*// @@([\w-]+)\n?", line)
        if not slot or slot.group(1) == "end":
            out.append(line)
            continue
        kept = []
        for inner in lines:
            if inner.strip() == "// @@end":
                break
            kept.append(inner)
        else:
            raise TypecheckError(f"the host's slot {slot.group(1)} has no `// @@end`")
        name = slot.group(1)
        out += [given[name]] if name in given else kept
        used.add(name)
    unknown = set(given) - used - ELSEWHERE
    if unknown:
        raise TypecheckError(f"no slot in the host for {', '.join(sorted(unknown))}")
    return "".join(out)


def forms(names: Sequence[str]) -> dict[str, str]:
    """The pieces of the named forms together (``both``: each form's)."""
    given: dict[str, str] = {}
    for name in names:
        given |= pieces(FORMS[name].read_text())
    return given


def _tool(name: str) -> Path:
    path = TOOLS[name]
    if not path.is_file():
        raise TypecheckError(f"{name} is not installed in js/sdk-test: run `make js-sdk-test`")
    return path


def _link_modules(work: Path, package: Path) -> None:
    modules = work / "node_modules"
    modules.mkdir()
    for name in LINKED:
        (modules / name).symlink_to(package / "node_modules" / name)
    (modules / "vitest").symlink_to(SDK_TEST / "node_modules" / "vitest")


def _run(tool: str, arguments: Sequence[str], cwd: Path) -> tuple[int, str]:
    done = subprocess.run(
        [node_binary(), str(_tool(tool)), *arguments],
        cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    return done.returncode, (done.stdout + done.stderr).replace(str(cwd) + "/", "")


def _lay_out(work: Path, sources: Mapping[str, str]) -> list[str]:
    """The files under ``packages/agents-openai/`` in ``work``; their paths."""
    root = work / "packages" / "agents-openai"
    for name, text in sources.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [f"packages/agents-openai/{name}" for name in sources]


def check(
    subject: str, sources: Mapping[str, str], package: Path = paths.ROOT
) -> list[CheckRecord]:
    """``tsc``, ``prettier`` and ``eslint`` on ``sources`` (paths under
    ``packages/agents-openai/``), against the ``@openai/agents`` installed in ``package``."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-tsc-") as scratch:
        work = Path(scratch)
        _link_modules(work, package)
        files = _lay_out(work, sources)
        shutil.copyfile(TYPECHECK / "tsconfig.json", work / "tsconfig.base.json")
        (work / "tsconfig.json").write_text(
            '{"extends": "./tsconfig.base.json", "compilerOptions": {"noEmit": true}, '
            f'"files": {_json_list(files)}}}\n'
        )
        shutil.copyfile(TYPECHECK / "prettierrc.json", work / ".prettierrc.json")
        shutil.copyfile(TYPECHECK / "eslint.config.mjs", work / "eslint.config.mjs")
        (work / "node_modules" / "typescript-eslint").symlink_to(
            SDK_TEST / "node_modules" / "typescript-eslint"
        )
        for name in ("@eslint", "eslint-config-prettier"):
            target = SDK_TEST / "node_modules" / name
            link = work / "node_modules" / name
            if not link.exists():
                link.symlink_to(target)
        linted = [f for f in files if not f.endswith("src/index.ts")]
        runs = {
            "tsc": (["--noEmit", "-p", "tsconfig.json"], "tsc --noEmit (its tsconfig.json)"),
            "prettier": (["--check", *linted], "prettier --check (its .prettierrc)"),
            "eslint": (["--no-warn-ignored", *linted], "eslint (its eslint.config.mjs rules)"),
        }
        records = []
        for tool, (arguments, command) in runs.items():
            code, said = _run(tool, arguments, work)
            records.append(_record(subject, tool, command, len(linted), code, said))
    return records


def _json_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def _record(subject: str, tool: str, command: str, files: int, code: int, said: str) -> CheckRecord:
    lines = [line.rstrip() for line in said.splitlines() if line.strip()]
    if tool == "tsc":
        problems = len(_ERROR.findall(said))
        shown = [line for line in lines if _ERROR.match(line)]
    elif tool == "prettier":
        shown = [line for line in lines if line.startswith("[warn]") and "Code style" not in line]
        problems = len(shown)
    else:
        shown = [line for line in lines if re.match(r"^\s*\d+:\d+\s+error", line)]
        problems = len(shown)
    if code != 0 and problems == 0:
        problems, shown = 1, lines[-3:]
    return CheckRecord(subject, tool, command, files, problems, "\n".join(shown[:5]))


def check_fixes(package_for: Mapping[str, Path]) -> list[CheckRecord]:
    """Each form alone and both together in the host, against the package each is built for
    (the pending call's reads agents-core's new export: its patched package declares it)."""
    host = HOST.read_text()
    subjects = {"pending": ("pending",), "stall": ("stall",), "both": ("pending", "stall")}
    records = []
    for subject, names in subjects.items():
        source = assemble(host, forms(names))
        name = "src/memory/openaiResponsesCompactionSession.ts"
        records += check(subject, {name: source}, package_for[subject])
    return records


def check_tests(tests: Sequence[Path], package: Path = paths.ROOT) -> list[CheckRecord]:
    """The regression tests as ``tsconfig.test.json`` checks them, beside a ``src`` that is the
    installed package."""
    sources = {"src/index.ts": "export * from '@openai/agents-openai';\n"}
    sources |= {f"test/{test.name}": test.read_text() for test in tests}
    return check("tests", sources, package)
