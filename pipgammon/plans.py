"""Read a `LightPlan` file (its ``to_dict`` JSON form), for the commands that show one."""

from __future__ import annotations

import json
from pathlib import Path

from engine.lights import LightPlan, LightPlanError


class PlanFileError(ValueError):
    """A light-plan file that cannot be read, with the file's name and the reason."""


def read_plan(path: str) -> LightPlan:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise PlanFileError(f"{path}: cannot read it ({err.strerror})") from err
    try:
        return LightPlan.from_dict(json.loads(data.decode("utf-8")))
    except UnicodeDecodeError as err:
        raise PlanFileError(f"{path}: not UTF-8 text (at byte offset {err.start})") from None
    except RecursionError:  # json recurses into nested arrays and objects
        raise PlanFileError(f"{path}: not a light plan (nested too deeply)") from None
    except (json.JSONDecodeError, AttributeError, LightPlanError) as err:
        raise PlanFileError(f"{path}: not a light plan ({err})") from err
