"""The service's configuration: one TOML file, validated once where it is read (STYLE.md 4).

`parse_config(text)` turns TOML text into a frozen `Config`; `load_config(path)` reads a file
and resolves relative paths against the file's folder.  Every problem is one `ConfigError`
line naming the file, the key (``game.match-to``), the bad value and what was expected.
Unknown keys are refused, with the nearest known key suggested, because a misspelt key that is
silently ignored leaves a default in force that the user believes they changed.

Sections, keys and defaults (docs/service.md is the full reference):

==============  ===================================================================================
section         keys (default)
==============  ===================================================================================
``camera``      ``source`` ("picamera2"; or "usb:N", "folder:PATH", "video:PATH"),
                ``size`` ([2028, 1520]), ``fps`` (10), ``loop`` (false; folder and video only)
``calibration`` ``path`` ("/var/lib/pipgammon/calibration.json")
``game``        ``variant`` ("standard"), ``match-to`` (1; 0 is money play), ``opening`` ("auto";
                "one-die-each", "starter-rolls"), ``mode`` ("play"; "teach", "record"),
                ``jacoby`` (false; money play only)
``lights``      ``backend`` ("none"; "gpio", "595", "sim", "bridge")
``hardware``    the pin map, exactly as in hardware/pins.example.toml (`hardware.pins`)
``bridge``      ``port`` ("auto": find the board by USB id; or a device path or serial URL),
                ``usb-id`` ("2e8a:0005")
``web``         ``host`` ("127.0.0.1"), ``port`` (8080), ``token`` (none; required off loopback)
``storage``     ``journal-dir`` ("/var/lib/pipgammon"), ``export-dir`` ("/var/lib/pipgammon/exports")
==============  ===================================================================================

>>> config = parse_config('[game]\\nmatch-to = 5\\n')
>>> config.game.match_to, config.game.variant, config.web.host
(5, 'standard', '127.0.0.1')
>>> parse_config('[game]\\nmatch_to = 5\\n', source="pip.toml")
Traceback (most recent call last):
...
pipgammon.config.ConfigError: pip.toml: game.match_to: unknown key; did you mean match-to? (known keys: \
variant, match-to, opening, mode, jacoby)
"""

from __future__ import annotations

import difflib
import ipaddress
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.game import OpeningRule
from engine.variants import find_variant
from hardware.errors import PinMapError
from hardware.pins import DEFAULT_CONFIG as DEFAULT_PIN_CONFIG
from hardware.pins import PinMap, pin_map_from_config

#: Where the installer puts the config and where the unit tells `pipgammon run` to look.
DEFAULT_PATH = Path("/etc/pipgammon/config.toml")
#: The unit's StateDirectory=: the only place the service may write (ProtectSystem=strict).
STATE_DIR = Path("/var/lib/pipgammon")

# The largest match gnubg plays and records (its MAXSCORE); 0 is money play.
MAX_MATCH_LENGTH = 64
# Camera frames: the smallest size the vision still reads dice at, the largest any Pi camera gives.
MIN_SIDE, MAX_SIDE = 160, 8192
MAX_FPS = 120
# The kernel numbers V4L2 devices below its VIDEO_NUM_DEVICES (256): /dev/video0 to /dev/video255.
MAX_VIDEO_DEVICE = 255
# A web token shorter than this is guessable from the network in an afternoon.
MIN_TOKEN_LENGTH = 16


class ConfigError(ValueError):
    """A config file that cannot be read, is not TOML, or has a bad or unknown key."""


class SourceKind(Enum):
    """Where frames come from."""

    PICAMERA2 = "picamera2"  # the Pi's camera through libcamera
    USB = "usb"  # a V4L2 webcam, /dev/videoN, through cv2.VideoCapture
    FOLDER = "folder"  # time-ordered stills, sorted by file name
    VIDEO = "video"  # a recorded video file


