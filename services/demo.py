"""``pitwatch demo``: the whole embedded job on a few tables, explained on one screen.

simulate (with every fault kind injected and labelled) -> adjudicate -> ledger (SQLite),
then: hands by status, findings by rule and severity, rake by mode from the ledger, and
the detection table against the injected truth. Returns False when an injected fault went
undetected, so the demo doubles as a smoke test.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgspec
import orjson
from rich.console import Console
from rich.table import Table

from services.events.contract import AdjudicationRecord, encode_record
from services.simulator.scoring import Detection, score


def run_demo(
    console: Console, workdir: Path, games: list[str], tables: int, hands: int, seed: int
) -> bool:
    from services.cli import _findings_table, _summary_table, _write_jsonl, run_file
    from services.simulator.run import available_faults, simulate

    workdir.mkdir(parents=True, exist_ok=True)
    events_path = workdir / "events.jsonl"
    truth_path = workdir / "truth.jsonl"
    records_path = workdir / "adjudications.jsonl"
    db_path = workdir / "ledger.sqlite"
    faults = frozenset().union(*(available_faults(g) for g in games))
    console.print(f"[bold]1. simulate[/bold] {tables} table(s) x {hands} hands of {games}, "
                  f"faults injected: {', '.join(sorted(faults))}")
    log = simulate(games, tables, hands, seed, faults, fault_rate=0.02)
    _write_jsonl(events_path, [orjson.dumps(e) for e in log.events])
    _write_jsonl(truth_path, [msgspec.json.encode(t) for t in log.truth])
    console.print(f"[bold]2. adjudicate[/bold] {len(log.events)} events")
    run = run_file(events_path)
    _write_jsonl(records_path, [encode_record(r) for r in run.records])
    console.print(_summary_table(run))
    console.print(_findings_table(run.records))
    console.print("[bold]3. ledger[/bold]")
    if db_path.exists():
        db_path.unlink()
    _ledger_summary(console, f"sqlite:///{db_path}", run.records)
    detection = score(log.truth, run.records)
    console.print(_detection_table(detection))
    console.print(
        "\n[bold]where to look next[/bold]\n"
        f"  events:         {events_path}\n"
        f"  adjudications:  {records_path}   (one JSON record per hand)\n"
        f"  injected truth: {truth_path}\n"
        f"  ledger:         pitwatch ledger balances --db sqlite:///{db_path}\n"
        f"                  pitwatch ledger rake --db sqlite:///{db_path}\n"
        "  docs:           docs/rules.md (rule IDs), docs/events.md (the contract)"
    )
    return detection.all_detected


def _ledger_summary(console: Console, url: str, records: list[AdjudicationRecord]) -> None:
    from services.ledger.db import open_ledger
    from services.ledger.posting import post_many
    from services.ledger.queries import rake_totals

    engine = open_ledger(url)
    results = Counter(r.status for r in post_many(engine, records))
    console.print(f"posted to {url}: " + ", ".join(f"{n} {s}" for s, n in sorted(results.items())))
    by_mode: Counter[str] = Counter()
    for row in rake_totals(engine):
        by_mode[row.mode or "unknown"] += row.amount
    table = Table(title="rake by posted mode (from the ledger)")
    table.add_column("mode")
    table.add_column("chips", justify="right")
    for mode, amount in sorted(by_mode.items()):
        table.add_row(mode, str(amount))
    console.print(table)


def _detection_table(detection: Detection) -> Table:
    table = Table(title="detection against injected truth")
    for col in ("fault", "injected", "detected", "missed hands"):
        table.add_column(col)
    for fault, s in detection.by_fault.items():
        colour = "green" if s.detected == s.injected else "red"
        table.add_row(fault, str(s.injected), f"[{colour}]{s.detected}[/{colour}]",
                      ", ".join(s.missed_hands[:5]))
    table.caption = (f"{len(detection.unexplained_hands)} hand(s) with findings not "
                     "explained by an injected fault")
    return table
