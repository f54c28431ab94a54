"""Lab: JupyterLab on 127.0.0.1 with a token, the project's kernel registered, a notebook open.

The kernel is this interpreter (the project's ``.venv``) registered under the project's name,
as ``python -m ipykernel install --name approval-compaction`` would, and it is the only kernel
the server offers: the notebooks name the generic ``python3`` kernel, and JupyterLab picks the
one kernel of their language. ``make lab`` runs ``python -m approval_compaction.lab.share.lab``,
which registers the kernel in the environment (``--sys-prefix``) and serves the project with
notebook 01 open. ``start_lab`` starts the same server in the background for a test, with every
Jupyter folder (runtime, config, data, settings, workspaces) in a folder it is given, on a free
port and with a token of its own; ``LabServer.stop`` ends it and the kernels it started.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.error import URLError
from urllib.parse import quote

from ipykernel.kernelspec import install

from ...errors import InvestigationError
from .. import paths

KERNEL_NAME = "approval-compaction"
DISPLAY_NAME = "Python 3 (approval-compaction)"
HOST = "127.0.0.1"
NOTEBOOK = "notebooks/01-walkthrough.ipynb"
START_TIMEOUT = 90.0
STOP_TIMEOUT = 30.0


class LabError(InvestigationError):
    """JupyterLab did not start, or did not answer, in time."""


def register_kernel(prefix: Path | str = sys.prefix) -> Path:
    """Register this interpreter as the project's kernel under ``prefix``; return its folder."""
    return Path(install(kernel_name=KERNEL_NAME, display_name=DISPLAY_NAME, prefix=str(prefix)))


def lab_arguments(
    root: Path, *, port: int = 8888, open_browser: bool = True, expose_app: bool = False
) -> list[str]:
    """The command line of a JupyterLab serving ``root`` on 127.0.0.1 with the project's kernel
    (``expose_app``: the page's ``window.jupyterapp``, which a browser test reads)."""
    arguments = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.ip={HOST}",
        f"--ServerApp.port={port}",
        f"--ServerApp.root_dir={root}",
        f"--KernelSpecManager.allowed_kernelspecs={KERNEL_NAME}",
        f"--MappingKernelManager.default_kernel_name={KERNEL_NAME}",
        # Offline: no update check and no news feed.
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
    ]
    if not open_browser:
        arguments.append("--no-browser")
    if expose_app:
        arguments.append("--LabApp.expose_app_in_browser=True")
    if os.geteuid() == 0:  # Jupyter refuses root unless told
        arguments.append("--allow-root")
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    """``make lab``: register the kernel in this environment, then serve the project."""
    folder = register_kernel()
    print(f"kernel {KERNEL_NAME} registered in {folder}")
    # The notebook as the default page: the address Jupyter prints (token included) opens it.
    arguments = [*lab_arguments(paths.ROOT), f"--LabApp.default_url=/lab/tree/{NOTEBOOK}"]
    arguments.extend(argv or [])
    with suppress(KeyboardInterrupt):
        return subprocess.call(arguments, cwd=paths.ROOT)
    return 0


@dataclass(frozen=True)
class LabServer:
    """A JupyterLab started by ``start_lab``: its process, address, token and log."""

    process: subprocess.Popen[bytes]
    url: str
    token: str
    log: Path

    def page(self, path: str) -> str:
        """The address that opens ``path`` (relative to the served folder), token included."""
        return f"{self.url}lab/tree/{quote(path)}?token={self.token}&reset"

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Ask the server to stop (it shuts its kernels down); kill its group if it does not."""
        if self.process.poll() is not None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout)


def isolated_environment(home: Path, token: str) -> dict[str, str]:
    """Every folder Jupyter and IPython write to, under ``home``; the token; the kernel found."""
    folders = {
        "JUPYTER_RUNTIME_DIR": home / "runtime",
        "JUPYTER_CONFIG_DIR": home / "config",
        "JUPYTER_DATA_DIR": home / "data",
        "JUPYTERLAB_SETTINGS_DIR": home / "settings",
        "JUPYTERLAB_WORKSPACES_DIR": home / "workspaces",
        "IPYTHONDIR": home / "ipython",
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    kernels = home / "kernels"
    register_kernel(kernels)
    environment = {name: str(folder) for name, folder in folders.items()}
    return {
        **os.environ,
        **environment,
        "JUPYTER_PATH": str(kernels / "share" / "jupyter"),
        "JUPYTER_TOKEN": token,
    }


def write_settings(home: Path, settings: Mapping[str, Mapping[str, object]]) -> None:
    """JupyterLab user settings, e.g. ``{"@jupyterlab/notebook-extension:tracker": {...}}``."""
    for plugin, values in settings.items():
        package, _, name = plugin.partition(":")
        path = home / "settings" / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


def start_lab(
    root: Path,
    home: Path,
    *,
    settings: Mapping[str, Mapping[str, object]] | None = None,
    timeout: float = START_TIMEOUT,
) -> LabServer:
    """Start JupyterLab serving ``root`` on a free port, its state under ``home``; wait for it."""
    token = secrets.token_hex(24)
    environment = isolated_environment(home, token)
    write_settings(home, settings or {})
    log = home / "lab.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [
                *lab_arguments(root, port=0, open_browser=False, expose_app=True),
                "--ServerApp.port_retries=0",
            ],
            cwd=home,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, so stop() reaches what it started
        )
    try:
        url = wait_until_ready(process, home / "runtime", token, log, timeout)
    except BaseException:
        LabServer(process, "", token, log).stop()
        raise
    return LabServer(process, url, token, log)


def wait_until_ready(
    process: subprocess.Popen[bytes], runtime: Path, token: str, log: Path, timeout: float
) -> str:
    """The server's base URL once its API answers; a one-line LabError if it exits or is slow."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LabError(f"JupyterLab exited with {process.returncode}: {last_line(log)}")
        for info in runtime.glob(f"jpserver-{process.pid}.json"):
            with suppress(ValueError, OSError):
                url = str(json.loads(info.read_text())["url"])
                if answers(f"{url}api/status", token):
                    return url
        time.sleep(0.2)
    raise LabError(f"JupyterLab did not answer within {timeout:.0f} s: {last_line(log)}")


def answers(url: str, token: str) -> bool:
    """Whether the server answers an authenticated request."""
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status) == 200
    except (URLError, OSError):
        return False


def last_line(log: Path) -> str:
    lines = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
    return lines[-1] if lines else "(no output)"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
