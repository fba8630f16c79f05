"""The ``pitwatch`` command (Typer + Rich).

Results go to stdout (one JSON object per line, pipeable); summaries, progress bars and
errors go to stderr, so ``pitwatch adjudicate log.jsonl > out.jsonl`` keeps a clean file.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import msgspec
import orjson
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from services.adjudicator.embedded import DeadLetter, EmbeddedRunner, iter_lines
from services.adjudicator.stream_cli import produce, serve_app, topics_app
from services.adjudicator.table import Alert
from services.events.contract import AdjudicationRecord, encode_record
from services.importers.cli import import_app
from services.ledger.cli import ledger_app
from services.reports.cli import report_app
from services.simulator.truth import TruthLabel
from services.surveillance.service import serve_surveillance

app = typer.Typer(
    help="pitwatch: re-derive every hand from the table's own events and prove, to the "
    "chip, what should have happened.",
    no_args_is_help=True,
    add_completion=False,
)
schemas_app = typer.Typer(help="The published v1 JSON Schemas (schemas/).", no_args_is_help=True)
app.add_typer(schemas_app, name="schemas")
app.add_typer(ledger_app, name="ledger", help="Read the double-entry ledger back.")
app.add_typer(report_app, name="report", help="Dispute and daily compliance reports.")
app.add_typer(import_app, name="import", help="Convert hand histories (PHH) to v1 events.")
app.add_typer(serve_app, name="serve")
serve_app.command("surveillance")(serve_surveillance)  # SURV-2..8 on the pipeline
app.add_typer(topics_app, name="topics")
app.command()(produce)

err = Console(stderr=True)

DEFAULT_DB = "sqlite:///var/pitwatch.sqlite"


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


# ---------------------------------------------------------------- adjudicate


class AdjudicationRun:
    """Collects what an embedded run produced, for summaries and the ledger."""

    def __init__(self) -> None:
        self.records: list[AdjudicationRecord] = []
        self.alerts: list[Alert] = []
        self.dead_letters: list[DeadLetter] = []
        self.chain_breaks_outside_hands = 0  # rejected input too (docs/events.md)

    @property
    def input_rejected(self) -> bool:
        return (bool(self.dead_letters) or self.chain_breaks_outside_hands > 0
                or any(r.status == "rejected" for r in self.records))


def run_file(path: Path, out: typer.FileTextWrite | None = None,
             engine: str | None = None) -> AdjudicationRun:
    """Adjudicate a JSONL file, writing records to ``out`` as hands end."""
    run = AdjudicationRun()
    runner = _runner(engine)
    size = path.stat().st_size
    with path.open("rb") as fh, _progress() as progress:
        task = progress.add_task(f"adjudicating {path.name}", total=size)
        for raw, where in iter_lines(fh):
            step = runner.feed(raw, where)
            _collect(run, step.records, step.alerts, step.dead_letters, out)
            run.chain_breaks_outside_hands += len(step.outside_hand)
            progress.update(task, completed=fh.tell())
        step = runner.finish()
        _collect(run, step.records, step.alerts, step.dead_letters, out)
    return run


def _runner(engine: str | None) -> EmbeddedRunner:
    """The embedded runner of the chosen engine, or a one-line error (exit 2)."""
    from services.adjudicator.engine import EngineUnavailable, UnknownEngine

    try:
        return EmbeddedRunner(engine)
    except (EngineUnavailable, UnknownEngine) as exc:
        err.print(f"pitwatch: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None


def _collect(
    run: AdjudicationRun,
    records: list[AdjudicationRecord],
    alerts: list[Alert],
    dead: list[DeadLetter],
    out: typer.FileTextWrite | None,
) -> None:
    run.records += records
    run.alerts += alerts
    run.dead_letters += dead
    if out is not None:
        for record in records:
            out.write(encode_record(record).decode() + "\n")


def _summary_table(run: AdjudicationRun) -> Table:
    status = Counter(r.status for r in run.records)
    table = Table(title="adjudication summary", show_header=True)
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("hands", str(len(run.records)))
    for name in ("ok", "discrepancy", "dead", "rejected"):
        table.add_row(f"  {name}", str(status.get(name, 0)))
    table.add_row("alerts (SURV-*)", str(len(run.alerts)))
    table.add_row("records rejected to DLQ", str(len(run.dead_letters)))
    table.add_row("chain breaks outside a hand", str(run.chain_breaks_outside_hands))
    return table


def _findings_table(records: list[AdjudicationRecord]) -> Table:
    counts = Counter((f.rule, f.code, f.severity) for r in records for f in r.findings)
    table = Table(title="findings by rule and severity")
    for col in ("rule", "code", "severity", "count"):
        table.add_column(col, justify="right" if col == "count" else "left")
    for (rule, code, severity), n in sorted(counts.items()):
        table.add_row(rule, code, severity, str(n))
    return table


def _write_dead_letters(path: Path, dead: list[DeadLetter]) -> None:
    with path.open("wb") as fh:
        for d in dead:
            fh.write(orjson.dumps({"where": d.where, "reason": d.reason,
                                   "table_id": d.table_id,
                                   "record": d.raw.decode("utf-8", "replace")}) + b"\n")


def _post_to_ledger(url: str, records: list[AdjudicationRecord]) -> None:
    from services.ledger.db import open_ledger
    from services.ledger.posting import post_many

    engine = open_ledger(url)
    results = Counter(r.status for r in post_many(engine, records))
    err.print(f"ledger {url}: " + ", ".join(f"{n} {s}" for s, n in sorted(results.items())))


@app.command()
def adjudicate(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="JSONL event log")],
    ledger: Annotated[str | None, typer.Option(help="book the hands into this ledger "
                                                    "(SQLAlchemy URL)")] = None,
    dlq: Annotated[Path | None, typer.Option(help="write rejected records here")] = None,
    alerts: Annotated[Path | None, typer.Option(help="write SURV alerts here (JSONL)")] = None,
    engine: Annotated[str | None, typer.Option(
        help="per-event path: native (the Rust core, default) or python (the reference); "
             "default $PITWATCH_ENGINE")] = None,
) -> None:
    """Print one adjudication record per hand (JSON lines, hand order); summary on stderr.

    Exits 1 when any input was rejected (a record to the DLQ or a rejected hand).
    """
    run = run_file(file, sys.stdout, engine)  # type: ignore[arg-type]
    sys.stdout.flush()
    err.print(_summary_table(run))
    if any(r.findings for r in run.records):
        err.print(_findings_table(run.records))
    for d in run.dead_letters[:10]:
        # The reason echoes the input (``"type": "[/]"``): text, never Rich markup.
        err.print(Text.assemble(("rejected", "red"), f" {d.where}: {d.reason}"))
    if len(run.dead_letters) > 10:
        err.print(f"... and {len(run.dead_letters) - 10} more (use --dlq FILE)")
    if dlq is not None:
        _write_dead_letters(dlq, run.dead_letters)
    if alerts is not None:
        alerts.write_bytes(b"".join(_alert_line(a) for a in run.alerts))
    if ledger is not None:
        _post_to_ledger(ledger, run.records)
    raise typer.Exit(1 if run.input_rejected else 0)


def _alert_line(alert: Alert) -> bytes:
    return msgspec.json.encode(alert) + b"\n"


# ---------------------------------------------------------------- surveil


@app.command()
def surveil(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="JSONL event log")],
    out: Annotated[Path | None, typer.Option(help="write the SURV-2..8 alerts here (JSONL); "
                                                  "default: stdout")] = None,
    profile: Annotated[str, typer.Option(help="rule profile holding surveillance.toml")] = (
        "house-v1"),
) -> None:
    """Adjudicate a log and run the cross-hand surveillance patterns (SURV-2..SURV-8) over
    its hands; alerts as JSON lines (with their evidence), a table of them on stderr."""
    from services.surveillance import load_config, surveil_lines

    config = load_config(profile)
    with file.open("rb") as fh:
        run = surveil_lines(iter_lines(fh), config)
    lines = b"".join(_alert_line(a) for a in run.alerts)
    if out is None:
        sys.stdout.buffer.write(lines)
        sys.stdout.flush()
    else:
        out.write_bytes(lines)
    err.print(_surveillance_table(run.alerts, run.hands_surveilled))
    if run.dead_letters:
        err.print(f"[yellow]{len(run.dead_letters)} record(s) rejected to the DLQ[/yellow] "
                  "(see `pitwatch adjudicate --dlq`)")


def _surveillance_table(alerts: list[Alert], hands: int) -> Table:
    table = Table(title=f"surveillance: {len(alerts)} alert(s) over {hands} hands")
    for col in ("rule", "code", "severity", "table", "hand", "what"):
        table.add_column(col, overflow="fold")
    for a in alerts:
        table.add_row(a.rule, a.code, a.severity, a.table_id, a.hand_id or "", a.message)
    return table


# ---------------------------------------------------------------- simulate


@app.command()
def simulate(
    output: Annotated[Path, typer.Option("-o", "--output", help="events JSONL to write")],
    game: Annotated[list[str], typer.Option(help="game(s); tables take them in turn")] = [  # noqa: B006
        "hcf"
    ],
    tables: Annotated[int, typer.Option(min=1)] = 4,
    hands: Annotated[int, typer.Option(min=1, help="hands per table")] = 500,
    seed: Annotated[int, typer.Option()] = 1,
    faults: Annotated[str, typer.Option(help="comma-separated fault kinds to inject, or "
                                             "'all'")] = "",
    fault_rate: Annotated[float, typer.Option(min=0.0, max=1.0,
                                              help="probability per hand")] = 0.02,
    truth: Annotated[Path | None, typer.Option(help="write the injected-fault labels "
                                                    "here")] = None,
) -> None:
    """Generate realistic, hash-chained v1 events with labelled injected faults."""
    from services.simulator.run import simulate as run_simulation

    chosen = _resolve_faults(game, faults)
    with _progress() as progress:
        task = progress.add_task("simulating tables", total=tables)
        log = run_simulation(game, tables, hands, seed, chosen, fault_rate,
                             on_table_done=lambda _i: progress.advance(task))
    _write_jsonl(output, [orjson.dumps(e) for e in log.events])
    if truth is not None:
        _write_truth(truth, log.truth)
    err.print(f"wrote {len(log.events)} events for {tables} table(s) x {hands} hands to "
              f"{output}; {len(log.truth)} injected fault(s)"
              + (f" labelled in {truth}" if truth else ""))


def _resolve_faults(games: list[str], faults: str) -> frozenset[str]:
    from services.simulator.run import available_faults

    known: dict[str, str] = {}
    for g in games:
        known.update(available_faults(g))
    if faults.strip() == "all":
        return frozenset(known)
    chosen = frozenset(f.strip() for f in faults.split(",") if f.strip())
    unknown = chosen - set(known)
    if unknown:
        raise typer.BadParameter(
            f"unknown fault(s) {sorted(unknown)}; known for {games}: {sorted(known)}",
            param_hint="--faults",
        )
    return chosen


def _write_jsonl(path: Path, lines: list[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        for line in lines:
            fh.write(line + b"\n")


def _write_truth(path: Path, labels: list[TruthLabel]) -> None:
    import msgspec

    _write_jsonl(path, [msgspec.json.encode(label) for label in labels])


def read_truth(path: Path) -> list[TruthLabel]:
    import msgspec

    decoder = msgspec.json.Decoder(TruthLabel)
    return [decoder.decode(line) for line in path.read_bytes().splitlines() if line.strip()]


# ---------------------------------------------------------------- demo


@app.command()
def demo(
    tables: Annotated[int, typer.Option(min=1)] = 4,
    hands: Annotated[int, typer.Option(min=1, help="hands per table")] = 750,
    seed: Annotated[int, typer.Option()] = 7,
    workdir: Annotated[Path, typer.Option(help="where the demo writes its files")] = Path(
        "var/demo"
    ),
    game: Annotated[list[str], typer.Option(help="game(s) to simulate")] = ["hcf"],  # noqa: B006
) -> None:
    """Simulate -> adjudicate -> ledger (SQLite), then show what was found."""
    from services.demo import run_demo

    ok = run_demo(err, workdir, game, tables, hands, seed)
    raise typer.Exit(0 if ok else 1)


# ---------------------------------------------------------------- schemas


@schemas_app.command("export")
def schemas_export(
    root: Annotated[Path, typer.Argument(help="target folder")] = Path("schemas"),
) -> None:
    """Regenerate the JSON Schema files from the contract structs."""
    from services.events.schemas import export

    for path in export(root):
        err.print(f"wrote {path}")


@schemas_app.command("check")
def schemas_check(root: Annotated[Path, typer.Argument()] = Path("schemas")) -> None:
    """Fail if the schema files differ from the contract in code."""
    from services.events.schemas import drift

    problems = drift(root)
    for name in problems:
        err.print(f"[red]out of date[/red]: {root / name}")
    if problems:
        err.print("run `pitwatch schemas export` and review the diff")
        raise typer.Exit(1)
    err.print(f"{root}: all schemas match the contract")


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
