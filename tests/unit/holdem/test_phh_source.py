"""Which files a PHH import reads (``phh_source.expand``): the walk of ``Path.rglob`` and
the order of ``sorted(paths)``, without their costs."""

from __future__ import annotations

import os
import random
from pathlib import Path

from services.importers.phh_source import SUFFIXES, expand


def _tree(root: Path) -> None:
    """Files, hidden ones, a folder named like a hand file, links to a file, to a folder
    and to nothing, and names whose sort as text differs from their sort as paths
    (``a.b/1.phh`` against ``a/2.phh``: '.' sorts before '/', 'a' before 'a.b')."""
    for name in ("a/2.phh", "a.b/1.phh", "s/10.phh", "s/9.phh", "s/.hidden.phh", "s/.phh",
                 "s/notes.txt", "s/deep/er/7.phhs", "s/x.PHH", "s/y.phh.bak"):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")
    (root / "s" / "folder.phh").mkdir()
    os.symlink(root / "a" / "2.phh", root / "s" / "link.phh")
    os.symlink(root / "a", root / "s" / "linked-folder")
    os.symlink(root / "missing.phh", root / "s" / "broken.phh")


def test_a_folder_gives_its_hand_files_at_every_depth_in_path_order(tmp_path: Path) -> None:
    _tree(tmp_path)
    found = [p.relative_to(tmp_path).as_posix() for p in expand([tmp_path])]
    assert found == ["a/2.phh", "a.b/1.phh", "s/.hidden.phh", "s/10.phh", "s/9.phh",
                     "s/deep/er/7.phhs", "s/link.phh"]


def test_the_walk_and_order_are_rglob_and_sorted(tmp_path: Path) -> None:
    """The same files, in the same order, as the definition it replaced (pathlib's own
    walk and ``Path``'s ``<``), also for files named one by one in any order, twice."""
    _tree(tmp_path)
    walked = sorted({p for p in tmp_path.rglob("*") if p.suffix in SUFFIXES and p.is_file()})
    assert expand([tmp_path]) == walked
    named = [str(p) for p in walked] * 2
    random.Random(7).shuffle(named)
    assert expand(named) == walked
    assert expand([tmp_path / "s", tmp_path]) == walked


def test_links_to_folders_passed_over_are_named(tmp_path: Path) -> None:
    """QA: a linked folder of hands was left out without a word. The walk still does not
    follow it (``a`` would be read twice here), and names it for the import to say."""
    _tree(tmp_path)
    links: list[Path] = []
    expand([tmp_path], links)
    assert [p.relative_to(tmp_path).as_posix() for p in links] == ["s/linked-folder"]
