"""The bridge's errors: one root, narrow subclasses that also subclass a builtin."""

from __future__ import annotations


class BridgeError(Exception):
    """Anything the firmware bridge refuses or cannot do."""


class FrameError(BridgeError, ValueError):
    """Bytes that are not a valid frame; ``reason`` is the counter it lands in."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"bad frame ({reason}){': ' + detail if detail else ''}")
        self.reason = reason


class LayoutError(BridgeError, ValueError):
    """A strip layout that cannot exist, or does not fit the board's strip."""


class BadTimeoutError(BridgeError, ValueError):
    """A timeout that is not a number of seconds a wait can take (nan waited for ever)."""


class HandshakeError(BridgeError, ConnectionError):
    """The board answered the hello, but the two ends cannot work together."""


class ProtocolVersionError(HandshakeError):
    """The firmware speaks another protocol version: reflash it."""


class DeviceNotFoundError(BridgeError, LookupError):
    """No serial port with the board's USB VID:PID is plugged in."""


class TransportError(BridgeError, OSError):
    """The serial port could not be opened, read or written."""


class BridgeTimeoutError(BridgeError, TimeoutError):
    """The board did not answer in time."""
