"""Release environments: ready by their marker, installed by the uv passed in, isolated from the
caller's Python and from any provider.

uv is an argument of ``install``; the fakes here are small scripts in a temporary folder. A bare
interpreter (a venv that sees the project's dependencies but not the project) shows what a
release's interpreter sees.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.errors import InvestigationError
from approval_compaction.lab.releases import environments
from approval_compaction.lab.releases.environments import (
    Environment,
    SweepError,
    default_envs,
    install,
    isolated_environ,
    last_line,
    run,
)
from approval_compaction.lab.releases.versions import PACKAGE

CUTOFF = "2025-01-02T03:04:05Z"


def env_in(folder: Path, version: str = "0.23.1") -> Environment:
    return Environment(folder / version, version, CUTOFF)


def mark_installed(env: Environment, text: str | None = None) -> None:
    env.folder.mkdir(parents=True, exist_ok=True)
    marker = json.dumps(env.spec(), sort_keys=True) + "\n"
    env.marker.write_text(marker if text is None else text)


# --- Environment -----------------------------------------------------------------------------


def test_environments_paths_and_spec(tmp_path: Path) -> None:
    env = env_in(tmp_path)
    assert env.python == tmp_path / "0.23.1" / "bin" / "python"
    assert env.marker.parent == env.folder
    assert env.spec() == {PACKAGE: "0.23.1", "exclude_newer": CUTOFF}


def test_environments_ready_when_the_marker_records_this_install(tmp_path: Path) -> None:
    env = env_in(tmp_path)
    mark_installed(env)
    assert env.ready()


@pytest.mark.parametrize(
    "marker",
    [
        None,
        "",
        '{"openai-agents": "0.23.1"',
        json.dumps({PACKAGE: "0.23.0", "exclude_newer": CUTOFF}),
        json.dumps({PACKAGE: "0.23.1", "exclude_newer": "2026-01-01T00:00:00Z"}),
        "[]",
    ],
    ids=["no-marker", "empty", "truncated", "other-release", "other-cutoff", "not-an-object"],
)
def test_environments_not_ready_unless_the_marker_matches(
    tmp_path: Path, marker: str | None
) -> None:
    env = env_in(tmp_path)
    if marker is not None:
        mark_installed(env, marker)
    assert not env.ready()


def test_environments_marker_that_is_a_folder_is_not_ready(tmp_path: Path) -> None:
    env = env_in(tmp_path)
    env.marker.mkdir(parents=True)
    assert not env.ready()


# --- install, with a fake uv -----------------------------------------------------------------


def fake_uv(folder: Path, body: str) -> str:
    """A uv stand-in: a shell script that logs its arguments, then runs ``body``."""
    script = folder / "uv"
    log = folder / "uv.log"
    script.write_text(f'#!/bin/sh\necho "$@" >> {log}\n{body}\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def calls(folder: Path) -> list[str]:
    log = folder / "uv.log"
    return log.read_text().splitlines() if log.exists() else []


def test_install_of_a_ready_environment_runs_nothing(tmp_path: Path) -> None:
    env = env_in(tmp_path / "envs")
    mark_installed(env)
    assert install(env, fake_uv(tmp_path, "exit 1")) is None
    assert calls(tmp_path) == []


def test_install_writes_the_marker_once_uv_succeeds(tmp_path: Path) -> None:
    env = env_in(tmp_path / "envs")
    assert install(env, fake_uv(tmp_path, "exit 0")) is None
    assert env.ready()
    venv, pip = calls(tmp_path)
    assert venv.startswith("venv --quiet --python ") and venv.endswith(str(env.folder))
    assert pip == (
        f"pip install --quiet --python {env.python} --exclude-newer {CUTOFF} {PACKAGE}==0.23.1"
    )


def test_install_replaces_a_stale_environment(tmp_path: Path) -> None:
    env = env_in(tmp_path / "envs")
    mark_installed(env, "stale")
    (env.folder / "leftover").write_text("x")
    assert install(env, fake_uv(tmp_path, "exit 0")) is None
    assert not (env.folder / "leftover").exists() and env.ready()


def test_install_tries_uv_cache_offline_when_the_index_fails(tmp_path: Path) -> None:
    body = 'case "$*" in *--offline*) exit 0;; pip*) echo "error: index down" >&2; exit 2;; esac'
    env = env_in(tmp_path / "envs")
    assert install(env, fake_uv(tmp_path, body)) is None
    assert calls(tmp_path)[-1].endswith(f"{PACKAGE}==0.23.1 --offline")
    assert env.ready()


def test_install_failure_is_uv_error_and_cause_in_one_line(tmp_path: Path) -> None:
    body = """case "$1" in pip)
  echo "  × No solution found when resolving dependencies:" >&2
  echo "  ╰─▶ Because there is no version of openai-agents==9.9.9" >&2
  echo "noise" >&2
  exit 1;;
