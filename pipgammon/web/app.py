"""The web dashboard: the referee's board, the camera's view, the turn log and the recorded matches.

`create_app` builds a Starlette application over a `pipgammon.live.Live`, which the service
thread publishes into; the app only reads it.  Pages:

- ``/``: the board as SVG with its lamps, whose turn, the dice, the score, the legal plays
  (teaching mode), the turn log, faults, and the camera's picture with what vision read;
- ``/events``: server-sent events, one ``state`` event per new snapshot version;
- ``/api/state``: the snapshot as JSON, with the board's SVG;
- ``/camera.jpg``: the newest frame with the calibrated grid, the counts read and the dice;
- ``/matches``, ``/api/matches``, ``/matches/{name}``: the exported matches, to download;
- ``/calibrate``, ``/calibration.jpg``, ``/api/calibration``, POST ``/api/calibrate``:
  capture the starting position and see the grid it gives.

Access: with ``token`` None (the config allows that only on loopback) the app answers only
requests addressed to a loopback host name, so a web page elsewhere cannot reach it through
DNS rebinding.  With a token every request needs it: ``Authorization: Bearer TOKEN``, or
``?token=TOKEN`` once, which sets an HttpOnly, SameSite=Strict cookie and redirects to the
same address without the token (so it stays out of the history and the screen).  POSTs from
another origin are refused whatever the access.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from engine.player import Player
from engine.records import says_unfinished
from engine.variants import find_variant
from pipgammon.board_svg import board_svg
from pipgammon.live import CameraLoss, CameraView, Live, Snapshot, clock
from pipgammon.web.pages import calibrate_page, dashboard_page, matches_page

#: How long one wait for a new snapshot lasts: the longest an event stream takes to notice that
#: its client left or the server is stopping.
WAIT_S = 1.0
#: A comment this often keeps proxies and the browser from closing an idle event stream.
KEEPALIVE_S = 15.0
#: Event streams waiting at once in worker threads; more clients wait their turn, and the
#: camera picture and calibration keep the default threads to themselves.
STREAM_THREADS = 16
COOKIE = "pipgammon_session"
#: The records `pipgammon records export` writes (`--mat`, `--sgf`, `--text`): one written by hand
#: into the export folder for the page was not offered when it was an SGF (found by a review).
EXPORT_SUFFIXES = (".mat", ".sgf", ".txt")
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})

Calibrate = Callable[[], tuple[bool, str]]


def state_json(snapshot: Snapshot) -> dict[str, Any]:
    """What ``/api/state`` and every event carry: the snapshot and its board as SVG.  While a player
    is to act, the drawing counts the points from their side, as the page's plays, the status and
    an illegal play's points are written for them."""
    side = Player.from_label(snapshot.to_act) if snapshot.to_act is not None else None
    track = find_variant(snapshot.variant).rules.track(side) if side is not None else None
    svg = board_svg(snapshot.position, snapshot.plan, dice=snapshot.dice, cube=snapshot.cube,
                    caption=snapshot.status, side=side, track=track)
    return {**snapshot.to_json(), "svg": svg}


def session_value(token: str) -> str:
    """The cookie's value: derived from the token, so the cookie does not carry the token itself."""
    return hmac.new(token.encode(), b"pipgammon web session", hashlib.sha256).hexdigest()


