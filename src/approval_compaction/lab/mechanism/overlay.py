"""Overlay: a patched SDK without a patched environment, by serving module sources on import.

``install(files, site)`` puts a finder first on ``sys.meta_path`` that, for a module whose file
under ``site`` (a release's ``site-packages``) is one of ``files`` (text by path relative to it,
``agents/memory/x.py``), loads the given text instead of the file's, compiled afresh (never the
installed bytecode). The module keeps the installed file's name, so a traceback, an
``ImportError`` and ``inspect`` name it as they would in a copied environment, and its lines are
the patched ones (``linecache`` holds them). Every other module imports as installed.

It must run before ``agents`` is imported, in a process that will run nothing else: the bench's
child (``bench_worker``), forked from a worker that imported the release's dependencies but not
the SDK. Only the standard library is used, as it runs inside a release's bare environment.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import CodeType, ModuleType


class PatchedLoader(importlib.machinery.SourceFileLoader):
    """The installed module's loader, with its source replaced and no bytecode cache."""

    def __init__(self, fullname: str, path: str, text: str) -> None:
        super().__init__(fullname, path)
        self.text = text

    def get_source(self, fullname: str) -> str:
        return self.text

    def get_code(self, fullname: str) -> CodeType:
        return compile(self.text, self.path, "exec", dont_inherit=True)


class PatchedFinder(importlib.abc.MetaPathFinder):
    """Finds modules as the path finder does, then loads the patched ones' text."""

    def __init__(self, files: Mapping[str, str], site: Path) -> None:
        self.by_origin = {str(site / name): text for name, text in files.items()}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.origin not in self.by_origin:
            return spec
        loader = PatchedLoader(fullname, spec.origin, self.by_origin[spec.origin])
        return importlib.util.spec_from_file_location(
            fullname,
            spec.origin,
            loader=loader,
            submodule_search_locations=spec.submodule_search_locations,
        )


def install(files: Mapping[str, str], site: Path, package: str = "agents") -> PatchedFinder:
    """Serve ``files`` (text by path under ``site``) in place of the installed modules; a
    ``RuntimeError`` when ``package`` (which they belong to) is imported already."""
    if any(name == package or name.startswith(f"{package}.") for name in sys.modules):
        raise RuntimeError(f"the overlay must be installed before {package} is imported")
    finder = PatchedFinder(files, site)
    for origin, text in finder.by_origin.items():
        lines = text.splitlines(keepends=True)
        linecache.cache[origin] = (len(text), None, lines, origin)  # no mtime: never checked
    sys.meta_path.insert(0, finder)
    return finder


def uninstall(finder: PatchedFinder) -> None:
    """Stop serving the finder's texts (the modules it loaded stay loaded)."""
    sys.meta_path.remove(finder)
    for origin in finder.by_origin:
        linecache.cache.pop(origin, None)
