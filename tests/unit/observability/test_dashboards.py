"""The checked-in Grafana dashboards are what the code renders, and they are well-formed."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from services.observability import dashboards as d

REPO = Path(__file__).resolve().parents[3]
DASHBOARD_DIR = REPO / "deploy" / "grafana" / "dashboards"
DATASOURCES = REPO / "deploy" / "grafana" / "provisioning" / "datasources" / "prometheus.yml"


def test_checked_in_dashboards_are_up_to_date() -> None:
    assert d.stale(DASHBOARD_DIR) == []
    assert sorted(p.name for p in DASHBOARD_DIR.glob("*.json")) == sorted(
        x.filename for x in d.DASHBOARDS)


def test_stale_detects_an_edited_file(tmp_path: Path) -> None:
    d.write(tmp_path)
    assert d.stale(tmp_path) == []
    edited = tmp_path / d.FLOOR.filename
    edited.write_text(edited.read_text().replace("pitwatch_hands", "pitwatch_handz"))
    assert d.stale(tmp_path) == [edited]
    assert d.main(["check", str(tmp_path)]) == 1


def test_panels_are_laid_out_within_the_grid_without_overlap() -> None:
    for dashboard in d.DASHBOARDS:
        panels = json.loads(d.dashboard_json(dashboard))["panels"]
        assert len({p["id"] for p in panels}) == len(panels)
        cells: set[tuple[int, int]] = set()
        for p in panels:
            g = p["gridPos"]
            assert g["x"] + g["w"] <= d.GRID_WIDTH
            area = {(x, y) for x in range(g["x"], g["x"] + g["w"])
                    for y in range(g["y"], g["y"] + g["h"])}
            assert not cells & area, p["title"]
            cells |= area


def test_panels_use_the_provisioned_datasource() -> None:
    provisioned = yaml.safe_load(DATASOURCES.read_text())["datasources"]
    assert [s["uid"] for s in provisioned] == [d.DATASOURCE_UID]
    for dashboard in d.DASHBOARDS:
        rendered = d.render(dashboard)
        for panel in rendered["panels"]:
            if panel["type"] == "row":  # a row has no query
                continue
            assert panel["datasource"]["uid"] == d.DATASOURCE_UID
            assert all(t["datasource"]["uid"] == d.DATASOURCE_UID for t in panel["targets"])


def test_the_dashboards_cover_what_the_floor_asked_for() -> None:
    """issue 10: floor (hands/min per game, findings/min by severity, rake by mode, lag;
    the money as the ledger booked it: the daily report's figures);
    integrity (mispays by table and dealer, procedure findings, DLQ, hash-chain failures);
    health (latency percentiles, errors, lag)."""
    def exprs(dashboard: d.Dashboard) -> str:
        return "\n".join(q.expr for p in dashboard.panels for q in p.queries)

    floor, integrity, health = exprs(d.FLOOR), exprs(d.INTEGRITY), exprs(d.HEALTH)
    assert "sum by (game) (rate(pitwatch_hands_adjudicated_total" in floor
    assert "sum by (severity) (rate(pitwatch_findings_total" in floor
    assert "sum by (rake_mode) (rate(pitwatch_ledger_rake_chips_total" in floor
    assert "pitwatch_consumer_lag_records" in floor
    assert "sum by (table, dealer) " + d.in_range(
        f"pitwatch_mispays_total{{{d.GAME}, {d.TABLE}}}") in integrity
    assert 'category="procedure"' in integrity
    assert "pitwatch_dlq_records" in integrity
    assert "pitwatch_chain_failures_total" in integrity
    assert "histogram_quantile(0.99" in health and "histogram_quantile(0.5" in health
    assert "pitwatch_ledger_write_failures_total" in health
    assert "pitwatch_consumer_lag_records" in health


def test_concrete_expr_replaces_grafana_variables() -> None:
    assert d.concrete_expr('rate(x{game=~"$game"}[$__rate_interval])') == \
        'rate(x{game=~".*"}[1m])'


def test_the_integrity_dashboard_has_a_surveillance_row() -> None:
    """The row titled Surveillance spans the grid, and the panels after it are about the
    surveillance service (each of its queries reads a pitwatch_surveillance_ metric)."""
    panels = d.render(d.INTEGRITY)["panels"]
    rows = [i for i, p in enumerate(panels) if p["type"] == "row"]
    assert [panels[i]["title"] for i in rows] == ["Surveillance"]
    row = panels[rows[0]]
    assert row["gridPos"]["x"] == 0 and row["gridPos"]["w"] == d.GRID_WIDTH
    after = panels[rows[0] + 1:]
    assert len(after) >= 5
    assert all(p["gridPos"]["y"] > row["gridPos"]["y"] for p in after)
    assert all("pitwatch_surveillance_" in t["expr"] for p in after for t in p["targets"])
    assert all(p["gridPos"]["y"] < row["gridPos"]["y"]
               for p in panels[:rows[0]])


def test_rendered_panels_are_the_declared_ones() -> None:
    """What the SDK renders is what the declarations say: type, unit, and every query with
    its legend and instant/range mode, in order; no panel is left with null options."""
    for dashboard in d.DASHBOARDS:
        rendered = [p for p in d.render(dashboard)["panels"] if p["type"] != "row"]
        assert [p["title"] for p in rendered] == [p.title for p in dashboard.panels]
        for panel, declared in zip(rendered, dashboard.panels, strict=True):
            assert panel["type"] == declared.kind, declared.title
            assert panel["options"], declared.title
            assert panel["fieldConfig"]["defaults"]["unit"] == declared.unit
            assert [(t["refId"], t["expr"], t.get("legendFormat", ""), t["instant"], t["range"])
                    for t in panel["targets"]] == [
                (chr(ord("A") + i), q.expr, q.legend, q.instant, not q.instant)
                for i, q in enumerate(declared.queries)]


def test_the_money_panels_show_the_money_booked() -> None:
    """Grafana's money is the daily report's (QA: HCF rake 1,232 in Grafana, 1,226 in the
    report): every floor panel on chips reads what the ledger booked, and says a refused
    hand is not in it."""
    money = [p for p in d.FLOOR.panels if any("chips_total" in q.expr for q in p.queries)]
    assert {p.title for p in money} >= {"Rake booked by mode (chips per minute)",
                                        "Money booked in range by game"}
    for panel in money:
        assert all("pitwatch_ledger_" in q.expr for q in panel.queries), panel.title
        assert "refused" in panel.description and "daily report" in panel.description
