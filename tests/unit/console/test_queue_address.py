"""The queue's player and dealer filters, given in the page's address (QA): players are
filtered by POST so their ids stay out of addresses (proxies and servers log them), and
``/queue?state=any&player=P`` dropped the filter silently, listing every case as if they
were P's. Such an address now lists no case, says on the page that the filter was not
applied and is given through the form, and has the value in the form for Filter to post.

Hand-built: T1-000001 (alice at seat 1, bob the designated player at seat 3, dealt by
D7) with a critical finding opens the one case."""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.console.support import console_client, csrf_of, log_in, one_case_database

NOT_APPLIED = ("Not applied: the player filter is given through the form, not the page&#39;s "
               "address")


def _listed(html: str) -> list[str]:
    return re.findall(r'<td><a href="/cases/(\d+)">', html)


def test_a_player_in_the_address_is_not_applied_and_the_page_says_so(tmp_path: Path) -> None:
    engine = one_case_database(f"{tmp_path}/l.sqlite")
    client = console_client(engine)
    assert log_in(client, "cora") == 303
    assert _listed(client.get("/queue").text) == ["1"]  # the one case, to work
    for path in ("/queue?state=any&player=nobody", "/queue?state=any&player=alice"):
        page = client.get(path)
        assert page.status_code == 400, path
        assert NOT_APPLIED in page.text and "Press Filter to apply it." in page.text
        assert _listed(page.text) == [] and "case(s)" not in page.text  # nothing listed
    # the value waits in the form (a POST), with the state the address asked for
    (form,) = re.findall(r'<form method="post" action="/queue".*?</form>', page.text, re.S)
    assert 'name="player" value="alice"' in form
    assert '<option value="any" selected>' in form
    both = client.get("/queue?dealer=D7&player=alice")
    assert both.status_code == 400
    assert ("Not applied: the player and the dealer filters are given through the form"
            in both.text) and "Press Filter to apply them." in both.text
    # through the form, the filter applies: alice's case, and none for nobody
    csrf = csrf_of(client)
    assert _listed(client.post("/queue", data={"csrf": csrf, "state": "any",
                                               "player": "alice"}).text) == ["1"]
    # a player the database does not know is refused, as cases list refuses it
    nobody = client.post("/queue", data={"csrf": csrf, "state": "any", "player": "nobody"})
    assert nobody.status_code == 400 and _listed(nobody.text) == []
    assert _listed(client.post("/queue", data={"csrf": csrf, "dealer": "D7"}).text) == ["1"]
    # the other filters still work in the address
    assert _listed(client.get("/queue?state=any&severity=critical").text) == ["1"]
    assert "Not applied" not in client.get("/queue?state=any").text


def test_a_game_or_severity_the_queue_does_not_know_is_refused(tmp_path: Path) -> None:
    """``game=HCF`` listed "0 case(s)" (an empty queue read as no work) and
    ``severity=bogus`` was dropped, listing every case (QA): both are a 400 naming what
    the filter takes, as ``cases list`` refuses them; the names as written still list."""
    engine = one_case_database(f"{tmp_path}/l.sqlite")
    client = console_client(engine)
    assert log_in(client, "cora") == 303
    csrf = csrf_of(client)
    for field, value, says in (("game", "HCF", "no game &#39;HCF&#39;: one of hcf, chinese, "
                                "draw7a, russian, holdem"),
                               ("game", "Hold'em", "no game &#34;Hold&#39;em&#34;"),
                               ("severity", "bogus", "no severity &#39;bogus&#39;: one of "
                                "info, warning, critical")):
        page = client.post("/queue", data={"csrf": csrf, field: value, "page": "1"})
        assert page.status_code == 400, (field, value)
        assert says in page.text, page.text[-800:]
        assert _listed(page.text) == []
    for field, value in (("game", "hcf"), ("severity", "critical")):
        page = client.post("/queue", data={"csrf": csrf, field: value, "page": "1"})
        assert page.status_code == 200 and _listed(page.text) == ["1"], (field, value)


def test_a_table_dealer_or_player_the_database_does_not_know_is_refused(
        tmp_path: Path) -> None:
    """``table=T9`` and a mistyped dealer listed "0 case(s)", a clear queue, where
    ``pitwatch cases list`` refuses them (QA): a 400 saying the database knows no such
    name; the known tables are named, players and dealers not. A known name lists."""
    engine = one_case_database(f"{tmp_path}/l.sqlite")
    client = console_client(engine)
    assert log_in(client, "cora") == 303
    csrf = csrf_of(client)
    table = client.get("/queue?table=T9")
    assert table.status_code == 400 and _listed(table.text) == []
    assert ("the database knows no table &#39;T9&#39; (no case, hand or archive names it): "
            "it knows T1 (check the table field" in table.text)
    for kind, value in (("dealer", "d7"), ("player", "Alice")):
        page = client.post("/queue", data={"csrf": csrf, "state": "any", kind: value})
        assert page.status_code == 400 and _listed(page.text) == [], kind
        assert (f"the database knows no {kind} &#39;{value}&#39; (no case, hand or archive "
                f"names it): (check the {kind} field") in page.text
        assert "it knows" not in page.text
    assert _listed(client.get("/queue?state=any&table=T1").text) == ["1"]
