"""``pitwatch surveil LOG.jsonl --out alerts.jsonl``."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import orjson
import pytest
from typer.testing import CliRunner, Result

from services.cli import app
from services.events.contract import Alert
from services.events.stream import TableStream
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.surveillance.sweetheart import most_paid_player, overpay_one_player


def test_surveil_writes_alerts_with_evidence(tmp_path: Path) -> None:
    """The sweethearting table of test_simulated, through the command: exit 0, one JSON
    alert per line in --out (SURV-2, evidence included), the table of alerts on stderr."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    events = overpay_one_player(log.events, most_paid_player(log.events), extra=3)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    out = tmp_path / "alerts.jsonl"
    result = CliRunner().invoke(app, ["surveil", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    alerts = [msgspec.json.decode(line, type=Alert) for line in out.read_bytes().splitlines()]
    assert alerts and {a.rule for a in alerts} == {"SURV-2"}
    assert all(a.evidence and a.evidence["p_value"] <= 1e-6 for a in alerts)
    assert "SWEETHEARTING" in result.output
    assert "over 400 hands" in result.output


def test_surveil_clean_log_to_stdout(tmp_path: Path) -> None:
    """A clean log: no alert lines, the summary says so."""
    log = simulate(["hcf"], 1, 60, seed=4, profile=HOUSE)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    result = CliRunner().invoke(app, ["surveil", str(path)])
    assert result.exit_code == 0
    assert "0 alert(s) over 60 hands" in result.output
    assert "{" not in result.output


def day_log(seed: int, day: int) -> bytes:
    """One day of the HCF sweetheart scenario (dealer D0-1 overpays P0-1, about 9 times
    in 300 hands): the same table, dealer and player ids every day, the hands numbered
    by day (re-chained from the first event), as the next day's log of the table is."""
    log = simulate(["hcf"], 1, 300, seed=seed, faults=frozenset({"sweetheart"}),
                   profile=HOUSE)
    stream = TableStream("T001", random.Random(day))
    for e in log.events:
        hand = e["hand_id"] and f"D{day}-{e['hand_id']}"
        stream.emit(e["type"], e["data"], hand_id=hand, source=e["source"])
    return b"".join(orjson.dumps(e) + b"\n" for e in stream.events)


def sweethearting(path: Path) -> list[Alert]:
    alerts = [msgspec.json.decode(line, type=Alert) for line in path.read_bytes().splitlines()]
    return [a for a in alerts if a.rule == "SURV-2"]


def test_surveil_db_goes_on_from_the_stored_state(tmp_path: Path) -> None:
    """Two days of the sweetheart scenario. Each day alone holds too few overpays to
    alert (at a fifth of the dealer's payouts it takes about 12); with --db the second
    day counts on from the first and SURV-2 alerts; the second day given again counts
    nothing (and writes again the alert raised on it). The database is created on first
    use."""
    days = [tmp_path / "day1.jsonl", tmp_path / "day2.jsonl"]
    days[0].write_bytes(day_log(3, 1))
    days[1].write_bytes(day_log(4, 2))
    url = f"sqlite:///{tmp_path}/surv.sqlite"

    def surveil(path: Path, out: str, *extra: str) -> Result:
        return CliRunner().invoke(app, ["surveil", str(path), "--out", str(tmp_path / out),
                                        *extra])

    alone = [surveil(days[0], "a1.jsonl"), surveil(days[1], "a2.jsonl")]
    stored = [surveil(days[0], "s1.jsonl", "--db", url), surveil(days[1], "s2.jsonl", "--db", url),
              surveil(days[1], "s3.jsonl", "--db", url)]
    assert [r.exit_code for r in alone + stored] == [0] * 5, stored[0].output
    assert "created a new ledger" in stored[0].output
    assert sweethearting(tmp_path / "a1.jsonl") == sweethearting(tmp_path / "a2.jsonl") == []
    assert sweethearting(tmp_path / "s1.jsonl") == []
    week = sweethearting(tmp_path / "s2.jsonl")
    assert [(a.evidence or {}).get("player") for a in week] == ["P0-1"]
    assert {h["hand_id"][:2] for h in (week[0].evidence or {})["hands"]} == {"D1", "D2"}
    # Day 2 again counts nothing, and writes again the alert the first run raised on it.
    assert sweethearting(tmp_path / "s3.jsonl") == week
    assert "300 hand(s) had been counted by an earlier run" in stored[2].output


def test_surveil_db_again_writes_the_days_alerts_again(tmp_path: Path) -> None:
    """QA: ``surveil --db`` run again on a day (the guide's routine writes ``--out
    alerts/DAY.jsonl``) counted no hand again, raised nothing and overwrote the day's
    alerts file with nothing; the day's report then said "no alerts". Run again, the
    same ``--out`` holds the same alerts (those the database archived as raised on the
    log's hands), and stderr says they are written again, not raised."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    events = overpay_one_player(log.events, most_paid_player(log.events), extra=3)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    out, url = tmp_path / "alerts.jsonl", f"sqlite:///{tmp_path}/surv.sqlite"
    args = ["surveil", str(path), "--db", url, "--leave-open", "--out", str(out)]
    first = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert first.exit_code == 0, first.output
    raised = out.read_bytes().splitlines()
    assert raised and {msgspec.json.decode(x, type=Alert).rule for x in raised} == {"SURV-2"}
    again = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert again.exit_code == 0, again.output
    # In the same order (QA: the file written again was in the alerts' key order, the
    # first in the order raised): both by table, hand and alert id.
    assert out.read_bytes().splitlines() == raised
    assert (f"400 hand(s) had been counted by an earlier run (--db) and were not counted "
            f"again; the {len(raised)} alert(s) it raised on them (held in the database) "
            f"are written again to {out}") in again.stderr
    assert "alerts:" not in again.stderr  # nothing archived or taken into cases again
    # Its table counts the alerts this run raised over the hands it counted (QA: it said
    # "0 alert(s) over 400 hands", hands it had not counted).
    said = " ".join(again.stderr.split())
    assert ("0 alert(s) over 0 hands counted now (400 counted by an earlier run, not "
            "again)") in said


def test_a_wrong_surveillance_setting_is_one_line(tmp_path: Path) -> None:
    """A misspelt key in a casino's surveillance.toml once ended the command in a
    traceback (the section is read when the command starts, not with the games')."""
    profile = tmp_path / "profiles" / "typo"
    profile.mkdir(parents=True)
    (profile / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    (profile / "surveillance.toml").write_text("review_every = 5\n", "utf-8")
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n"
                             for e in simulate(["hcf"], 1, 2, seed=4, profile=HOUSE).events))
    result = CliRunner().invoke(app, ["surveil", str(log), "--profile", "typo"], prog_name="pitwatch",
                                env={"PITWATCH_PROFILES": str(tmp_path / "profiles"),
                                     "COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        "error: Invalid value for --profile: rule profile 'typo', section 'surveillance': "
        "Object contains unknown field `review_every` (see: pitwatch surveil --help)"]


@pytest.mark.parametrize(("setting", "field"), [
    ("[sweethearting]\np_value = nan\n", "$.sweethearting.p_value"),
    ("[sweethearting]\np_value = 2.0\n", "$.sweethearting.p_value"),
    ("[drift]\np_value = 0.0\n", "$.drift.p_value"),
    ("[exposure]\nmin_count = -3\n", "$.exposure.min_count"),
    ("evidence_hands = 0\n", "$.evidence_hands"),
    ("evidence_hands = 100000000000000000000\n", "$.evidence_hands"),
    ("[looks]\ngrowth_percent = 0\n", "$.looks.growth_percent"),
    ("[severity]\nraise_at_chips = -1\n", "$.severity.raise_at_chips"),
    ("[improbable]\nhcf_flush_min_cards = 99\n", "$.improbable.hcf_flush_min_cards"),
])
def test_a_threshold_out_of_its_range_is_one_line(tmp_path: Path, setting: str,
                                                   field: str) -> None:
    """Types alone let through a p-value of nan or 2 (alerts on anything), of 0 (none),
    negative counts and evidence of 0 hands (alerts and evidence lost without a word), and
    a 0% look growth or 10**20 evidence hands stopped the command with a traceback (QA,
    2026-12-06). Each is refused when the command starts, naming the field."""
    profile = tmp_path / "profiles" / "odd"
    profile.mkdir(parents=True)
    (profile / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    (profile / "surveillance.toml").write_text(setting, "utf-8")
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n"
                             for e in simulate(["hcf"], 1, 2, seed=4, profile=HOUSE).events))
    result = CliRunner().invoke(app, ["surveil", str(log), "--profile", "odd"],
                                prog_name="pitwatch",
                                env={"PITWATCH_PROFILES": str(tmp_path / "profiles"),
                                     "COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: Invalid value for --profile: rule profile 'odd', section "
                           "'surveillance': Expected `"), line
    assert f"at `{field}`" in line, line


def test_surveil_db_goes_on_from_the_table_states_adjudicate_kept(tmp_path: Path) -> None:
    """One table's 600 hands of the sweetheart scenario, its log cut into two days three
    events into a hand (one chain, as a table's days are). The first day adjudicated with
    ``--leave-open --ledger`` and surveilled with ``--db``: the second day's file alone is
    surveilled from the table's kept state, every hand judged (exit 0), and SURV-2 alerts
    on the overpays of both days, as one run of the whole log does. Without the kept
    state, its hands are refused for want of the table's configuration and nothing
    alerts."""
    log = simulate(["hcf"], 1, 600, seed=3, faults=frozenset({"sweetheart"}), profile=HOUSE)
    lines = [orjson.dumps(e) + b"\n" for e in log.events]
    cut = [n for n, line in enumerate(lines) if b'"hand_started"' in line][300] + 3
    days = [tmp_path / "day1.jsonl", tmp_path / "day2.jsonl", tmp_path / "whole.jsonl"]
    days[0].write_bytes(b"".join(lines[:cut]))
    days[1].write_bytes(b"".join(lines[cut:]))
    days[2].write_bytes(b"".join(lines))
    kept, bare = f"sqlite:///{tmp_path}/kept.sqlite", f"sqlite:///{tmp_path}/bare.sqlite"

    def run(*args: str) -> Result:
        return CliRunner().invoke(app, [*args], env={"COLUMNS": "300"})

    assert run("adjudicate", str(days[0]), "--leave-open", "--ledger", kept).exit_code == 0
    for url in (kept, bare):
        assert run("surveil", str(days[0]), "--leave-open", "--db", url, "--out",
                   str(tmp_path / "first.jsonl")).exit_code == 0
    assert sweethearting(tmp_path / "first.jsonl") == []
    second = run("surveil", str(days[1]), "--db", kept, "--out", str(tmp_path / "s.jsonl"))
    assert second.exit_code == 0, second.output
    assert "1 table(s) went on from the state kept at the end of an earlier log: T001" in (
        second.output)
    assert "over 300 hands" in second.output
    whole = run("surveil", str(days[2]), "--out", str(tmp_path / "w.jsonl"))
    assert whole.exit_code == 0
    alerts = sweethearting(tmp_path / "s.jsonl")
    assert {(a.evidence or {}).get("player") for a in alerts} == {"P0-1"}
    assert alerts == sweethearting(tmp_path / "w.jsonl")
    without = run("surveil", str(days[1]), "--db", bare, "--out", str(tmp_path / "b.jsonl"))
    assert without.exit_code == 1
    assert sweethearting(tmp_path / "b.jsonl") == []


def test_surveil_db_archives_its_alerts_and_takes_them_into_cases(tmp_path: Path) -> None:
    """The guide's routine, ``adjudicate --ledger`` then ``surveil --db``: the SURV-2
    alert (the dealer overpays one player) reached the alerts file only, never the cases
    queue or the console (QA). It is archived and opens the dealer's case, as ``demo``
    and ``serve archive`` take it; the same log surveilled again adds nothing; verify
    holds the case to its alert."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    events = overpay_one_player(log.events, most_paid_player(log.events), extra=3)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    url = f"sqlite:///{tmp_path}/l.sqlite"
    runner = CliRunner()
    assert runner.invoke(app, ["adjudicate", str(path), "--ledger", url]).exit_code == 0
    out = tmp_path / "alerts.jsonl"
    first = runner.invoke(app, ["surveil", str(path), "--db", url, "--out", str(out)])
    assert first.exit_code == 0, first.output
    every = [msgspec.json.decode(line, type=Alert) for line in out.read_bytes().splitlines()]
    alerts = sweethearting(out)
    subjects = {a.subject for a in every}
    assert alerts and all(str(a.subject).startswith("dealer:") for a in alerts)
    assert (f"alerts: {len(every)} archived; cases: {len(subjects)} opened, "
            f"{len(every) - len(subjects)} joined an open case") in first.output
    listed = runner.invoke(app, ["cases", "list", "--db", url, "--format", "json"])
    cases = orjson.loads(listed.stdout)
    assert {c["subject"] for c in cases if not c["subject"].startswith(("hand:", "table:"))
            } == subjects
    again = runner.invoke(app, ["surveil", str(path), "--db", url, "--out",
                                str(tmp_path / "again.jsonl")])
    assert again.exit_code == 0 and "alerts:" not in again.output
    assert orjson.loads(runner.invoke(app, ["cases", "list", "--db", url, "--format",
                                            "json"]).stdout) == cases
    assert runner.invoke(app, ["verify", "--db", url]).exit_code == 0


def test_surveil_says_the_log_has_event_stream_alerts(tmp_path: Path) -> None:
    """QA: a log with altered events (the simulator's ``tamper``: one event per table
    changed after hashing, which the next event's prev_hash gives away) surveilled with
    "0 alert(s)" and not a word of the chain breaks ``adjudicate --alerts`` lists. Now one
    line counts them and says where they are listed; a clean log has no such line."""
    log = simulate(["hcf"], 2, 40, seed=4, faults=frozenset({"tamper"}), fault_rate=1.0,
                   profile=HOUSE)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    said = " ".join(CliRunner().invoke(app, ["surveil", str(path)]).output.split())
    assert ("2 event-stream alert(s) in the log (SURV-9 hash chain, GEN-4/GEN-5 between "
            "hands), not surveillance's: `pitwatch adjudicate LOG --alerts FILE` lists "
            "them") in said
    clean = simulate(["hcf"], 1, 40, seed=4, profile=HOUSE)
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in clean.events))
    assert "event-stream alert" not in CliRunner().invoke(app, ["surveil", str(path)]).output


def test_hands_rejected_for_an_unknown_profile_are_said_and_not_counted(
        tmp_path: Path) -> None:
    """Two tables of 40 hands under the casino's own profile, and no PITWATCH_PROFILES:
    every hand is rejected, so none is surveilled. The summary said "0 alert(s) over 80
    hands" and nothing else (QA). Now: over 0 hands, and one line of how many were
    rejected and why, with what to set; exit 1."""
    from tests.unit.archive.test_unknown_profile_later import CASINO, casino_log
    from tests.unit.cli.helpers import pitwatch

    log = casino_log(tmp_path / "day.jsonl", tables=2)
    ran = pitwatch("surveil", str(log))
    said = " ".join(ran.stderr.split())
    assert ran.code == 1
    assert "0 alert(s) over 0 hands" in said
    assert ("80 hand(s) rejected, not surveilled (table T00" in said
            and f"unknown rule profile {CASINO!r} (this run knows house-v1): set "
                "PITWATCH_PROFILES to the folder of the casino's own profiles" in said)


def test_a_day_surveilled_alone_says_what_keeps_its_open_hands(tmp_path: Path) -> None:
    """``surveil DAY --leave-open --db`` keeps no table state: the next day goes on from
    the one ``adjudicate --leave-open --ledger`` keeps. It said its open hands were "left
    for the run given the log that goes on", and run alone, the next day's hands were all
    rejected and their alerts lost (QA). It says what to run."""
    from tests.unit.archive.test_carry import cut_inside_hands, simulated_clean_log
    from tests.unit.cli.helpers import pitwatch

    day = tmp_path / "day1.jsonl"
    day.write_bytes(cut_inside_hands(simulated_clean_log(), 2)[0])
    ran = pitwatch("surveil", str(day), "--leave-open", "--db",
                   f"sqlite:///{tmp_path}/db.sqlite")
    said = " ".join(ran.stderr.split())
    assert ran.code == 0, ran.stderr
    assert ("hand(s) still open at the end of the log, left for the run given the log that "
            "goes on (--leave-open): surveil keeps no table state; the next day's surveil "
            "--db goes on from the state `pitwatch adjudicate DAY --leave-open --ledger "
            "URL` keeps in the same database, so run that for this day too") in said, said


def test_a_log_surveilled_again_writes_the_same_alerts_file(tmp_path: Path) -> None:
    """Fold dumping at hold'em (seed 2: SURV-3 fold and flow at counts 18 and 41, two on
    each of two hands). Surveilled again with ``--db``, the alerts come from the database,
    which keeps no order: the file held them in key order (flow, flow, fold, fold), the
    first in the order raised (fold, flow, fold, flow), though the guide says a day's file
    is the same whichever run wrote it (QA). Both are now by table, hand and alert id."""
    from services.simulator.options import PatternSpec, SimulationOptions

    log = simulate(["holdem"], 1, 800, seed=2, profile=HOUSE, options=SimulationOptions(
        styles="mixed", players=5, patterns=(PatternSpec("fold_dumping", 0.05),)))
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    url = f"sqlite:///{tmp_path}/surv.sqlite"
    written = []
    for run in ("first", "again"):
        out = tmp_path / f"{run}.jsonl"
        ran = CliRunner().invoke(app, ["surveil", str(path), "--db", url, "--out", str(out)])
        assert ran.exit_code == 0, ran.output
        written.append(out.read_bytes())
    assert written[0] == written[1]
    ids = [orjson.loads(line)["alert_id"] for line in written[0].splitlines()]
    assert ids == [f"SURV-3/from_player=T001-P1/to_player=T001-P3/method={m}/count={n}"
                   for n in (18, 41) for m in ("flow", "fold")]
