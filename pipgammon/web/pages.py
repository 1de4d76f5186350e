"""The dashboard's pages: self-contained HTML (inline CSS and script, nothing from elsewhere).

The board page renders everything from the state JSON that ``/api/state`` and each
``/events`` event carry; the first state is inlined so the page is whole before the event
stream connects.  The layout is one column on a phone or a tablet held upright, and the
board beside the log on anything wider.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

_CSS = """
:root { color-scheme: dark; --bg: #15181c; --panel: #1f242a; --line: #323a43; --text: #e7e9ec;
  --dim: #9aa4ae; --accent: #f0b43c; --bad: #ff5d5d; --good: #5ccf7a; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }  /* over the display of .camera img and the like */
body { margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1rem; padding: .6rem 1rem;
  background: var(--panel); border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.15rem; margin: 0; letter-spacing: .02em; }
header nav { margin-left: auto; display: flex; gap: .9rem; }
a { color: var(--accent); }
header nav a { text-decoration: none; padding: .25rem .1rem; }
header nav a.here { color: var(--text); border-bottom: 2px solid var(--accent); }
#link { font-size: .85rem; color: var(--dim); }
#link.live::before { content: "\\25CF "; color: var(--good); }
#link.down::before { content: "\\25CF "; color: var(--bad); }
main { padding: .8rem 1rem 2rem; max-width: 1500px; margin: 0 auto; }
.grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 2fr); gap: 1rem; }
@media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: .8rem; }
.panel h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .08em; color: var(--dim);
  margin: 0 0 .5rem; font-weight: 600; }
