"""install.sh, run for real into a staging root (DESTDIR) twice: the second run changes nothing.

The staged venv installs a wheel of this checkout with no dependencies from no index (PIP_NO_INDEX,
PIP_NO_DEPS): pip itself is what is under test only as far as the script calls it.  Building the
wheel needs setuptools from PyPI (build isolation), as `make test`'s own install does.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).parents[2]
INSTALL = CHECKOUT / "systemd" / "install.sh"
pytestmark = pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                                reason="systemd is missing (apt-get install systemd; .ci/run installs it)")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(folder),
                           str(CHECKOUT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (built,) = folder.glob("pipgammon-*.whl")
    return built


def install(stage: Path, wheel: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DESTDIR=str(stage), PIP_NO_INDEX="1", PIP_NO_DEPS="1",
               PYTHON=shutil.which("python3") or sys.executable)
    return subprocess.run(["bash", str(INSTALL), "--source", str(wheel), *options], capture_output=True,
                          text=True, timeout=300, env=env)


def snapshot(stage: Path) -> dict[str, str]:
    """Every file outside the venv (whose .pyc files pip may rewrite) with its content hash."""
    files = {}
    for path in sorted(stage.rglob("*")):
        relative = path.relative_to(stage).as_posix()
        if relative.startswith("opt/pipgammon/venv") or relative == "etc/.pwd.lock":
            continue
        if path.is_symlink():
            files[relative] = "-> " + os.readlink(path)
        elif path.is_file():
            files[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def test_install_into_a_staging_root_twice(tmp_path: Path, wheel: Path) -> None:
    stage = tmp_path / "stage"
    first = install(stage, wheel)
    assert first.returncode == 0, first.stdout + first.stderr
    etc = stage / "etc"
    unit = (CHECKOUT / "systemd/pipgammon.service").read_text()
    assert (etc / "systemd/system/pipgammon.service").read_text() == unit
    assert (etc / "udev/rules.d/99-pipgammon-rp2040.rules").exists()
    assert os.readlink(etc / "systemd/system/multi-user.target.wants/pipgammon.service") == \
        "/etc/systemd/system/pipgammon.service"
    passwd = (etc / "passwd").read_text().splitlines()
    assert [line.split(":")[0] for line in passwd] == ["pipgammon"]
    assert passwd[0].endswith(":/var/lib/pipgammon:/usr/sbin/nologin")
    assert {"gpio", "spi", "video", "dialout", "pipgammon"} <= {
        line.split(":")[0] for line in (etc / "group").read_text().splitlines()}
    config = etc / "pipgammon/config.toml"
    assert config.read_text() == (CHECKOUT / "systemd/config.example.toml").read_text()
    assert config.stat().st_mode & 0o777 == 0o640
    venv = stage / "opt/pipgammon/venv"
    assert (venv / "bin/pipgammon").exists()
    # The installed package reads the installed config (no numpy needed for that).
    probe = "import sys, pipgammon.config as c; print(c.__file__); c.load_config(sys.argv[1])"
    check = subprocess.run([str(venv / "bin/python"), "-c", probe, str(config)],
                           capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith(str(venv))

    config.write_text(config.read_text().replace("match-to = 5", "match-to = 7"))  # the user's edit
    before = snapshot(stage)
    second = install(stage, wheel)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "keeping the existing" in second.stdout
    assert snapshot(stage) == before
    assert "match-to = 7" in config.read_text()


def test_dry_run_changes_nothing(tmp_path: Path, wheel: Path) -> None:
    stage = tmp_path / "stage"
    done = install(stage, wheel, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert not stage.exists()
    commands = [line for line in done.stdout.splitlines() if line.startswith("+ ")]
    assert any("systemd-sysusers --root=" in line for line in commands)
    assert any(" -m venv --system-site-packages " in line for line in commands)
    assert any(line.endswith("enable pipgammon.service") for line in commands)
    # The venv's bin is on no one's PATH, so the closing advice names the command in full.
    assert f"check it with: {stage}/opt/pipgammon/venv/bin/pipgammon config check {stage}/etc/" in done.stdout


def test_bad_options_are_refused(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "unknown option --frobnicate" in done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (optional)")
def test_shellcheck_is_clean() -> None:
    done = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout
