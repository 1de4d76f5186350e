"""Every route of the dashboard through Starlette's TestClient, the token, and the guards."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from starlette.testclient import TestClient

from engine.dice import Roll
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position
from engine.records import events_from_selfplay, to_mat, to_sgf, to_text
from engine.referee import Mode, OpeningChoice, Referee, RefereeConfig
from engine.scene import Scene
from engine.selfplay import self_play
from pipgammon.live import CameraView, Live
from pipgammon.web.app import COOKIE, camera_title, create_app, session_value
from vision.observation import observe
from vision.synthetic_game import scenes

from .conftest import Rendered, calibrate_from

LOCAL = "http://127.0.0.1:8080"
TOKEN = "s3cret-token"


def refereed(rendered: Rendered, live: Live, stills: int) -> Referee:
    """The first ``stills`` scenes of the rendered match judged in teaching mode, published to ``live``."""
    referee = Referee(RefereeConfig(mode=Mode.TEACH))
    live.referee(referee, referee.start(""))
    for _, (name, scene, presses) in zip(range(stills), scenes(rendered.script), strict=False):
        events = referee.see(scene, name)
        for button in presses:
            events += referee.press(button, name)
        live.referee(referee, events, scene)
    return referee


@pytest.fixture
def exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    folder.mkdir()
    return folder


def client(live: Live, exports: Path, *, token: str | None = None,
           calibrate: Callable[[], tuple[bool, str]] | None = None, base_url: str = LOCAL) -> TestClient:
    return TestClient(create_app(live, exports=exports, token=token, calibrate=calibrate), base_url=base_url,
                      follow_redirects=False)


# -- the board -----------------------------------------------------------------------------

def test_dashboard_page_is_self_contained_and_carries_the_state(rendered: Rendered, exports: Path) -> None:
    live = Live()
    refereed(rendered, live, 12)
    page = client(live, exports).get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    # Nothing fetched from elsewhere: no external scripts, styles or fonts.
    assert "<script src" not in html and "<link" not in html and "https://" not in html
    assert 'name="viewport"' in html
    start = html.index('<script id="initial" type="application/json">') + len(
        '<script id="initial" type="application/json">')
    state = json.loads(html[start:html.index("</script>", start)])
    assert state["version"] == live.snapshot().version
    assert state["svg"].startswith("<svg") and state["log"]
    for href in ('href="/matches"', 'href="/calibrate"'):
        assert href in html


def test_inlined_state_cannot_close_its_script_element(exports: Path) -> None:
    live = Live()
    live.fault("camera", "</script><script>alert(1)</script>")
    html = client(live, exports).get("/").text
    assert "</script><script>alert(1)" not in html
    assert "\\u003c/script>" in html


def test_api_state_is_the_snapshot_with_its_svg(rendered: Rendered, exports: Path) -> None:
    live = Live()
    referee = refereed(rendered, live, 6)
    state = client(live, exports).get("/api/state").json()
    snapshot = live.snapshot()
    assert {k: v for k, v in state.items() if k != "svg"} == json.loads(json.dumps(snapshot.to_json()))
    assert state["svg"].count('class="checker white"') + state["svg"].count("count") >= 1
    assert state["to_act"] == (referee.to_act.label if referee.to_act is not None else None)
    assert state["legal"] == list(referee.legal_plays)


def test_whoever_is_to_act_is_named_white_included(rendered: Rendered, exports: Path) -> None:
    live = Live()
    referee = Referee()
    live.referee(referee, referee.start(""))
    web = client(live, exports)
    named = set()
    for name, scene, presses in scenes(rendered.script):
        events = referee.see(scene, name)
        for button in presses:
            events += referee.press(button, name)
        live.referee(referee, events, scene)
        if referee.to_act is not None:
            assert web.get("/api/state").json()["to_act"] == referee.to_act.label
            named.add(referee.to_act.label)
        if len(named) == 2:
            break
    assert named == {"white", "black"}


def test_a_double_reads_the_same_in_the_status_and_the_turn_log(exports: Path) -> None:
    """Players write a double 5-5; the status once wrote it 4×5 beside the log's 5-5."""
    live = Live()
    referee = Referee(RefereeConfig(opening=OpeningChoice.STARTER_ROLLS))
    live.referee(referee, referee.start("f0"))
    dice = (("white", 5, False), ("white", 5, False))  # White starts with a double
    live.referee(referee, referee.see(Scene.of(Position.start(), dice=dice), "f1"))
    state = client(live, exports).get("/api/state").json()
    assert state["status"] == "White to play 5-5"
    assert [line["text"] for line in state["log"] if line["type"] == "roll"] == ["White roll 5-5"]
    assert "×" not in state["status"]


