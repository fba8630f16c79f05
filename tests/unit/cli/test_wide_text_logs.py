"""A log saved as UTF-16 or UTF-32 is refused whole, in one line saying how to convert it
(QA: ``iconv -t UTF-16`` of a day's log gave 4,431 "malformed JSON" rejections, exit 1);
from a file and from a pipe. A UTF-8 log with its byte order mark still reads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

REPO = Path(__file__).resolve().parents[3]
LINE = '{"v": 1}\n'


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_wide_text_log_is_refused_in_one_line(tmp_path: Path, encoding: str) -> None:
    log = tmp_path / "day.jsonl"
    log.write_bytes(LINE.encode(encoding) * 3)
    ran = pitwatch("adjudicate", str(log))
    assert_one_line_usage_error(ran, "a log in UTF-16 or UTF-32 text", "iconv", str(log))
    piped = subprocess.run([sys.executable, "-m", "services.cli", "adjudicate", "-"],
                           input=log.read_bytes(), capture_output=True, cwd=REPO, check=False)
    lines = piped.stderr.decode().strip().splitlines()
    assert piped.returncode == 2 and len(lines) == 1 and "UTF-16 or UTF-32" in lines[0]


def test_a_utf8_log_with_its_mark_still_reads(tmp_path: Path) -> None:
    log, plain = tmp_path / "marked.jsonl", tmp_path / "plain.jsonl"
    assert pitwatch("simulate", "--tables", "1", "--hands", "2", "-o", str(plain)).code == 0
    log.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert pitwatch("adjudicate", str(log)).stdout == pitwatch("adjudicate", str(plain)).stdout