class LightsBackend(Enum):
    """What shows the referee's LightPlan."""

    NONE = "none"  # no lamps: the web page and the buzzer only
    GPIO = "gpio"  # one GPIO per lamp
    SHIFT_REGISTER = "595"  # four 74HC595s on SPI0
    SIM = "sim"  # the simulator: no hardware
    BRIDGE = "bridge"  # the RP2040's RGB strip over USB serial (firmware_bridge)


class Opening(Enum):
    """How the first turn is found: `OpeningRule`, or whichever the first dice show."""

    AUTO = "auto"
    ONE_DIE_EACH = "one-die-each"
    STARTER_ROLLS = "starter-rolls"

    @property
    def rule(self) -> OpeningRule | None:
        """The engine's rule, or None for "auto" (decided by the first dice on the board)."""
        return None if self is Opening.AUTO else OpeningRule(self.value)


class Mode(Enum):
    """What the referee does with a turn (the mode button cycles them)."""

    PLAY = "play"  # judge every turn, flag errors
    TEACH = "teach"  # also light the points that can move and where a lifted checker may go
    RECORD = "record"  # write the match down, light nothing but errors of the camera


@dataclass(frozen=True, slots=True)
class CameraConfig:
    kind: SourceKind = SourceKind.PICAMERA2
    device: int | None = None  # usb:N
    path: Path | None = None  # folder:PATH, video:PATH
    # The HQ camera's 2x2-binned mode: the dice need ~40 px a side (camera-check), which a whole
    # board in 1280x960 does not give (18-26 px).
    size: tuple[int, int] = (2028, 1520)
    fps: float = 10
    #: folder/video only: start again after the last frame, as players setting the board up
    #: again (a soak run, a shop-window demo).
    loop: bool = False
    #: Ask the hand networks (vision/hands.py) of a board at rest before trusting it: a real
    #: hand resting over the board the checker reader missed.  They cost about 50 ms a still
    #: board here (three to four times that on a Pi 4); false saves it on a slow Pi.
    hands: bool = True

    @property
    def source(self) -> str:
        """The source as the config writes it (``usb:0``, ``folder:/data/frames``)."""
        if self.kind is SourceKind.USB:
            return f"usb:{self.device}"
        if self.path is not None:
            return f"{self.kind.value}:{self.path}"
        return str(self.kind.value)


@dataclass(frozen=True, slots=True)
class CalibrationConfig:
    path: Path = STATE_DIR / "calibration.json"


@dataclass(frozen=True, slots=True)
class GameConfig:
    variant: str = "standard"
    match_to: int = 1
    opening: Opening = Opening.AUTO
    mode: Mode = Mode.PLAY
    jacoby: bool = False


@dataclass(frozen=True, slots=True)
class LightsConfig:
    backend: LightsBackend = LightsBackend.NONE
    #: The GPIO pin map for lamps, buttons and buzzer; None when nothing is on GPIO.
    #: ``backend`` above is the one that counts: for "none" and "bridge", ``pins.backend`` is
    #: only how the buttons' and buzzer's pins were checked.
    pins: PinMap | None = None


@dataclass(frozen=True, slots=True)
class BridgeConfig:
    port: str = "auto"  # "auto": the first serial port with usb_id
    vid: int = 0x2E8A
    pid: int = 0x0005


