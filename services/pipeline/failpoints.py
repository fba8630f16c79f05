"""Crash points for the kill -9 tests: a service can be told to kill itself with SIGKILL
at the n-th time it passes a named point (``PITWATCH_FAILPOINT=delivered:3``).

Why in the services and not only in the tests: the promises worth proving are about
exact places (between the outputs' acknowledgement and the changelog, between the
changelog and the offset commit, in the middle of a restore), and a kill timed from
outside lands wherever the scheduler happens to be. SIGKILL to itself is a real kill -9:
no handler, no flush, no commit, nothing after it runs. Unset (the default), a point costs
one comparison.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

from services.events.numerals import is_ascii_number

FAILPOINT_ENV = "PITWATCH_FAILPOINT"


@dataclass
class Failpoint:
    """Kill this process the ``count``-th time ``point`` is passed (``count`` >= 1)."""

    point: str
    count: int
    passed: int = 0

    @classmethod
    def parse(cls, text: str) -> Failpoint:
        name, _, count = text.partition(":")
        if not name or not is_ascii_number(count) or int(count) < 1:
            raise ValueError(f"{FAILPOINT_ENV}={text!r}: expected <point>:<count>, e.g. "
                             "delivered:3")
        return cls(name, int(count))

    def reached(self, point: str) -> None:
        if point != self.point:
            return
        self.passed += 1
        if self.passed == self.count:
            os.kill(os.getpid(), signal.SIGKILL)


_armed: Failpoint | None = None


def arm_from_env() -> None:
    """Read ``PITWATCH_FAILPOINT`` once (the services call this at start)."""
    global _armed
    text = os.environ.get(FAILPOINT_ENV)
    _armed = Failpoint.parse(text) if text else None


def failpoint(point: str) -> None:
    """A named place where a test may crash the process."""
    if _armed is not None:
        _armed.reached(point)
