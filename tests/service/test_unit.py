"""The unit file, checked by systemd's own tools, and the udev rule.

`systemd-analyze verify` only *warns* about a bad key and still exits 0, so a clean unit is one
that makes it print nothing at all.  Verify also checks that ExecStart='s program exists and
/opt/pipgammon/venv is not there on a build machine, so the unit is verified as a copy in a
temporary folder whose ExecStart= points at this interpreter's `pipgammon` script (or the
interpreter itself): the only line changed.  `--root=` does not help: it then looks for the unit
itself under the root.  The copy keeps the name pipgammon.service, because verify derives the
unit's name (and its checks) from the file name.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).parents[2] / "systemd"
UNIT = SYSTEMD / "pipgammon.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze is missing (apt-get install systemd; .ci/run installs it)")
EXEC_START = "ExecStart=/opt/pipgammon/venv/bin/pipgammon run --config /etc/pipgammon/config.toml"


def unit_copy(folder: Path, text: str | None = None) -> Path:
    text = UNIT.read_text() if text is None else text
    assert EXEC_START in text
    program = Path(sys.executable).parent / "pipgammon"
    if not program.exists():
        program = Path(sys.executable)
    copy = folder / "pipgammon.service"
    copy.write_text(text.replace(EXEC_START, f"ExecStart={program} run --config /etc/pipgammon/config.toml"))
    return copy


def verify(unit: Path) -> str:
    assert ANALYZE is not None
    done = subprocess.run([ANALYZE, "verify", "--man=no", str(unit)], capture_output=True, text=True,
                          timeout=60, cwd=unit.parent)
    return (done.stdout + done.stderr).strip()


@needs_analyze
def test_verify_prints_nothing_for_the_unit(tmp_path: Path) -> None:
    assert verify(unit_copy(tmp_path)) == ""


@needs_analyze
@pytest.mark.parametrize(("change", "expected"), [
    (("ProtectSystem=strict", "ProtectSytem=strict"), "Unknown key 'ProtectSytem'"),
    (("ProtectSystem=strict", "ProtectSystem=strcit"), "strcit"),
    (("RestrictRealtime=yes", "RestrictRealtime=maybe"), "maybe"),
])
def test_verify_is_noisy_for_a_bad_key_or_value(
        tmp_path: Path, change: tuple[str, str], expected: str) -> None:
    """The other half of the check: the same invocation does print something for a broken unit."""
    old, new = change
    output = verify(unit_copy(tmp_path, UNIT.read_text().replace(old, new)))
    assert expected in output


def exposure(unit: Path) -> float:
    assert ANALYZE is not None
    done = subprocess.run([ANALYZE, "security", "--offline=yes", str(unit)], capture_output=True, text=True,
                          timeout=60)
    found = re.search(r"Overall exposure level for pipgammon\.service: (\d+\.\d)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


@needs_analyze
def test_security_exposure_is_at_most_1_9(tmp_path: Path) -> None:
    score = exposure(UNIT)
    assert score <= 1.9
    # The score is read from the right place: taking the hardening away raises it past the bar.
    kept = {"[Unit]", "Description", "[Service]", "Type", "ExecStart", "User", "[Install]", "WantedBy"}
    bare = "\n".join(line for line in UNIT.read_text().splitlines() if line.split("=")[0] in kept)
    assert exposure(unit_copy(tmp_path, bare + "\n")) > 5


def test_the_unit_keeps_the_devices_the_referee_needs() -> None:
    lines = UNIT.read_text().splitlines()
    keys = {line.split("=", 1)[0] for line in lines if "=" in line and not line.startswith("#")}
    assert "PrivateDevices" not in keys  # it would hide /dev/gpiochip*, /dev/video*, /dev/ttyACM*
    assert "DevicePolicy=closed" in lines
    for device in ("gpiochip", "video4linux", "ttyACM", "spi"):
        assert f"DeviceAllow=char-{device} rw" in lines
    assert "SupplementaryGroups=gpio video dialout spi" in lines
    assert {"Type=notify", "NotifyAccess=main", "Restart=on-failure", "StateDirectory=pipgammon",
            "ProtectSystem=strict", "User=pipgammon"} <= set(lines)
    assert any(line.startswith("WatchdogSec=") for line in lines)


def test_the_udev_rule_names_the_pico() -> None:
    rule = [line for line in (SYSTEMD / "99-pipgammon-rp2040.rules").read_text().splitlines()
            if line and not line.startswith("#")]
    assert len(rule) == 1
    fields = dict(re.findall(r'([A-Z_]+(?:\{[A-Za-z_]+\})?)[!=+]=?"([^"]*)"', rule[0]))
    assert fields["ATTRS{idVendor}"] == "2e8a" and fields["ATTRS{idProduct}"] == "0005"
    assert fields["SUBSYSTEM"] == "tty" and fields["GROUP"] == "dialout"
    assert fields["SYMLINK"] == "pipgammon-bridge"


MDWE_PROBE = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
# PR_SET_MDWE = 65, PR_MDWE_REFUSE_EXEC_GAIN = 1: no mapping may become writable and executable.
if libc.prctl(65, 1, 0, 0, 0) != 0:
    sys.exit(77)
import mmap
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
except OSError:
    pass
else:
    sys.exit("W+X memory was still granted: the restriction is not in force")
import numpy as np, cv2
from vision.dice import CROP, find_dice, read_crops
image = np.full((480, 640, 3), 90, np.uint8)
cv2.circle(image, (320, 240), 30, (240, 240, 240), -1)
find_dice(image)  # the detector network on a whole frame
assert read_crops(np.full((2, CROP, CROP, 3), 200, np.uint8)).shape[0] == 2  # the reader network
print("ok")
"""


def test_numpy_opencv_and_the_dice_network_run_without_write_execute_memory() -> None:
    """MemoryDenyWriteExecute=yes, tried with the kernel's own W^X switch (PR_SET_MDWE, Linux 6.3+),
    which refuses what systemd's seccomp filter refuses: memory both writable and executable, and
    making memory executable later.  A JIT anywhere in the frame path would fail here."""
    done = subprocess.run([sys.executable, "-c", MDWE_PROBE], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parents[2])
    if done.returncode == 77:
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3+)")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
