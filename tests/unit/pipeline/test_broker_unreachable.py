"""Every Kafka command, with no broker at ``--bootstrap``, ends in one line that says
where pitwatch looked and what to do (exit 2), and leaves no client open.

Each used to end in a traceback of aiokafka's internals followed by "Unclosed
AIOKafkaProducer" errors (a client whose start failed is still open). Run as a user runs
them, in a process of their own: the unclosed-client errors come at the process's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import typer
from aiokafka.errors import KafkaConnectionError

from services.pipeline.clients import BrokerUnreachable, broker_as_usage_error, start_clients
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

ROOT = Path(__file__).resolve().parents[3]


def closed_port() -> int:
    """A local port nothing listens on (taken from the OS, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("command", [
    ["produce", "{log}"],
    ["topics", "create"],
    ["serve", "adjudicator"],
    ["serve", "ledger", "--db", "sqlite:///{tmp}/ledger.sqlite"],
    ["serve", "archive", "--db", "sqlite:///{tmp}/archive.sqlite"],
    ["serve", "surveillance"],
])
def test_no_broker_is_one_line_and_nothing_left_open(command: list[str], tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"v":1,"table_id":"T1"}\n', encoding="utf-8")
    address = f"127.0.0.1:{closed_port()}"
    args = [a.format(log=log, tmp=tmp_path) for a in command]
    done = subprocess.run(
        [sys.executable, "-c", "from services.cli import main; main()", *args,
         "--bootstrap", address],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "╭" not in done.stderr, done.stderr
    assert "Unclosed" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, done.stderr
    assert errors[0].startswith(f"error: Invalid value for --bootstrap: no Kafka broker "
                                f"answers at {address}: start it"), errors[0]
    assert "PITWATCH_KAFKA" in errors[0]
    # aiokafka's own 'Unable connect to "127.0.0.1:N": ...' came first and said it again
    assert done.stderr.splitlines() == errors, done.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["produce", "{log}", "--bootstrap", "localhost:abc"], ("'localhost:abc' is not host:port",)),
    (["serve", "surveillance", "--bootstrap", "localhost:99999"], ("is not host:port",)),
    # a superscript two: a digit to str.isdigit, a ValueError from int()
    (["produce", "{log}", "--bootstrap", "localhost:\u00b2"], ("is not host:port",)),
    (["topics", "create", "--bootstrap", "localhost:9092,:1"], ("is not host:port",)),
    (["serve", "adjudicator", "--checkpoint-seconds", "nan"], ("nan is not a number of seconds",)),
    (["serve", "adjudicator", "--checkpoint-seconds", "inf"], ("inf is not a number of seconds",)),
])
def test_option_values_no_service_can_run_with(args: list[str], words: tuple[str, ...],
                                               tmp_path: Path) -> None:
    """A port that is no number reached aiokafka's constructor (a ValueError traceback);
    a checkpoint interval of nan or inf passed Click's range check and the worker never
    checkpointed by time. Each is one line and exit 2, before anything connects."""
    log = tmp_path / "events.jsonl"
    log.write_text("{}\n", encoding="utf-8")
    ran = pitwatch(*(a.format(log=log) for a in args))
    assert_one_line_usage_error(ran, *words)


