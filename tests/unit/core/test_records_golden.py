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

A digest only says *that* something changed. So each output also has its own line in
``golden/<game>-<clean|faults>.tsv`` (position, what it is, its own sha256): a failure
names the records that changed (table, hand, status before and after) instead of leaving
the reader to bisect 120 hands. The files were written from the tree whose whole-log
digests are ``GOLDEN`` (``python -m tests.unit.core.test_records_golden`` rewrites them;
do that only for a change of output that is intended, and say so in the commit).

Changed on purpose once: 2026-12-07, the hold'em and Russian Poker digests, when the
simulator gave each of those tables a dealer of its own (``dealer-<table>-1``, not
"dealer-1" at every table): the input changed, not the adjudication. Checked then by
simulating the logs with the old dealer again (the old digests came back) and comparing
output by output: every label (table, hand, status, finding codes, alert codes and
seqs) the same, and the bytes the same once dealer ids and hashes are set aside.

And once more: 2026-12-07, the Chinese Poker digest with faults, when CP-10's
``PAYMENT_ROUTING`` was limited to hands whose seats' totals are right (as the rule book
says: otherwise the seats' MISPAYs claim the chips). Checked output by output: six records
changed, each only by its PAYMENT_ROUTING findings gone, beside its MISPAYs; every status
and every other finding code the same.

And once more: 2026-12-07, the High Card Flush digest with faults, when a MISPAY of a wager
voided as past-posted came to cite the rule that voided it (HCF-3), not the paytable's
(HCF-8/HCF-9). Checked output by output against the reference of the commit before: six
records changed (the six with a PAST_POSTING), each only by its two MISPAYs' rule and the
rule named in their message; every status, amount and other finding the same.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import orjson
import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import encode_record
from services.simulator.registry import scenarios_for
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE, PROFILES

GOLDEN: dict[tuple[str, bool], tuple[str, int]] = {
    ("hcf", False): ("e128bf9765a5e04d29fdd78f715d947740da558bc6e49c9197f0d5498c2e8810", 120),
    ("hcf", True): ("126efe56566e7a370475e007e10bbcd6677354f12742ed6e0d4b694292457235", 120),
    ("chinese", False): ("5b76822e0908ac327c8ba0e7be42056be2353cb0b0aa8f5834a13fe61f24b157", 120),
    ("chinese", True): ("0dba6d793e3352a08cfff2896a0b26b6a70021391639b91e0b9a85f00dacbb13", 120),
    ("draw7a", False): ("d96f8a58b87f1e9b900e57f35958733cdc21807301a26acc9893aad7d00fb78e", 120),
    ("draw7a", True): ("84ab72cd85fa05464e6cf939cef56bc427aac9576265621ebface9bc378bddae", 120),
    ("russian", False): ("5f3aa8c2cc8572d20b6f37e202741f80a6f5ae5084c542470bb1ce40231ba5c5", 120),
    ("russian", True): ("c5f1fbe6d969883b6b10fd02c60370baa9274764bcd3a564a1bffcba24f7e34d", 120),
    ("holdem", False): ("59a1cb41e83d02833417c2c21bee8be3ed44a652d2c3105a554dabce96384d86", 120),
    ("holdem", True): ("52e510845af7b575e90a1056c375daf1d7d0e81d9c86e45e5a6c9b99e9a32881", 120),
}

GOLDEN_DIR = Path(__file__).with_name("golden")
_ITEM_DIGEST_HEX = 20  # 80 bits per output: a chance collision is not a concern here


def outputs(game: str, with_faults: bool) -> Iterator[tuple[str, bytes]]:
    """(label, encoded bytes) of every record, alert and dead letter, in output order.

    The label says what the output is, in words a reader can find in the log: the table,
    hand, status and finding codes of a record; the table, code and seq of an alert; where a dead letter
    came from."""
    per_hand = frozenset(available_faults(game)) - scenarios_for(game)
    faults = per_hand if with_faults else frozenset()
    log = simulate([game], 2, 60, 11, faults, 0.3 if with_faults else 0.02, profile=HOUSE)
    for step in adjudicate_lines((orjson.dumps(e) for e in log.events), PROFILES):
        for record in step.records:
            codes = ",".join(f.code for f in record.findings) or "-"
            yield (f"record {record.table_id} {record.hand_id} {record.status} {codes}",
                   encode_record(record))
        for alert in step.alerts:
            yield (f"alert {alert.table_id} {alert.code} seq {alert.seq}",
                   msgspec.json.encode(alert))
        for dead in step.dead_letters:
            yield f"dead letter {dead.where}", repr(dead).encode()


def embedded_digest(items: list[tuple[str, bytes]]) -> tuple[str, int]:
    """sha256 over every encoded output, one per line; and the record count."""
    digest = hashlib.sha256()
    for _, encoded in items:
        digest.update(encoded + b"\n")
    return digest.hexdigest(), sum(label.startswith("record ") for label, _ in items)


def item_lines(items: list[tuple[str, bytes]]) -> list[str]:
    """One line per output: position, label, its own digest."""
    return [f"{n}\t{label}\t{hashlib.sha256(encoded).hexdigest()[:_ITEM_DIGEST_HEX]}"
            for n, (label, encoded) in enumerate(items)]


def golden_file(game: str, with_faults: bool) -> Path:
    return GOLDEN_DIR / f"{game}-{'faults' if with_faults else 'clean'}.tsv"


def changed_items(expected: list[str], actual: list[str]) -> list[str]:
    """The outputs that differ, as 'position: expected -> actual' (at most 20)."""
    out: list[str] = []
    for n in range(max(len(expected), len(actual))):
        want = expected[n] if n < len(expected) else "(nothing)"
        got = actual[n] if n < len(actual) else "(nothing)"
        if want != got:
            out.append(f"{want.partition(chr(9))[2] or want} -> {got.partition(chr(9))[2] or got}")
    return out[:20]


@pytest.mark.parametrize(("game", "with_faults"), sorted(GOLDEN))
def test_embedded_output_is_byte_identical(game: str, with_faults: bool) -> None:
    items = list(outputs(game, with_faults))
    expected = golden_file(game, with_faults).read_text("utf-8").splitlines()
    changed = changed_items(expected, item_lines(items))
    assert changed == [], "outputs changed (expected -> actual):\n" + "\n".join(changed)
    assert embedded_digest(items) == GOLDEN[(game, with_faults)]


def test_a_changed_record_is_named() -> None:
    """The report of a difference names the output, not only its position."""
    before = ["0\trecord T001 T001-000001 ok\taaaa", "1\talert T001 SEQ_GAP seq 9\tbbbb"]
    after = ["0\trecord T001 T001-000001 discrepancy\tcccc", "1\talert T001 SEQ_GAP seq 9\tbbbb"]
    assert changed_items(before, after) == [
        "record T001 T001-000001 ok\taaaa -> record T001 T001-000001 discrepancy\tcccc"]
    assert changed_items(before, before[:1]) == [
        "alert T001 SEQ_GAP seq 9\tbbbb -> (nothing)"]


def write_golden_files() -> None:
    """Rewrite every golden file from this tree (only after checking ``GOLDEN`` holds)."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for game, with_faults in sorted(GOLDEN):
        items = list(outputs(game, with_faults))
        if embedded_digest(items) != GOLDEN[(game, with_faults)]:
            sys.exit(f"{game} (faults: {with_faults}): output differs from GOLDEN; "
                     "not writing golden files from a tree that changed the records")
        golden_file(game, with_faults).write_text("\n".join(item_lines(items)) + "\n", "utf-8")


if __name__ == "__main__":
    write_golden_files()
