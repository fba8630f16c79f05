"""Every record, alert and dead letter of a simulated log is fixed byte for byte.

WHY: the embedded runner and the Faust app must give the same bytes for the same events,
and performance work on intake, chain checks, hand assembly, the recorded side and the
game modules must not change one of them. The digests below were computed from the tree
BEFORE the throughput work (commit 0c0ea2f) by this very function; a change to any record,
alert or dead-letter reason of these logs changes the digest. Each game runs twice: clean
play, and every fault it knows (plus stream tampering) injected at a 30% rate so that the
finding paths (MISPAY, GEN-1..5, SURV-9, game procedure) are covered too. Table-level
scenarios (HCF ``sweetheart``, added after these digests, for the cross-hand surveillance)
are left out: they change the simulated input, not how a hand is adjudicated, and
tests/unit/surveillance covers them.
"""

from __future__ import annotations

import hashlib

import msgspec
import orjson
import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import encode_record
from services.simulator.registry import scenarios_for
from services.simulator.run import available_faults, simulate

GOLDEN: dict[tuple[str, bool], tuple[str, int]] = {
    ("hcf", False): ("e128bf9765a5e04d29fdd78f715d947740da558bc6e49c9197f0d5498c2e8810", 120),
    ("hcf", True): ("232604c0e57a7873dfbb1f1e92580072e1514940b6f8d4e32275dfe54e0623b8", 120),
    ("chinese", False): ("5b76822e0908ac327c8ba0e7be42056be2353cb0b0aa8f5834a13fe61f24b157", 120),
    ("chinese", True): ("7bad6f233e702954ae23e21a4c0bb0178bb6137046e49ddcd8605574039d41bc", 120),
    ("draw7a", False): ("145f0190ce7fe6a673c7476a19235f267a8bcf68122780b15e8ea00c5e128168", 120),
    ("draw7a", True): ("8e3c9fb926ee75fbc8da48a29d9c9b92ae1037ed4df72eea449a547c409ccdbb", 120),
    ("russian", False): ("71449e3f6565b97526743446d5f41091ff91da052e5cc6b4364f1a2082c2ebe4", 120),
    ("russian", True): ("6bd53620c3a7fe26e8d82241532a286446d3ae378f2295218fdbbe4de27098f0", 120),
    ("holdem", False): ("a90a0242b48122aeee4e8725eaf7750590d23ef8135aa824381fa1f92d36ca59", 120),
    ("holdem", True): ("e1c1a1024a4f2dfd40bbb23995923ca90961e29a52c0a05a6f4759bd1c689f0e", 120),
}


def embedded_digest(game: str, with_faults: bool) -> tuple[str, int]:
    """sha256 over every encoded record, alert and dead letter; and the record count."""
    per_hand = frozenset(available_faults(game)) - scenarios_for(game)
    faults = per_hand if with_faults else frozenset()
    log = simulate([game], 2, 60, 11, faults, 0.3 if with_faults else 0.02)
    digest = hashlib.sha256()
    records = 0
    for step in adjudicate_lines(orjson.dumps(e) for e in log.events):
        for record in step.records:
            digest.update(encode_record(record) + b"\n")
            records += 1
        for alert in step.alerts:
            digest.update(msgspec.json.encode(alert) + b"\n")
        for dead in step.dead_letters:
            digest.update(repr(dead).encode() + b"\n")
    return digest.hexdigest(), records


@pytest.mark.parametrize(("game", "with_faults"), sorted(GOLDEN))
def test_embedded_output_is_byte_identical(game: str, with_faults: bool) -> None:
    assert embedded_digest(game, with_faults) == GOLDEN[(game, with_faults)]