def _white_plays_illegally(live: Live) -> None:
    """White opens 3-1 with 8/5 6/5 and moves a third checker, rulebook 12 to 14 (White's 13 to 11)."""
    referee = Referee()
    live.referee(referee, referee.start("f0"))
    dice = (("white", 3, False), ("black", 1, False))
    live.referee(referee, referee.see(Scene.of(Position.start(), dice=dice), "f1"))
    points = list(legal_plays(Position.start(), Player.WHITE, Roll(3, 1)).parse("8/5 6/5").result.points)
    points[11] -= 1
    points[13] += 1
    live.referee(referee, referee.see(Scene(tuple(points), dice=dice), "f2"))
    live.referee(referee, referee.see(Scene(tuple(points)), "f3"))


def _drawing(svg: str) -> tuple[list[int], list[int]]:
    """The drawing's point labels, in the order the points 1..24 are drawn, and the labels by the
    lamps that blink red (a lamp sits at its point's edge, in the label's column and half)."""
    from xml.etree import ElementTree

    from engine.lights import RED
    from pipgammon.board_svg import HEIGHT

    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    labels = {(float(t.get("x", "")), float(t.get("y", "")) < HEIGHT / 2): int(t.text or "")
              for t in root.iter(f"{ns}text") if t.get("class") == "label"}
    lit = [(float(c.get("cx", "")), float(c.get("cy", "")) < HEIGHT / 2) for c in root.iter(f"{ns}circle")
           if c.get("class") == "blink" and c.get("fill") == RED.hex()]
    return list(labels.values()), sorted(labels[place] for place in lit if place in labels)


def test_the_illegal_line_says_its_points_from_the_movers_side_as_the_nearest_play(exports: Path) -> None:
    """The log once said board points 12, 14 beside the nearest play 8/5 6/5 from White's side."""
    live = Live()
    _white_plays_illegally(live)
    state = client(live, exports).get("/api/state").json()
    (line,) = [line for line in state["log"] if line["type"] == "illegal"]
    assert line["text"] == ("White 3-1: ILLEGAL, check points 13, 11 (numbered from White's side); "
                            "nearest legal play 8/5 6/5")
    assert state["status"] == "White: illegal, check points 13, 11 (numbered from White's side)"


def test_the_drawing_labels_the_points_as_the_player_to_act_counts_them(exports: Path) -> None:
    """The line said "check points 13, 11 (numbered from White's side)" while the drawing labelled
    the two blinking lamps 12 and 14, the rulebook's numbering: the drawing now counts from the side
    of the player to act, and says so."""
    live = Live()
    _white_plays_illegally(live)
    svg = client(live, exports).get("/api/state").json()["svg"]
    labels, flagged = _drawing(svg)
    assert flagged == [11, 13]
    assert labels == list(range(24, 0, -1))  # rulebook point 1 is White's 24, and so on
    assert "points numbered from White's side" in svg
    assert "points numbered from" in client(live, exports).get("/").text  # the page inlines the drawing


def test_with_no_one_to_act_the_drawing_keeps_the_rulebooks_numbering(exports: Path) -> None:
    live = Live()
    referee = Referee()
    live.referee(referee, referee.start("f0"))
    assert live.snapshot().to_act is None  # the opening: either may throw
    svg = client(live, exports).get("/api/state").json()["svg"]
    assert _drawing(svg)[0] == list(range(1, 25)) and "points numbered from" not in svg
    # Black counts as the rulebook does, and the caption still says whose side it is.
    dice = (("white", 1, False), ("black", 3, False))
    live.referee(referee, referee.see(Scene.of(Position.start(), dice=dice), "f1"))
    assert live.snapshot().to_act == "black"
    svg = client(live, exports).get("/api/state").json()["svg"]
    assert _drawing(svg)[0] == list(range(1, 25)) and "points numbered from Black's side" in svg


