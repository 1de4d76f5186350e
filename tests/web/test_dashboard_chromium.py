"""The dashboard in a real headless Chromium while the service referees a rendered game played as a camera.

The page is opened with the token in its address, as a player on the network would, so the
event stream and the pictures run on the cookie it sets.  The board must change and the
turn log grow as the game is played; then a match is downloaded from the matches page and
the calibration page's button is pressed.  Screenshots go to pytest's tmp_path and, for a
person to look at, to /tmp/web-shots/.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.lights import RED
from pipgammon.camera import FolderCamera
from pipgammon.config import parse_config
from pipgammon.live import Live
from pipgammon.service import Service
from pipgammon.web.app import create_app
from pipgammon.web.server import WebServer

from .conftest import Rendered

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
SHOTS = Path("/tmp/web-shots")
TOKEN = "table-7-token"
#: Copies of each still the camera gives: the stabiliser's three agreeing frames after one that moved.
FPS = 4

pytestmark = pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()),
                                reason="needs Debian's chromium and chromium-driver (/usr/bin/chromium, "
                                       "/usr/bin/chromedriver): apt-get install chromium chromium-driver")


class Table(threading.Thread):
    """The service, as `pipgammon run` runs it, on the rendered match played as a camera."""

    def __init__(self, live: Live, rendered: Rendered, state: Path, exports: Path) -> None:
        super().__init__(name="table", daemon=True)
        config = parse_config(f'[camera]\nsource = "folder:{rendered.frames}"\nfps = {FPS}\n'
                              f'[calibration]\npath = "{state / "calibration.json"}"\n'
                              f'[game]\nmode = "teach"\n'
                              f'[storage]\njournal-dir = "{state}"\nexport-dir = "{exports}"\n')
        camera = FolderCamera(rendered.frames, FPS, clock=lambda: 0.0, sleep=lambda s: None)
        self.service = Service(config, camera, live=live, calibration=rendered.calibration)
        self.service.exit_at_end = True
        self.service.on_event.append(self._hold)
        self.go = threading.Event()
        # The table holds still once at the first roll with legal plays, for the teaching screenshot,
        # and once at White's first illegal play (White counts the points against the rulebook).
        self.teaching, self.carry_on = threading.Event(), threading.Event()
        self.flagged, self.carry_on_flagged = threading.Event(), threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self.go.wait(60)
            self.service.run(threading.Event())
        except BaseException as err:  # the test reports it
            self.failure = err

    def _hold(self, event: Any, referee: Any) -> None:
        if referee.legal_plays and not self.teaching.is_set():
            self.teaching.set()
            self.carry_on.wait(20)
        if event.type == "illegal" and event["player"] == "white" and not self.flagged.is_set():
            self.flagged.set()
            self.carry_on_flagged.wait(20)


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    browser = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    browser.execute_cdp_cmd("Browser.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": str(downloads)})
    browser.downloads = downloads
    try:
        yield browser
    finally:
        browser.quit()


def _shot(driver: Any, tmp_path: Path, name: str) -> None:
    assert driver.save_screenshot(str(tmp_path / name))
    SHOTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(SHOTS / name))


CHECKERS_JS = ("return Array.from(document.querySelectorAll('#board circle.checker'))"
               ".map(c => c.getAttribute('class') + '@' + c.getAttribute('cx') + ',' + c.getAttribute('cy'))"
               ".join(' ')")
LOG_JS = "return document.querySelectorAll('#log li:not(.empty)').length"
#: The drawing's labels by the lamps that blink red: a lamp is in its point's label's column and half.
FLAGGED_JS = """
const svg = document.querySelector('#board svg'), half = svg.viewBox.baseVal.height / 2;
const at = (x, y) => x + (y < half ? 'top' : 'bottom');
const labels = new Map(Array.from(svg.querySelectorAll('text.label'))
  .map(t => [at(t.getAttribute('x'), +t.getAttribute('y')), t.textContent]));
return Array.from(svg.querySelectorAll('circle.blink'))
  .filter(c => c.getAttribute('fill') === arguments[0])
  .map(c => labels.get(at(c.getAttribute('cx'), +c.getAttribute('cy'))))
  .filter(l => l !== undefined).map(Number).sort((a, b) => a - b);