esac"""
    env = env_in(tmp_path / "envs", "9.9.9")
    error = install(env, fake_uv(tmp_path, body))
    assert error == (
        "install failed: × No solution found when resolving dependencies:; "
        "╰─▶ Because there is no version of openai-agents==9.9.9"
    )
    assert not env.ready()


def test_install_venv_failure_names_its_last_line(tmp_path: Path) -> None:
    body = 'echo "first" >&2; echo "  no interpreter found  " >&2; exit 1'
    error = install(env_in(tmp_path / "envs"), fake_uv(tmp_path, body))
    assert error == "uv venv failed: no interpreter found"
    assert len(calls(tmp_path)) == 1


# --- small helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", "no output"), ("\n  \n", "no output"), ("a\n  b  \n\n", "b"), ("x" * 400, "x" * 300)],
    ids=["empty", "blank", "last-non-blank", "cut-at-300"],
)
def test_last_line_is_the_last_non_blank_line(text: str, expected: str) -> None:
    assert last_line(text) == expected


def test_run_captures_output_and_does_not_raise_on_failure() -> None:
    proc = run([sys.executable, "-c", "import sys; print('out'); sys.exit(3)"], 60)
    assert (proc.returncode, proc.stdout) == (3, "out\n")


def test_default_envs_live_in_the_user_cache_per_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = f"py{sys.version_info.major}.{sys.version_info.minor}"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_envs() == tmp_path / "approval-compaction" / python
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_envs() == Path.home() / ".cache" / "approval-compaction" / python


# --- what a release's interpreter sees -------------------------------------------------------


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv that sees the project's dependencies (through a .pth) but not the project, with no
    uv beside its interpreter: like a release's environment."""
    folder = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120
    )
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    Path(site, "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    assert not (folder / "bin" / "uv").exists()
    return python


def in_bare(python: Path, code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, env=env, timeout=120
    )


def test_isolated_environ_drops_python_variables_and_the_api_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "PYTHONHOME": "/elsewhere",
        "PYTHONSTARTUP": "/tmp/startup.py",
        "PYTHONPATH": "/tmp/shadow",
        "VIRTUAL_ENV": "/work/.venv",
        "OPENAI_API_KEY": "sk-not-a-real-key",
        "KEEP_ME": "1",
    }.items():
        monkeypatch.setenv(name, value)
    env = isolated_environ()
    assert sorted(k for k in env if k.startswith("PYTHON")) == [
        "PYTHONHASHSEED",
        "PYTHONNOUSERSITE",
        "PYTHONPATH",
    ]
    assert env["PYTHONPATH"] == str(paths.SOURCE) and env["PYTHONNOUSERSITE"] == "1"
    assert "OPENAI_API_KEY" not in env and "VIRTUAL_ENV" not in env
    assert env["OPENAI_BASE_URL"] == "http://127.0.0.1:9/blocked"
    assert env["KEEP_ME"] == "1" and env["PATH"] == os.environ["PATH"]
    assert "PYTHONPATH" not in isolated_environ(with_package=False)
    tools = Path("/tmp/tools")
    assert isolated_environ(tools=tools)["PYTHONPATH"] == os.pathsep.join(
        [str(tools), str(paths.SOURCE)]
    )


def test_isolated_environ_prints_a_set_in_the_same_order_every_run() -> None:
    """The crosscheck's messages (pytest's "Differing items" of a dict) were not byte-stable:
    a set of strings iterates in an order that depends on the hash seed."""
    code = "print(list({f'key-{n}' for n in range(40)}))"

    def printed(env: dict[str, str]) -> str:
        return in_bare(Path(sys.executable), code, env).stdout

    assert printed(isolated_environ()) == printed(isolated_environ())
    seeded = {**isolated_environ(), "PYTHONHASHSEED": "random"}
    assert len({printed(seeded) for _ in range(3)}) > 1  # without the seed it varies


def test_isolated_environ_lets_a_release_interpreter_import_the_package(
    bare_python: Path,
) -> None:
    code = "import approval_compaction, os; print(approval_compaction.__file__)"
    found = in_bare(bare_python, code, isolated_environ())
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).parent == paths.PACKAGE
    without = in_bare(bare_python, code, isolated_environ(with_package=False))
    assert "No module named 'approval_compaction'" in without.stderr


def test_uv_binary_missing_is_a_one_line_investigation_error(bare_python: Path) -> None:
    """With no uv beside the interpreter and none on PATH, the error tells what to run."""
    code = (
        "from approval_compaction.lab.releases.environments import uv_binary, SweepError\n"
        "from approval_compaction.errors import InvestigationError\n"
        "try:\n    uv_binary()\n"
        "except InvestigationError as error:\n"
        "    print(type(error).__name__, isinstance(error, SweepError), error, sep='|')\n"
    )
    env = {**isolated_environ(), "PATH": str(bare_python.parent)}
    proc = in_bare(bare_python, code, env)
    assert proc.stdout == (
        "SweepError|True|uv not found: run `make setup` (it installs uv into .venv)\n"
    ), proc.stderr
    assert issubclass(SweepError, InvestigationError)