def _host_name(host_header: str) -> str:
    """``host[:port]`` or ``[v6]:port`` to the bare host name, lower case.

    >>> _host_name("LocalHost:8080"), _host_name("[::1]:8080"), _host_name("::1"), _host_name("127.0.0.1")
    ('localhost', '::1', '::1', '127.0.0.1')
    """
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """ASGI middleware: the token (or loopback-only without one) and the cross-site POST check."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token
        self.session = None if token is None else session_value(token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await refusal(scope, receive, send)

    def _refusal(self, request: Request) -> Response | None:
        host = request.headers.get("host", "")
        if request.method not in ("GET", "HEAD"):
            origin = request.headers.get("origin") or request.headers.get("referer")
            if origin and urlsplit(origin).netloc.lower() != host.lower():
                return PlainTextResponse(f"pipgammon: a {request.method} from another site "
                                         f"({urlsplit(origin).netloc}) is refused", 403)
        if self.token is None:
            if _host_name(host) not in LOOPBACK_HOSTS:
                return PlainTextResponse(f"pipgammon: host {host!r} refused: without a web token the "
                                         "dashboard answers only to localhost", 403)
            return None
        assert self.session is not None
        authorization = request.headers.get("authorization", "")
        if authorization.startswith("Bearer ") and hmac.compare_digest(
                authorization[7:].strip().encode(), self.token.encode()):
            return None
        if hmac.compare_digest(request.cookies.get(COOKIE, "").encode(), self.session.encode()):
            return None
        given = request.query_params.get("token")
        if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            if request.method not in ("GET", "HEAD"):
                return None
            rest = urlencode([(k, v) for k, v in parse_qsl(request.url.query) if k != "token"])
            # One leading slash: "//host/..." would send the browser to another site.
            target = "/" + request.url.path.lstrip("/") + (f"?{rest}" if rest else "")
            redirect = RedirectResponse(target, 303)
            redirect.set_cookie(COOKIE, self.session, httponly=True, samesite="strict", path="/")
            return redirect
        why = "wrong token" if given is not None or authorization else "this dashboard needs its token"
        return PlainTextResponse(f"pipgammon: {why}: open it as {request.url.path}?token=TOKEN "
                                 "(the token is in the [web] section of the config)", 401)


def camera_title(view: CameraView, calibrated: bool, lost: CameraLoss | None = None) -> str:
    """The camera picture's banner: the frame, when, and that it was not read.  An uncalibrated
    frame is not read at all, and the overlay's next line says why (it once blamed a hand).
    A picture kept after the camera was lost says so, opened at full size too."""
    read = "" if view.observation is not None or not calibrated else ": not read (something over the board?)"
    stale = "" if lost is None else f"LAST PICTURE, camera lost at {clock(lost.since)}: "
    return f"{stale}frame {view.frame} at {clock(view.taken)}{read}"


class _Pictures:
    """The camera's picture, drawn once per new frame however many pages ask for it."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self._lock = threading.Lock()
        self._made: dict[str, tuple[tuple[int, int, CameraLoss | None], bytes]] = {}

    def picture(self, kind: str) -> bytes | None:
        """JPEG of the newest frame: ``camera`` with what was read, ``calibration`` with the grid
        only; None when there is no frame yet.  Blocking (OpenCV): run in a worker thread."""
        from pipgammon.web.overlay import jpeg, overlay

        version, view = self.live.camera_view()
        if view is None:
            return None
        calibration = self.live.calibration
        lost = self.live.snapshot().camera_lost
        key = (version, id(calibration), lost)
        with self._lock:
            made = self._made.get(kind)
            if made is not None and made[0] == key:
                return made[1]
            if kind == "camera":
                picture = overlay(view.image, calibration, view.observation,
                                  title=camera_title(view, calibrated=calibration is not None, lost=lost))
            else:
                title = "the calibration in use" if calibration is not None else "the camera"
                picture = overlay(view.image, calibration, None, title=title)
            data = jpeg(picture)
            self._made[kind] = (key, data)
            return data


#: Bytes read from the head of each export to find its "unfinished" note (`says_unfinished`).
HEAD_BYTES = 512


def list_matches(exports: Path) -> list[dict[str, Any]]:
    """The exported matches in ``exports``, newest first: name, size (bytes), modified (ISO, UTC),
    and unfinished: written when the service stopped mid-match (the export's first lines say so)."""
    try:
        # A symlink could point anywhere: only the files the service wrote are offered.
        entries = [p for p in exports.iterdir()
                   if p.suffix.lower() in EXPORT_SUFFIXES and p.is_file() and not p.is_symlink()]
    except FileNotFoundError:
        return []  # nothing exported yet: the service makes the folder with the first match
    found = []
    for path in entries:
        try:
            stat = path.stat()
            with path.open("rb") as handle:
                head = handle.read(HEAD_BYTES).decode("utf-8", "replace")
        except OSError:
            continue  # removed while listing
        found.append((stat.st_mtime, path.name, stat.st_size, says_unfinished(head)))
    found.sort(key=lambda f: (-f[0], f[1]))
    return [{"name": name, "size": size,
             "modified": datetime.fromtimestamp(mtime, UTC).isoformat(timespec="seconds"),
             "unfinished": unfinished}
            for mtime, name, size, unfinished in found]