"""
CAMERA_JS = "const i = document.getElementById('camera'); return !i.hidden && i.naturalWidth === 960"


def test_the_dashboard_follows_a_replayed_game(driver: Any, rendered: Rendered, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    exports = tmp_path / "exports"
    exports.mkdir()
    live = Live()
    table = Table(live, rendered, tmp_path / "state", exports)
    app = create_app(live, exports=exports, token=TOKEN, calibrate=table.service.calibrate_now)
    with WebServer(app, "127.0.0.1", 0) as web:
        table.start()
        driver.get(f"{web.url}/?token={TOKEN}")
        assert "token" not in driver.current_url  # the token went into a cookie, out of the address
        wait = WebDriverWait(driver, 45, poll_frequency=0.2)
        wait.until(lambda d: d.execute_script("return document.getElementById('link').textContent") == "live")
        first = driver.execute_script(CHECKERS_JS)
        assert first.count("checker white") == 15 and driver.execute_script(LOG_JS) == 0

        table.go.set()
        assert table.teaching.wait(120)
        # Teaching mode: the legal plays of the roll are listed, and the one to act is named.
        snapshot = live.snapshot()
        wait.until(lambda d: d.find_element(By.ID, "legal-box").is_displayed())
        listed = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#legal li")]
        assert listed == list(snapshot.legal)
        assert snapshot.to_act is not None
        assert driver.find_element(By.ID, "turn").text == snapshot.to_act.capitalize()
        wait.until(lambda d: d.execute_script(CAMERA_JS)
                   and not d.find_element(By.ID, "camera-note").is_displayed())
        _shot(driver, tmp_path, "dashboard-teaching.png")
        table.carry_on.set()
        # White's illegal play: the lamps blink by the labels the line names, counted from White's side.
        assert table.flagged.wait(120)
        line = next(line for line in reversed(live.snapshot().log) if line.type == "illegal")
        named = sorted(int(n) for n in re.search(r"check points? ([\d, ]+) \(numbered from White's side\)",
                                                  line.text).group(1).split(", "))
        wait.until(lambda d: line.text in d.find_element(By.ID, "log").text)
        assert driver.execute_script(FLAGGED_JS, RED.hex()) == named
        assert "points numbered from White's side" in driver.find_element(By.ID, "board").text
        _shot(driver, tmp_path, "dashboard-illegal.png")
        table.carry_on_flagged.set()
        wait.until(lambda d: d.execute_script(CHECKERS_JS) != first and d.execute_script(LOG_JS) >= 4)
        table.join(300)  # a hang guard, not a speed target: CI machines are shared
        assert table.failure is None, table.failure
        assert not table.is_alive()
        (exported,) = table.service.stats.exported  # the match, exported when it was over
        final = live.snapshot()
        # Who won stays on the page while the board is set up again (it once said only "Match over").
        assert re.match(r"Match over: (White|Black) won \d+-\d+; set up the board", final.status), \
            final.status
        wait.until(lambda d: d.find_element(By.ID, "status").text == final.status)
        assert driver.execute_script(LOG_JS) == len(final.log)
        newest = driver.find_element(By.CSS_SELECTOR, "#log li").text
        assert newest.endswith(final.log[-1].text)  # newest first
        assert driver.execute_script("return document.body.dataset.version") == str(final.version)
        # The camera picture arrived through the cookie, as a picture of the board.
        wait.until(lambda d: d.execute_script(CAMERA_JS))
        _shot(driver, tmp_path, "dashboard.png")
        # A failing part is shown at the top until it recovers.
        live.fault("lights", "GPIO 17 is busy")
        wait.until(lambda d: d.find_element(By.ID, "faults").is_displayed())
        assert driver.find_element(By.ID, "fault-list").text == "lights: GPIO 17 is busy"
        _shot(driver, tmp_path, "dashboard-fault.png")
        live.fault("lights", None)
        wait.until(lambda d: not d.find_element(By.ID, "faults").is_displayed())
        driver.set_window_size(820, 1800)  # a tablet held upright
        time.sleep(0.3)
        _shot(driver, tmp_path, "dashboard-portrait.png")
        driver.set_window_size(1280, 1000)

        driver.get(f"{web.url}/matches")
        link = driver.find_element(By.LINK_TEXT, exported.name)
        _shot(driver, tmp_path, "matches.png")
        link.click()
        target = driver.downloads / exported.name
        wait.until(lambda d: target.exists() and not list(driver.downloads.glob("*.crdownload")))
        assert target.read_bytes() == exported.read_bytes()
        assert b"Game 1" in target.read_bytes()

        driver.get(f"{web.url}/calibrate")
        wait.until(lambda d: d.execute_script(
            "const i = document.getElementById('picture'); return !i.hidden && i.naturalWidth > 0"))
        wait.until(lambda d: d.find_element(By.ID, "calibrated").text.startswith("Calibrated for 960"))
        driver.find_element(By.ID, "capture").click()
        # The newest frame is the end of the match, not the starting position: refused, and said so.
        wait.until(lambda d: d.find_element(By.ID, "message").text.startswith("not calibrated: "))
        assert "bad" in driver.find_element(By.ID, "message").get_attribute("class")
        _shot(driver, tmp_path, "calibrate.png")
