"""The stabiliser: only scenes held still for N agreeing frames reach the referee, once each."""

from __future__ import annotations

import numpy as np
import pytest

from vision.stabiliser import Scene, Stabiliser, StabiliserConfig, motion, shrink

A = Scene((1,) + (0,) * 23, (0, 0), ())
B = Scene((2,) + (0,) * 23, (0, 0), (("white", 3, False), ("white", 5, False)))


def feed(stabiliser: Stabiliser, frames: list[tuple[str, Scene | None, float]]) -> list[tuple[int, Scene]]:
    out = []
    for i, (status, scene, moved) in enumerate(frames):
        stable = stabiliser.push(i, i * 33.3, status, scene, moved)
        if stable:
            out.append((stable.frame, stable.scene))
    return out


def test_emits_after_n_agreeing_still_frames_and_only_once() -> None:
    stabiliser = Stabiliser(StabiliserConfig(agreeing_frames=3))
    assert feed(stabiliser, [("ok", A, 0.0)] * 6) == [(2, A)]
    assert stabiliser.last == A


def test_disagreement_motion_and_occlusion_restart_the_count() -> None:
    frames = [("ok", A, 0.0), ("ok", A, 0.0), ("ok", B, 0.0),  # a flicker of B breaks the run of A
              ("ok", A, 0.0), ("ok", A, 50.0),  # a die in flight: the reading agrees, the pixels move
              ("occluded", None, 0.0),  # a hand
              ("ok", A, 0.0), ("ok", A, 0.0), ("ok", A, 0.0)]
    assert feed(Stabiliser(), frames) == [(8, A)]


def test_a_new_scene_is_emitted_and_the_same_scene_after_a_hand_is_not() -> None:
    frames = [("ok", A, 0.0)] * 3 + [("occluded", None, 0.0)] + [("ok", A, 0.0)] * 3 + [("ok", B, 0.0)] * 3
    assert feed(Stabiliser(), frames) == [(2, A), (9, B)]


def test_cocked_dice_are_stable_observations_too() -> None:
    cocked = Scene(A.points, A.bar, (("black", 2, True), ("black", 4, False)))
    assert feed(Stabiliser(), [("cocked", cocked, 0.0)] * 3) == [(2, cocked)]


def test_a_cocked_die_whose_face_flickers_is_still_a_stable_roll() -> None:
    """The face of a cocked die does not count (the roll is thrown again): frames that read it
    1, 4, 4, 1 agree, and the roll is emitted once; a flat die's value and a die becoming cocked
    still count."""
    def roll(face: int, cocked: bool = True) -> Scene:
        return Scene(A.points, A.bar, (("white", face, cocked), ("white", 5, False)))

    frames = [("ok", roll(1), 0.0), ("ok", roll(4), 0.0), ("ok", roll(4), 0.0), ("ok", roll(1), 0.0),
              ("ok", roll(4, cocked=False), 0.0), ("ok", roll(4, cocked=False), 0.0),
              ("ok", roll(4, cocked=False), 0.0), ("ok", roll(6, cocked=False), 0.0),
              ("ok", roll(6, cocked=False), 0.0)]
    assert feed(Stabiliser(), frames) == [(2, roll(4)), (6, roll(4, cocked=False))]


def test_latency_is_counted_from_the_first_agreeing_frame() -> None:
    stabiliser = Stabiliser()
    feed(stabiliser, [("occluded", None, 0.0)] * 4)
    stable = stabiliser.push(4, 4 * 33.3, "ok", A, 0.0)
    stable = stable or stabiliser.push(5, 5 * 33.3, "ok", A, 0.0)
    stable = stable or stabiliser.push(6, 6 * 33.3, "ok", A, 0.0)
    assert stable is not None
    assert (stable.first_frame, stable.frame, stable.latency_frames) == (4, 6, 2)
    assert stable.latency_ms == pytest.approx(2 * 33.3)


def test_reset_lets_the_same_scene_through_again() -> None:
    stabiliser = Stabiliser()
    feed(stabiliser, [("ok", A, 0.0)] * 3)
    stabiliser.reset()
    assert feed(stabiliser, [("ok", A, 0.0)] * 3) == [(2, A)]


def test_motion_sees_a_die_sized_change_and_not_noise() -> None:
    rng = np.random.default_rng(1)
    frame = rng.integers(60, 200, (960, 1280, 3)).astype(np.uint8)
    frame = np.repeat(np.repeat(frame[::16, ::16], 16, 0), 16, 1)  # smooth-ish content
    noisy = np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    moved = frame.copy()
    moved[400:424, 600:624] = 255  # a 24 px die landed
    config = StabiliserConfig()
    assert motion(shrink(frame), shrink(noisy)) <= config.still
    assert motion(shrink(frame), shrink(moved)) > config.still
    assert motion(None, shrink(frame)) == float("inf")


def test_the_benchmark_tells_scenes_wrong_only_where_they_say_not_to_trust_them() -> None:
    """bench/stabiliser.py counts, among the wrong scenes, those that differ only in a cocked die's
    face or at an unsure point one off of the same colour: what the referee does not trust."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "stabiliser.py"
    spec = importlib.util.spec_from_file_location("bench_stabiliser", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    points = (0,) * 23 + (2,)
    truth = Scene(points, dice=(("white", 1, True), ("white", 5, False)))
    assert bench.untrusted_only(Scene(points, dice=(("white", 4, True), ("white", 5, False))), truth)
    assert not bench.untrusted_only(Scene(points, dice=(("white", 4, False), ("white", 5, False))), truth)
    assert not bench.untrusted_only(Scene(points, dice=(("white", 1, True), ("white", 6, False))), truth)
    one_off = (0,) * 23 + (1,)
    assert bench.untrusted_only(Scene(one_off, dice=truth.dice, unsure=(24,)), truth)
    assert not bench.untrusted_only(Scene(one_off, dice=truth.dice), truth)
    assert not bench.untrusted_only(Scene((0,) * 23 + (-1,), dice=truth.dice, unsure=(24,)), truth)
    assert not bench.untrusted_only(Scene(points, (1, 0), truth.dice), truth)
