"""SIGTERM while a service sets itself up (opens and migrates its database) stops it
cleanly, exit 0: the ledger service exited 143, killed by the signal's default, because
its handler was installed only after the set-up (QA).

Each run is a child process (a signal's default would end the test run itself), on the
real broker with its own topics: the service's database opening sends the process
SIGTERM, as an operator's would arrive then; the service then sees it at its first poll
and stops."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.unit.cli.helpers import pitwatch

CHILD = """
import asyncio, os, signal
from services.pipeline import {service}_service as service

real_open = service.open_ledger

def opening(url):
    os.kill(os.getpid(), signal.SIGTERM)
    return real_open(url)

service.open_ledger = opening
asyncio.run(service.serve(service.{settings}.from_env()))
print("returned")
"""


@pytest.mark.parametrize(("service", "settings"), [("ledger", "LedgerServiceSettings"),
                                                   ("archive", "ArchiveServiceSettings")])
def test_sigterm_during_the_set_up_is_a_clean_stop(service: str, settings: str,
                                                   tmp_path: Path, kafka_bootstrap: str
                                                   ) -> None:
    prefix = f"stop-{uuid.uuid4().hex[:8]}."
    made = pitwatch("topics", "create", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                    prefix, "--partitions", "1")
    assert made.code == 0, made.stderr
    env = {**os.environ, "PITWATCH_KAFKA": kafka_bootstrap, "PITWATCH_TOPIC_PREFIX": prefix,
           "PITWATCH_DB": f"sqlite:///{tmp_path}/{service}.sqlite"}
    env.pop("PITWATCH_METRICS_PORT", None)
    ran = subprocess.run([sys.executable, "-c", CHILD.format(service=service,
                                                             settings=settings)],
                         capture_output=True, text=True, timeout=120, check=False, env=env)
    assert ran.returncode == 0, (ran.returncode, ran.stderr[-2000:])
    assert ran.stdout == "returned\n"
    assert (tmp_path / f"{service}.sqlite").exists()  # the set-up itself went through
