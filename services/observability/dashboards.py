"""The Grafana dashboards, as code: every panel and its PromQL in one readable place.

Why code and not hand-edited JSON: Grafana's JSON is long and repetitive (grid positions,
datasource references, field configs), and a query hidden in it is easy to break without
noticing. Here each dashboard is a list of ``Panel`` s with their queries; ``render``
builds them with Grafana's own typed models (grafana-foundation-sdk) into the JSON Grafana
provisions (``deploy/grafana/dashboards/*.json``, written by
``python -m services.observability.dashboards write``). Tests check that the checked-in
files equal what this module renders, that every query parses, and — against a real
Prometheus scraping a real run — that every panel returns data.

Why the panels are declared as small dataclasses and not as SDK builder chains: a panel
here is its title, kind, queries and description in three to six lines; the same panel
as a chain of builder calls (``.title().description().datasource().grid_pos().unit()
.with_target(prometheus.Dataquery().ref_id().expr().legend_format()...)``) is two or three
times longer and the PromQL is lost in it. So the declarations stay the readable source,
and the SDK does what was hand-written before: the JSON, with Grafana's own models and
defaults.

Queries use Grafana's ``$__rate_interval`` / ``$__range`` / ``$__range_s`` and the
dashboard variables ``$game`` and ``$table`` (multi-value, "All" = ``.*``);
``concrete_expr`` substitutes them the way Grafana would, for the tests.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from grafana_foundation_sdk.builders import bargauge, common, prometheus, stat, table, timeseries
from grafana_foundation_sdk.builders import dashboard as sdk_dashboard
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models import dashboard as dashboard_model
from grafana_foundation_sdk.models.common import LegendDisplayMode, LegendPlacement
from grafana_foundation_sdk.models.dashboard import (
    DataSourceRef,
    DataTransformerConfig,
    GridPos,
    VariableOption,
    VariableRefresh,
    VariableSort,
)
from grafana_foundation_sdk.models.prometheus import PromQueryFormat

DATASOURCE_UID: Final = "pitwatch-prometheus"  # deploy/grafana/provisioning/datasources
DATASOURCE: Final = {"type": "prometheus", "uid": DATASOURCE_UID}
DEFAULT_DIR: Final = Path("deploy/grafana/dashboards")
GRID_WIDTH: Final = 24
ROW_HEIGHT: Final = 1
SERVICE_JOBS: Final = 'job=~"pitwatch-.*"'

PanelType = Literal["timeseries", "stat", "table", "bargauge"]


@dataclass(frozen=True)
class Query:
    """One PromQL target; ``instant`` for tables and single values over the range."""

    expr: str
    legend: str = ""
    instant: bool = False


@dataclass(frozen=True)
class Panel:
    title: str
    kind: PanelType
    queries: tuple[Query, ...]
    description: str
    unit: str = "short"
    width: int = 12
    height: int = 8


@dataclass(frozen=True)
class Row:
    """A titled row across the grid: the panels after it, up to the next row, are one
    concern (Grafana's "row" panel; it has no query)."""

    title: str


@dataclass(frozen=True)
class Variable:
    """A multi-value dashboard variable filled from a label's values."""

    name: str
    label: str
    metric: str


@dataclass(frozen=True)
class Dashboard:
    uid: str
    title: str
    description: str
    items: tuple[Panel | Row, ...]
    variables: tuple[Variable, ...] = field(default=())

    @property
    def panels(self) -> tuple[Panel, ...]:
        """The panels with queries (rows left out)."""
        return tuple(item for item in self.items if isinstance(item, Panel))

    @property
    def filename(self) -> str:
        return f"{self.uid.removeprefix('pitwatch-')}.json"


def per_minute(expr: str) -> str:
    return f"{expr} * 60"


GAME = 'game=~"$game"'
TABLE = 'table=~"$table"'
GAME_VAR = Variable("game", "Game", "pitwatch_hands_adjudicated_total")
TABLE_VAR = Variable("table", "Table", "pitwatch_hands_adjudicated_total")


def in_range(selector: str) -> str:
    """What counter ``selector`` counted in the dashboard's range, series by series, in
    whole counts (chips, hands): never ``increase()``, which extrapolates to the range's
    edges (a hand of 318 chips read 319.33, QA). Sum it ``by`` the panel's labels.

    The counters are the process's own and start at 0 at each start of the service
    (nothing is read back from the ledger), so the branches, first match per series:

    - restarted: the process started within the range: its value now, what it counted
      since its start (exact); what the process before it counted earlier in the range
      is not in it (a series it has not counted in yet falls to the next branch);
    - steady: the last sample in the range minus the last one in the hour before it
      (exact; a range, not ``offset`` alone, looks past a failed scrape at the start);
    - new: no sample in the hour before the range although its target was scraped then:
      its whole value (born in the range, perhaps above 0: alerts.yml, "born above 0");
    - otherwise (Prometheus has nothing of it before the range): from its first sample
      in the range, its lowest.
    """
    last = f"last_over_time({selector}[$__range])"
    before = f"last_over_time({selector}[1h] offset $__range)"
    return (f"(({selector} and on (job, instance)"
            f" (process_start_time_seconds > time() - $__range_s))"
            f" or ({last} - {before} >= 0)"
            f" or ({last} unless {before} and on (job, instance)"
            f" (max_over_time(up[1h] offset $__range) == 1))"
            f" or ({last} - min_over_time({selector}[$__range])))")


# Said by every panel that counts over the range (``in_range``).
RANGE_NOTE: Final = ("Exact whole counts, from the last scrape before the range to the "
                     "last in it; a range in which the counting service restarted counts "
                     "what it counted since the restart (its counters start at 0).")


def _quantile(q: float, metric: str, by: str = "le") -> str:
    return f"histogram_quantile({q}, sum by ({by}) (rate({metric}_bucket[$__rate_interval])))"


# Money panels read what the ledger booked (LedgerMetrics: the ledger service, or the
# replay's booking), by the daily report's definitions (services/observability/money.py),
# so Grafana shows the report's and ``ledger totals``' figures for the same hands.
LEDGER_DROP = "pitwatch_ledger_drop_chips_total"
LEDGER_PAYOUTS = "pitwatch_ledger_payout_chips_total"
LEDGER_RAKE = "pitwatch_ledger_rake_chips_total"
LEDGER_BETWEEN = "pitwatch_ledger_between_players_chips_total"
BOOKED_NOTE = ("Hands as the ledger booked them, as the daily report and ledger totals "
               "count them: a hand the ledger refused (LEDGER_REFUSED) books no chips and "
               "is not here (it is in Hands by status, adjudicated); a hand shows once "
               "booked, a moment after it is adjudicated.")

LAG = "max by (consumer_group, topic, partition) (pitwatch_consumer_lag_records)"

# The cross-hand surveillance service (SURV-2..8). Alerts are shown by phase, both: at
# each start the service replays table-events and produces its past alerts again
# (phase="replay", mostly repeats, same ids), and an alert first found during that
# catch-up (after downtime) is replay too; only live ones page (alerts.yml).
SURV_ALERTS = "pitwatch_surveillance_alerts_total"
SURVEILLANCE_ROW: Final[tuple[Panel | Row, ...]] = (
    Row("Surveillance"),
    Panel("Surveillance alerts per hour by rule", "timeseries", (Query(
        f"sum by (rule, code, phase) (rate({SURV_ALERTS}[$__rate_interval])) * 3600",
        "{{rule}} {{code}} {{phase}}"),),
        "Cross-hand patterns (SURV-2..8) produced by the surveillance service. live: "
        "after it caught up at its last start; critical ones page "
        "(PitwatchSurveillanceAlertCritical). replay: while it caught up, mostly the "
        "alerts it had produced before again (same alert ids), and any first found in "
        "the catch-up after downtime; these do not page."),
    Panel("Surveillance alerts by rule and severity", "table", (Query(
        f"sum by (rule, code, severity, phase) {in_range(SURV_ALERTS)}",
        instant=True),),
        "Alerts in the selected range by phase (live: after the catch-up at a start, "
        "these page when critical; replay: during it, mostly repeats of earlier alerts, "
        "same ids, plus any first found then). The evidence of each is on the alerts "
        f"topic, keyed by its alert id. {RANGE_NOTE}"),
    Panel("Hands surveilled and records skipped per minute", "timeseries", (
        Query(per_minute("sum(rate(pitwatch_surveillance_hands_total[$__rate_interval]))"),
              "hands"),
        Query(per_minute("sum by (reason) (rate(pitwatch_surveillance_records_skipped_total"
                         "[$__rate_interval]))"), "skipped {{reason}}"),
    ), "Hands observed by the engine; records not surveilled: malformed, schema (not an "
       "event), rejected (dead-lettered by the adjudication)."),
    Panel("Surveillance lag by partition (records)", "timeseries", (Query(
        "max by (partition) (pitwatch_surveillance_lag_records)", "partition {{partition}}"),),
        "Records of table-events not yet surveilled, from the service's own position (it "
        "has no consumer group)."),
    Panel("Replaying", "stat", (Query("max(pitwatch_surveillance_replaying)", "replaying"),),
          "1 while the service replays table-events up to where it ended at start, 0 once "
          "caught up.", width=6, height=4),
    Panel("Last replay", "stat", (Query("max(pitwatch_surveillance_replay_seconds)",
                                        "seconds"),),
          "How long the replay at the last start took.", unit="s", width=6, height=4),
    Panel("Reviews in range", "stat", (Query(
        "sum by (trigger) " + in_range("pitwatch_surveillance_reviews_total"),
        "{{trigger}}", instant=True),),
        "SURV-8 / SURV-5 batch reviews: periodic (every review_every hands) or at shutdown. "
        f"{RANGE_NOTE}",
        width=12, height=4),
)

FLOOR = Dashboard(
    uid="pitwatch-floor",
    title="pitwatch — floor overview",
    description="What the tables are doing now: hands, findings, money, and how far "
                "behind pitwatch is.",
    variables=(GAME_VAR, TABLE_VAR),
    items=(
        Panel("Hands per minute by game", "timeseries", (Query(per_minute(
            f"sum by (game) (rate(pitwatch_hands_adjudicated_total{{{GAME}, {TABLE}}}"
            "[$__rate_interval]))"), "{{game}}"),),
            "Hands adjudicated per minute, per game."),
        Panel("Findings per minute by severity", "timeseries", (Query(per_minute(
            f"sum by (severity) (rate(pitwatch_findings_total{{{GAME}}}[$__rate_interval]))"),
            "{{severity}}"),),
            "Findings on adjudicated hands per minute; critical ones page the floor "
            "(alert PitwatchCriticalFindings)."),
        Panel("Rake booked by mode (chips per minute)", "timeseries", (Query(per_minute(
            f"sum by (rake_mode) (rate({LEDGER_RAKE}{{{GAME}}}[$__rate_interval]))"),
            "{{rake_mode}}"),),
            "Rake booked to the house's rake account net of refunds (a dead hand's "
            f"refunded rake is none), by the table's posted rake mode. {BOOKED_NOTE}",
            unit="short"),
        Panel("Drop, payouts and rake booked per minute", "timeseries", (
            Query(per_minute(f"sum(rate({LEDGER_DROP}{{{GAME}}}[$__rate_interval]))"),
                  "drop"),
            Query(per_minute(f"sum(rate({LEDGER_PAYOUTS}{{{GAME}}}[$__rate_interval]))"),
                  "payouts"),
            Query(per_minute(f"sum(rate({LEDGER_RAKE}{{{GAME}}}[$__rate_interval]))"),
                  "rake"),
        ), "Chips booked, in the table's minor unit. Drop: wagers and bets, not in a dead "
           "hand; payouts: not a dead hand's refunds; rake: net of refunds. "
           f"{BOOKED_NOTE}"),
        Panel("Money booked in range by game", "table", (
            Query("sum by (game) " + in_range(f"{LEDGER_DROP}{{{GAME}}}"), instant=True),
            Query("sum by (game) " + in_range(f"{LEDGER_PAYOUTS}{{{GAME}}}"), instant=True),
            Query("sum by (game) " + in_range(f"{LEDGER_RAKE}{{{GAME}}}"), instant=True),
            Query("sum by (game) " + in_range(f"{LEDGER_BETWEEN}{{{GAME}}}"), instant=True),
        ), "Per game in the selected range: drop (A), payouts (B), rake (C) and chips paid "
           "between players (D: Chinese Poker's points, not drop), as the daily report "
           f"defines them. {BOOKED_NOTE} {RANGE_NOTE}", width=24),
        Panel("Hands by status", "bargauge", (Query(
            "sum by (status) "
            + in_range(f"pitwatch_hands_adjudicated_total{{{GAME}, {TABLE}}}"),
            "{{status}}", instant=True),),
            f"Hands in the selected time range: ok, discrepancy, dead, rejected. {RANGE_NOTE}"),
        Panel("Consumer lag (records)", "timeseries", (Query(
            f"sum by (consumer_group) ({LAG})", "{{consumer_group}}"),),
            "Records the adjudicator and the ledger have not yet processed "
            "(log end minus committed offset)."),
        Panel("Adjudication latency p99", "stat", (Query(
            _quantile(0.99, "pitwatch_adjudication_latency_seconds"), "p99"),),
            "hand_ended to adjudication record, 99th percentile (target 250 ms).",
            unit="s", width=6),
        Panel("Dead-letter records", "stat", (Query(
            "max by (topic) (pitwatch_dlq_records)", "{{topic}}"),),
            "Input records that could not be accepted, held in the DLQ topic.", width=6),
        Panel("Findings per minute by game", "timeseries", (Query(per_minute(
            f"sum by (game) (rate(pitwatch_findings_total{{{GAME}}}[$__rate_interval]))"),
            "{{game}}"),),
            "All findings per minute, per game."),
    ),
)

INTEGRITY = Dashboard(
    uid="pitwatch-integrity",
    title="pitwatch — integrity",
    description="Where the money and the procedure go wrong: mispays by table and dealer, "
                "procedure findings, the event stream's integrity, the DLQ.",
    variables=(GAME_VAR, TABLE_VAR),
    items=(
        Panel("Mispays by table and dealer", "table", (Query(
            "sum by (table, dealer) " + in_range(f"pitwatch_mispays_total{{{GAME}, {TABLE}}}"),
            instant=True),),
            "MISPAY findings in the selected range. dealer is the employee id (SURV-2: a "
            f"dealer whose mispays concentrate on one player shows up here first). {RANGE_NOTE}"),
        Panel("Mispaid chips by dealer", "bargauge", (Query(
            "sum by (dealer) " + in_range(f"pitwatch_mispaid_chips_total{{{GAME}, {TABLE}}}"),
            "{{dealer}}", instant=True),),
            f"Chips by which seats were over- or under-paid, by dealer. {RANGE_NOTE}"),
        Panel("Mispays per hour by table", "timeseries", (Query(
            f"sum by (table) (rate(pitwatch_mispays_total{{{GAME}, {TABLE}}}"
            "[$__rate_interval])) * 3600", "{{table}}"),),
            "Rate of MISPAY findings per table."),
        Panel("Procedure findings per hour by rule", "timeseries", (Query(
            f'sum by (rule, code) (rate(pitwatch_findings_total{{category="procedure", '
            f'{GAME}}}[$__rate_interval])) * 3600', "{{rule}} {{code}}"),),
            "How the game was dealt and played: order, limits, exposures, draws."),
        Panel("Integrity findings by rule", "table", (Query(
            "sum by (rule, code, severity) "
            + in_range(f'pitwatch_findings_total{{category="integrity", {GAME}}}'),
            instant=True),),
            "Deck (GEN-1, WRONG_DECK), switched cards (SHOWN_CARDS_MISMATCH, "
            "CARDS_SWITCHED), wagers placed late (PAST_POSTING, SURV-1), chips during a "
            "hand (GEN-3), cash (GEN-4), configuration (GEN-5), stream (SURV-9) findings "
            f"on hands. {RANGE_NOTE}"),
        Panel("Findings by table and category", "table", (Query(
            "sum by (table, category) " + in_range(f"pitwatch_table_findings_total{{{TABLE}}}"),
            instant=True),),
            "Which tables drift (SURV-8): settlement, integrity and procedure findings. "
            f"{RANGE_NOTE}"),
        Panel("Hash-chain failures by table", "table", (Query(
            "sum by (table, code) " + in_range(f"pitwatch_chain_failures_total{{{TABLE}}}"),
            instant=True),),
            "SURV-9: altered events (CHAIN_BROKEN), gaps, re-orders, conflicts, per table. "
            f"{RANGE_NOTE}"),
        Panel("Dead-letter topic size", "timeseries", (Query(
            "max by (topic) (pitwatch_dlq_records)", "{{topic}}"),),
            "Records in the DLQ; every one is a question somebody has to answer."),
        Panel("Rejected records per minute by reason", "timeseries", (Query(per_minute(
            "sum by (reason) (rate(pitwatch_events_rejected_total[$__rate_interval]))"),
            "{{reason}}"),),
            "Input records not applied: malformed, schema, oversize, key, orphan "
            "(dead-lettered) or duplicate, chain (refused by the hash-chain check)."),
        Panel("Stream alerts per hour by rule", "timeseries", (Query(
            "sum by (rule, code) (rate(pitwatch_alerts_total[$__rate_interval])) * 3600",
            "{{rule}} {{code}}"),),
            "Alerts the adjudicator puts on the alerts topic per event: the stream's "
            "integrity (SURV-9) and unauthorised configuration (GEN-5)."),
        *SURVEILLANCE_ROW,
    ),
)

HEALTH = Dashboard(
    uid="pitwatch-health",
    title="pitwatch — service health",
    description="Are the services up, fast and keeping up.",
    items=(
        Panel("Services up", "stat", (Query(f"up{{{SERVICE_JOBS}}}", "{{job}} {{instance}}"),),
              "1 when Prometheus could scrape the service.", width=24, height=4),
        Panel("Adjudication latency", "timeseries", tuple(
            Query(_quantile(q, "pitwatch_adjudication_latency_seconds"), f"p{round(q * 100)}")
            for q in (0.5, 0.95, 0.99)),
            "hand_ended (table clock) to the adjudication record produced.", unit="s"),
        Panel("Ledger write latency", "timeseries", tuple(
            Query(_quantile(q, "pitwatch_ledger_write_seconds"), f"p{round(q * 100)}")
            for q in (0.5, 0.99)),
            "Duration of one ledger write (a batch of hands).", unit="s"),
        Panel("Events consumed per second", "timeseries", (Query(
            "sum(rate(pitwatch_events_consumed_total[$__rate_interval]))", "consumed"),),
            "Input records taken from table-events by the adjudicator."),
        Panel("Ledger hands per minute by status", "timeseries", (Query(per_minute(
            "sum by (status) (rate(pitwatch_ledger_hands_total[$__rate_interval]))"),
            "{{status}}"),),
            "posted, duplicate (re-delivered, a no-op), conflict, refused, undecodable."),
        Panel("Errors per minute", "timeseries", (
            Query(per_minute("sum by (reason) (rate(pitwatch_events_rejected_total"
                             "[$__rate_interval]))"), "rejected {{reason}}"),
            Query(per_minute("sum by (reason) (rate(pitwatch_ledger_write_failures_total"
                             "[$__rate_interval]))"), "ledger {{reason}}"),
            Query(per_minute('sum(rate(pitwatch_kafka_watch_polls_total{outcome="error"}'
                             "[$__rate_interval]))"), "broker reads failed"),
        ), "Records rejected, ledger write failures, failed offset reads."),
        Panel("Consumer lag by partition", "timeseries", (Query(
            LAG, "{{consumer_group}} {{topic}}/{{partition}}"),),
            "Records behind per partition (log end minus committed offset)."),
        Panel("Hands left out of the latency", "timeseries", (Query(per_minute(
            "sum by (reason) (rate(pitwatch_latency_unmeasured_total[$__rate_interval]))"),
            "{{reason}}"),),
            "Hands without a usable hand_ended time: table clock ahead, replayed logs."),
        Panel("Resident memory", "timeseries", (Query(
            f"process_resident_memory_bytes{{{SERVICE_JOBS}}}", "{{job}} {{instance}}"),),
            "Per service process.", unit="bytes"),
        Panel("CPU", "timeseries", (Query(
            f"rate(process_cpu_seconds_total{{{SERVICE_JOBS}}}[$__rate_interval])",
            "{{job}} {{instance}}"),),
            "CPU seconds per second, per service process.", unit="percentunit"),
    ),
)

DASHBOARDS: Final = (FLOOR, INTEGRITY, HEALTH)

# What Grafana puts in place of its built-in and "All" variables, for running a panel's
# query outside Grafana (the tests): the values a default view of the dashboard uses.
# ``$__range_s`` (the range in seconds, for arithmetic on time()) comes before ``$__range``,
# which is a prefix of it.
GRAFANA_DEFAULTS: Final = {
    "$__rate_interval": "1m",
    "$__range_s": "900",
    "$__range": "15m",
    "$game": ".*",
    "$table": ".*",
}


def concrete_expr(expr: str, values: dict[str, str] | None = None) -> str:
    """``expr`` with Grafana's variables replaced (defaults: ``GRAFANA_DEFAULTS``)."""
    for name, value in (values or GRAFANA_DEFAULTS).items():
        expr = expr.replace(name, value)
    return expr


def all_queries() -> list[tuple[str, str, Query]]:
    """(dashboard uid, panel title, query) for every query of every dashboard."""
    return [(d.uid, p.title, q) for d in DASHBOARDS for p in d.panels for q in p.queries]


# ---------------------------------------------------------------- rendering
#
# The JSON itself is Grafana's: built with grafana-foundation-sdk's typed builders (the
# dashboard, panel, query and variable models of Grafana's own schema), not assembled by
# hand. What stays here is only the layout (left to right, wrapping at the 24-column grid)
# and which builder each ``PanelType`` is.

def _last_value() -> common.ReduceDataOptions:
    return common.ReduceDataOptions().calcs(["lastNotNull"]).values(False)


# Each panel type with Grafana's own default options for it, stated (a panel whose options
# the SDK leaves unset is written as ``"options": null``).
_PANEL_BUILDERS: Final[dict[PanelType, Callable[[], Any]]] = {
    "timeseries": lambda: timeseries.Panel().legend(
        common.VizLegendOptions().show_legend(True).display_mode(LegendDisplayMode.LIST)
        .placement(LegendPlacement.BOTTOM).calcs([])),
    "stat": lambda: stat.Panel().reduce_options(_last_value()),
    "table": lambda: table.Panel().show_header(True),
    "bargauge": lambda: bargauge.Panel().reduce_options(_last_value()),
}


def build(dashboard: Dashboard) -> dashboard_model.Dashboard:
    """The dashboard as Grafana's typed model (schema of grafana-foundation-sdk 10.1)."""
    builder = (sdk_dashboard.Dashboard(dashboard.title)
               .uid(dashboard.uid)
               .description(dashboard.description)
               .tags(["pitwatch"])
               .editable()
               .version(1)
               .time("now-1h", "now")
               .refresh("30s")
               .timezone("utc"))
    for variable in dashboard.variables:
        builder = builder.with_variable(_variable(variable))
    for item in _laid_out(dashboard.items):
        builder = (builder.with_row(item) if isinstance(item, sdk_dashboard.Row)
                   else builder.with_panel(item))
    model: dashboard_model.Dashboard = builder.build()
    return model


def render(dashboard: Dashboard) -> dict[str, Any]:
    """Grafana dashboard JSON, stable for the same input."""
    rendered: dict[str, Any] = json.loads(JSONEncoder(sort_keys=True).encode(build(dashboard)))
    return rendered


def _datasource() -> DataSourceRef:
    return DataSourceRef(type_val=DATASOURCE["type"], uid=DATASOURCE_UID)


def _variable(v: Variable) -> sdk_dashboard.QueryVariable:
    return (sdk_dashboard.QueryVariable(v.name)
            .label(v.label)
            .datasource(_datasource())
            .query({"query": f"label_values({v.metric}, {v.name})", "refId": "vars"})
            .refresh(VariableRefresh.ON_TIME_RANGE_CHANGED)
            .multi(True)
            .include_all(True)
            .all_value(".*")
            .current(VariableOption(selected=True, text=["All"], value=["$__all"]))
            .sort(VariableSort.ALPHABETICAL_ASC))


def _laid_out(items: tuple[Panel | Row, ...]) -> list[Any]:
    """Panel and row builders laid out left to right, wrapping at Grafana's 24-column
    grid; a row starts a new line of its own."""
    out: list[Any] = []
    x = y = row_height = 0
    for index, item in enumerate(items, start=1):
        if isinstance(item, Row):
            y, x, row_height = y + row_height, 0, 0
            out.append(sdk_dashboard.Row(item.title).id(index).collapsed(False)
                       .grid_pos(GridPos(h=ROW_HEIGHT, w=GRID_WIDTH, x=0, y=y)))
            y += ROW_HEIGHT
            continue
        if x + item.width > GRID_WIDTH:
            x, y, row_height = 0, y + row_height, 0
        out.append(_panel(index, item, GridPos(h=item.height, w=item.width, x=x, y=y)))
        x += item.width
        row_height = max(row_height, item.height)
    return out


def _panel(panel_id: int, panel: Panel, grid: GridPos) -> Any:
    builder = (_PANEL_BUILDERS[panel.kind]()
               .id(panel_id)
               .title(panel.title)
               .description(panel.description)
               .datasource(_datasource())
               .grid_pos(grid)
               .unit(panel.unit))
    for i, query in enumerate(panel.queries):
        builder = builder.with_target(_target(chr(ord("A") + i), query, panel.kind))
    if panel.kind == "table":
        builder = builder.with_transformation(DataTransformerConfig(id_val="merge", options={}))
    return builder


def _target(ref_id: str, query: Query, kind: PanelType) -> prometheus.Dataquery:
    target = (prometheus.Dataquery().ref_id(ref_id).datasource(_datasource())
              .expr(query.expr).legend_format(query.legend))
    target = target.instant() if query.instant else target.range()
    return target.format(PromQueryFormat.TABLE) if kind == "table" else target


def dashboard_json(dashboard: Dashboard) -> str:
    return json.dumps(render(dashboard), indent=2, ensure_ascii=False) + "\n"


def write(directory: Path = DEFAULT_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for dashboard in DASHBOARDS:
        path = directory / dashboard.filename
        path.write_text(dashboard_json(dashboard), encoding="utf-8")
        written.append(path)
    return written


def stale(directory: Path = DEFAULT_DIR) -> list[Path]:
    """Dashboard files in ``directory`` that differ from what this module renders."""
    return [directory / d.filename for d in DASHBOARDS
            if not (directory / d.filename).is_file()
            or (directory / d.filename).read_text(encoding="utf-8") != dashboard_json(d)]


def main(argv: list[str]) -> int:
    """``write [DIR]`` renders the dashboards; ``check [DIR]`` fails if any is stale."""
    command = argv[0] if argv else ""
    directory = Path(argv[1]) if len(argv) > 1 else DEFAULT_DIR
    if command == "write":
        for path in write(directory):
            print(path)
        return 0
    if command == "check":
        out_of_date = stale(directory)
        for path in out_of_date:
            print(f"{path} is out of date: run python -m services.observability.dashboards "
                  "write", file=sys.stderr)
        return 1 if out_of_date else 0
    print("usage: python -m services.observability.dashboards write|check [DIR]",
          file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
