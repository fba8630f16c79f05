"""The dispute report of a hand whose archived event was changed behind the guards says
the archive was changed, not the rules or the booking (QA: a payout's bytes rewritten in
the archive; ``verify`` named the break, but ``report hand`` led with "the rules applied
... or the booking changed", and so did its warning; the break was only in section 7)."""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path

import orjson
from sqlalchemy import text

from services.archive.segment import SEPARATOR, compress, decompress
from services.ledger.db import open_ledger
from tests.unit.archive.support import keep, simulated_log
from tests.unit.archive.test_verify_damaged_rows import tampered
from tests.unit.cli.helpers import pitwatch


def test_a_changed_payout_in_the_archive_is_said_to_be_the_archives(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'day.sqlite'}"
    engine = open_ledger(url)
    keep(engine, simulated_log(tables=1, faults=False).lines)
    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT rowid, hand_id, codec, body FROM archive_segments WHERE hand_id IS NOT "
            "NULL ORDER BY head_seq")).all()
    rowid, hand_id, codec, body = next(
        row for row in rows[3:] if b'"type":"payout"' in decompress(row.codec, row.body))
    lines = decompress(codec, body).split(SEPARATOR)
    paid = [i for i, line in enumerate(lines) if b'"type":"payout"' in line]
    event = orjson.loads(lines[paid[0]])
    event["data"]["amount"] += 1
    changed_seq = event["seq"]
    lines[paid[0]] = orjson.dumps(event, option=orjson.OPT_SORT_KEYS)
    new_body = compress(SEPARATOR.join(lines))
    tampered(engine, f"UPDATE archive_segments SET body = x'{new_body.hex()}', "
                     f"body_sha256 = '{hashlib.sha256(new_body).hexdigest()}' "
                     f"WHERE rowid = {rowid}")
    engine.dispose()

    out = tmp_path / "hand.html"
    ran = pitwatch("report", "hand", hand_id, "--ledger", url, "-o", str(out), columns=400)
    assert ran.code == 1, ran.stderr
    said = " ".join(ran.stderr.split())
    assert f"its events do not chain (broken at seq {changed_seq + 1:,})" in said, said
    assert "checks the booking" not in said
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", out.read_text())).split())
    assert ("the archive's events of this hand do not chain (section 7: broken at seq "
            f"{changed_seq + 1:,}): the archive was changed after pitwatch wrote it") in page
    assert "A profile edited in place" not in page
