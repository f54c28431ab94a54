"""JupyterLab for `make lab` and the browser test: loopback, the project's kernel, one line
when it fails."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from approval_compaction.lab.share.lab import (
    HOST,
    KERNEL_NAME,
    LabError,
    isolated_environment,
    lab_arguments,
    register_kernel,
    start_lab,
    write_settings,
)


def test_lab_arguments_serve_loopback_with_only_the_project_kernel(tmp_path: Path) -> None:
    arguments = lab_arguments(tmp_path, port=0, open_browser=False, expose_app=True)
    assert arguments[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.ip={HOST}" in arguments and HOST == "127.0.0.1"
    assert f"--ServerApp.root_dir={tmp_path}" in arguments
    assert f"--KernelSpecManager.allowed_kernelspecs={KERNEL_NAME}" in arguments
    assert "--no-browser" in arguments
    assert "--LabApp.expose_app_in_browser=True" in arguments
    assert ("--allow-root" in arguments) == (os.geteuid() == 0)
    assert "--LabApp.expose_app_in_browser=True" not in lab_arguments(tmp_path)


def test_lab_register_kernel_runs_this_interpreter(tmp_path: Path) -> None:
    folder = register_kernel(tmp_path)
    assert folder == tmp_path / "share" / "jupyter" / "kernels" / KERNEL_NAME
    spec = json.loads((folder / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable
    assert spec["language"] == "python"
    assert KERNEL_NAME in spec["display_name"]


def test_lab_isolated_environment_keeps_jupyter_state_in_its_folder(tmp_path: Path) -> None:
    environment = isolated_environment(tmp_path, "secret")
    for name in ("JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "IPYTHONDIR"):
        assert Path(environment[name]).is_relative_to(tmp_path)
    assert environment["JUPYTER_TOKEN"] == "secret"
    kernels = Path(environment["JUPYTER_PATH"]) / "kernels" / KERNEL_NAME / "kernel.json"
    assert kernels.is_file()


def test_lab_write_settings_names_the_plugin_file(tmp_path: Path) -> None:
    write_settings(tmp_path, {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}})
    path = (
        tmp_path / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    )
    assert json.loads(path.read_text()) == {"windowingMode": "none"}


def test_lab_start_that_fails_is_one_line_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with pytest.raises(LabError, match=r"^JupyterLab exited with 1: ") as raised:
        start_lab(tmp_path / "missing", home, timeout=120)
    assert "\n" not in str(raised.value)