@pytest.mark.parametrize("mode", list(Mode))
def test_legal_plays_appear_while_a_roll_is_played_in_teaching_mode_only(
    mode: Mode, rendered: Rendered, exports: Path
) -> None:
    live = Live()
    referee = Referee(RefereeConfig(mode=mode))
    live.referee(referee, referee.start(""))
    seen_legal = False
    for name, scene, presses in scenes(rendered.script):
        events = referee.see(scene, name)
        for button in presses:
            events += referee.press(button, name)
        live.referee(referee, events, scene)
        if referee.legal_plays:
            seen_legal = True
            break
    assert seen_legal
    state = client(live, exports).get("/api/state").json()
    assert state["mode"] == mode.value
    if mode is Mode.TEACH:
        assert state["legal"] and all(isinstance(p, str) for p in state["legal"])
    else:  # docs/web.md: the list is a teaching aid; playing and recording show none
        assert state["legal"] == []


# -- the camera ----------------------------------------------------------------------------

def test_camera_picture_is_503_until_a_frame_then_a_scaled_jpeg(rendered: Rendered, exports: Path) -> None:
    live = Live()
    web = client(live, exports)
    for path in ("/camera.jpg", "/calibration.jpg"):
        refused = web.get(path)
        assert refused.status_code == 503 and refused.text == "pipgammon: no camera frame yet"
    frame = cv2.imread(str(sorted(rendered.frames.glob("*.jpg"))[20]))
    live.calibrated(rendered.calibration)
    live.camera(frame, observe(frame, rendered.calibration), "00021.jpg")
    for path in ("/camera.jpg", "/calibration.jpg"):
        answer = web.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/jpeg"
        assert answer.headers["cache-control"] == "no-store"
        picture = cv2.imdecode(np.frombuffer(answer.content, np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape[1] == 960 and picture.shape[0] == 720  # already at most 960 wide
    # The same frame is drawn once, however many pages ask.
    assert web.get("/camera.jpg").content == web.get("/camera.jpg").content


# -- matches -------------------------------------------------------------------------------

def _write(folder: Path, name: str, text: str, mtime: float) -> Path:
    path = folder / name
    path.write_text(text)
    os.utime(path, (mtime, mtime))
    return path


def test_matches_are_listed_newest_first_and_downloaded(exports: Path) -> None:
    _write(exports, "old.mat", "; old match\n", 1_700_000_000)
    _write(exports, "new.mat", "; new match\n", 1_700_000_500)
    _write(exports, "eureka.txt", "a text record\n", 1_700_000_100)
    _write(exports, "events.jsonl", "{}\n", 1_700_000_900)  # a journal, not a match
    (exports / "folder.mat").mkdir()
    web = client(Live(), exports)
    listed = web.get("/api/matches").json()
    assert [m["name"] for m in listed] == ["new.mat", "eureka.txt", "old.mat"]
    assert listed[0] == {"name": "new.mat", "size": 12, "modified": "2023-11-14T22:21:40+00:00",
                         "unfinished": False}
    page = web.get("/matches").text
    assert page.index("new.mat") < page.index("eureka.txt") < page.index("old.mat")
    assert 'href="/matches/new.mat" download' in page
    got = web.get("/matches/new.mat")
    assert got.status_code == 200 and got.text == "; new match\n"
    assert got.headers["content-disposition"] == 'attachment; filename="new.mat"'


def test_a_match_written_before_its_end_is_listed_as_unfinished(exports: Path) -> None:
    """A stop mid-match (SIGTERM) writes the match so far; it was listed like a whole one."""
    whole = list(events_from_selfplay(self_play(random.Random(3), 3)))
    cut = whole[:60]
    (exports / "match-20240101-100000.mat").write_text(to_mat(whole))
    (exports / "match-20240101-110000.mat").write_text(to_mat(cut))
    (exports / "match-20240101-120000.txt").write_text(to_text(cut))
    (exports / "match-20240101-130000.sgf").write_text(to_sgf(cut))
    (exports / "match-20240101-140000.sgf").write_text(to_sgf(whole))
    names = ("match-20240101-100000.mat", "match-20240101-110000.mat", "match-20240101-120000.txt",
             "match-20240101-130000.sgf", "match-20240101-140000.sgf")
    for stamp, name in enumerate(names):
        os.utime(exports / name, (1_700_000_000 + stamp, 1_700_000_000 + stamp))
    web = client(Live(), exports)
    listed = web.get("/api/matches").json()
    assert [(m["name"], m["unfinished"]) for m in listed] == [
        ("match-20240101-140000.sgf", False), ("match-20240101-130000.sgf", True),
        ("match-20240101-120000.txt", True), ("match-20240101-110000.mat", True),
        ("match-20240101-100000.mat", False)]
    html = web.get("/matches").text
    rows = html[html.index("<tbody>"):html.index("</tbody>")].split("<tr>")[1:]
    assert ["badge unfinished" in row for row in rows] == [False, True, True, True, False]
    assert web.get("/matches/match-20240101-140000.sgf").text == to_sgf(whole)
    assert "the service was stopped before the match ended" in html
    # The files themselves are served as written.
    assert web.get("/matches/match-20240101-110000.mat").text == to_mat(cut)


def test_no_exports_folder_yet_lists_nothing(tmp_path: Path) -> None:
    web = client(Live(), tmp_path / "not-yet")
    assert web.get("/api/matches").json() == []
    assert "No match has been exported yet" in web.get("/matches").text


@pytest.mark.parametrize("name", ["..%2Fsecret.mat", "%2Fetc%2Fpasswd", "events.jsonl", "missing.mat",
                                  "link.mat", "folder.mat", "%2E%2E", "..%2F..%2Fetc%2Fpasswd"])
def test_only_listed_matches_are_served(exports: Path, tmp_path: Path, name: str) -> None:
    _write(tmp_path, "secret.mat", "not for download\n", 1_700_000_000)
    _write(exports, "events.jsonl", "{}\n", 1_700_000_000)
    (exports / "link.mat").symlink_to(tmp_path / "secret.mat")
    (exports / "folder.mat").mkdir()
    answer = client(Live(), exports).get(f"/matches/{name}")
    assert answer.status_code == 404
    assert "not for download" not in answer.text


# -- the token and the guards --------------------------------------------------------------

def test_without_a_token_only_loopback_host_names_are_answered(exports: Path) -> None:
    for base in ("http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "http://localhost"):
        assert client(Live(), exports, base_url=base).get("/api/state").status_code == 200, base
    refused = client(Live(), exports, base_url="http://rebound.example:8080").get("/api/state")
    assert refused.status_code == 403
    assert refused.text == ("pipgammon: host 'rebound.example:8080' refused: without a web token the "
                            "dashboard answers only to localhost")


def test_a_token_is_needed_for_every_route(exports: Path) -> None:
    web = client(Live(), exports, token=TOKEN, base_url="http://192.168.1.20:8080")
    for path in ("/", "/api/state", "/events", "/camera.jpg", "/matches", "/api/matches", "/calibrate",
                 "/calibration.jpg", "/api/calibration", "/matches/x.mat"):
        answer = web.get(path)
        assert answer.status_code == 401, path
        assert answer.text.startswith("pipgammon: this dashboard needs its token: open it as ")
        assert TOKEN not in answer.text
    assert web.post("/api/calibrate").status_code == 401


def test_wrong_tokens_are_refused(exports: Path) -> None:
    web = client(Live(), exports, token=TOKEN, base_url="http://192.168.1.20:8080")
    assert web.get("/api/state", headers={"Authorization": "Bearer nope"}).status_code == 401
    wrong = web.get("/api/state?token=nope")
    assert wrong.status_code == 401 and wrong.text.startswith("pipgammon: wrong token")
    web.cookies.set(COOKIE, "forged")
    assert web.get("/api/state").status_code == 401
    web.cookies.set(COOKIE, TOKEN)  # the cookie holds a value derived from the token, not the token
    assert web.get("/api/state").status_code == 401


def test_the_bearer_header_opens_every_route(exports: Path) -> None:
    web = client(Live(), exports, token=TOKEN, base_url="http://192.168.1.20:8080")
    headers = {"Authorization": f"Bearer {TOKEN}"}
    assert web.get("/api/state", headers=headers).status_code == 200
    assert web.get("/", headers=headers).status_code == 200
    assert web.get("/camera.jpg", headers=headers).status_code == 503  # past the guard: no frame yet


def test_the_token_in_the_address_sets_a_strict_cookie_and_leaves_the_address(exports: Path) -> None:
    web = client(Live(), exports, token=TOKEN, base_url="http://192.168.1.20:8080")
    first = web.get(f"/matches?sort=new&token={TOKEN}")
    assert first.status_code == 303 and first.headers["location"] == "/matches?sort=new"
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={session_value(TOKEN)};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert TOKEN not in cookie
    # From then on the page's own requests (the event stream, the pictures) carry the cookie.
    assert web.get("/api/state").status_code == 200
    assert web.get("/").status_code == 200


def test_the_token_redirect_stays_on_this_site(exports: Path) -> None:
    # httpx would send "//evil.example/x" to evil.example, so the request is made by hand.
    app = create_app(Live(), exports=exports, token=TOKEN)
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "//evil.example/x", "raw_path": b"//evil.example/x",
             "query_string": f"token={TOKEN}".encode(), "headers": [(b"host", b"pi:8080")], "scheme": "http",
             "server": ("pi", 8080), "root_path": "", "http_version": "1.1", "asgi": {"version": "3.0"}}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    headers = dict(sent[0]["headers"])  # type: ignore[call-overload]
    assert sent[0]["status"] == 303 and headers[b"location"] == b"/evil.example/x"


def test_posts_from_another_site_are_refused(exports: Path) -> None:
    calls: list[int] = []

    def count() -> tuple[bool, str]:
        calls.append(1)
        return False, "no camera frame yet"

    web = client(Live(), exports, calibrate=count)
    refused = web.post("/api/calibrate", headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and refused.text == (
        "pipgammon: a POST from another site (evil.example) is refused")
    assert web.post("/api/calibrate", headers={"Referer": "http://evil.example/page"}).status_code == 403
    assert calls == []
    assert web.post("/api/calibrate", headers={"Origin": LOCAL}).status_code == 200
    assert web.post("/api/calibrate", headers={"Referer": f"{LOCAL}/calibrate"}).status_code == 200
    assert web.post("/api/calibrate").status_code == 200  # no Origin: not a browser's cross-site form
    assert calls == [1, 1, 1]


# -- calibration ---------------------------------------------------------------------------

def test_calibrate_is_501_when_the_service_cannot(exports: Path) -> None:
    web = client(Live(), exports)
    answer = web.post("/api/calibrate", headers={"Origin": LOCAL})
    assert answer.status_code == 501
    assert answer.text == "pipgammon: this service cannot calibrate from the page"
    assert 'id="capture"' not in web.get("/calibrate").text


def test_calibrate_captures_the_starting_position(rendered: Rendered, exports: Path, tmp_path: Path) -> None:
    live = Live()
    saved = tmp_path / "state" / "calibration.json"
    web = client(live, exports, calibrate=lambda: calibrate_from(live, saved))
    page = web.get("/calibrate").text
    assert "Capture the starting position" in page
    assert web.get("/api/calibration").json() == {"calibrated": False}
    assert web.post("/api/calibrate").json() == {
        "ok": False, "message": "not calibrated: no camera frame yet (is the camera connected?)"}
    # A frame in the middle of the game is not the starting position: refused, with vision's reason.
    middle = cv2.imread(str(sorted(rendered.frames.glob("*.jpg"))[60]))
    live.camera(middle, None, "00061.jpg")
    refused = web.post("/api/calibrate").json()
    assert refused["ok"] is False and refused["message"].startswith("not calibrated: ")
    assert live.calibration is None and not saved.exists()
    live.camera(rendered.start, None, "start")
    done = web.post("/api/calibrate").json()
    assert done == {"ok": True, "message": f"calibrated on frame start (960x720); saved {saved}"}
    assert saved.exists()
    state = web.get("/api/calibration").json()
    assert state["calibrated"] is True and state["frame_size"] == [960, 720] and len(state["corners"]) == 4
    np.testing.assert_allclose(state["corners"], rendered.calibration.corners, atol=3)
    assert web.get("/calibration.jpg").status_code == 200


def test_one_calibration_at_a_time(exports: Path) -> None:
    started, release = threading.Event(), threading.Event()

    def slow() -> tuple[bool, str]:
        started.set()
        release.wait(10)
        return True, "calibrated"

    web = client(Live(), exports, calibrate=slow)
    answers: list[int] = []
    first = threading.Thread(target=lambda: answers.append(web.post("/api/calibrate").status_code))
    first.start()
    assert started.wait(10)
    second = web.post("/api/calibrate")
    release.set()
    first.join(10)
    assert second.status_code == 409 and second.text == "pipgammon: a calibration is already running"
    assert answers == [200]



def test_the_camera_banner_blames_a_hand_only_when_the_frame_was_calibrated() -> None:
    # An uncalibrated frame is never read; its banner said "something over the board?" all the same.
    view = CameraView(np.zeros((4, 4, 3), np.uint8), None, "00015.jpg", 0.0)
    assert camera_title(view, calibrated=False).startswith("frame 00015.jpg at ")
    assert not camera_title(view, calibrated=False).endswith("?)")
    assert camera_title(view, calibrated=True).endswith(": not read (something over the board?)")


def test_a_lost_camera_marks_its_last_picture_stale_until_a_frame_comes(exports: Path) -> None:
    """The page once went on showing the last picture of a lost camera as if it were live."""
    live = Live()
    image = np.full((480, 640, 3), 90, np.uint8)
    live.camera(image, None, "00041.jpg")
    web = client(live, exports)
    assert web.get("/api/state").json()["camera_lost"] is None
    live_picture = web.get("/camera.jpg").content
    why = "folder:/frames: the folder is gone"
    before = live.snapshot().version
    live.camera_lost(why)
    live.camera_lost(why)  # every retry says it again: no news for the pages
    assert live.snapshot().version == before + 1
    state = web.get("/api/state").json()
    lost = state["camera_lost"]
    assert lost["why"] == why and lost["frame"] == "00041.jpg" and state["faults"] == {"camera": why}
    assert re.fullmatch(r"\d\d:\d\d:\d\d", lost["since"]) and re.fullmatch(r"\d\d:\d\d:\d\d", lost["taken"])
    # The page draws the mark from that state: a caption over the picture, and the picture dimmed.
    html = web.get("/").text
    assert '<p id="camera-lost" role="status" hidden>' in html and 'id="camera-box"' in html
    assert ".camera.stale img { opacity: .35;" in html
    assert 'classList.toggle("stale", !!lost)' in html and "this is its last picture, frame " in html
    # The picture opened at full size says so in its banner (drawn again, not the cached live one).
    assert web.get("/camera.jpg").content != live_picture
    view = live.camera_view()[1]
    assert view is not None and live.snapshot().camera_lost is not None
    assert camera_title(view, calibrated=False, lost=live.snapshot().camera_lost).startswith(
        f"LAST PICTURE, camera lost at {lost['since']}: frame 00041.jpg at ")
    # A frame again: the mark goes (the fault is the service's to clear, when it opened the camera).
    live.camera(image, None, "00042.jpg")
    assert web.get("/api/state").json()["camera_lost"] is None


def test_a_camera_lost_before_its_first_frame_has_no_picture_to_mark(exports: Path) -> None:
    live = Live()
    live.camera_lost("/dev/video0: no such device")
    lost = client(live, exports).get("/api/state").json()["camera_lost"]
    assert lost["frame"] is None and lost["taken"] is None and lost["why"] == "/dev/video0: no such device"


def test_a_page_that_is_not_there_or_a_wrong_method_is_one_pipgammon_line(exports: Path) -> None:
    # Starlette's own answers were "Not Found" and "Method Not Allowed", where docs/web.md says every
    # error is one line starting with "pipgammon:".
    web = client(Live(), exports)
    missing = web.get("/nowhere")
    assert (missing.status_code, missing.text) == (404, "pipgammon: no page at /nowhere")
    posted = web.post("/api/state")
    assert posted.status_code == 405 and posted.text == "pipgammon: POST is not how /api/state is asked"
    assert "GET" in posted.headers["allow"]