.stack { display: flex; flex-direction: column; gap: 1rem; min-width: 0; }
#board svg { width: 100%; height: auto; display: block; border-radius: 8px; }
#status { font-size: 1.2rem; font-weight: 600; margin: .7rem 0 .2rem; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr)); gap: .6rem; }
.fact { background: #262c33; border-radius: 8px; padding: .45rem .6rem; }
.fact .k { font-size: .72rem; text-transform: uppercase; letter-spacing: .07em; color: var(--dim); }
.fact .v { font-size: 1.1rem; font-weight: 600; }
.who { display: inline-block; width: .85em; height: .85em; border-radius: 50%; vertical-align: -.05em;
  margin-right: .3em; border: 1px solid #777; }
.who.white { background: #f4efe4; } .who.black { background: #111; }
.die { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 5px; margin-right: .25em;
  padding: 0 .2em; border: 1px solid #777; }
.die.white { background: #f4efe4; color: #111; } .die.black { background: #111; color: #eee; }
.die.cocked { transform: rotate(18deg); border-color: var(--bad); }
.badge { font-size: .72rem; background: var(--accent); color: #111; border-radius: 4px; padding: 0 .35em;
  margin-left: .35em; vertical-align: .1em; }
.badge.unfinished { background: var(--bad); color: #fff; }
#faults { background: #5a1717; border: 2px solid var(--bad); border-radius: 10px; padding: .6rem .9rem;
  margin-bottom: 1rem; font-weight: 600; }
#faults ul { margin: .2rem 0 0; padding-left: 1.2rem; }
ol.plays { margin: 0; padding-left: 1.6rem; columns: 2 11rem; font-family: ui-monospace, monospace; }
ol.log { list-style: none; margin: 0; padding: 0; max-height: 30rem; overflow-y: auto; }
ol.log li { padding: .3rem .45rem; border-bottom: 1px solid var(--line); display: flex; gap: .6rem; }
ol.log li .f { color: var(--dim); font-size: .78rem; min-width: 4.3rem; font-family: ui-monospace, monospace;
  padding-top: .12rem; }
ol.log li.illegal { background: #4a1d1d; border-left: 4px solid var(--bad); font-weight: 600; }
ol.log li.accepted .t, ol.log li.corrected .t { color: #bfe8c9; }
ol.log li.game-over, ol.log li.match-over { background: #3b3313; border-left: 4px solid var(--accent); }
.empty { color: var(--dim); font-style: italic; }
.camera img { width: 100%; height: auto; display: block; border-radius: 6px; background: #000; }
.camera .frame { position: relative; }
.camera.stale img { opacity: .35; filter: grayscale(1); }
#camera-lost { position: absolute; top: 0; left: 0; right: 0; margin: 0; z-index: 1; padding: .45rem .6rem;
  background: rgba(90, 23, 23, .92); border-bottom: 2px solid var(--bad); border-radius: 6px 6px 0 0;
  font-size: .9rem; font-weight: 600; }
.camera.stale .frame { min-height: 3.2rem; }
.note { color: var(--dim); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); }
th { color: var(--dim); font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
button { font: inherit; font-weight: 600; background: var(--accent); color: #111; border: 0;
  border-radius: 8px; padding: .7rem 1.2rem; cursor: pointer; }
button:disabled { opacity: .5; cursor: wait; }
#message { margin-top: .7rem; font-weight: 600; }
#message.ok { color: var(--good); } #message.bad { color: var(--bad); }
"""

# Fetches a JPEG into an <img> once a second while the page is visible; a refusal (503: no frame
# yet) shows its message instead.  One request at a time, so a slow Pi is never asked twice.
_PICTURE_JS = """
function pictureLoop(url, img, note) {
  let busy = false, shown = null;
  async function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const r = await fetch(url + "?t=" + Date.now(), {cache: "no-store"});
      if (r.ok) {
        const next = URL.createObjectURL(await r.blob());
        const probe = new Image();
        probe.src = next;
        await probe.decode();  // swap only a decoded picture in: no flicker, no broken image
        img.src = next; img.hidden = false; note.hidden = true;
        if (shown) URL.revokeObjectURL(shown);
        shown = next;
      } else {
        note.textContent = (await r.text()).replace(/^pipgammon: /, ""); note.hidden = false;
      }
    } catch (e) {
      note.textContent = "the service does not answer"; note.hidden = false;
    } finally { busy = false; }
  }
  refresh(); setInterval(refresh, 1000);
}
"""

_DASHBOARD_JS = """
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
function render(s) {
  $("board").innerHTML = s.svg;
  $("status").textContent = s.status;
  const turn = $("turn"); turn.replaceChildren();
  if (s.to_act) turn.append(el("span", "who " + s.to_act), cap(s.to_act));
  else turn.textContent = "\\u2014";
  const dice = $("dice"); dice.replaceChildren();
  if (s.dice.length === 0) dice.textContent = "\\u2014";
  for (const d of s.dice) {
    dice.append(el("span", "die " + d.color + (d.cocked ? " cocked" : ""), String(d.value)));
  }
  const score = $("score"); score.replaceChildren();
  score.append(el("span", "who white"), String(s.score[0]), " \\u2013 ",
               el("span", "who black"), String(s.score[1]));
  if (s.crawford) score.append(el("span", "badge", "Crawford"));
  $("match").textContent = s.match_to + (s.match_to === 1 ? " point" : " points");
  $("game").textContent = String(s.game);
  $("mode").textContent = s.mode + (s.variant !== "standard" ? " \\u00b7 " + s.variant : "");
  $("cube").textContent = s.cube ? (s.cube.place === "center" ? "centre" : s.cube.value + ", " + s.cube.place)
                                 : "\\u2014";
  const faults = Object.entries(s.faults);
  $("faults").hidden = faults.length === 0;
  const fl = $("fault-list"); fl.replaceChildren();
  for (const [part, why] of faults) fl.append(el("li", "", part + ": " + why));
  $("legal-box").hidden = s.legal.length === 0;
  const legal = $("legal"); legal.replaceChildren();
  for (const play of s.legal) legal.append(el("li", "", play));
  const log = $("log"); log.replaceChildren();
  for (const line of s.log.slice().reverse()) {
    const li = el("li", line.type);
    li.append(el("span", "f", line.frame), el("span", "t", line.text));
    log.append(li);
  }
  if (s.log.length === 0) log.append(el("li", "empty", "nothing decided yet"));
  $("log-count").textContent = s.log.length ? "(" + s.log.length + ")" : "";
  // A lost camera leaves its last picture on the page: dimmed, and said to be stale.
  const lost = s.camera_lost;
  $("camera-box").classList.toggle("stale", !!lost);
  $("camera-lost").hidden = !lost;
  if (lost) $("camera-lost").textContent = "Camera lost at " + lost.since + (lost.frame
    ? ": this is its last picture, frame " + lost.frame + " at " + lost.taken : ": no picture yet")
    + " (" + lost.why + ")";
  document.body.dataset.version = String(s.version);
}
render(JSON.parse($("initial").textContent));
function connect() {
  const events = new EventSource("/events");
  events.addEventListener("state", (e) => render(JSON.parse(e.data)));
  events.onopen = () => { $("link").className = "live"; $("link").textContent = "live"; };
  events.onerror = () => { $("link").className = "down"; $("link").textContent = "reconnecting\\u2026"; };
}
connect();
pictureLoop("/camera.jpg", $("camera"), $("camera-note"));
"""


def _page(title: str, here: str, body: str, script: str = "") -> str:
    links = "".join(f'<a href="{href}"{" class=here" if href == here else ""}>{name}</a>'
                    for href, name in (("/", "Board"), ("/matches", "Matches"),
                                       ("/calibrate", "Calibration")))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
            f'<header><h1>pipgammon</h1><span id="link"></span><nav>{links}</nav></header>'
            f"<main>{body}</main>" + (f"<script>{script}</script>" if script else "") + "</body></html>")


def _inline_json(data: Any) -> str:
    """JSON safe inside a <script> element: no ``</script>`` or ``<!--`` can close it early."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def dashboard_page(state: dict[str, Any]) -> str:
    """The board page; ``state`` is `app.state_json` of the snapshot when the page is asked for."""
    facts = "".join(f'<div class="fact"><div class="k">{k}</div><div class="v" id="{i}"></div></div>'
                    for k, i in (("To act", "turn"), ("Dice", "dice"), ("Score", "score"),
                                 ("Match to", "match"), ("Game", "game"), ("Mode", "mode"), ("Cube", "cube")))
    body = f"""
<div id="faults" hidden>Something needs attention<ul id="fault-list"></ul></div>
<div class="grid">
  <div class="stack">
    <section class="panel"><div id="board"></div><div id="status"></div></section>
    <section class="panel"><div class="facts">{facts}</div></section>
  </div>
  <div class="stack">
    <section class="panel" id="legal-box" hidden><h2>Legal plays</h2>
      <ol class="plays" id="legal"></ol></section>
    <section class="panel camera" id="camera-box"><h2>Camera</h2>
      <div class="frame"><p id="camera-lost" role="status" hidden></p>
      <a href="/camera.jpg" target="_blank"><img id="camera" alt="the camera's view" hidden></a></div>
      <p id="camera-note" class="note">waiting for the camera</p></section>
    <section class="panel"><h2>Turn log <span id="log-count"></span></h2>
      <ol class="log" id="log"></ol></section>
  </div>
</div>
<script id="initial" type="application/json">{_inline_json(state)}</script>"""
    return _page("pipgammon", "/", body, _PICTURE_JS + _DASHBOARD_JS)


def _size(size: int) -> str:
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KB"


_UNFINISHED = ('<span class="badge unfinished" title="written when the service stopped mid-match">'
               "unfinished</span>")


def matches_page(matches: list[dict[str, Any]]) -> str:
    """The exported matches (`app.list_matches`), each a download link."""
    if matches:
        rows = "".join(
            f'<tr><td><a href="/matches/{escape(m["name"])}" download>{escape(m["name"])}</a>'
            + (_UNFINISHED if m.get("unfinished") else "") + "</td>"
            f'<td class="num">{_size(m["size"])}</td>'
            f'<td>{escape(m["modified"][:19].replace("T", " "))}</td></tr>'
            for m in matches)
        table = f"<table><thead><tr><th>Match</th><th>Size</th><th>Written (UTC)</th></tr></thead>" \
                f"<tbody>{rows}</tbody></table>"
    else:
        table = '<p class="empty">No match has been exported yet: one is written when a match ends.</p>'
    unfinished = ('<p class="note"><span class="badge unfinished">unfinished</span> the service was stopped '
                  "before the match ended and wrote what it had: the game in play is there up to its last "
                  "accepted play, with no result. When the service starts again it resumes the newest "
                  "unfinished match, and writes its file again, whole, when it ends.</p>"
                  if any(m.get("unfinished") for m in matches) else "")
    body = (f'<section class="panel"><h2>Recorded matches</h2>{table}{unfinished}'
            f'<p class="note">.mat files open in GNU Backgammon (File \u2192 Import); '
            f"variants gnubg cannot replay are kept as .txt records.</p></section>")
    return _page("pipgammon: matches", "/matches", body)


_CALIBRATE_JS = """
const $ = (id) => document.getElementById(id);
async function showCalibration() {
  const r = await fetch("/api/calibration", {cache: "no-store"});
  if (!r.ok) return;
  const c = await r.json();
  $("calibrated").textContent = c.calibrated
    ? "Calibrated for " + c.frame_size[0] + "\\u00d7" + c.frame_size[1]
      + " frames: the amber grid should sit on the points."
    : "Not calibrated: set up the starting position with nothing else on the board, then capture it.";
}
const button = $("capture");
if (button) button.addEventListener("click", async () => {
  button.disabled = true;
  const message = $("message");
  message.className = ""; message.textContent = "Capturing\\u2026";
  try {
    const r = await fetch("/api/calibrate", {method: "POST"});
    if ((r.headers.get("content-type") || "").startsWith("application/json")) {
      const answer = await r.json();
      message.className = answer.ok ? "ok" : "bad"; message.textContent = answer.message;
    } else {
      message.className = "bad"; message.textContent = (await r.text()).replace(/^pipgammon: /, "");
    }
  } catch (e) {
    message.className = "bad"; message.textContent = "the service does not answer";
  } finally { button.disabled = false; showCalibration(); }
});
showCalibration(); setInterval(showCalibration, 5000);
pictureLoop("/calibration.jpg", $("picture"), $("picture-note"));
"""


def calibrate_page(can_calibrate: bool) -> str:
    """The calibration page: the newest frame with the grid in use, and the capture button."""
    action = ('<button id="capture">Capture the starting position</button>'
              '<div id="message" role="status"></div>'
              if can_calibrate else '<p class="note">This service cannot calibrate from the page: run '
              "<code>pipgammon calibrate</code>.</p>")
    body = f"""
<div class="grid">
  <section class="panel camera"><h2>Camera and grid</h2>
    <img id="picture" alt="the camera with the grid" hidden>
    <p id="picture-note" class="note">waiting for the camera</p></section>
  <section class="panel"><h2>Calibration</h2><p id="calibrated"></p>
    <ol><li>Set up the starting position: all 30 checkers, no dice, the cube off the board.</li>
    <li>Keep hands and arms clear of the board.</li><li>Press the button; it takes a few seconds.</li></ol>
    {action}</section>
</div>"""
    return _page("pipgammon: calibration", "/calibrate", body, _PICTURE_JS + _CALIBRATE_JS)
