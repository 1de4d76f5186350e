"""Read a `LightPlan` file (its ``to_dict`` JSON form), for the commands that show one."""

from __future__ import annotations

import json
from pathlib import Path

from engine.lights import LightPlan, LightPlanError


class PlanFileError(ValueError):
    """A light-plan file that cannot be read, with the file's name and the reason."""


#: The smallest plan worth showing, for the message that says what a plan file is.
EXAMPLE = '{"point-1": {"pattern": "steady", "colour": "#00c800"}}'


def read_plan(path: str) -> LightPlan:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise PlanFileError(f"{path}: cannot read it ({err.strerror})") from err
    try:
        plan = json.loads(data.decode("utf-8"))
        if not isinstance(plan, dict):
            kind = "a list" if isinstance(plan, list) else "a string" if isinstance(plan, str) \
                else "a single value"
            raise PlanFileError(f"{path}: not a light plan (it holds {kind}; a plan is a JSON object of "
                                f"lamps, e.g. {EXAMPLE})")
        return LightPlan.from_dict(plan)
    except UnicodeDecodeError as err:
        raise PlanFileError(f"{path}: not UTF-8 text (at byte offset {err.start})") from None
    except RecursionError:  # json recurses into nested arrays and objects
        raise PlanFileError(f"{path}: not a light plan (nested too deeply)") from None
    except (json.JSONDecodeError, LightPlanError) as err:
        raise PlanFileError(f"{path}: not a light plan ({err})") from err