def test_environments_newest_release_is_the_last_in_release_order(tmp_path: Path) -> None:
    dates = tmp_path / "release-dates.json"
    dates.write_text('{"0.10.0": "2025-01-02T00:00:00Z", "0.9.3": "2025-01-01T00:00:00Z"}')
    assert environments.newest_release(dates) == "0.10.0"
    with pytest.raises(environments.SweepError, match="no release list in"):
        environments.newest_release(tmp_path / "missing.json")


def test_environments_release_environment_of_an_unknown_release_is_one_line(
    tmp_path: Path,
) -> None:
    with pytest.raises(environments.SweepError, match=r"^9\.9\.9 is not in release-dates\.json$"):
        environments.release_environment("9.9.9", tmp_path)
    assert not any(tmp_path.iterdir())  # nothing was made


def test_environments_cached_environment_never_installs_and_tells_whether_it_is_ready(
    tmp_path: Path,
) -> None:
    """A test's guard asks this: a missing environment is not ready, and nothing is made."""
    env = environments.cached_environment("0.23.1", tmp_path)
    assert env.folder == tmp_path / "0.23.1" and not env.ready()
    assert not any(tmp_path.iterdir())
    environments.record(env.marker, env.spec())
    assert environments.cached_environment("0.23.1", tmp_path).ready()


def test_environments_release_environment_missing_names_the_command_that_makes_it(
    tmp_path: Path,
) -> None:
    with pytest.raises(environments.SweepError) as raised:
        environments.release_environment("0.23.1", tmp_path, create=False)
    assert str(raised.value).endswith("run `python -m approval_compaction envs 0.23.1` first")