@pytest.mark.parametrize(("command", "variable", "value", "words"), [
    (["serve", "adjudicator"], "PITWATCH_METRICS_PORT", "abc",
     ("PITWATCH_METRICS_PORT='abc' is not a TCP port: give 0 to 65535, or off",)),
    (["serve", "ledger", "--db", "sqlite:///{tmp}/ledger.sqlite"], "PITWATCH_METRICS_PORT",
     "70000", ("PITWATCH_METRICS_PORT='70000' is not a TCP port",)),
    (["serve", "surveillance"], "PITWATCH_METRICS_PORT", "\u00b2",
     ("is not a TCP port",)),
    # The archive service took any value and served no metrics at all (QA).
    (["serve", "archive", "--db", "sqlite:///{tmp}/ledger.sqlite"], "PITWATCH_METRICS_PORT",
     "70000", ("PITWATCH_METRICS_PORT='70000' is not a TCP port",)),
    (["serve", "archive", "--db", "sqlite:///{tmp}/ledger.sqlite"],
     "PITWATCH_KAFKA_WATCH_SECONDS", "0", ("is not a number of seconds above 0",)),
    (["serve", "adjudicator"], "PITWATCH_KAFKA_WATCH_SECONDS", "nan",
     ("PITWATCH_KAFKA_WATCH_SECONDS='nan' is not a number of seconds above 0",)),
    (["serve", "ledger", "--db", "sqlite:///{tmp}/ledger.sqlite"],
     "PITWATCH_KAFKA_WATCH_SECONDS", "abc", ("is not a number of seconds above 0",)),
    (["serve", "ledger", "--db", "sqlite:///{tmp}/ledger.sqlite"],
     "PITWATCH_KAFKA_WATCH_SECONDS", "-1", ("is not a number of seconds above 0",)),
])
def test_environment_values_no_service_can_run_with(
        command: list[str], variable: str, value: str, words: tuple[str, ...],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The metrics port and the lag watch's interval come from the environment. A port
    that is no number was a ValueError traceback once the broker had been reached, an
    interval that is no number one in the watch's thread (``nan`` and ``-1`` passed).
    Each is now one line naming the variable, before anything connects: here no broker
    answers, and the error is still the variable's."""
    monkeypatch.setenv(variable, value)
    args = [a.format(tmp=tmp_path) for a in command]
    ran = pitwatch(*args, "--bootstrap", f"127.0.0.1:{closed_port()}")
    assert_one_line_usage_error(ran, variable, *words)


# ---------------------------------------------------------------- aiokafka's own lines

UNABLE = 'Unable connect to "%s:%s": %s'  # aiokafka.client's bootstrap, logger "aiokafka"


class _Client:
    """A client whose start logs what aiokafka's bootstrap logs for a dead address, then
    fails as aiokafka does when no address answered, or succeeds (another one did)."""

    def __init__(self, answers: bool) -> None:
        self.answers = answers
        self.stopped = False

    async def start(self) -> None:
        logging.getLogger("aiokafka").error(UNABLE, "127.0.0.1", 1, "Connect call failed")
        logging.getLogger("aiokafka").warning("something else of aiokafka's")
        if not self.answers:
            raise KafkaConnectionError("Unable to bootstrap from [('127.0.0.1', 1)]")

    async def stop(self) -> None:
        self.stopped = True


def _aiokafka_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "aiokafka"]


def test_no_broker_at_start_is_the_command_line_only(caplog: pytest.LogCaptureFixture) -> None:
    client = _Client(answers=False)
    with pytest.raises(typer.BadParameter) as refused, broker_as_usage_error():
        asyncio.run(start_clients("127.0.0.1:1", client))
    assert str(refused.value).startswith("no Kafka broker answers at 127.0.0.1:1: start it")
    assert client.stopped
    assert _aiokafka_lines(caplog) == ["something else of aiokafka's"]


def test_a_dead_address_beside_a_live_one_is_still_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    """The start succeeds: the record held back during it is logged after all."""
    with broker_as_usage_error():
        asyncio.run(start_clients("127.0.0.1:1,127.0.0.1:9092", _Client(answers=True)))
    assert sorted(_aiokafka_lines(caplog)) == [
        'Unable connect to "127.0.0.1:1": Connect call failed',
        "something else of aiokafka's"]


def test_once_the_broker_was_reached_nothing_is_held(caplog: pytest.LogCaptureFixture) -> None:
    """A broker gone while the service runs: aiokafka's lines are the operator's (here a
    later start's, as a worker's topic check after a failure makes)."""
    async def run() -> None:
        await start_clients("b:9092", _Client(answers=True))
        caplog.clear()
        with pytest.raises(BrokerUnreachable):
            await start_clients("b:9092", _Client(answers=False))

    with broker_as_usage_error():
        asyncio.run(run())
    assert _aiokafka_lines(caplog) == ['Unable connect to "127.0.0.1:1": Connect call failed',
                                       "something else of aiokafka's"]


def test_outside_a_command_nothing_is_held(caplog: pytest.LogCaptureFixture) -> None:
    """The lag watch starts its clients in a thread of its own, every few seconds while
    the service runs: its failures keep aiokafka's lines."""
    def watch() -> None:
        with contextlib.suppress(BrokerUnreachable):
            asyncio.run(start_clients("127.0.0.1:1", _Client(answers=False)))

    with broker_as_usage_error():
        thread = threading.Thread(target=watch)
        thread.start()
        thread.join()
    assert _aiokafka_lines(caplog) == ['Unable connect to "127.0.0.1:1": Connect call failed',
                                       "something else of aiokafka's"]
