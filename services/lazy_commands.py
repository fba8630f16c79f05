"""Sub-commands whose modules are imported when a command line names them, not before.

Why: the ``pitwatch`` command tree reaches SQLAlchemy and Alembic (the ledger, archive and
cases commands), aiokafka (the pipeline's), scipy and numpy (the surveillance service),
argon2 (console users) and Jinja2 (reports). Importing all of them is about 2.5 s of CPU
before a single event is read, which ``pitwatch adjudicate FILE`` (the main job, also
the one that re-verifies years of history) paid on every run: as much as adjudicating
7,000 High Card Flush hands. A group of this class knows each heavy sub-command by its
name and how to build it, and imports its module only when that name is resolved (run,
or listed by ``--help``), so a command pays only for what it uses.

A sub-command is built exactly as ``Typer.add_typer`` / ``Typer.command`` would have
built it at start-up: Typer makes it, inside a holder app of its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import typer
from typer import _click as click  # Typer 0.29 vendors its click (pyproject)
from typer.core import TyperCommand, TyperGroup

from services.help_text import flow_help


@dataclass(frozen=True)
class LazyCommand:
    """Where a sub-command lives: ``module.attribute`` is a ``typer.Typer`` (a group) or a
    command function; ``extra`` are further commands ``(name, module, function)`` added to
    that group first (``serve surveillance``, ``serve console``). ``listing``: the first
    paragraph of its help, as the root's ``--help`` lists it (``help``, when given)."""

    module: str
    attribute: str
    help: str | None = None
    extra: tuple[tuple[str, str, str], ...] = field(default=())
    listing: str | None = None

    @property
    def listed_as(self) -> str:
        return self.listing if self.listing is not None else self.help or ""

    def build(self, name: str) -> click.Command:
        target: Any = getattr(importlib.import_module(self.module), self.attribute)
        holder = typer.Typer()
        if isinstance(target, typer.Typer):
            for command_name, module, function in self.extra:
                if not any(c.name == command_name for c in target.registered_commands):
                    target.command(command_name)(getattr(importlib.import_module(module),
                                                         function))
            if self.help is None:  # the group's own help, as ``add_typer`` without one
                holder.add_typer(target, name=name)
            else:
                holder.add_typer(target, name=name, help=self.help)
        else:
            holder.command(name)(target)
        # ``get_group`` (unlike ``get_command``) builds a group even of one command.
        return typer.main.get_group(holder).commands[name]


class LazyGroup(TyperGroup):
    """A Typer group that also holds ``lazy`` sub-commands, built on first use."""

    lazy: ClassVar[Mapping[str, LazyCommand]] = {}
    _listing = False  # this group's own help is being written

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help, its lazy sub-commands listed by their declared lines, not imported."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        eager = super().list_commands(ctx)
        return [*eager, *(name for name in self.lazy if name not in eager)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            if self._listing:  # a stand-in with the line the listing shows
                return TyperCommand(cmd_name, help=self.lazy[cmd_name].listed_as)
            self.add_command(self.lazy[cmd_name].build(cmd_name), cmd_name)
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            flow_help(command)
        return command

