"""The floor page counts the tables whose games have a win and no drop by table, not by
row of table and game (as the daily report does: QA helper 100 found the same count in
both, a table that played two such games counted twice)."""

from __future__ import annotations

import datetime as dt

from services.console.floor import Floor, TableLine


def test_two_games_without_a_drop_at_one_table_are_one_table() -> None:
    """T1: Russian (drop 40, win -10) and two rake-only games (win 3 and 2, no drop);
    T2: one rake-only game (win 1). Left out of the hold: 6 chips at 2 tables (rows: 3)."""
    rows = [TableLine("T1", "russian", 2, 0, 40, 0, -10),
            TableLine("T1", "cp", 1, 0, 0, 3, 0), TableLine("T1", "ofc", 1, 0, 0, 2, 0),
            TableLine("T2", "cp", 1, 0, 0, 1, 0)]
    floor = Floor(dt.date(2026, 1, 5), [dt.date(2026, 1, 5)], rows, {}, [])
    assert (floor.hold.left_out, floor.tables_without_drop) == (6, 2)
    assert floor.hold.tables_left_out == 3  # the rows, which the page no longer says
