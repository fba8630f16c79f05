"""Run in a child process by ``test_determinism``: simulate and adjudicate HCF cases, print
a digest of every simulated event and of every record.

Reads the cases as JSON on stdin (``[[seed, table_index, hands, [fault, ...]], ...]``) and
prints JSON: per case, the sha256 of the simulated events and one sha256 per record.
"""

from __future__ import annotations

import hashlib
import sys

import orjson

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import encode_record
from tests.profiles import PROFILES
from tests.unit.hcf.streams import simulated

Case = tuple[int, int, int, list[str]]


def digests(cases: list[Case]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for seed, table_index, hands, faults in cases:
        inputs, _ = simulated(seed, table_index, hands, frozenset(faults), fault_rate=0.5)
        events = hashlib.sha256(repr([h.events for h in inputs]).encode()).hexdigest()
        records = [hashlib.sha256(encode_record(adjudicate_hand(h, PROFILES))).hexdigest()
                   for h in inputs]
        out.append({"events": events, "records": records})
    return out


if __name__ == "__main__":
    sys.stdout.buffer.write(orjson.dumps(digests(orjson.loads(sys.stdin.buffer.read()))))
