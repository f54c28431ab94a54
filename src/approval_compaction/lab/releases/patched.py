"""Patched: a release with a maintainer's change, run in a scratch environment of its own.

A ``Patched`` value names what runs: the base release, the patch files (each by its file name
and the SHA-256 of its content) or an SDK source tree (``--sdk``: a checkout or an unpacked
sdist, by the SHA-256 of its ``src/agents`` and ``pyproject.toml``), or both, the patches then
applied on the tree. From it comes the scratch environment: a copy of the base release's cached
environment (``environments``; the other packages hard-linked, ``agents`` copied) under the
user's cache, in ``_patched/<key>/env``, keyed by the content; never ``.venv`` and never a
release's own folder. The tree replaces the copy's ``agents``; each patch is checked with
``git apply --check`` and then applied to it. The copy is built in a temporary folder and
renamed into place, so a patch that does not apply leaves nothing behind.

A patch is a unified diff as ``git diff`` writes it in the SDK's repository (``src/agents/...``),
or with paths relative to the installed package (``agents/...``); files outside ``agents`` (the
tests, the docs) are left out. Bad input (no such file, not a diff, not an SDK tree, a patch
that does not apply) is a one-line ``PatchError``.

Every record of a patched run carries ``patch``, the patch's label (each file's name and hash),
and a reader refuses records that mix labels (``one_label``), so patched and released results
never mix. ``PatchedRecord`` is the matrix's record so labelled; ``patched_matrix`` runs the
sixteen cases in the scratch environment through the sweep's probe.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import tomllib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ...analysis.grid import grid, grid_markdown, grid_text
from ...errors import InvestigationError
from ...formats.records import read_records, records_csv, records_json
from .. import paths
from . import environments
from .sweep import ReleaseRecord, judged
from .versions import PACKAGE, load_releases

PATCHED_FOLDER = "_patched"  # beside the release environments, in the user's cache
MARKER = "approval-compaction-patch.json"
APPLY_TIMEOUT_SECONDS = 120
RELEASED = ""  # the label of a record from a release as published


class Labelled(Protocol):
    """A record of a patched run: it carries the patch's label."""

    @property
    def patch(self) -> str: ...


R = TypeVar("R", bound=Labelled)
T = TypeVar("T")


class PatchError(InvestigationError):
    """A patch or an SDK tree that cannot be used: missing, not a diff, or does not apply."""


@dataclass(frozen=True)
class PatchFile:
    """One patch file: its name as given, the SHA-256 of its content, and the content."""

    name: str
    sha256: str
    text: str
    strip: int  # git apply's -p: the path parts before ``agents/``

    @property
    def label(self) -> str:
        return f"{self.name} sha256:{self.sha256}"


@dataclass(frozen=True)
class SdkTree:
    """An openai-agents source tree: where it is, its content's SHA-256, its declared version."""

    path: Path
    sha256: str
    version: str

    @property
    def label(self) -> str:
        return f"sdk {self.path.name} sha256:{self.sha256}"


@dataclass(frozen=True)
class Patched:
    """A release with patches applied, or an SDK tree on a release's dependencies, or both."""

    base: str
    patches: tuple[PatchFile, ...] = ()
    tree: SdkTree | None = None

    @property
    def label(self) -> str:
        """The ``patch`` field of every record of a run here: each part's name and hash."""
        parts = ([self.tree.label] if self.tree else []) + [p.label for p in self.patches]
        return ", ".join(parts)

    @property
    def key(self) -> str:
        """The scratch environment's folder name: the hash of the base and every part."""
        identity = json.dumps([self.base, self.label], separators=(",", ":"))
        return hashlib.sha256(identity.encode()).hexdigest()[:16]

    def describe(self) -> str:
        """``openai-agents 0.23.1 + fix.diff (sha256 1a2b3c4d5e6f)``, for a reader."""
        parts = [f"{p.name} (sha256 {p.sha256[:12]})" for p in self.patches]
        if self.tree is not None:
            tree = f"the tree {self.tree.path.name} (sha256 {self.tree.sha256[:12]})"
            return " + ".join([f"{tree} on openai-agents {self.base}'s dependencies", *parts])
        return " + ".join([f"{PACKAGE} {self.base}", *parts])


