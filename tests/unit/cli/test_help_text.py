"""A command's ``--help`` shows each paragraph of its docstring as one flowing text that
the terminal wraps, never the source's line breaks (Typer's rich help keeps them: on an
80-column terminal "or, with" stood on a line of its own)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import typer.main

from services.help_text import flowing
from tests.unit.cli.test_startup import _every_command_imported


def test_a_wrapped_paragraph_flows_and_paragraphs_stay_apart() -> None:
    text = """First line.

        Exits 1 when any input was rejected, or, with
        --fail-on-findings, when a hand has a finding.

        Written to ``out.jsonl``
          as it goes."""
    assert flowing(text) == (
        "First line.\n\n"
        "Exits 1 when any input was rejected, or, with --fail-on-findings, when a hand has "
        "a finding.\n\n"
        "Written to `out.jsonl` as it goes.")


def test_a_paragraph_marked_to_keep_its_breaks_keeps_them() -> None:
    text = "Usage.\n\n\bone\ntwo\n\nthree\nfour"
    assert flowing(text) == "Usage.\n\n\bone\ntwo\n\nthree four"


def _paths(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """Every command under ``command`` with its help as written in the source."""
    found = [(path, inspect.cleandoc(command.help or ""))] if path else []
    for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
        found += _paths(sub, (*path, name))
    return found


@pytest.mark.parametrize("width", [80, 200])
def test_every_help_shows_each_paragraph_flowing(
        width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each paragraph of each command's help, its words in order, is what the help
    shows between blank lines: read back with the screen's line breaks taken out, it
    is the paragraph; and on a wide screen each is one line."""
    from services.cli import app

    monkeypatch.setenv("COLUMNS", str(width))
    commands = _paths(_every_command_imported())
    assert len(commands) > 20
    broken = 0
    for path, help_text in commands:
        root = typer.main.get_command(app)
        assert root.main([*path, "--help"], prog_name="pitwatch", standalone_mode=False) == 0
        shown = capsys.readouterr().out
        lines = [line.strip() for line in shown.split("╭")[0].splitlines()]
        blocks = " ".join(line or "\n" for line in lines).split("\n")
        shown_paragraphs = [" ".join(block.split()) for block in blocks if block.strip()]
        assert shown_paragraphs[0].startswith("Usage: pitwatch")
        for paragraph in help_text.split("\n\n"):
            words = " ".join(paragraph.replace("``", "`").split())
            assert words in shown_paragraphs[1:], (path, words)
            if width == 200 and len(words) < 190:
                assert words in lines, (path, words)
            broken += "\n" in paragraph
    assert broken  # the source wraps some paragraphs: the test sees them joined


def test_every_option_help_shows_its_words(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Each option's help, as written, is in its command's help: ``[rake.pot]`` in
    ``import phh --rule-profile`` was read as Rich markup and dropped, the very section
    name a venue's rake schedule is posted under (QA, 2026-12-06)."""
    from services.cli import app

    monkeypatch.setenv("COLUMNS", "400")
    checked = 0
    tree = _every_command_imported()
    for path, _ in _paths(tree):
        root = typer.main.get_command(app)
        command: Any = tree
        for name in path:
            command = command.commands[name]
        assert root.main([*path, "--help"], prog_name="pitwatch", standalone_mode=False) == 0
        shown = " ".join(capsys.readouterr().out.replace("│", " ").split())
        for param in getattr(command, "params", []):
            written = getattr(param, "help", None)
            if written:
                words = " ".join(written.replace("\\[", "[").split())
                assert words in shown, (path, param.name, words)
                checked += 1
    assert checked > 50
