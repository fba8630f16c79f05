"""``pitwatch import phh -o FILE`` writes each table's events as the table is done
(``import_phh(..., output=...)``) and holds none of them: the file is the import's own
bytes (both importers), also when the native importer declines part way after writing
tables; a failed import leaves the file it would have replaced as it was."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from typer.testing import CliRunner

from services.importers import phh as phh_module
from services.importers.cli import import_app
from services.importers.phh import import_phh
from tests.unit.holdem.test_phh_import import SIMPLE, phh, write

FINISHING = (106, 94, 100)


def _tables(root: Path, count: int) -> list[Path]:
    """``count`` sessions (a table each) of two hands."""
    folders = []
    for n in range(count):
        folder = root / f"session{n}"
        write(folder, "1.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=1))
        write(folder, "2.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=2))
        folders.append(folder)
    return folders


@pytest.mark.parametrize("engine", ["native", "python"])
def test_the_streamed_file_is_the_imports_bytes(tmp_path: Path, engine: str) -> None:
    folders = _tables(tmp_path / "in", 3)
    held = import_phh(folders, engine=engine)
    out = io.BytesIO()
    streamed = import_phh(folders, engine=engine, output=out)
    assert held.engine == streamed.engine == engine
    assert out.getvalue() == held.jsonl() and held.event_count > 0
    assert streamed.jsonl() == b"" and streamed.event_count == held.event_count
    assert streamed.hands == held.hands == 6 and streamed.scales == held.scales


def test_a_decline_after_tables_were_written_leaves_pythons_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The native importer writes the first sessions' tables, then meets a hand id beyond
    the contract in the last session (a file name of 210 characters) and declines: the
    file is emptied, and the Python importer writes it (that hand skipped, with why)."""
    folders = _tables(tmp_path / "in", 2)
    last = tmp_path / "in" / "zz"
    write(last, f"{'h' * 210}.phh", phh(actions=SIMPLE, finishing=FINISHING))
    write(last, "2.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=2))
    sunk: list[bytes] = []
    native = phh_module.native_import

    def watched(files: list[Path], options: phh_module.ImportOptions,
                output: BinaryIO | None = None) -> phh_module.ImportResult | phh_module.Declined:
        attempt = native(files, options, output)
        assert isinstance(output, io.BytesIO)
        sunk.append(output.getvalue())
        return attempt

    monkeypatch.setattr(phh_module, "native_import", watched)
    out = io.BytesIO()
    out.write(b"kept\n")  # what the file held before: the import goes on from there
    result = import_phh([*folders, last], output=out)
    assert sunk[0].count(b'"table_configured"') == 2  # two tables written, then declined
    assert result.engine == "python" and result.declined is not None
    assert "a hand id the v1 contract does not take" in result.declined
    reference = import_phh([*folders, last], engine="python")
    assert out.getvalue() == b"kept\n" + reference.jsonl()
    assert result.hands == reference.hands == 5
    assert result.event_count == reference.event_count


def test_a_pipe_gets_the_same_bytes(tmp_path: Path) -> None:
    """A pipe cannot be emptied again: the import is held and written at its end."""
    folders = _tables(tmp_path / "in", 2)
    read, write_end = os.pipe()
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(_read_all(read)))
    reader.start()
    with os.fdopen(write_end, "wb") as fh:
        result = import_phh(folders, output=fh)
    reader.join()
    assert received == [import_phh(folders).jsonl()] and result.hands == 4


def _read_all(fd: int) -> bytes:
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


class _FullDisk(io.BytesIO):
    """An output whose second write fails, as on a full disk."""

    writes = 0

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.writes += 1
        if self.writes == 2:
            raise OSError(28, "No space left on device")
        return super().write(data)


def test_an_output_that_fails_stops_the_native_import(tmp_path: Path) -> None:
    """The native importer gives each table to the output's ``write``: an exception it
    raises (the second table's) ends the import and is raised as it was."""
    folders = _tables(tmp_path / "in", 3)
    out = _FullDisk()
    with pytest.raises(OSError, match="No space left on device"):
        import_phh(folders, output=out)
    assert out.writes == 2 and out.getvalue().count(b'"table_configured"') == 1


def test_a_failed_import_leaves_the_old_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI writes beside the file and renames: an import that fails part way (here
    after the first table was written) leaves the file it would have replaced, and no
    partial file."""
    folders = _tables(tmp_path / "in", 3)
    target = tmp_path / "events.jsonl"
    target.write_bytes(b"yesterday's import\n")
    real_import_table = phh_module.import_table
    tables = 0

    def failing(*args: Any, **kwargs: Any) -> None:
        nonlocal tables
        tables += 1
        if tables == 2:
            raise OSError(28, "No space left on device")
        real_import_table(*args, **kwargs)

    monkeypatch.setattr(phh_module, "import_table", failing)
    outcome = CliRunner().invoke(import_app, ["phh", *map(str, folders), "-o", str(target),
                                              "--engine", "python"])
    monkeypatch.undo()
    assert outcome.exit_code != 0 and isinstance(outcome.exception, OSError) and tables == 2
    assert target.read_bytes() == b"yesterday's import\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.jsonl", "in"]
    outcome = CliRunner().invoke(import_app, ["phh", *map(str, folders), "-o", str(target)])
    assert outcome.exit_code == 0, outcome.output
    assert target.read_bytes() == import_phh(folders).jsonl()


def test_a_link_is_written_through(tmp_path: Path) -> None:
    """``-o`` naming a symbolic link writes its target, as before, and keeps the link; the
    file replaced keeps its permissions (its owner's alone)."""
    folders = _tables(tmp_path / "in", 1)
    target = tmp_path / "real.jsonl"
    target.write_bytes(b"")
    target.chmod(0o600)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    outcome = CliRunner().invoke(import_app, ["phh", *map(str, folders), "-o", str(link)])
    assert outcome.exit_code == 0, outcome.output
    assert link.is_symlink() and target.read_bytes() == import_phh(folders).jsonl()
    assert target.stat().st_mode & 0o777 == 0o600
