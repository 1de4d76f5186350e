"""The dashboard's HTTP server: uvicorn on its own daemon thread, beside the service loop.

The socket is bound here, before uvicorn starts, so a busy port or an address this machine
does not have is a `WebError` with one clear line at `start`, not a log line and a
``SystemExit`` inside a thread; and port 0 gives a free port, which `url` then names.
uvicorn installs signal handlers only on the main thread (``Server.capture_signals``), so on
this thread it leaves the service's SIGTERM handling alone.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

#: How long `start` waits for uvicorn to be serving, and `stop` for it to finish.
START_S = 10.0
STOP_S = 5.0
#: A request still running this long after `stop` is cancelled (the event streams end sooner).
GRACE_S = 2


class WebError(OSError):
    """The web server cannot start: the address is in use, not this machine's, or unknown."""


def _bind(host: str, port: int) -> socket.socket:
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as err:
        raise WebError(f"web: cannot listen on {host}:{port}: unknown host ({err.strerror})") from err
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        why = "the port is in use" if err.errno in (98, 48, 10048) else err.strerror
        raise WebError(f"web: cannot listen on {host}:{port}: {why}") from err
    sock.set_inheritable(True)
    return sock


class WebServer:
    """Serves ``app`` on ``host``:``port`` from a daemon thread; ``with WebServer(...) as web:``."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8080) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    @property
    def url(self) -> str:
        """The address to open (with the port actually bound, after `start`)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> None:
        """Bind and serve; returns once uvicorn accepts connections.  :class:`WebError` if it cannot."""
        if self._thread is not None:
            raise RuntimeError("this WebServer is already started")
        sock = _bind(self.host, self.port)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=GRACE_S, server_header=False)
        server = uvicorn.Server(config)
        self._server = server

        def serve() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException as err:  # SystemExit included: uvicorn exits on a failed startup
                self._failure = err
            finally:
                sock.close()

        self._thread = threading.Thread(target=serve, name="pipgammon-web", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_S
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise WebError(f"web: the server on {self.url} did not start ({self._failure!r})")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop serving: open event streams end at their next wait, the rest within `GRACE_S`."""
        closing = getattr(getattr(self.app, "state", None), "closing", None)
        if isinstance(closing, threading.Event):
            closing.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(STOP_S)

    @property
    def is_running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