# ---------------------------------------------------------------------------- reading the input


def strip_level(text: str, name: str) -> int:
    """git apply's ``-p`` for a diff: how many path parts come before ``agents/`` in the files
    it changes (``a/src/agents/x.py``: 2); one level for the whole diff, or a ``PatchError``."""
    levels = set()
    for line in text.splitlines():
        if not line.startswith(("--- ", "+++ ")):
            continue
        path = line[4:].split("\t")[0].strip()
        if path == "/dev/null":
            continue
        parts = path.split("/")
        if "agents" in parts[:-1]:
            levels.add(parts.index("agents"))
    if not levels:
        raise PatchError(f"{name} changes no file under src/agents/ (or agents/)")
    if len(levels) > 1:
        raise PatchError(f"{name} mixes path styles: give paths as src/agents/... or agents/...")
    return levels.pop()


def patch_from_text(name: str, text: str) -> PatchFile:
    """A patch from its content; a ``PatchError`` when it is no unified diff of the SDK."""
    if not any(line.startswith("+++ ") for line in text.splitlines()):
        raise PatchError(f"{name} is not a unified diff (no +++ line)")
    digest = hashlib.sha256(text.encode()).hexdigest()
    return PatchFile(name, digest, text, strip_level(text, name))


def read_patch(path: Path) -> PatchFile:
    """The patch file at ``path``; a one-line ``PatchError`` when it is missing or no diff."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise PatchError(f"no patch file at {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise PatchError(f"{path} cannot be read: {error}") from None
    return patch_from_text(path.name, text)


def _tree_files(root: Path) -> list[Path]:
    agents = root / "src" / "agents"
    found = [p for p in agents.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return sorted(found + [root / "pyproject.toml"])


def read_tree(path: Path) -> SdkTree:
    """An openai-agents source tree; a one-line ``PatchError`` when ``path`` is none."""
    root = path.resolve()
    where = f"{path} is not an {PACKAGE} source tree"
    if not root.is_dir():
        raise PatchError(f"{where}: no such folder")
    if not (root / "src" / "agents" / "__init__.py").is_file():
        raise PatchError(f"{where}: no src/agents/__init__.py")
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text()).get("project", {})
    except FileNotFoundError:
        raise PatchError(f"{where}: no pyproject.toml") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise PatchError(f"{where}: pyproject.toml cannot be read ({error})") from None
    if project.get("name") != PACKAGE:
        raise PatchError(f"{where}: its pyproject.toml names {project.get('name')!r}")
    digest = hashlib.sha256()
    for file in _tree_files(root):
        digest.update(file.relative_to(root).as_posix().encode() + b"\0")
        digest.update(file.read_bytes() + b"\0")
    return SdkTree(root, digest.hexdigest(), str(project.get("version", "")))


def default_base(tree: SdkTree | None, pinned: str) -> str:
    """The release whose environment a run copies: the one a tree declares when it is a known
    release, else the newest release; the pinned release for patches alone."""
    if tree is None:
        return pinned
    known = load_releases(paths.DATA_FILES.release_dates)
    return tree.version if tree.version in known else environments.newest_release()


def from_arguments(
    patches: Sequence[str] | None, sdk: str | None, release: str | None, pinned: str
) -> Patched | None:
    """The ``Patched`` that ``--patch``, ``--sdk`` and ``--release`` name; None without either."""
    if not patches and not sdk:
        return None
    tree = read_tree(Path(sdk)) if sdk else None
    files = tuple(read_patch(Path(p)) for p in patches or ())
    base = release or default_base(tree, pinned)
    if base not in load_releases(paths.DATA_FILES.release_dates):
        raise PatchError(f"{base} is not a release of {PACKAGE} (data/release-dates.json)")
    return Patched(base, files, tree)


def from_namespace(args: Any, pinned: str) -> Patched | None:
    """The ``Patched`` a command's ``--patch``, ``--sdk`` and ``--release`` name (None: the
    release as published); ``--fix`` (the workaround on a release) is refused beside them."""
    patches, sdk = getattr(args, "patch", None), getattr(args, "sdk", None)
    if not patches and not sdk:
        return None
    if getattr(args, "fix", False):
        raise PatchError("--fix runs the workaround on a release: not with --patch/--sdk")
    return from_arguments(patches, sdk, getattr(args, "release", None), pinned)


# ---------------------------------------------------------------------------- the scratch copy


def patched_root(envs: Path | None = None) -> Path:
    """Where scratch environments live: beside the release environments, in the user's cache."""
    return (envs or environments.default_envs()) / PATCHED_FOLDER


