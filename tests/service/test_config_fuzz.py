"""Fuzzing the config loader: malformed TOML and random structures give a ConfigError, never
another exception (a traceback would be a bug in pipgammon, CONTRACT.md)."""

from __future__ import annotations

import datetime as dt
import math
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipgammon.config import Config, ConfigError, config_from_document, load_config, parse_config

EXAMPLE = (Path(__file__).parents[2] / "systemd" / "config.example.toml").read_text()
SECTIONS = ["camera", "calibration", "game", "lights", "hardware", "bridge", "web", "storage"]
KEYS = ["source", "size", "fps", "path", "variant", "match-to", "opening", "mode", "jacoby", "backend",
        "buses", "pwm", "lamps", "buttons", "buzzer", "shift-register", "pin", "tonal", "device", "oe",
        "end-turn", "take-back", "point-1", "bar", "port", "usb-id", "host", "token", "journal-dir",
        "export-dir"]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def only_clean_errors(text: str) -> None:
    try:
        config = parse_config(text, source="fuzz.toml")
    except ConfigError as err:
        message = str(err)
        assert message.startswith("fuzz.toml: ") and "\n" not in message, message
    else:
        assert isinstance(config, Config)


@st.composite
def mutated_example(draw: st.DrawFn) -> str:
    """The example file with a few characters deleted, replaced or inserted."""
    text = EXAMPLE
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["delete", "replace", "insert"]))
        piece = draw(st.sampled_from(['"', "'", "[", "]", "=", "\n", "#", ",", "{", "}", "0", "-", ".", "\\",
                                      "\x00", "é", "true", "[[", "nan", "1e999", "2026-01-01", " "]))
        if edit == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        elif edit == "replace":
            text = text[:at] + piece + text[at + 1:]
        else:
            text = text[:at] + piece + text[at:]
    return text


@FUZZ
@given(mutated_example())
def test_a_damaged_example_gives_only_clean_errors(text: str) -> None:
    only_clean_errors(text)


@FUZZ
@given(st.text(alphabet=st.sampled_from(list('[]{}="\'#=,.\n -_abcgmst0123456789xé\\')), max_size=200))
def test_random_toml_shaped_text_gives_only_clean_errors(text: str) -> None:
    only_clean_errors(text)


def test_deep_nesting_is_a_clean_error() -> None:
    only_clean_errors("a = " + "[" * 5000)
    only_clean_errors("a = " + "{b = " * 3000)


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from(["usb:0", "folder:x", "595", "gpio", "bridge", "spi", "2e8a:0005",
                                           "0.0.0.0", "standard", "auto", "play"]),
    st.dates(), st.datetimes(), st.times(),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)), max_leaves=12)
documents = st.dictionaries(st.sampled_from([*SECTIONS, "extra"]),
                            st.one_of(values, st.dictionaries(st.sampled_from(KEYS), values, max_size=6)),
                            max_size=5)


@FUZZ
@given(documents)
def test_random_structures_give_only_clean_errors(document: dict[str, Any]) -> None:
    # tomllib never hands over None, but the loader must not care: documents may come from elsewhere.
    try:
        config = config_from_document(document, source="fuzz")
    except ConfigError as err:
        assert str(err).startswith("fuzz: ") and "\n" not in str(err)
    else:
        assert isinstance(config, Config)
        assert math.isfinite(config.camera.fps) and config.camera.fps > 0
        assert not isinstance(config.game.match_to, bool | dt.date)


@FUZZ
@given(st.one_of(st.binary(max_size=300), mutated_example().map(lambda text: text.encode("utf-8"))))
def test_any_file_content_gives_only_clean_errors(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.toml"
        path.write_bytes(content)
        try:
            load_config(path)
        except ConfigError as err:
            assert str(err).startswith(f"{path}: ") and "\n" not in str(err)
