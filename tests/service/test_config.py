"""The service config: every section's bad values are named by key, value and what was expected."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.game import OpeningRule
from hardware.pins import Backend
from pipgammon.cli import main
from pipgammon.config import (
    DEFAULTS,
    ConfigError,
    LightsBackend,
    Mode,
    Opening,
    SourceKind,
    load_config,
    parse_config,
)

EXAMPLE = Path(__file__).parents[2] / "systemd" / "config.example.toml"


def error(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="test.toml")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("test.toml: ")
    return message


def test_the_example_file_loads_with_what_it_says() -> None:
    config = load_config(EXAMPLE)
    assert config.source == str(EXAMPLE)
    assert config.camera.kind is SourceKind.PICAMERA2
    assert config.game.match_to == 5 and config.game.opening is Opening.AUTO
    assert config.lights.backend is LightsBackend.SHIFT_REGISTER
    assert config.lights.pins is not None and config.lights.pins.backend is Backend.SHIFT_REGISTER
    assert config.lights.pins.output_enable == 12 and dict(config.lights.pins.buttons)["mode"] == 16
    assert config.web.host == "127.0.0.1" and config.web.token is None
    assert config.storage.journal_dir == Path("/var/lib/pipgammon")


def test_an_empty_file_gives_the_documented_defaults() -> None:
    config = parse_config("")
    assert config.camera == DEFAULTS.camera and config.camera.source == "picamera2"
    assert config.camera.size == (2028, 1520) and config.camera.fps == 10
    assert config.calibration.path == Path("/var/lib/pipgammon/calibration.json")
    assert (config.game.variant, config.game.match_to, config.game.mode, config.game.jacoby) == (
        "standard", 1, Mode.PLAY, False)
    assert config.lights.backend is LightsBackend.NONE and config.lights.pins is None
    assert (config.bridge.port, config.bridge.vid, config.bridge.pid) == ("auto", 0x2E8A, 0x0005)
    assert (config.web.host, config.web.port, config.web.token) == ("127.0.0.1", 8080, None)
    assert config.storage.export_dir == Path("/var/lib/pipgammon/exports")


def test_camera_sources() -> None:
    usb = parse_config('[camera]\nsource = "usb:2"\nsize = [640, 480]\nfps = 7.5\n').camera
    assert (usb.kind, usb.device, usb.source) == (SourceKind.USB, 2, "usb:2")
    assert (usb.size, usb.fps) == ((640, 480), 7.5)
    folder = parse_config('[camera]\nsource = "folder:frames"\n', base=Path("/srv/game")).camera
    assert folder.kind is SourceKind.FOLDER and folder.path == Path("/srv/game/frames")
    video = parse_config('[camera]\nsource = "video:/data/a.mp4"\n', base=Path("/srv")).camera
    assert video.path == Path("/data/a.mp4") and video.source == "video:/data/a.mp4"


@pytest.mark.parametrize(("text", "key", "shown"), [
    ('[camera]\nsource = "webcam"', "camera.source", '"webcam"'),
    ('[camera]\nsource = "usb:first"', "camera.source", '"usb:first"'),
    ('[camera]\nsource = "usb:99999999999999999999999999999"', "camera.source", "N from 0 to 255"),
    ('[camera]\nsource = "usb:256"', "camera.source", 'N from 0 to 255 (/dev/videoN), got "usb:256"'),
    (f'[camera]\nsource = "usb:{"9" * 5000}"', "camera.source", "N from 0 to 255"),
    ('[camera]\nsource = "folder:"', "camera.source", "folder:PATH"),
    ('[camera]\nsource = "picamera2:1"', "camera.source", '"picamera2:1"'),
    ('[camera]\nsource = 3', "camera.source", "got 3"),
    ('[camera]\nsize = [1280]', "camera.size", "[1280]"),
    ('[camera]\nsize = [1280, 20]', "camera.size", "[1280, 20]"),
    ('[camera]\nsize = "1280x960"', "camera.size", '"1280x960"'),
    ('[camera]\nfps = 0', "camera.fps", "got 0"),
    ('[camera]\nfps = nan', "camera.fps", "nan"),
    ('[camera]\nfps = true', "camera.fps", "true"),
    ('[calibration]\npath = ""', "calibration.path", '""'),
    ('[game]\nvariant = "gioull"', "game.variant", "did you mean gioul?"),
    ('[game]\nvariant = 1', "game.variant", "got 1"),
    ('[game]\nmatch-to = -1', "game.match-to", "from 0 to 64, got -1"),
    ('[game]\nmatch-to = 65', "game.match-to", "got 65"),
    ('[game]\nmatch-to = 5.0', "game.match-to", "got 5.0"),
    ('[game]\nopening = "dice"', "game.opening", "'auto', 'one-die-each', 'starter-rolls'"),
    ('[game]\nmode = "Teach"', "game.mode", '"Teach"'),
    ('[game]\njacoby = "yes"', "game.jacoby", "true or false"),
    ('[game]\njacoby = true\nmatch-to = 3', "game.jacoby", "money play only"),
    ('[lights]\nbackend = "neopixel"', "lights.backend", "'none', 'gpio', '595', 'sim', 'bridge'"),
    ('[lights]\nbackend = "gpio"', "hardware.lamps", "needs each lamp's pin"),
    ('[lights]\nbackend = "gpio"\n[hardware]\nbackend = "595"', "hardware.backend", "disagrees"),
    ('[lights]\nbackend = "bridge"\n[hardware.lamps]\nbar = 4', "hardware.lamps", "no lamps on GPIO"),
    ('[lights]\nbackend = "595"\n[hardware]\nbuses = ["i2c"]', "hardware.buses", "'spi' must be"),
    ('[hardware.buttons]\nmode = 40', "hardware.buttons.mode", "GPIO 40 is not on the header"),
    ('[hardware]\nbuzzer = 13', "hardware.buzzer", "expected a table"),
    ('hardware = 1', "hardware", "expected a table [hardware]"),
    ('[bridge]\nport = ""', "bridge.port", '""'),
    ('[bridge]\nusb-id = "2e8a0005"', "bridge.usb-id", '"2e8a0005"'),
    ('[bridge]\nusb-id = "zz8a:0005"', "bridge.usb-id", '"zz8a:0005"'),
    # int(x, 16) takes a sign, a 0x and underscores; lsusb prints none of them.
    ('[bridge]\nusb-id = "-001:0005"', "bridge.usb-id", '"-001:0005"'),
    ('[bridge]\nusb-id = "0x12:0005"', "bridge.usb-id", '"0x12:0005"'),
    ('[bridge]\nusb-id = "1_23:+005"', "bridge.usb-id", '"1_23:+005"'),
    ('[bridge]\nusb-id = " 2e8:0005"', "bridge.usb-id", '" 2e8:0005"'),
    ('[web]\nhost = "pi.local"', "web.host", '"pi.local"'),
    ('[web]\nport = 70000', "web.port", "from 1 to 65535, got 70000"),
    ('[web]\nhost = "0.0.0.0"', "web.token", "required when web.host"),
    ('[web]\nhost = "192.168.1.5"\ntoken = "short"', "web.token", "at least 16"),
    ('[web]\ntoken = 1234567890123456', "web.token", "got 1234567890123456"),
    ('[web]\ntoken = "01234567\\u000089abcdef"', "web.token",
     "got a string with an unprintable character (character 9, '\\x00')"),
    ('[web]\ntoken = "0123456789abcdef\\t"', "web.token", "(character 17, '\\t')"),
    ('[storage]\njournal-dir = 5', "storage.journal-dir", "a folder's path, got 5"),
    ('[storage]\nexport-dir = ["a"]', "storage.export-dir", "['a']"),
    ('camera = "usb:0"', "camera", "expected a table [camera]"),
])
def test_every_bad_value_names_its_key_the_value_and_what_was_expected(
        text: str, key: str, shown: str) -> None:
    message = error(text)
    assert message.startswith(f"test.toml: {key}: "), message
    assert shown in message, message


def test_a_pin_used_twice_names_both_keys() -> None:
    message = error("[hardware.buttons]\nend-turn = 5\nmode = 5\n")
    assert message == "test.toml: hardware.buttons.end-turn and hardware.buttons.mode both use GPIO 5"


@pytest.mark.parametrize(("text", "key", "suggestion"), [
    ("[game]\nmatch_to = 3", "game.match_to", "did you mean match-to?"),
    ("[camera]\nresolution = [640, 480]", "camera.resolution",
     "unknown key (known keys: source, size, fps, loop, hands)"),
    ("[small-build]\nbackend = 'gpio'", "small-build", "unknown section (known sections: camera, "),
    ("[web]\nhots = '::1'", "web.hots", "did you mean host?"),
    ("[storage]\njournal = '/srv'", "storage.journal", "did you mean journal-dir?"),
    ("[gmae]\nvariant = 'standard'", "gmae", "unknown section; did you mean game?"),
    ("[hardware.buttons]\nend_turn = 5", "hardware.buttons.end_turn", "unknown key"),
])
def test_unknown_keys_are_refused_with_the_nearest_known_one(text: str, key: str, suggestion: str) -> None:
    message = error(text)
    assert message.startswith(f"test.toml: {key}: "), message
    assert suggestion in message, message


def test_values_that_pass() -> None:
    config = parse_config(
        '[game]\nvariant = "Gioul"\nmatch-to = 0\njacoby = true\nopening = "starter-rolls"\nmode = "teach"\n'
        '[web]\nhost = "::"\ntoken = "0123456789abcdef"\nport = 80\n'
        '[lights]\nbackend = "bridge"\n[hardware.buzzer]\npin = 13\n'
        '[bridge]\nport = "/dev/pipgammon-bridge"\nusb-id = "2E8A:000A"\n')
    assert config.game.variant == "gioul" and config.game.jacoby and config.game.match_to == 0
    assert config.game.opening.rule is OpeningRule.STARTER_ROLLS and Opening.AUTO.rule is None
    assert config.web.token == "0123456789abcdef" and not config.web.is_loopback
    assert config.lights.backend is LightsBackend.BRIDGE
    assert config.lights.pins is not None and config.lights.pins.buzzer == 13 and not config.lights.pins.lamps
    assert (config.bridge.vid, config.bridge.pid) == (0x2E8A, 0x000A)
    assert parse_config('[web]\nhost = "localhost"').web.is_loopback
    assert parse_config('[web]\nhost = "::1"').web.is_loopback


def test_a_file_that_is_not_toml_or_not_there(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[game\nmatch-to = 3\n")
    with pytest.raises(ConfigError, match=r"broken\.toml: not TOML \(.*line 1"):
        load_config(broken)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[game]\nvariant = "caf\xe9"\n')
    with pytest.raises(ConfigError, match=r"latin\.toml: not UTF-8 text \(at byte offset 21\)"):
        load_config(latin)
    with pytest.raises(ConfigError, match=r"missing\.toml: cannot read it \(No such file or directory\)"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match=r"cannot read it \(Is a directory\)"):
        load_config(tmp_path)


def test_relative_paths_are_taken_from_the_files_folder(tmp_path: Path) -> None:
    (tmp_path / "pi.toml").write_text('[calibration]\npath = "cal.json"\n[storage]\nexport-dir = "out"\n')
    config = load_config(tmp_path / "pi.toml")
    assert config.calibration.path == tmp_path / "cal.json"
    assert config.storage.export_dir == tmp_path / "out"


def test_config_check_prints_ok_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["config", "check", str(EXAMPLE)], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == f"ok: {EXAMPLE}"
    assert "  game: standard, match to 5, opening auto, mode play" in lines
    out = io.StringIO()
    assert main(["config", "check", str(EXAMPLE), "--json"], out) == 0
    summary = json.loads(out.getvalue())
    assert summary["ok"] is True and summary["lights"]["backend"] == "595"
    assert summary["web"]["token"] is False  # whether one is set, never the secret itself


def test_config_check_gives_the_one_line_error_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[web]\nhost = "0.0.0.0"\ntoken = "0123456789abcdef0123"\n[game]\nmatch-to = "five"\n')
    out = io.StringIO()
    assert main(["config", "check", str(bad)], out) == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err == (
        f'pipgammon: {bad}: game.match-to: expected a whole number from 0 to 64, got "five"\n')


def test_the_hand_networks_are_asked_unless_switched_off() -> None:
    assert parse_config("").camera.hands
    assert not parse_config("[camera]\nhands = false").camera.hands
    with pytest.raises(ConfigError, match=r"camera\.hands: expected true or false, got 1"):
        parse_config("[camera]\nhands = 1")


def test_loop_is_for_replayed_sources_only() -> None:
    assert parse_config('[camera]\nsource = "folder:/data/game"\nloop = true').camera.loop
    assert not parse_config('[camera]\nsource = "video:/data/game.avi"').camera.loop
    with pytest.raises(ConfigError, match=r"camera\.loop: expected false: only a folder or a video .*usb"):
        parse_config('[camera]\nsource = "usb:0"\nloop = true')
    with pytest.raises(ConfigError, match=r"camera\.loop: expected true or false, got \"yes\""):
        parse_config('[camera]\nsource = "folder:x"\nloop = "yes"')


@pytest.mark.parametrize(("text", "message"), [
    ('[storage]\njournal-dir = "{tmp}/file"\n', "storage.journal-dir: {tmp}/file is a file, not a folder"),
    ('[storage]\nexport-dir = "{tmp}/file/x"\n',
     "storage.export-dir: {tmp}/file/x cannot be made: {tmp}/file is a file"),
    ('[calibration]\npath = "{tmp}"\n', "calibration.path: {tmp} is a folder; give the calibration file's "
                                        "path (the dashboard saves a new one there)"),
    ('[camera]\nsource = "folder:{tmp}/file"\n',
     "camera.source: {tmp}/file is a file, not a folder of stills"),
])
def test_config_check_refuses_a_path_that_can_never_work(
        text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: `config check` said ok to a journal-dir that was /etc/passwd.
    (tmp_path / "file").write_text("x\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[calibration]\npath = "{tmp_path}/cal.json"\n' * ("[calibration]" not in text)
                      + text.format(tmp=tmp_path))
    assert main(["config", "check", str(config)], io.StringIO()) == 2
    assert capsys.readouterr().err == f"pipgammon: {config}: {message.format(tmp=tmp_path)}\n"


def test_config_check_warns_of_a_calibration_or_recording_the_service_works_round(tmp_path: Path) -> None:
    # The service runs without a calibration until the dashboard makes one, and waits for a
    # recording as for a camera unplugged: a warning each, not an error.
    config = tmp_path / "config.toml"
    (tmp_path / "cal.json").write_text('{"version": 2, "corners": [[1')
    config.write_text(f'[calibration]\npath = "{tmp_path}/cal.json"\n'
                      f'[camera]\nsource = "folder:{tmp_path}/f"\n[storage]\njournal-dir = "{tmp_path}/j"\n')
    out = io.StringIO()
    assert main(["config", "check", str(config)], out) == 0
    warnings = [line for line in out.getvalue().splitlines() if line.startswith("warning: ")]
    assert [w.split(" is ")[0] for w in warnings] == [
        f"warning: calibration.path: {tmp_path}/cal.json", f"warning: camera.source: {tmp_path}/f"]
    assert "refused (not JSON" in warnings[0] and "the service runs without it" in warnings[0]
    (tmp_path / "cal.json").unlink()
    out = io.StringIO()
    assert main(["config", "check", str(config), "--json"], out) == 0
    summary = json.loads(out.getvalue())
    assert summary["ok"] is True and len(summary["warnings"]) == 2
    assert "is not there yet" in summary["warnings"][0]