def site_packages(folder: Path) -> Path:
    """The ``site-packages`` folder of a virtual environment."""
    found = sorted(folder.glob("lib/python*/site-packages"))
    if not found:
        raise PatchError(f"{folder} is not a virtual environment (no site-packages)")
    return found[0]


def link_or_copy(source: str, target: str) -> None:
    """A hard link to ``source`` at ``target`` (a copy where links cannot be made)."""
    try:
        os.link(source, target)
    except OSError:  # another file system, or links refused: a plain copy
        shutil.copy2(source, target)


def _copy_environment(source: Path, target: Path) -> None:
    """The release environment, its packages hard-linked but ``agents`` copied for real (a
    patched file is a new file; the release's own files are never written)."""
    agents = site_packages(source) / "agents"
    ignore_agents = shutil.ignore_patterns("agents") if agents.is_dir() else None

    def ignore(folder: str, names: list[str]) -> set[str]:
        if Path(folder) == agents.parent and ignore_agents is not None:
            return set(ignore_agents(folder, names))
        return set()

    shutil.copytree(source, target, symlinks=True, copy_function=link_or_copy, ignore=ignore)
    pycache = shutil.ignore_patterns("__pycache__")
    shutil.copytree(agents, site_packages(target) / "agents", ignore=pycache)


def _git_environ(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["GIT_CEILING_DIRECTORIES"] = str(folder.parent)  # never a repository above the copy
    return env


def apply_patch(patch: PatchFile, site: Path, base: str) -> None:
    """Check, then apply, one patch to the ``agents`` under ``site``; a ``PatchError`` in one
    line (git's first complaint) when it does not apply."""
    with tempfile.NamedTemporaryFile("w", suffix=".diff", delete=False) as handle:
        handle.write(patch.text)
    try:
        options = [f"-p{patch.strip}", "--include=agents/*", "--whitespace=nowarn", handle.name]
        for check in (["--check"], []):
            proc = environments.run(
                ["git", "apply", *check, *options],
                APPLY_TIMEOUT_SECONDS,
                cwd=site,
                env=_git_environ(site),
            )
            if proc.returncode != 0:
                told = environments.last_line(proc.stderr.splitlines()[0] if proc.stderr else "")
                raise PatchError(f"{patch.name} does not apply to {PACKAGE} {base}: {told}")
    except FileNotFoundError:
        raise PatchError("git is not installed: it applies the patches") from None
    finally:
        os.unlink(handle.name)


def _identity(patched: Patched) -> dict[str, Any]:
    return {"base": patched.base, "patch": patched.label}


def _build(patched: Patched, source: Path, target: Path) -> None:
    _copy_environment(source, target)
    site = site_packages(target)
    if patched.tree is not None:
        shutil.rmtree(site / "agents")
        pycache = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(patched.tree.path / "src" / "agents", site / "agents", ignore=pycache)
    for patch in patched.patches:
        apply_patch(patch, site, patched.base)
    environments.record(target / MARKER, _identity(patched))


def ready(folder: Path, patched: Patched) -> bool:
    """Whether ``folder`` holds the finished scratch environment of ``patched``."""
    return environments.recorded(folder / MARKER, _identity(patched))


def patched_environment(patched: Patched, envs: Path | None = None) -> environments.Environment:
    """The scratch environment of ``patched``, made once (from the base release's cached
    environment, itself made if missing) and reused while its content is the same."""
    base = environments.release_environment(patched.base, envs or environments.default_envs())
    target = patched_root(envs) / patched.key / "env"
    if not ready(target, patched):
        with made_whole(target, patched_root(envs)) as building:
            _build(patched, base.folder, building)
    return environments.Environment(target, patched.base, base.exclude_newer)


@contextlib.contextmanager
def made_whole(target: Path, scratch: Path) -> Iterator[Path]:
    """Where to build ``target``: a folder in a temporary one under ``scratch``, moved to
    ``target`` when the block ends, so that ``target`` (and the folders above it up to
    ``scratch``) appear only once it is made; a block that fails leaves nothing behind, and a
    copy a killed run left unfinished is replaced."""
    scratch.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=scratch))
    try:
        yield building / target.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        os.rename(building / target.name, target)
    finally:
        shutil.rmtree(building, ignore_errors=True)


