"""Which engine runs the per-event path: the native core (default) or the Python reference.

``PITWATCH_ENGINE=native|python`` (or an explicit ``engine=`` / ``--engine``) chooses.
The native core (``services._native``, Rust, built by ``pip install -e .``) is the
default everywhere: the embedded runner, ``pitwatch adjudicate``, the pipeline step and
the tests. The Python reference (``python_runner``) defines what is valid and stays
selectable; the differential tests keep the two byte-identical.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from services.adjudicator.engine_names import (
    ENGINE_ENV,
    ENGINES,
    EngineName,
    UnknownEngine,
    engine_name,
)
from services.adjudicator.native_runner import EngineUnavailable, NativeRunner
from services.adjudicator.steps import StepResult
from services.games.profile import Profiles

if TYPE_CHECKING:
    from services.adjudicator.python_runner import ReferenceRunner


class Runner(Protocol):
    def feed(self, raw: bytes, where: str) -> StepResult: ...

    def finish(self) -> StepResult: ...


def make_runner(profiles: Profiles, engine: str | None = None,
                archive: bool = False, closed_hands: bool = True
                ) -> NativeRunner | ReferenceRunner:
    """A fresh runner of the chosen engine (``EngineUnavailable`` when native is asked
    for and not built), adjudicating under ``profiles``. With the native engine, High
    Card Flush hands are adjudicated by the core's rules. ``archive``: its results carry
    the event archive's segments (the reference's always do, lazily: a hand's segment
    is made only when read; the core cuts them only when asked, as they cost it a copy
    of every event's canonical JSON). ``closed_hands`` False spares building the hands
    the caller does not read (the reference always has them)."""
    if engine_name(engine) == "python":
        # Imported here: the reference's table state and rules are ~40 ms of a command's
        # start that a native run does not need (the core has the five games' rules).
        from services.adjudicator.python_runner import ReferenceRunner

        return ReferenceRunner(profiles)
    return NativeRunner(profiles, archive=archive, closed_hands=closed_hands)


__all__ = ["ENGINES", "ENGINE_ENV", "EngineName", "EngineUnavailable", "NativeRunner", "Runner",
           "UnknownEngine", "engine_name", "make_runner"]
