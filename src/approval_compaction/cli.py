"""Command line: ``python -m approval_compaction COMMAND``; bad input exits 2 with one line.

``parser`` builds the frame and the core's commands (``matrix``, ``serve``); the doctor
(``doctor.steps``) and the lab (``lab.commands``) each declare their own. Each command imports
what it uses when it runs, so ``--help`` loads no heavy package; ``matrix`` (every format) loads
the study and the records, not pandas or matplotlib. Without the lab's modules the lab's
commands are left out and the core's and the doctor's still run.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .doctor import steps as doctor_steps
from .errors import InvestigationError, MissingExtra, printable
from .formats.arguments import (
    CASE_HELP,
    FORMATS,
    PORT,
    STORE_HELP,
    Handler,
    Parser,
    collect_from_here,
    patch_options,
)
from .study.words import COMPACT_RULES, MODELS, MODES, STORE_WORDS, STUDY_MODE
from .wire.rules import COMPACT_SHAPES

if TYPE_CHECKING:
    from .study.scenario import SessionWrapper


def _lazy(module: str, function: str = "command") -> Handler:
    """A handler that imports ``module`` only when its command runs; a lab command whose
    dependencies are not installed (a ``[doctor]`` install) is one line naming ``[lab]``."""

    def handler(args: argparse.Namespace) -> int:
        try:
            loaded = importlib.import_module(module, __package__)
        except ModuleNotFoundError as missing:
            name = missing.name or ""
            if not module.startswith(".lab.") or not name or name.startswith(f"{__package__}."):
                raise
            raise MissingExtra("this command", [name.partition(".")[0]], "lab") from None
        collect_from_here()
        return int(getattr(loaded, function)(args))

    return handler


def _matrix(args: argparse.Namespace) -> int:
    from .analysis.matrix import matrix_text, records
    from .formats.files import write_or_print
    from .sdks import sdk_module
    from .study.scenario import select_cases
    from .study.words import STORE_SETTINGS

    cases = select_cases(args.case)  # a bad filter fails before anything runs
    store = STORE_SETTINGS[args.response_store]
    if store is not None and (args.patch or args.sdk):
        raise InvestigationError("--response-store does not apply to a patched run")
    patched = _patched(args)
    if patched is not None:
        return _patched_matrix(args, patched)
    wrap: SessionWrapper | None = None
    if args.fix:
        from .fix.workaround import defer_compaction_while_pending

        wrap = defer_compaction_while_pending
    # The Python SDK's folder, reached by name as every SDK's folder is (sdks).
    harness, wiring = sdk_module("python", "harness"), sdk_module("python", "wiring")
    backend = wiring.backend_for(args.model, args.compact_rules)
    runs = harness.run_matrix(
        cases, wrap_session=wrap, backend=backend, mode=args.mode, jobs=0, response_store=store
    )
    text = matrix_text(records(runs), args.format)
    write_or_print(text, args.output)
    return 0


def _patched(args: argparse.Namespace) -> Any:
    """The ``Patched`` that ``--patch``/``--sdk``/``--release`` name, or None (released)."""
    if not getattr(args, "patch", None) and not getattr(args, "sdk", None):
        return None
    from .lab.mechanism.catalogue import PINNED
    from .lab.releases.patched import from_namespace

    return from_namespace(args, PINNED)


def _patched_matrix(args: argparse.Namespace, patched: Any) -> int:
    from .formats.files import write_or_print
    from .lab.releases.patched import patched_matrix, patched_text

    text = patched_text(patched_matrix(patched, args.case), args.format, patched)
    write_or_print(text, args.output)
    return 0


def _lab_commands() -> Any:
    """The lab's ``commands`` module, or None where the lab cannot be imported."""
    try:
        return importlib.import_module(".lab.commands", __package__)
    except ModuleNotFoundError as missing:
        if not (missing.name or "").startswith(f"{__package__}.lab"):
            raise
        return None


# Commands whose declarations are the core's and the doctor's: running one (but ``doctor data``,
# the lab's step, or a help) builds the parser without the lab's, so it loads no lab module.
WITHOUT_LAB = ("matrix", "serve", "doctor")


def _needs_lab(argv: Sequence[str]) -> bool:
    words = list(argv)
    if not words or words[0] not in WITHOUT_LAB or {"-h", "--help"} & set(words):
        return True
    return words[:2] in (["doctor", "data"], ["doctor", "exports"])


def parser(with_lab: bool = True) -> argparse.ArgumentParser:
    """The command line: the frame, the core's commands, the doctor's, and (``with_lab``) the
    lab's where its modules can be imported."""
    main = Parser(prog="python -m approval_compaction", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help)
        command.set_defaults(handler=handler)
        return command

    matrix = add("matrix", _matrix, "run the 16 cases on the installed SDK")
    matrix.add_argument("--format", choices=FORMATS, default="table")
    matrix.add_argument("--case", help=CASE_HELP)
    matrix.add_argument("--output", help="write to this file instead of stdout")
    matrix.add_argument(
        "--fix", action="store_true", help="apply the workaround (defer_compaction_while_pending)"
    )
    matrix.add_argument(
        "--model",
        choices=MODELS,
        default=MODELS[0],
        help="scripted: the scripted model; responses: the SDK's OpenAIResponsesModel over HTTP "
        "to the local stand-in (in-process); a patched run takes both, as the sweep does",
    )
    matrix.add_argument(
        "--mode",
        choices=MODES,
        default=STUDY_MODE,
        help="the compaction session's compaction_mode (the study's: input)",
    )
    matrix.add_argument(
        "--compact-rules",
        choices=COMPACT_RULES,
        default=COMPACT_RULES[0],
        help="faithful: the compaction endpoint answers by the API's rules; lenient: it accepts "
        "anything (the original report's world)",
    )
    matrix.add_argument("--response-store", choices=STORE_WORDS, default="default", help=STORE_HELP)
    patch_options(matrix)

    lab = _lab_commands() if with_lab else None
    if lab is not None:
        lab.register(add, _lazy, parser)
    steps = doctor_steps.register(add, _lazy)
    if lab is not None:
        lab.register_doctor_steps(steps, _lazy)

    serve = add(
        "serve", _lazy(".wire.server"), "serve the Responses API stand-in on a port, with a log"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=PORT, default=8000, help="0 picks a free port")
    serve.add_argument(
        "--compact-rules",
        choices=COMPACT_RULES,
        default=COMPACT_RULES[0],
        help="faithful: /v1/responses/compact answers by the API's rules; lenient: anything goes",
    )
    serve.add_argument(
        "--compact-shape",
        choices=COMPACT_SHAPES,
        default=COMPACT_SHAPES[0],
        help="keeps_users: a compaction answers the user messages, then the compaction item (as "
        "documented); summary_only: the item alone (the shape of some test fakes)",
    )
    return main


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    args = parser(_needs_lab(words)).parse_args(words)
    try:
        return int(args.handler(args))
    except InvestigationError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        return 2
