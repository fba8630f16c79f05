"""Intake per event, native core against the Python reference, on the same file, per game.

Intake is everything before the rules: splitting the file into lines, decoding and
validating every record, its RFC 8785 canonical JSON and SHA-256, the chain and ``seq``
checks with the duplicate window, and hand assembly up to the closed hand the rules
take (``HandInput``'s events as the contract's structs). Measured, for each game, on one
simulated log (clean play) held in memory, best of ``--repeat`` runs of this process's
CPU time (the machine is shared; the minimum is the least noisy):

- reference: ``parse_record`` + ``apply_event`` per line (the Python runner) with the
  adjudication of closed hands stubbed out, so the rules are not counted;
- native: ``Engine.feed_buffer`` over the whole buffer (the core splits the lines), the
  closed hands built as Python structs and handed back, not adjudicated;
- native core only: the same records through the Rust core with no Python object at all
  (what the per-event path costs before any hand crosses into Python).

    python benchmarks/bench_intake.py [--games hcf,holdem] [--hands 250] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services import _native  # noqa: E402
from services.adjudicator import table as table_module  # noqa: E402
from services.adjudicator.embedded import iter_lines  # noqa: E402
from services.adjudicator.intake import Rejection, parse_record  # noqa: E402
from services.adjudicator.native_runner import NativeRunner  # noqa: E402
from services.events.contract import AdjudicationRecord  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.simulator.run import simulate  # noqa: E402

PROFILES = read_profiles()  # once, as every entry point does
HOUSE = PROFILES.get(BUILTIN_PROFILE)

GAMES = ("hcf", "draw7a", "holdem", "chinese", "russian")
TARGET_US = 1.0
TARGET_RATIO = 5.0


def _no_rules(*args: object, **kwargs: object) -> AdjudicationRecord:
    return AdjudicationRecord(v=1, table_id="-", hand_id="-", game=None, status="rejected",
                              rule_profile=None, expected=None, recorded=None, findings=[])


def reference_intake(buf: bytes) -> int:
    """The Python runner's per-event path, rules stubbed out; returns hands closed."""
    states: dict[str, table_module.TableState] = {}
    hands = 0
    for raw, where in iter_lines(buf.splitlines()):
        parsed = parse_record(raw, where)
        if isinstance(parsed, Rejection):
            raise SystemExit(f"{where}: the simulated log was rejected: {parsed.reason}")
        table_id = parsed.event.table_id
        state = states.get(table_id)
        if state is None:
            state = states[table_id] = table_module.TableState(table_id=table_id)
        hands += len(table_module.apply_event(state, parsed, PROFILES).records)
    return hands


def native_intake(buf: bytes) -> int:
    """The native core over the buffer, closed hands built as structs (not adjudicated)."""
    # native_rules=False: with the core's rules on, a High Card Flush hand is adjudicated
    # in the core and comes back as a record, not as the hand's structs; intake stops at
    # the closed hand, so the rules are off here as they are stubbed out for the reference.
    engine = NativeRunner(PROFILES, native_rules=False)._engine
    hands = pos = 0
    line = 1
    while pos < len(buf):
        (pos, line), steps = engine.feed_buffer(buf, pos, line)
        hands += sum(1 for step in steps for item in step[2] if item[0] == "hand")
    return hands


def core_only(buf: bytes) -> int:
    return int(_native.Engine._core_only(buf))


def best(fn: Callable[[bytes], int], buf: bytes, repeat: int) -> tuple[float, int]:
    seconds, result = float("inf"), 0
    for _ in range(repeat):
        started = time.process_time()
        result = fn(buf)
        seconds = min(seconds, time.process_time() - started)
    return seconds, result


def bench_game(game: str, tables: int, hands: int, repeat: int) -> tuple[float, float, float, float]:
    log = simulate([game], tables, hands, seed=1, profile=HOUSE)
    buf = b"".join(orjson.dumps(e) + b"\n" for e in log.events)
    events = len(log.events)
    real = getattr(table_module, "adjudicate_hand")  # noqa: B009 (replaced for the run)
    setattr(table_module, "adjudicate_hand", _no_rules)  # noqa: B010
    try:
        ref_s, ref_hands = best(reference_intake, buf, repeat)
    finally:
        setattr(table_module, "adjudicate_hand", real)  # noqa: B010
    nat_s, nat_hands = best(native_intake, buf, repeat)
    core_s, core_records = best(core_only, buf, repeat)
    if ref_hands != nat_hands or core_records != events:
        raise SystemExit(f"{game}: the engines saw different hands ({ref_hands} vs {nat_hands})")
    ref_us, nat_us, core_us = (s / events * 1e6 for s in (ref_s, nat_s, core_s))
    print(f"{game:8s} {events:8d} events {ref_hands:6d} hands | reference {ref_us:6.2f} us/ev"
          f" | native {nat_us:5.2f} us/ev ({ref_us / nat_us:4.1f}x)"
          f" | native core only {core_us:5.2f} us/ev ({ref_us / core_us:4.1f}x)")
    return core_us, ref_us / core_us, nat_us, ref_us / nat_us


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--hands", type=int, default=250, help="hands per table")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = [bench_game(g, args.tables, args.hands, args.repeat) for g in args.games.split(",")]
    # The default engine's intake ends in the core (its rules take the closed hand as the
    # core holds it); the structs are what the Python rules take (`--engine native` with
    # the reference rules, and hands asked for with their events).
    for label, at in (("native core, the default engine's intake", 0),
                      ("native with the hands built as Python structs, the Python rules' "
                       "input (not the default path)", 2)):
        worst_us = max(r[at] for r in results)
        worst_ratio = min(r[at + 1] for r in results)
        verdict = "met" if worst_us <= TARGET_US and worst_ratio >= TARGET_RATIO else "missed"
        print(f"target: <= {TARGET_US} us/event and >= {TARGET_RATIO}x the reference -> "
              f"{label}: worst game {worst_us:.2f} us/event, {worst_ratio:.1f}x ({verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
