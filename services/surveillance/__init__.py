"""Cross-hand surveillance (rules.md SURV-2..SURV-8): patterns over many hands, alerts
with their evidence. ``SurveillanceEngine`` is pure; ``surveil_lines`` drives it over an
embedded adjudication run. docs/surveillance.md describes every pattern.

The names below are loaded when first used, not when the package is: the engine's
statistics bring scipy.special and numpy (about 0.3 s of start-up), and most importers of this
package only want ``alert_id`` (the archive, the cases, ``pitwatch verify``, the ledger
and the console), which needs neither."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.surveillance.engine import SurveillanceEngine
    from services.surveillance.profile import SurveillanceConfig, surveillance_config
    from services.surveillance.run import (
        SurveillanceRun,
        SurveillanceStep,
        surveil_lines,
        surveil_steps,
    )

_HOMES = {
    "SurveillanceEngine": "services.surveillance.engine",
    "SurveillanceConfig": "services.surveillance.profile",
    "surveillance_config": "services.surveillance.profile",
    "SurveillanceRun": "services.surveillance.run",
    "SurveillanceStep": "services.surveillance.run",
    "surveil_lines": "services.surveillance.run",
    "surveil_steps": "services.surveillance.run",
}

__all__ = ["SurveillanceConfig", "SurveillanceEngine", "SurveillanceRun",
           "SurveillanceStep", "surveil_lines", "surveil_steps", "surveillance_config"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:  # a submodule (``from services.surveillance import drift``) or a typo
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value
