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
    wait_until_ready,
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


class Exited:
    """A process that has exited with ``returncode``: what ``wait_until_ready`` polls."""

    pid = 4242

    def __init__(self, returncode: int | None) -> None:
        self.returncode = returncode

    def poll(self) -> int | None:
        return self.returncode


def test_lab_that_exits_while_starting_is_one_line_error_with_its_last_log_line(
    tmp_path: Path,
) -> None:
    """The fast tier's half of the start that fails (the real JupyterLab's is below): the exit
    status and the log's last line, in one line."""
    log = tmp_path / "lab.log"
    log.write_text("[I] starting\nTraceback (most recent call last):\n  ...\nboom: no root\n\n")
    with pytest.raises(LabError, match=r"^JupyterLab exited with 1: boom: no root$"):
        wait_until_ready(Exited(1), tmp_path, "token", log, timeout=5)
    empty = tmp_path / "absent.log"
    with pytest.raises(LabError, match=r"^JupyterLab exited with 2: \(no output\)$"):
        wait_until_ready(Exited(2), tmp_path, "token", empty, timeout=5)


def test_lab_that_never_answers_is_one_line_error_after_its_timeout(tmp_path: Path) -> None:
    log = tmp_path / "lab.log"
    log.write_text("[I] still starting\n")
    with pytest.raises(LabError, match=r"^JupyterLab did not answer within 0 s: \[I\] still"):
        wait_until_ready(Exited(None), tmp_path, "token", log, timeout=0.0)


@pytest.mark.subprocess  # starts the real JupyterLab, which exits: about 9 s
def test_lab_start_that_fails_is_one_line_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with pytest.raises(LabError, match=r"^JupyterLab exited with 1: ") as raised:
        start_lab(tmp_path / "missing", home, timeout=120)
    assert "\n" not in str(raised.value)
