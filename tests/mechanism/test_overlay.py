"""Overlay: patched module texts served on import in place of the installed files."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from approval_compaction.lab.mechanism import overlay


def test_overlay_serves_the_given_text_in_place_of_the_installed_module(tmp_path: Path) -> None:
    """A patched module imports with its new text (never the installed bytecode), under the
    installed file's name; a module not given imports as installed."""
    package = tmp_path / "overlaid_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "value.py").write_text("VALUE = 'installed'\n")
    (package / "other.py").write_text("VALUE = 'other'\n")
    sys.path.insert(0, str(tmp_path))
    finder = overlay.install(
        {"overlaid_pkg/value.py": "VALUE = 'patched'\n"}, tmp_path, "overlaid_pkg"
    )
    try:
        value = importlib.import_module("overlaid_pkg.value")
        other = importlib.import_module("overlaid_pkg.other")
        assert (value.VALUE, other.VALUE) == ("patched", "other")
        assert value.__file__ == str(package / "value.py")
        with pytest.raises(RuntimeError, match="before overlaid_pkg is imported"):
            overlay.install({}, tmp_path, "overlaid_pkg")
    finally:
        overlay.uninstall(finder)
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("overlaid_pkg")]:
            del sys.modules[name]