def create_app(live: Live, *, exports: Path, token: str | None, calibrate: Calibrate | None = None,
               ) -> Starlette:
    """The dashboard over ``live``, offering the matches in ``exports``; ``calibrate`` captures the
    starting position (blocking; returns whether it worked and a message for the player)."""
    pictures = _Pictures(live)
    calibrating = threading.Lock()
    limiter: list[anyio.CapacityLimiter] = []  # made on the event loop, at the first stream
    closing = threading.Event()

    async def dashboard(request: Request) -> Response:
        page = dashboard_page(state_json(live.snapshot()))
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def api_state(request: Request) -> Response:
        return JSONResponse(state_json(live.snapshot()), headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        if not limiter:
            limiter.append(anyio.CapacityLimiter(STREAM_THREADS))

        async def stream() -> AsyncIterator[str]:
            after = -1  # the first event is the state as it is now
            quiet_since = time.monotonic()
            while not closing.is_set():
                snapshot = await anyio.to_thread.run_sync(live.wait, after, WAIT_S, limiter=limiter[0])
                if await request.is_disconnected():
                    return
                if snapshot.version > after:
                    after = snapshot.version
                    yield (f"event: state\nid: {after}\n"
                           f"data: {json.dumps(state_json(snapshot), separators=(',', ':'))}\n\n")
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since >= KEEPALIVE_S:
                    yield ": keep-alive\n\n"
                    quiet_since = time.monotonic()

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def _jpeg(kind: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            data = await anyio.to_thread.run_sync(pictures.picture, kind)
            if data is None:
                return PlainTextResponse("pipgammon: no camera frame yet", 503,
                                         headers={"Cache-Control": "no-store"})
            return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})
        return endpoint

    async def matches(request: Request) -> Response:
        return HTMLResponse(matches_page(list_matches(exports)), headers={"Cache-Control": "no-store"})

    async def api_matches(request: Request) -> Response:
        return JSONResponse(list_matches(exports), headers={"Cache-Control": "no-store"})

    async def download(request: Request) -> Response:
        name = request.path_params["name"]
        # Only a name the listing shows is served: no path of the client's making is ever opened.
        if name not in {m["name"] for m in list_matches(exports)}:
            return PlainTextResponse(f"pipgammon: no exported match named {name!r}", 404)
        return FileResponse(exports / name, filename=name, media_type="text/plain; charset=utf-8",
                            content_disposition_type="attachment")

    async def calibrate_view(request: Request) -> Response:
        return HTMLResponse(calibrate_page(calibrate is not None), headers={"Cache-Control": "no-store"})

    async def api_calibration(request: Request) -> Response:
        calibration = live.calibration
        if calibration is None:
            return JSONResponse({"calibrated": False})
        return JSONResponse({"calibrated": True, "frame_size": list(calibration.frame_size),
                             "corners": [[round(float(v), 1) for v in c] for c in calibration.corners]})

    async def api_calibrate(request: Request) -> Response:
        if calibrate is None:
            return PlainTextResponse("pipgammon: this service cannot calibrate from the page", 501)
        if not calibrating.acquire(blocking=False):
            return PlainTextResponse("pipgammon: a calibration is already running", 409)
        try:
            ok, message = await anyio.to_thread.run_sync(calibrate)
        finally:
            calibrating.release()
        return JSONResponse({"ok": ok, "message": message})

    routes = [
        Route("/", dashboard),
        Route("/api/state", api_state),
        Route("/events", events),
        Route("/camera.jpg", _jpeg("camera")),
        Route("/calibration.jpg", _jpeg("calibration")),
        Route("/matches", matches),
        Route("/api/matches", api_matches),
        Route("/matches/{name}", download),
        Route("/calibrate", calibrate_view),
        Route("/api/calibration", api_calibration),
        Route("/api/calibrate", api_calibrate, methods=["POST"]),
    ]
    async def refused(request: Request, exc: Exception) -> PlainTextResponse:
        """Starlette's own 404 and 405 in the page's voice: every error is one line starting
        with ``pipgammon:`` (docs/web.md)."""
        assert isinstance(exc, HTTPException)
        why = {404: f"no page at {request.url.path}",
               405: f"{request.method} is not how {request.url.path} is asked"}.get(exc.status_code,
                                                                                     exc.detail)
        return PlainTextResponse(f"pipgammon: {why}", exc.status_code, headers=exc.headers)

    app = Starlette(routes=routes, middleware=[Middleware(Guard, token=token)],
                    exception_handlers={HTTPException: refused})
    # `WebServer.stop` sets this so open event streams end at their next wait, not at a timeout.
    app.state.closing = closing
    return app
