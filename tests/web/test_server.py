"""The server thread and the event stream, over real sockets (TestClient buffers whole responses)."""

from __future__ import annotations

import json
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.referee import Referee
from pipgammon.live import Live
from pipgammon.web import app as web_app
from pipgammon.web.app import create_app
from pipgammon.web.server import WebError, WebServer


@pytest.fixture
def live() -> Live:
    live = Live()
    referee = Referee()
    live.referee(referee, referee.start(""))
    return live


@pytest.fixture
def server(live: Live, tmp_path: Path) -> Iterator[WebServer]:
    with WebServer(create_app(live, exports=tmp_path, token=None), "127.0.0.1", 0) as web:
        yield web


def events(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(field, value) pairs of an event stream, a blank line as ("", "")."""
    for line in lines:
        if line.startswith(":"):
            yield ":", line[1:].strip()
        elif line:
            name, _, value = line.partition(":")
            yield name, value.strip()
        else:
            yield "", ""


def test_the_stream_sends_the_state_now_and_on_every_new_version(server: WebServer, live: Live) -> None:
    def publish() -> None:
        time.sleep(0.3)
        live.fault("camera", "no frame for 5 s")

    with httpx.stream("GET", f"{server.url}/events", timeout=10) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        seen: list[dict[str, object]] = []
        ids: list[int] = []
        threading.Thread(target=publish, daemon=True).start()
        for name, value in events(response.iter_lines()):
            if name == "event":
                assert value == "state"
            elif name == "id":
                ids.append(int(value))
            elif name == "data":
                seen.append(json.loads(value))
                if len(seen) == 2:
                    break
    assert ids == [1, 2]
    assert seen[0]["faults"] == {} and seen[1]["faults"] == {"camera": "no frame for 5 s"}
    assert str(seen[1]["svg"]).startswith("<svg")


def test_a_quiet_stream_is_kept_alive(server: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_app, "KEEPALIVE_S", 0.0)
    kinds = []
    with httpx.stream("GET", f"{server.url}/events", timeout=10) as response:
        for name, value in events(response.iter_lines()):
            kinds.append(name)
            if name == ":":
                assert value == "keep-alive"
                break
    assert kinds.index("data") < kinds.index(":")


def test_stop_ends_open_streams_at_once(live: Live, tmp_path: Path) -> None:
    web = WebServer(create_app(live, exports=tmp_path, token=None), "127.0.0.1", 0)
    web.start()
    ended = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{web.url}/events", timeout=10) as response:
            for _ in response.iter_lines():
                pass
        ended.set()

    threading.Thread(target=listen, daemon=True).start()
    time.sleep(0.3)
    started = time.monotonic()
    web.stop()
    assert time.monotonic() - started < 2.0  # the stream ends at its next 1 s wait, not at a timeout
    assert ended.wait(2) and not web.is_running


def test_start_says_plainly_when_the_port_is_busy(live: Live, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = rf"^web: cannot listen on 127\.0\.0\.1:{port}: the port is in use$"
        with pytest.raises(WebError, match=busy):
            WebServer(create_app(live, exports=tmp_path, token=None), "127.0.0.1", port).start()


def test_start_refuses_an_address_not_of_this_machine(live: Live, tmp_path: Path) -> None:
    app = create_app(live, exports=tmp_path, token=None)
    elsewhere = r"^web: cannot listen on 192\.0\.2\.7:0: Cannot assign requested address$"
    with pytest.raises(WebError, match=elsewhere):
        WebServer(app, "192.0.2.7", 0).start()  # TEST-NET-1: never a local address
    with pytest.raises(WebError, match=r"^web: cannot listen on no-such-host\.invalid:0: unknown host"):
        WebServer(app, "no-such-host.invalid", 0).start()


def test_server_serves_on_the_port_it_names_and_leaves_signals_alone(live: Live, tmp_path: Path) -> None:
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    with WebServer(create_app(live, exports=tmp_path, token=None), "127.0.0.1", 0) as web:
        assert web.url == f"http://127.0.0.1:{web.port}" and web.port > 0
        assert httpx.get(f"{web.url}/api/state").json()["version"] == 1
        # The service owns SIGTERM (systemd's stop): uvicorn on its thread must not take it.
        assert {sig: signal.getsignal(sig) for sig in handlers} == handlers
    assert not web.is_running