def test_cli_envs_of_an_unknown_release_is_one_line_and_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from approval_compaction.cli import main

    assert main(["envs", "9.9.9", "--envs", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == "error: 9.9.9 is not in release-dates.json\n"
    assert not any(tmp_path.iterdir())


def test_cli_envs_reports_a_ready_environment_as_cached_without_installing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from approval_compaction.cli import main

    env = environments.cached_environment("0.23.1", tmp_path)
    env.folder.mkdir()
    environments.record(env.marker, env.spec())
    assert main(["envs", "0.23.1", "--envs", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"openai-agents 0.23.1: {env.folder} (cached)\n"


def _this_interpreter() -> Environment:
    """This project's own environment, standing in for a release's."""
    return Environment(Path(sys.prefix), "0.23.1", CUTOFF)


@pytest.mark.subprocess
def test_environments_run_module_returns_the_json_the_module_wrote() -> None:
    """The sweep's probe and the mechanism's probe both read their release's answer this way."""
    case = "runner=run,decision=approve,compaction=off,state_boundary=memory"
    probe = "approval_compaction.lab.releases.probe"
    written = environments.run_module(
        _this_interpreter().python, probe, "--case", case, "--modes", "input", timeout=300
    )
    assert written["openai-agents"] == "0.23.1"
    asked = dict(part.split("=") for part in case.split(","))
    assert [r["case"] for r in written["runs"]] == [asked, asked], "the case, once per model"


def test_environments_run_module_failure_is_one_line() -> None:
    with pytest.raises(environments.ProbeError, match=r"^probe failed: .*no_such_module") as raised:
        environments.run_module(_this_interpreter().python, "no_such_module", timeout=60)
    assert "\n" not in str(raised.value)


def test_environments_run_module_timeout_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "sleeper.py").write_text("import time\ntime.sleep(30)\n")
    with pytest.raises(environments.ProbeError, match=r"^the search timed out after 0\.5 s$"):
        environments.run_module(
            sys.executable, "sleeper", timeout=0.5, tools=tmp_path, label="the search"
        )


# --- pytest, its JUnit report and the tools folder --------------------------------------------

JUNIT = """<testsuites><testsuite>
<testcase classname="tests.memory.test_a" name="test_x[p]">
  <failure message="assert 1 ==&#10;  2">trace</failure></testcase>
<testcase classname="tests.test_b" name="test_y"><error message="fixture" /></testcase>
<testcase classname="tests.test_b" name="test_z"><skipped message="later" /></testcase>
<testcase classname="tests.test_b" name="test_w" />
</testsuite></testsuites>"""


def test_junit_cases_read_each_outcome_and_its_message_on_one_line() -> None:
    assert environments.junit_cases(JUNIT) == [
        environments.JUnitCase("tests.memory.test_a", "test_x[p]", "failed", "assert 1 == 2"),
        environments.JUnitCase("tests.test_b", "test_y", "error", "fixture"),
        environments.JUnitCase("tests.test_b", "test_z", "skipped", "later"),
        environments.JUnitCase("tests.test_b", "test_w", "passed", ""),
    ]


def test_run_pytest_runs_a_test_file_and_reads_its_report(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text(
        "def test_pass():\n    pass\n\ndef test_fail():\n    assert 1 == 2\n"
    )
    cases = environments.run_pytest(
        sys.executable,
        ["test_one.py"],
        cwd=tmp_path,
        env=dict(os.environ),
        timeout=120,
        report=tmp_path / "junit.xml",
    )
    assert [(c.name, c.outcome) for c in cases] == [
        ("test_pass", "passed"),
        ("test_fail", "failed"),
    ]
    assert not (tmp_path / ".pytest_cache").exists()


def test_run_pytest_without_a_report_is_one_line(tmp_path: Path) -> None:
    def silent(command: list[str], timeout: float, **_: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 4, "", "ERROR: file not found")

    with pytest.raises(environments.ProbeError, match=r"^9\.9\.9: pytest wrote no report: ERROR"):
        environments.run_pytest(
            "python",
            ["x.py"],
            cwd=tmp_path,
            env={},
            timeout=1,
            report=tmp_path / "r.xml",
            label="9.9.9: pytest",
            runner=silent,
        )


def test_install_tools_installs_the_pins_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uv = fake_uv(tmp_path, 'mkdir -p "$5"')  # pip install --quiet --target FOLDER PIN
    monkeypatch.setattr(environments, "uv_binary", lambda: uv)
    folder = tmp_path / "tools"
    assert environments.install_tools(folder, ("pytest",)) == folder
    assert environments.install_tools(folder, ("pytest",)) == folder
    pin = environments.pins(["pytest"])[0]
    assert pin.startswith("pytest==") and calls(tmp_path) == [
        f"pip install --quiet --target {folder} {pin}"
    ]


def test_install_tools_failure_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    uv = fake_uv(tmp_path, 'echo "error: no network" >&2; exit 2')
    monkeypatch.setattr(environments, "uv_binary", lambda: uv)
    with pytest.raises(environments.ProbeError, match=r"^installing pytest==\S+ failed: error: no"):
        environments.install_tools(tmp_path / "tools", ("pytest",))
    assert not (tmp_path / "tools" / environments.TOOLS_MARKER).exists()


@pytest.mark.parametrize(
    "spec", [{"a": 1, "b": [2]}, ["pytest==1", "hypothesis==2"]], ids=["object", "list"]
)
def test_recorded_reads_back_what_record_wrote(tmp_path: Path, spec: object) -> None:
    marker = tmp_path / "made" / "marker.json"
    assert not environments.recorded(marker, spec)  # nothing made yet
    marker.parent.mkdir()
    environments.record(marker, spec)
    assert environments.recorded(marker, spec)
    assert not environments.recorded(marker, {"other": True})
    marker.write_text("{trunc")
    assert not environments.recorded(marker, spec)


def test_fetch_sdist_downloads_once_and_says_why_it_got_none(tmp_path: Path) -> None:
    commands: list[list[str]] = []

    def pip(command: list[str], timeout: float, *, cwd: Path) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        if "9.9.9" in command[-1]:
            (cwd / "openai_agents-9.9.9.tar.gz").write_bytes(b"sdist")
            return subprocess.CompletedProcess(command, 0, "", "")
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution\n")

    folder = tmp_path / "sdists"
    archive = environments.fetch_sdist("9.9.9", folder, pip)
    assert (
        archive == environments.sdist_archive("9.9.9", folder) and archive.read_bytes() == b"sdist"
    )
    assert environments.fetch_sdist("9.9.9", folder, pip) == archive and len(commands) == 1
    assert commands[0][1:4] == ["-m", "pip", "download"] and commands[0][-1] == f"{PACKAGE}==9.9.9"
    with pytest.raises(environments.SdistError, match=r"^openai-agents==8\.8\.8: no sdist: ERROR"):
        environments.fetch_sdist("8.8.8", folder, pip)


def test_relayed_hands_on_each_stderr_line_as_it_comes_and_keeps_them() -> None:
    code = "import sys; print('a', file=sys.stderr); print('out'); print('b', file=sys.stderr)"
    seen: list[str] = []
    proc = environments.relayed([sys.executable, "-c", code], 30, seen.append)
    assert (proc.returncode, seen, proc.stderr) == (0, ["a", "b"], "a\nb\n")


def test_relayed_command_that_overruns_its_timeout_is_killed() -> None:
    code = "import time; time.sleep(30)"
    with pytest.raises(subprocess.TimeoutExpired):
        environments.relayed([sys.executable, "-c", code], 0.5, lambda line: None)