@contextlib.contextmanager
def throwaway_environment(
    patched: Patched, envs: Path | None = None
) -> Iterator[environments.Environment]:
    """A scratch environment of ``patched`` that is removed when the block ends (for searches
    that try many patches once each)."""
    base = environments.release_environment(patched.base, envs or environments.default_envs())
    root = patched_root(envs)
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".throwaway-", dir=root) as folder:
        target = Path(folder) / "env"
        _build(patched, base.folder, target)
        yield environments.Environment(target, patched.base, base.exclude_newer)


def results_folder(patched: Patched, envs: Path | None = None) -> Path:
    """Where a patched run's result files go unless told: beside its scratch environment, so
    they never land among the released results under ``data/``."""
    return patched_root(envs) / patched.key / "results"


# ---------------------------------------------------------------------------- labelled records


def one_label(labels: Iterable[str], what: str) -> str:
    """The one patch label of a set of records; a one-line ``PatchError`` when they mix
    patched and released results, or two patches."""
    found = sorted(set(labels))
    if len(found) > 1:
        named = " and ".join(repr(label) if label else "released" for label in found[:2])
        raise PatchError(f"{what} mix results of different SDKs: {named}")
    return found[0] if found else RELEASED


@dataclass(frozen=True)
class PatchedRecord(ReleaseRecord):
    """A release record from a patched run: the matrix's schema, the resolved dependencies, and
    the patch's label."""

    patch: str


PATCHED_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(PatchedRecord))


def labelled(rows: Iterable[Any], schema: Callable[..., T], label: str) -> list[T]:
    """Each record as ``schema`` (its own schema with a ``patch`` field), with the label."""
    return [schema(**asdict(row), patch=label) for row in rows]


def unlabelled(rows: Iterable[Any], schema: Callable[..., T]) -> list[T]:
    """Each labelled record back as ``schema``, the released schema it extends."""
    return [schema(**{k: v for k, v in asdict(row).items() if k != "patch"}) for row in rows]


def patched_matrix(
    patched: Patched, case: str | None = None, envs: Path | None = None
) -> list[PatchedRecord]:
    """The cases (those ``case`` selects) in the scratch environment, through the sweep's
    probe, judged as the sweep judges a release."""
    env = patched_environment(patched, envs)
    return labelled(judged(env, case), PatchedRecord, patched.label)


def read_labelled(path: Path, schema: type[R], label: str | None = None) -> list[R]:
    """The records of a patched run (``schema`` has a ``patch`` field); a one-line error when
    the file holds a release's records (no ``patch``), mixes patches, or (given ``label``) is
    another patch's."""
    rows = read_records(path, schema)
    found = one_label((row.patch for row in rows), str(path))
    if label is not None and found != label:
        raise PatchError(f"{path} holds results of {found or 'a release'}, not of {label}")
    return rows


def patched_text(rows: Sequence[PatchedRecord], fmt: str, patched: Patched) -> str:
    """A patched matrix as ``matrix`` prints one: JSON and CSV with the ``patch`` column; the
    table and markdown pivots under a line that names what ran."""

    if fmt == "json":
        return records_json(rows)
    if fmt == "csv":
        return records_csv(rows, PatchedRecord)

    table = grid(rows)
    title = f"{patched.describe()}: {patched.label}"
    if fmt == "markdown":
        return f"**{title}**\n\n{grid_markdown(table)}\n"
    return f"{title}\n{grid_text(table)}\n"
