"""What ``pitwatch surveil`` writes at the end of a run: its alerts file, and the lines
beside its table of alerts that say what the run did not surveil, and why.

Why a module of its own: each line answers a slip a tester made the command hide (QA):
hands rejected counted as surveilled, a day surveilled alone whose open hands nothing
kept, a file written again in another order. ``services/cli.py`` wires the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from services.events.contract import Alert
from services.terminal import err

if TYPE_CHECKING:  # the main job (``adjudicate``) does not load surveillance
    from services.surveillance.run import SurveillanceRun

# ``surveil`` keeps no table state: the next day's run goes on from adjudicate's (QA: a
# day surveilled alone said its open hands were "left for the run given the log that
# goes on", and the next day's hands were all rejected, their alerts lost).
SURVEIL_KEEPS_NO_STATE = (": surveil keeps no table state; the next day's surveil --db goes "
                          "on from the state `pitwatch adjudicate DAY --leave-open --ledger "
                          "URL` keeps in the same database, so run that for this day too")


def alerts_file(alerts: list[Alert]) -> bytes:
    """The alerts as ``--out`` holds them: one JSON object a line, by table, hand and
    alert id. In the order raised, a day surveilled again (its alerts written again from
    the database, which keeps no order) wrote the same alerts in another order (QA)."""
    ordered = sorted(alerts, key=lambda a: (a.table_id, a.hand_id or "", a.alert_id or ""))
    return b"".join(map(alert_line, ordered))


def alert_line(alert: Alert) -> bytes:
    """One alert as a line of an alerts file (JSONL)."""
    return msgspec.json.encode(alert) + b"\n"


def say_not_surveilled(run: SurveillanceRun) -> None:
    """What the log held that the run did not surveil: the event stream's own alerts, the
    records it rejected, the hands rejected (not counted as surveilled)."""
    if run.stream_alerts:
        # The event stream's own alerts (a broken hash chain, a change between hands) are
        # the adjudicator's, not surveillance's: an operator reading surveil alone must
        # still learn that the log has them (QA: 4 chain breaks, "0 alert(s)").
        err.print(f"[yellow]{len(run.stream_alerts)} event-stream alert(s)[/yellow] in the "
                  "log (SURV-9 hash chain, GEN-4/GEN-5 between hands), not surveillance's: "
                  "`pitwatch adjudicate LOG --alerts FILE` lists them", soft_wrap=True)
    if run.rejected_lines:
        err.print(f"[yellow]{run.rejected_lines} record(s) rejected[/yellow] (not valid "
                  "v1 events, or events of no hand or table the run holds; `pitwatch "
                  "adjudicate LOG --dlq FILE` lists them with reasons)", soft_wrap=True)
    if run.rejected_hands:  # said nothing, and were counted as surveilled (QA)
        why = (f"table {run.unknown_profile[0]}: {run.unknown_profile[1]}"
               if run.unknown_profile is not None
               else "`pitwatch adjudicate LOG` says why in each hand's record")
        err.print(f"[yellow]{run.rejected_hands} hand(s) rejected[/yellow], not surveilled "
                  f"({why})", soft_wrap=True)
