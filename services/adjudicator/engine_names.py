"""The engines' names and the choice among them (``PITWATCH_ENGINE`` or ``--engine``).

Apart from ``engine``, which loads the engines: the root command turns an unknown name
into one line (exit 2) wherever a command reads it, and must not load an engine to know
the exception (QA: ``report hand``, ``surveil`` and ``verify`` ended in a traceback)."""

from __future__ import annotations

import os
from typing import Literal

ENGINE_ENV = "PITWATCH_ENGINE"
EngineName = Literal["native", "python"]
ENGINES: tuple[EngineName, ...] = ("native", "python")


class UnknownEngine(ValueError):
    """An engine name that is neither ``native`` nor ``python``."""


def engine_name(explicit: str | None = None) -> EngineName:
    """The engine asked for: ``explicit``, else ``$PITWATCH_ENGINE``, else native."""
    name = explicit or os.environ.get(ENGINE_ENV) or "native"
    if name == "native":
        return "native"
    if name == "python":
        return "python"
    raise UnknownEngine(f"unknown engine {name!r} ({ENGINE_ENV} or --engine): use one of "
                        f"{', '.join(ENGINES)}")
