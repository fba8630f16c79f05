"""The one line for a file system refusal no output option named (a partial file of
``import phh``, ``schemas export``'s folder): it said "Permission denied: PATH" and
nothing to do (QA)."""

from __future__ import annotations

import errno

from services.exits import file_system_refusal


def test_a_permission_refusal_says_what_to_do() -> None:
    said = file_system_refusal(PermissionError(errno.EACCES, "Permission denied",
                                               "rodir/.i.jsonl.partial"))
    assert said == ("Permission denied: rodir/.i.jsonl.partial (let pitwatch read and write "
                    "there, or name another place, then run the command again)")


def test_another_refusal_names_its_file_as_before() -> None:
    said = file_system_refusal(FileNotFoundError(errno.ENOENT, "No such file or directory",
                                                 "gone.jsonl"))
    assert said == "No such file or directory: gone.jsonl"
