"""The 74HC595 chain: the bits shifted over mock SPI, decoded back through a model of the chips."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin, MockSPIDevice

from engine.lights import AMBER, BLUE, GREEN, LAMPS, RED, Light, LightPlan
from hardware.errors import HardwareError
from hardware.shift_register import CHIPS, ShiftRegister, ShiftRegisterLights, decode, encode

History = Callable[[MockFactory, int], list[float]]


class Chain595(MockSPIDevice):  # type: ignore[misc]
    """Four 74HC595s as wired in docs/hardware.md, modelled from the datasheet, not from `decode`.

    Each rising SRCLK moves every stage one step down the chain (chip 0's QA is the first
    stage, its QH' feeds chip 1's SER); a rising RCLK (CE0 going high) copies the stages
    onto the outputs.
    """

    def __init__(self, factory: MockFactory, select_pin: int = 8) -> None:
        super().__init__(clock_pin=11, mosi_pin=10, select_pin=select_pin, pin_factory=factory)
        self.stages = [False] * (8 * CHIPS)
        self.selected = False
        self.latched: list[tuple[bool, ...]] = []  # the outputs after each transfer's latch

    def on_bit(self) -> None:
        self.stages = [bool(self.rx_buf[-1]), *self.stages[:-1]]

    def on_select(self) -> None:
        super().on_select()
        if not self.select_pin.state:
            self.selected = True
        elif self.selected:  # CE0 released after a transfer: the latch clock's rising edge
            self.selected = False
            self.latched.append(tuple(self.stages))

    def lamps(self, frame: int = -1) -> dict[str, bool]:
        return {lamp: on for lamp, on in zip(LAMPS, self.latched[frame], strict=False) if on}


@pytest.fixture
def chain(mock_factory: MockFactory) -> Chain595:
    return Chain595(mock_factory)  # before the device, so the SPI pins are the mock chip's


def test_a_plan_shifts_to_the_right_outputs(chain: Chain595, mock_factory: MockFactory) -> None:
    plan = LightPlan.dark().with_lamps({"point-1": Light.steady(GREEN), "point-9": Light.steady(GREEN),
                                        "point-24": Light.steady(BLUE), "status": Light.steady(BLUE)})
    with ShiftRegisterLights(pin_factory=mock_factory, clock=lambda: 0.0) as lights:
        assert chain.latched == [(False,) * 32]  # cleared before anything is shown
        lights.show(plan, now=0.0)
        assert len(chain.rx_buf) == 32  # one 32-bit frame per change
        assert chain.lamps() == {"point-1": True, "point-9": True, "point-24": True, "status": True}
        assert chain.latched[-1][30:] == (False, False)  # the spare outputs
    assert chain.latched[-1] == (False,) * 32  # close() turns every lamp off


def test_patterns_over_time_latch_exactly_these_frames(chain: Chain595, mock_factory: MockFactory) -> None:
    plan = LightPlan.dark().with_lamps({"point-6": Light.blink(GREEN), "bar": Light.steady(RED),
                                        "off-white": Light.pulse(GREEN), "turn-black": Light.steady(AMBER)})
    with ShiftRegisterLights(pin_factory=mock_factory, clock=lambda: 0.0) as lights:
        lights.show(plan, now=0.0)
        for now in (0.25, 0.6, 1.0, 1.4, 1.6, 2.4, 2.6):
            lights.refresh(now)
    # red blinks and amber pulses on single-colour lamps; a pulse is on from 0.5 s to 1.5 s of 2 s
    frames = [{lamp for lamp, on in zip(LAMPS, frame, strict=False) if on} for frame in chain.latched]
    assert frames == [
        set(),  # cleared at start
        {"point-6", "bar"},  # 0.0 (0.25: no change, nothing shifted)
        {"off-white", "turn-black"},  # 0.6
        {"point-6", "bar", "off-white", "turn-black"},  # 1.0 and 1.4
        set(),  # 1.6
        {"point-6", "bar"},  # 2.4
        {"off-white", "turn-black"},  # 2.6
        set(),  # close
    ]


def test_the_second_chip_select_drives_a_chain_on_ce1(mock_factory: MockFactory) -> None:
    chain = Chain595(mock_factory, select_pin=7)
    with ShiftRegister(device=1, pin_factory=mock_factory) as register:
        register.write([False] * 8 + [True])
    assert chain.latched == [(False,) * 8 + (True,) + (False,) * 23]  # chip 1's QA


class OutputEnableFactory(MockFactory):  # type: ignore[misc]
    """Plain mock pins for the SPI bus (the mock chip needs them), a PWM pin for /OE on GPIO 12."""

    def pin(self, name: object, pin_class: type[MockPin] | None = None, **kwargs: object) -> MockPin:
        if pin_class is None and name == 12:
            pin_class = MockPWMPin
        return super().pin(name, pin_class, **kwargs)


def test_output_enable_dims_the_whole_chain(monkeypatch: pytest.MonkeyPatch, history: History) -> None:
    factory = OutputEnableFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    chain = Chain595(factory)
    lights = ShiftRegisterLights(output_enable=12, brightness=0.75, pin_factory=factory)
    lights.brightness = 0.25
    with pytest.raises(HardwareError, match=r"brightness 1\.5 is not in 0\.\.1"):
        lights.brightness = 1.5
    lights.close()
    # /OE is active low: high (1.0) disables the outputs; a duty of 0.25 low means 75 % on.
    assert history(factory, 12) == [0.0, 1.0, 0.25, 0.75, 0.0]
    assert chain.latched[0] == (False,) * 32  # the power-up bits were cleared


def test_encode_and_decode_are_inverse_and_refuse_too_many_outputs() -> None:
    states = tuple(i % 3 == 0 for i in range(32))
    assert decode(encode(states)) == states
    assert encode([True] * 8 + [False] * 8 + [True], chips=3) == bytes([0x01, 0x00, 0xFF])
    with pytest.raises(HardwareError, match="33 outputs do not fit on 4 chips"):
        encode([False] * 33)
