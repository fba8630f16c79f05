"""Command help as a terminal shows it: each paragraph of a docstring one flowing text.

``LazyGroup.get_command`` (``services.lazy_commands``) passes every command it resolves
through ``flow_help``, so the root's commands, the lazily built ones and their
sub-commands all show their help this way."""

from __future__ import annotations

import inspect

from typer import _click as click  # Typer 0.29 vendors its click (pyproject)


def flow_help(command: click.Command) -> None:
    """The help of ``command`` and of every command under it, each paragraph as one
    flowing line (``flowing``; a help flowed already stays as it is)."""
    if command.help is not None:
        command.help = flowing(command.help)
    for sub in (getattr(command, "commands", None) or {}).values():
        flow_help(sub)


def flowing(text: str) -> str:
    """A docstring's paragraphs each joined into one line, its ``literal`` marks written
    `literal`, as the command line's other help texts write them.

    Why: Typer's rich help keeps a docstring's line breaks, so a paragraph wrapped in the
    source at 90 columns came out on an 80-column terminal broken mid-sentence ("or,
    with" on a line of its own). Joined, the terminal wraps it at its own width. A
    paragraph marked ``\\b`` (click's "keep my line breaks") is kept as written."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        paragraph if paragraph.startswith("\b")
        else " ".join(line.strip() for line in paragraph.splitlines()).replace("``", "`")
        for paragraph in paragraphs)