@dataclass(frozen=True, slots=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    token: str | None = None

    @property
    def is_loopback(self) -> bool:
        return _is_loopback(self.host)


@dataclass(frozen=True, slots=True)
class StorageConfig:
    journal_dir: Path = STATE_DIR
    export_dir: Path = STATE_DIR / "exports"


@dataclass(frozen=True, slots=True)
class Config:
    camera: CameraConfig = CameraConfig()
    calibration: CalibrationConfig = CalibrationConfig()
    game: GameConfig = GameConfig()
    lights: LightsConfig = LightsConfig()
    bridge: BridgeConfig = BridgeConfig()
    web: WebConfig = WebConfig()
    storage: StorageConfig = StorageConfig()
    source: str = "<defaults>"  # the file it came from, for messages

    def summary(self) -> dict[str, Any]:
        """A JSON-ready digest (`pipgammon config check --json`); the web token is never shown."""
        pins = self.lights.pins
        return {
            "camera": {"source": self.camera.source, "size": list(self.camera.size), "fps": self.camera.fps,
                       "loop": self.camera.loop, "hands": self.camera.hands},
            "calibration": {"path": str(self.calibration.path)},
            "game": {"variant": self.game.variant, "match-to": self.game.match_to,
                     "opening": self.game.opening.value, "mode": self.game.mode.value,
                     "jacoby": self.game.jacoby},
            "lights": {
                "backend": self.lights.backend.value,
                "lamps": len(pins.lamps) if pins else 0,
                "buttons": dict(pins.buttons) if pins else {},
                "buzzer": pins.buzzer if pins else None,
                **({"shift-register": {"device": pins.spi_device, "oe": pins.output_enable}}
                   if pins and self.lights.backend is LightsBackend.SHIFT_REGISTER else {}),
            },
            "bridge": {"port": self.bridge.port, "usb-id": f"{self.bridge.vid:04x}:{self.bridge.pid:04x}"},
            "web": {"host": self.web.host, "port": self.web.port, "token": self.web.token is not None},
            "storage": {"journal-dir": str(self.storage.journal_dir),
                        "export-dir": str(self.storage.export_dir)},
        }


#: The defaults: a config file may leave out any key, section or everything.
DEFAULTS = Config()
_D = DEFAULTS


# --- reading -------------------------------------------------------------------------------


def load_config(path: Path | str) -> Config:
    """Read and validate a config file; relative paths in it are taken from the file's folder."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ConfigError(f"{path}: cannot read it ({err.strerror or err})") from err
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text (at byte offset {err.start})") from None
    return parse_config(text, source=str(path), base=path.parent)


def parse_config(text: str, source: str = "<config>", base: Path | None = None) -> Config:
    """Validate TOML text.  Pure: no file is opened, no path is checked for existence.

    ``base`` is the folder relative paths are taken from (None keeps them as written, which
    the service then takes from its working directory).
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{source}: not TOML ({err})") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ConfigError(f"{source}: not TOML (nested too deeply)") from None
    return config_from_document(document, source, base)


def config_from_document(document: Mapping[str, Any], source: str = "<config>",
                         base: Path | None = None) -> Config:
    """Validate an already parsed TOML document (what `parse_config` does after tomllib)."""
    try:
        return _Reader(base).config(document, source)
    except _KeyError as err:
        raise ConfigError(f"{source}: {err}") from None


class _KeyError(Exception):
    """A bad value at one key; `config_from_document` adds the file's name."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}" if problem else key)
        self.key, self.problem = key, problem


_HEX4 = re.compile(r"[0-9a-fA-F]{4}")


def _show(value: object) -> str:
    """A value as the user wrote it in TOML, cut short: the message stays one line."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif isinstance(value, Mapping):
        text = "a table"
    else:
        text = repr(value)
    text = text.encode("unicode_escape").decode("ascii")  # newlines and control characters
    return text if len(text) <= 60 else text[:57] + "..."


def _suggest(key: str, known: list[str], what: str = "key") -> str:
    close = difflib.get_close_matches(key.replace("_", "-").lower(), known, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    return f"unknown {what}{hint} (known {what}s: {', '.join(known)})"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Reader:
    """Walks the document section by section; each method raises `_KeyError` at the first fault."""

    def __init__(self, base: Path | None) -> None:
        self.base = base

    # -- helpers --

    @staticmethod
    def _section(document: Mapping[str, Any], name: str, keys: list[str]) -> Mapping[str, Any]:
        table = document.get(name, {})
        if not isinstance(table, Mapping):
            raise _KeyError(name, f"expected a table [{name}], got {_show(table)}")
        for key in table:
            if key not in keys:
                raise _KeyError(f"{name}.{key}", _suggest(key, keys))
        return table

    @staticmethod
    def _choice(table: Mapping[str, Any], where: str, key: str, kind: type[Enum], default: Enum) -> Any:
        value = table.get(key, default.value)
        names = [member.value for member in kind]
        if isinstance(value, str) and value in names:
            return kind(value)  # the caller's annotation names the enum
        raise _KeyError(f"{where}.{key}", f"expected one of {', '.join(repr(n) for n in names)}, "
                                          f"got {_show(value)}")

    @staticmethod
    def _whole(table: Mapping[str, Any], where: str, key: str, default: int, low: int, high: int) -> int:
        value = table.get(key, default)
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        raise _KeyError(f"{where}.{key}", f"expected a whole number from {low} to {high}, got {_show(value)}")

    @staticmethod
    def _flag(table: Mapping[str, Any], where: str, key: str, default: bool) -> bool:
        value = table.get(key, default)
        if isinstance(value, bool):
            return value
        raise _KeyError(f"{where}.{key}", f"expected true or false, got {_show(value)}")

    @staticmethod
    def _text(table: Mapping[str, Any], where: str, key: str, default: str, what: str) -> str:
        value = table.get(key, default)
        if isinstance(value, str) and value.strip() and "\x00" not in value:
            return value.strip()
        raise _KeyError(f"{where}.{key}", f"expected {what}, got {_show(value)}")

    def _path(self, value: str) -> Path:
        path = Path(value)
        if not path.is_absolute() and self.base is not None:
            path = self.base / path
        return path

    # -- sections --

    def config(self, document: Mapping[str, Any], source: str) -> Config:
        sections = ["camera", "calibration", "game", "lights", "hardware", "bridge", "web", "storage"]
        for name in document:
            if name not in sections:
                raise _KeyError(name, _suggest(name, sections, "section"))
        return Config(
            camera=self.camera(document),
            calibration=self.calibration(document),
            game=self.game(document),
            lights=self.lights(document),
            bridge=self.bridge(document),
            web=self.web(document),
            storage=self.storage(document),
            source=source,
        )

    def camera(self, document: Mapping[str, Any]) -> CameraConfig:
        table = self._section(document, "camera", ["source", "size", "fps", "loop", "hands"])
        expected = '"picamera2", "usb:N" (N = /dev/videoN), "folder:PATH" or "video:PATH"'
        source = self._text(table, "camera", "source", "picamera2", expected)
        kind_text, _, argument = source.partition(":")
        kinds = {kind.value: kind for kind in SourceKind}
        kind = kinds.get(kind_text.strip().lower())
        device: int | None = None
        path: Path | None = None
        if kind is None or (kind is SourceKind.PICAMERA2 and argument):
            raise _KeyError("camera.source", f"expected {expected}, got {_show(source)}")
        if kind is SourceKind.USB:
            number = argument.strip()
            # The length first: int() of thousands of digits is itself a ValueError.
            if not (number.isdecimal() and number.isascii() and len(number) <= 3
                    and int(number) <= MAX_VIDEO_DEVICE):
                raise _KeyError("camera.source", f"expected usb:N with N from 0 to {MAX_VIDEO_DEVICE} "
                                                 f"(/dev/videoN), got {_show(source)}")
            device = int(number)
        elif kind in (SourceKind.FOLDER, SourceKind.VIDEO):
            if not argument.strip():
                raise _KeyError("camera.source", f"expected {kind.value}:PATH, got {_show(source)}")
            path = self._path(argument.strip())

        size = table.get("size", list(_D.camera.size))
        if not (isinstance(size, list) and len(size) == 2
                and all(isinstance(s, int) and not isinstance(s, bool) and MIN_SIDE <= s <= MAX_SIDE
                        for s in size)):
            raise _KeyError("camera.size", f"expected [width, height] in pixels, each from {MIN_SIDE} to "
                                           f"{MAX_SIDE}, got {_show(size)}")
        fps = table.get("fps", _D.camera.fps)
        if isinstance(fps, bool) or not isinstance(fps, int | float) or not (
                math.isfinite(fps) and 0 < fps <= MAX_FPS):
            raise _KeyError("camera.fps", f"expected frames per second above 0 and at most {MAX_FPS}, "
                                          f"got {_show(fps)}")
        loop = self._flag(table, "camera", "loop", _D.camera.loop)
        if loop and kind not in (SourceKind.FOLDER, SourceKind.VIDEO):
            raise _KeyError("camera.loop", f"expected false: only a folder or a video can be played again, "
                                           f"not {kind.value}")
        hands = self._flag(table, "camera", "hands", _D.camera.hands)
        return CameraConfig(kind, device, path, (size[0], size[1]), fps, loop, hands)

    def calibration(self, document: Mapping[str, Any]) -> CalibrationConfig:
        table = self._section(document, "calibration", ["path"])
        text = self._text(table, "calibration", "path", str(_D.calibration.path),
                          "the path of the calibration.json `pipgammon calibrate` writes")
        return CalibrationConfig(self._path(text))

    def game(self, document: Mapping[str, Any]) -> GameConfig:
        table = self._section(document, "game", ["variant", "match-to", "opening", "mode", "jacoby"])
        variant = table.get("variant", _D.game.variant)
        if not isinstance(variant, str):
            raise _KeyError("game.variant",
                            f"expected a variant's name (pipgammon variants), got {_show(variant)}")
        try:
            name = find_variant(variant).name
        except EngineError:
            names = _known_variants()
            close = difflib.get_close_matches(variant.strip().lower(), names, n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise _KeyError("game.variant", f"unknown variant {_show(variant)}{hint} (pipgammon variants "
                                            f"lists all {len(names)})") from None
        match_to = self._whole(table, "game", "match-to", _D.game.match_to, 0, MAX_MATCH_LENGTH)
        opening = self._choice(table, "game", "opening", Opening, _D.game.opening)
        mode = self._choice(table, "game", "mode", Mode, _D.game.mode)
        jacoby = self._flag(table, "game", "jacoby", _D.game.jacoby)
        if jacoby and match_to:
            raise _KeyError("game.jacoby", f"the Jacoby rule is for money play only (game.match-to = 0), "
                                           f"but game.match-to = {match_to}")
        return GameConfig(name, match_to, opening, mode, jacoby)

    def lights(self, document: Mapping[str, Any]) -> LightsConfig:
        table = self._section(document, "lights", ["backend"])
        backend: LightsBackend = self._choice(table, "lights", "backend", LightsBackend,
                                              _D.lights.backend)
        hardware = document.get("hardware")
        if hardware is not None and not isinstance(hardware, Mapping):
            raise _KeyError("hardware", f"expected a table [hardware] (the pin map), got {_show(hardware)}")
        # lights.backend is the one choice of what shows the plan; the pin map keeps its own
        # format (hardware/pins.example.toml) so `pipgammon lights --pins CONFIG` reads it too.
        if hardware is None:
            if backend is LightsBackend.SHIFT_REGISTER:
                return LightsConfig(backend, _pins(dict(DEFAULT_PIN_CONFIG)))
            if backend is LightsBackend.GPIO:
                raise _KeyError("hardware.lamps", "lights.backend = \"gpio\" needs each lamp's pin in a "
                                                  "[hardware.lamps] table (see hardware/pins.example.toml)")
            return LightsConfig(backend, None)
        section = dict(hardware)
        pin_backends = (LightsBackend.GPIO, LightsBackend.SHIFT_REGISTER, LightsBackend.SIM)
        if backend in pin_backends:
            given = section.setdefault("backend", backend.value)
            if given != backend.value:
                raise _KeyError("hardware.backend", f"{_show(given)} disagrees with lights.backend = "
                                                    f"{_show(backend.value)}; leave hardware.backend out")
        else:
            for key in ("backend", "lamps", "shift-register"):
                if key in section:
                    raise _KeyError(f"hardware.{key}", f"lights.backend = {_show(backend.value)} has no "
                                                       f"lamps on GPIO; leave hardware.{key} out")
            section["backend"] = LightsBackend.GPIO.value  # check the buttons' and buzzer's pins only
        return LightsConfig(backend, _pins(section))

    def bridge(self, document: Mapping[str, Any]) -> BridgeConfig:
        table = self._section(document, "bridge", ["port", "usb-id"])
        port = self._text(table, "bridge", "port", _D.bridge.port,
                          '"auto", a device path such as "/dev/pipgammon-bridge", or a serial URL')
        usb_id = table.get("usb-id", "2e8a:0005")
        vid_text, colon, pid_text = usb_id.partition(":") if isinstance(usb_id, str) else ("", "", "")
        # Exactly as lsusb prints it: int(x, 16) alone would also take "-001", "0x12" and "1_23".
        if not (colon and _HEX4.fullmatch(vid_text) and _HEX4.fullmatch(pid_text)):
            raise _KeyError("bridge.usb-id", f"expected VID:PID as four hex digits each, e.g. \"2e8a:0005\", "
                                             f"got {_show(usb_id)}")
        return BridgeConfig(port, int(vid_text, 16), int(pid_text, 16))

    def web(self, document: Mapping[str, Any]) -> WebConfig:
        table = self._section(document, "web", ["host", "port", "token"])
        host = self._text(table, "web", "host", _D.web.host,
                          "an IP address to listen on, e.g. 127.0.0.1")
        if host != "localhost":
            try:
                ipaddress.ip_address(host)
            except ValueError:
                raise _KeyError("web.host", f"expected an IP address to listen on (127.0.0.1, 0.0.0.0, ::) "
                                            f"or localhost, got {_show(host)}") from None
        port = self._whole(table, "web", "port", _D.web.port, 1, 65535)
        token = table.get("token")
        if token is not None and not (isinstance(token, str) and len(token.strip()) >= MIN_TOKEN_LENGTH
                                      and token.isprintable()):
            if not isinstance(token, str):
                got = _show(token)
            elif not token.isprintable():  # where, and which: the rest of the secret stays unshown
                at, char = next((i, c) for i, c in enumerate(token) if not c.isprintable())
                got = f"a string with an unprintable character (character {at + 1}, {char!r})"
            else:
                got = "a string that is too short"
            raise _KeyError("web.token", f"expected a secret of at least {MIN_TOKEN_LENGTH} printable "
                                         f"characters (e.g. from `openssl rand -hex 16`), got {got}")
        if token is None and not _is_loopback(host):
            raise _KeyError("web.token", f"required when web.host = {_show(host)} is reachable from other "
                                         f"machines; set a secret of at least {MIN_TOKEN_LENGTH} characters")
        return WebConfig(host, port, token.strip() if token is not None else None)

    def storage(self, document: Mapping[str, Any]) -> StorageConfig:
        table = self._section(document, "storage", ["journal-dir", "export-dir"])
        journal = self._text(table, "storage", "journal-dir", str(_D.storage.journal_dir), "a folder's path")
        export = self._text(table, "storage", "export-dir", str(_D.storage.export_dir), "a folder's path")
        return StorageConfig(self._path(journal), self._path(export))


def _pins(section: Mapping[str, Any]) -> PinMap:
    try:
        return pin_map_from_config(section)
    except PinMapError as err:  # its messages already start with the key (hardware.buttons.mode)
        key, _, problem = str(err).partition(": ")
        if " " in key or not problem:  # "hardware.a and hardware.b both use GPIO 5" names both
            key, problem = str(err), ""
        raise _KeyError(key, problem) from None


def _known_variants() -> list[str]:
    from engine.variants import VARIANTS

    return list(VARIANTS)
