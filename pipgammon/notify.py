"""Tell systemd how the service is doing (sd_notify), with no library: one datagram per message.

Under a ``Type=notify`` unit systemd sets ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the
abstract namespace) and, with ``WatchdogSec=``, ``$WATCHDOG_USEC``.  The service says `ready`
once it reads frames, pings `watchdog` from its loop at least every `watchdog_interval`
seconds, puts a one-line `status` in ``systemctl status``, and says `stopping` on SIGTERM
before it flushes the journal.  Outside systemd every call does nothing and returns False,
so the same loop runs from a terminal.

>>> Notifier(environ={}).ready()
False
>>> Notifier(environ={"WATCHDOG_USEC": "20000000"}).watchdog_interval
10.0
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """The link to systemd's notification socket, read from the environment once.

    ``environ`` defaults to ``os.environ``; tests pass their own.  A send that fails (systemd
    gone, socket full) returns False rather than raising: losing a status line must never stop
    the referee, and a lost watchdog ping is exactly what the watchdog is there to notice.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = _address(env.get("NOTIFY_SOCKET", ""))
        self.watchdog_interval = _watchdog_interval(env, os.getpid())

    @property
    def enabled(self) -> bool:
        """True under systemd (``$NOTIFY_SOCKET`` is set)."""
        return self.address is not None

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines as one datagram; True when systemd got it."""
        if self.address is None:
            return False
        message = "\n".join(assignments).encode("utf-8")
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall(message)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is over: systemd starts the units after this one and arms the watchdog."""
        return self.notify("READY=1", *([_status_line(status)] if status is not None else []))

    def watchdog(self) -> bool:
        """Still alive; send more often than `watchdog_interval`."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """A one-line status for ``systemctl status pipgammon``."""
        return self.notify(_status_line(text))

    def stopping(self, status: str | None = None) -> bool:
        """Shutdown has begun (SIGTERM): systemd waits up to TimeoutStopSec= for the exit."""
        return self.notify("STOPPING=1", *([_status_line(status)] if status is not None else []))


def _address(value: str) -> str | bytes | None:
    """The socket address: ``@name`` is the abstract namespace (a leading NUL byte)."""
    if not value:
        return None
    if value.startswith("@"):
        return b"\0" + value[1:].encode("utf-8")
    if not value.startswith("/"):  # systemd only ever sets an absolute path or @name
        return None
    return value


def _watchdog_interval(env: Mapping[str, str], pid: int) -> float | None:
    """Seconds between pings: half of ``$WATCHDOG_USEC``, as sd_watchdog_enabled(3) advises.

    None when there is no watchdog, or when ``$WATCHDOG_PID`` names another process (the
    variables were inherited from a parent that systemd watches, not this one).
    """
    owner = env.get("WATCHDOG_PID")
    if owner is not None and owner.strip() != str(pid):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None


def _status_line(text: str) -> str:
    # A newline would start a new KEY=value assignment inside the datagram.
    return "STATUS=" + " ".join(text.split())


_default: Notifier | None = None


def _notifier() -> Notifier:
    global _default
    if _default is None:
        _default = Notifier()
    return _default


def ready(status: str | None = None) -> bool:
    """`Notifier.ready` on the process's own environment."""
    return _notifier().ready(status)


def watchdog() -> bool:
    """`Notifier.watchdog` on the process's own environment."""
    return _notifier().watchdog()


def status(text: str) -> bool:
    """`Notifier.status` on the process's own environment."""
    return _notifier().status(text)


def stopping(status: str | None = None) -> bool:
    """`Notifier.stopping` on the process's own environment."""
    return _notifier().stopping(status)


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings under systemd's watchdog, else None."""
    return _notifier().watchdog_interval
