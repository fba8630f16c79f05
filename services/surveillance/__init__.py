"""Cross-hand surveillance (rules.md SURV-2..SURV-8): patterns over many hands, alerts
with their evidence. ``SurveillanceEngine`` is pure; ``surveil_lines`` drives it over an
embedded adjudication run. docs/surveillance.md describes every pattern."""

from services.surveillance.engine import SurveillanceEngine
from services.surveillance.profile import SurveillanceConfig, surveillance_config
from services.surveillance.run import SurveillanceRun, SurveillanceStep, surveil_lines

__all__ = ["SurveillanceConfig", "SurveillanceEngine", "SurveillanceRun",
           "SurveillanceStep", "surveil_lines", "surveillance_config"]
