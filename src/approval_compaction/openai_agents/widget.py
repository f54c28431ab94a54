"""Stepper: one case, stage by stage, in JupyterLab, with ipywidgets.

Pick the case (one dropdown per choice of the scenario, so a choice added there shows up here),
the model transport (the scripted model, or the SDK's Responses model over HTTP to the wire's
stand-in) and the workaround, then step through the pause, the round trip, the resume and the
next turn.
Each stage shows what ``views`` shows in the static notebook: the stored history when the stage
ended, the model request and the compaction request it made, with pairing faults in the
``status`` column (and coloured, a local extra), and the stored history it started from against
what it sent. Nothing is computed twice: the tables are ``views.stage_table``, ``sent_table``,
``compaction_table`` and ``stage_diff`` rendered to HTML.

Each case is run once (``harness.run_case``) and cached with the four stage pages rendered from
it when it is first chosen, so stepping, and coming back to a case, is a lookup. Bad input (a
value that is not one of the scenario's choices, or a case the installed SDK cannot run) shows
as one line in the widget, not as a traceback.

The workaround is passed in (``stepper(workaround=defer_compaction_while_pending)``), so this
module does not import ``fix``. In a committed notebook the stepper's output is one stable line of
text: the widget view, whose model id is random, is dropped by ``share.notebooks.sanitise``.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

import ipywidgets as widgets  # type: ignore[import-untyped]  # ipywidgets ships no type hints
import pandas as pd

from ..analysis.invariants import evaluate
from ..display.frames import highlight
from ..display.views import compaction_table, sent_table, stage_diff, stage_summary, stage_table
from ..errors import InvestigationError
from ..study.capture import STAGES, CaseRun, StageName
from ..study.scenario import CHOICES, Case, SessionWrapper
from ..study.words import Model
from . import harness as _harness
from . import wiring as _wiring
from .wiring import Backend

NO_WORKAROUND = "none"
MESSAGE_WIDTH = 240

STAGE_NOTES: dict[StageName, str] = {
    "pause": "The first question: the model calls the protected tool and the run pauses for "
    "approval.",
    "round_trip": "The paused state crosses the boundary (JSON text, or the in-memory state).",
    "resume": "The decision is applied to the restored state and the run resumes.",
    "next_turn": "A new question on the same session.",
}
FAULT_COLUMNS = (
    "stored: orphan outputs",
    "stored: open calls",
    "to model: orphan outputs",
    "to model: open calls",
    "to compaction: open calls",
    "to compaction: orphan outputs",
)

CaseRunner: TypeAlias = "Callable[[Case, SessionWrapper | None, Backend], CaseRun]"


def run_with(case: Case, wrapper: SessionWrapper | None, backend: Backend) -> CaseRun:
    """The default runner: the study's harness on a model transport, the session wrapped when
    asked."""
    return _harness.run_case(case, wrap_session=wrapper, backend=backend)


@dataclass(frozen=True)
class Variant:
    """How a case is run besides its choices: the workaround and the model transport, by name."""

    workaround: str = NO_WORKAROUND
    model: Model = "scripted"


def one_line(text: str, width: int = MESSAGE_WIDTH) -> str:
    """Text on one line, cut to ``width`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def run_problem(run: CaseRun) -> str | None:
    """Why the run cannot be stepped through in full, in one line (None when it ran)."""
    if run.not_applicable is not None:
        return one_line(f"{run.case.label} does not apply: {run.not_applicable}")
    if run.error is not None:
        return one_line(
            f"{run.case.label} did not run on openai-agents {run.sdk_version}: {run.error}"
        )
    return None


@dataclass(frozen=True)
class Section:
    """One table of a stage page: its key, heading, the frame, and what to say when empty."""

    key: str
    heading: str
    frame: pd.DataFrame
    empty: str


def sections(run: CaseRun, name: StageName) -> list[Section]:
    """The four tables a stage shows, from ``views``."""
    stage = run.stage(name)
    sent = len(stage.model_inputs) if stage else 0
    compacted = len(stage.compaction_inputs) if stage else 0
    return [
        Section(
            "stored",
            "Stored history when the stage ended",
            stage_table(run, name),
            "The session stores nothing.",
        ),
        Section(
            "sent",
            f"Model request (the last of {sent})",
            sent_table(run, name),
            "No model request in this stage.",
        ),
        Section(
            "compaction",
            f"Compaction request (the first of {compacted})",
            compaction_table(run, name),
            "No compaction request in this stage.",
        ),
        Section(
            "diff",
            "Stored history at the stage's start against the model request",
            stage_diff(run, name) if sent else pd.DataFrame(),
            "Nothing was sent to the model in this stage.",
        ),
    ]


def faults_line(run: CaseRun, name: StageName) -> str:
    """The stage's pairing faults in words, from ``views.stage_summary``."""
    row = stage_summary(run).loc[name]
    found = [f"{column} {row[column]}" for column in FAULT_COLUMNS if row[column]]
    return "✗ pairing faults: " + "; ".join(found) if found else "✓ no pairing fault"


def table_html(frame: pd.DataFrame, uuid: str) -> str:
    """A frame as an HTML table, rows coloured by status (the words stay in the table)."""
    return str(highlight(frame).styler().set_uuid(uuid).to_html())


def stage_html(run: CaseRun, name: StageName, prefix: str = "stepper") -> str:
    """One stage page: where it is in the run, its faults, and its four tables."""
    number = STAGES.index(name) + 1
    head = (
        f'<p class="ac-stage-line"><b>{number} of {len(STAGES)} · {name}</b>: '
        f"{html.escape(STAGE_NOTES[name])}</p>"
    )
    if run.stage(name) is None:
        reason = run_problem(run) or "the run stopped before it"
        note = f"Stage {name} was not reached: {reason}"
        body = f'<p class="ac-not-reached">{html.escape(one_line(note))}</p>'
        return f'<div class="ac-stage" data-stage="{name}">{head}{body}</div>'
    parts = [head, f'<p class="ac-faults">{html.escape(faults_line(run, name))}</p>']
    for section in sections(run, name):
        rows = len(section.frame)
        table = (
            table_html(section.frame, f"{prefix}-{name}-{section.key}")
            if rows
            else f'<p class="ac-empty">{html.escape(section.empty)}</p>'
        )
        parts.append(
            f'<div class="ac-section" data-section="{section.key}" data-rows="{rows}">'
            f"<h4>{html.escape(section.heading)}</h4>{table}</div>"
        )
    return f'<div class="ac-stage" data-stage="{name}">{"".join(parts)}</div>'


def case_line(run: CaseRun, variant: Variant) -> str:
    """The case, the release, the variant and the invariants it violates, in one line."""
    problem = run_problem(run)
    if problem is not None:
        return problem
    violated = [v.invariant for v in evaluate(run) if v.holds is False]
    verdict = "violates " + ", ".join(violated) if violated else "every invariant holds"
    return one_line(
        f"{run.case.label} on openai-agents {run.sdk_version}, model {variant.model}, "
        f"workaround {variant.workaround}: {verdict}"
    )


class RunCache:
    """Each (case, variant) is run once and each of its stage pages rendered once."""

    def __init__(
        self,
        wrappers: Mapping[str, SessionWrapper | None],
        runner: CaseRunner = run_with,
        prefix: str = "stepper",
        backends: Mapping[Model, Backend] = _wiring.BACKENDS,
    ) -> None:
        self.wrappers, self.backends = dict(wrappers), dict(backends)
        self.runner, self.prefix = runner, prefix
        self.runs: dict[tuple[Case, Variant], CaseRun] = {}
        self.pages: dict[tuple[Case, Variant, StageName], str] = {}

    def put(self, run: CaseRun, variant: Variant) -> None:
        self.runs[(run.case, variant)] = run

    def run(self, case: Case, variant: Variant) -> CaseRun:
        """The run of a case in a variant, run on first use."""
        key = (case, variant)
        if key not in self.runs:
            wrapper = _pick("workaround", variant.workaround, self.wrappers)
            backend = _pick("model", variant.model, self.backends)
            self.runs[key] = self.runner(case, wrapper, backend)
        return self.runs[key]

    def page(self, case: Case, variant: Variant, name: StageName) -> str:
        """A stage page of a cached run, rendered on first use."""
        key = (case, variant, name)
        if key not in self.pages:
            self.pages[key] = stage_html(self.run(case, variant), name, self.prefix)
        return self.pages[key]


def _pick(kind: str, name: str, named: Mapping[Any, Any]) -> Any:
    if name not in named:
        raise InvestigationError(f"unknown {kind} {name!r}: expected one of {', '.join(named)}")
    return named[name]


_instances = itertools.count(1)


class Stepper:
    """The widget: case, model and workaround pickers, stage buttons, a message line, tables.

    ``controls`` maps each choice (and ``model``, ``workaround``) to its picker and ``stages`` is
    the stage picker: setting their ``value`` from Python does what a click does. ``execute``
    runs a case with a session wrapper on a model backend (the harness by default; a test passes
    a fake).
    """

    def __init__(
        self,
        start: Case | CaseRun | None = None,
        *,
        workaround: SessionWrapper | None = None,
        execute: CaseRunner = run_with,
        choices: Mapping[str, str] | None = None,
    ) -> None:
        wrappers: dict[str, SessionWrapper | None] = {NO_WORKAROUND: None}
        if workaround is not None:
            wrappers[getattr(workaround, "__name__", "workaround")] = workaround
        self.cache = RunCache(wrappers, execute, prefix=f"stepper{next(_instances)}")
        model = start.model if isinstance(start, CaseRun) else "scripted"
        if isinstance(start, CaseRun):
            self.cache.put(start, Variant(model=model))
        first = start.case if isinstance(start, CaseRun) else start or Case()
        initial = {**first.as_dict(), **(choices or {})}
        self.controls: dict[str, Any] = {
            name: widgets.Dropdown(
                options=list(values),
                value=initial[name] if initial[name] in values else first.as_dict()[name],
                description=name.replace("_", " "),
                style={"description_width": "initial"},
                layout=widgets.Layout(width="auto"),
            )
            for name, values in CHOICES.items()
        }
        self.controls["model"] = widgets.ToggleButtons(
            options=list(_wiring.BACKENDS),
            value=model,
            description="model",
            style={"button_width": "auto"},
        )
        self.controls["workaround"] = widgets.ToggleButtons(
            options=list(wrappers),
            value=NO_WORKAROUND,
            description="workaround",
            style={"button_width": "auto"},
        )
        self.stages = widgets.ToggleButtons(options=list(STAGES), value=STAGES[0])
        self.previous = widgets.Button(description="◀ previous", tooltip="previous stage")
        self.next = widgets.Button(description="next ▶", tooltip="next stage")
        self.message = widgets.HTML()
        self.tables = widgets.HTML()
        self.message.add_class("ac-stepper-message")
        self.tables.add_class("ac-stepper-tables")
        self.tables.add_class("jp-RenderedHTMLCommon")  # JupyterLab's look for HTML tables
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.controls[name] for name in CHOICES]),
                widgets.HBox([self.controls["model"], self.controls["workaround"]]),
                widgets.HBox([self.previous, self.stages, self.next]),
                self.message,
                self.tables,
            ]
        )
        self.widget.add_class("ac-stepper")
        for control in self.controls.values():
            control.observe(self._on_case, names="value")
        self.stages.observe(self._on_stage, names="value")
        self.previous.on_click(lambda _: self.step(-1))
        self.next.on_click(lambda _: self.step(1))
        self.current: CaseRun | None = None
        unknown = [name for name in initial if name not in CHOICES]
        if unknown:
            self._fail(f"unknown case field {unknown[0]!r}: expected one of {', '.join(CHOICES)}")
        else:
            self.choose(initial)

    def variant(self) -> Variant:
        """The model and workaround picked now."""
        return Variant(self.controls["workaround"].value, self.controls["model"].value)

    def choose(self, choices: Mapping[str, str], variant: Variant | None = None) -> None:
        """Show the case made of ``choices`` (in ``variant``, by default the one picked), at the
        current stage. Its run and all its stage pages are made here, once, so that stepping is
        a lookup."""
        variant = self.variant() if variant is None else variant
        try:
            case = Case(**cast(dict[str, Any], choices))
            run = self.cache.run(case, variant)
            pages = {name: self.cache.page(case, variant, name) for name in STAGES}
        except InvestigationError as error:
            self._fail(str(error))
            return
        except Exception as error:  # a bug in a run is shown in the widget, not as a traceback
            self._fail(f"{type(error).__name__}: {error}")
            return
        self.current = run
        self.message.value = html.escape(case_line(run, variant))
        self.tables.value = pages[self.stages.value]

    def show(self, name: StageName) -> None:
        """Show a stage of the current case (its page is cached once rendered)."""
        if self.current is None:
            return
        self.tables.value = self.cache.page(self.current.case, self.variant(), name)

    def step(self, offset: int) -> None:
        """Move to the previous (-1) or next (+1) stage, stopping at either end."""
        index = STAGES.index(self.stages.value) + offset
        self.stages.value = STAGES[max(0, min(len(STAGES) - 1, index))]

    def summary(self) -> str:
        """The stepper in one stable line: the committed notebook's text in place of the widget."""
        case = self.current.case.label if self.current else "no case"
        return (
            f"Stepper at {case}, stage {self.stages.value}: run this notebook in JupyterLab "
            "(make lab) to step through any case."
        )

    def _fail(self, text: str) -> None:
        self.current = None
        self.message.value = f"<b>error</b>: {html.escape(one_line(text))}"
        self.tables.value = ""

    def _on_case(self, change: Mapping[str, Any]) -> None:
        self.choose({name: self.controls[name].value for name in CHOICES})

    def _on_stage(self, change: Mapping[str, Any]) -> None:
        self.show(change["new"])

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle: dict[str, Any] = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.summary()
        return bundle


def stepper(
    start: Case | CaseRun | None = None,
    *,
    workaround: SessionWrapper | None = None,
    **choices: str,
) -> Stepper:
    """A stepper starting at a case (or an executed run, reused as it is), e.g.
    ``stepper(run, workaround=defer_compaction_while_pending)`` or ``stepper(decision="reject")``.
    """
    return Stepper(start, workaround=workaround, choices=choices)
