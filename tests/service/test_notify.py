"""sd_notify against a real AF_UNIX datagram socket, as systemd's own is."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipgammon import notify
from pipgammon.notify import Notifier


@pytest.fixture
def systemd_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A bound datagram socket standing where systemd's would, and its path."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        yield sock, str(path)


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode("utf-8").split("\n")


def test_every_message_reaches_the_socket(systemd_socket: tuple[socket.socket, str]) -> None:
    sock, path = systemd_socket
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready()
    assert received(sock) == ["READY=1"]
    assert notifier.ready("reading frames")
    assert received(sock) == ["READY=1", "STATUS=reading frames"]
    assert notifier.watchdog()
    assert received(sock) == ["WATCHDOG=1"]
    assert notifier.status("game 2, White on roll\nSTOPPING=1")  # a newline cannot smuggle in a key
    assert received(sock) == ["STATUS=game 2, White on roll STOPPING=1"]
    assert notifier.stopping("flushing the journal")
    assert received(sock) == ["STOPPING=1", "STATUS=flushing the journal"]


def test_the_abstract_namespace() -> None:
    name = f"pipgammon-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(2)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert received(sock) == ["WATCHDOG=1"]


def test_outside_systemd_nothing_happens() -> None:
    for environ in ({}, {"NOTIFY_SOCKET": ""}, {"NOTIFY_SOCKET": "relative/path"}):
        notifier = Notifier(environ)
        assert not notifier.enabled
        assert not notifier.ready() and not notifier.watchdog() and not notifier.status("x")
        assert not notifier.stopping()


def test_a_vanished_socket_is_not_an_error(tmp_path: Path) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.enabled and not notifier.ready()


def test_the_watchdog_interval_is_half_of_watchdog_usec() -> None:
    assert Notifier({"WATCHDOG_USEC": "30000000"}).watchdog_interval == 15.0
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}).watchdog_interval == 15.0
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).watchdog_interval is None  # not ours
    assert Notifier({"WATCHDOG_USEC": "0"}).watchdog_interval is None
    assert Notifier({"WATCHDOG_USEC": "soon"}).watchdog_interval is None
    assert Notifier({}).watchdog_interval is None


def test_the_module_functions_use_the_process_environment(
        systemd_socket: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch) -> None:
    sock, path = systemd_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.setattr(notify, "_default", None)
    assert notify.watchdog_interval() == 2.0
    assert notify.ready() and received(sock) == ["READY=1"]
    assert notify.watchdog() and received(sock) == ["WATCHDOG=1"]
    assert notify.status("ok") and received(sock) == ["STATUS=ok"]
    assert notify.stopping() and received(sock) == ["STOPPING=1"]
    monkeypatch.setattr(notify, "_default", None)
