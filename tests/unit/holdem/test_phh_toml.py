"""The PHH reader: its fast path gives exactly what tomllib gives (floats as Decimal)."""

from __future__ import annotations

import tomllib
from datetime import time
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.importers.phh_toml import PhhSyntaxError, _fast_loads, loads


def typed(value: Any) -> Any:
    """Compare with types: 1 and Decimal(1) and True must not pass for each other."""
    if isinstance(value, list):
        return ["list", [typed(v) for v in value]]
    if isinstance(value, dict):
        return ["dict", sorted((k, typed(v)) for k, v in value.items())]
    return [type(value).__name__, value]


def reference(text: str) -> dict[str, Any]:
    return tomllib.loads(text, parse_float=Decimal)


PLURIBUS = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 8c6s', 'd dh p2 TdKh', 'p3 cbr 225', 'p1 f', 'p2 cc']
hand = 1
players = ['Budd', 'MrOrange', 'Bill']
finishing_stacks = [10162.5, 9900.0, 9937.5]
"""


def test_a_tool_written_file_takes_the_fast_path() -> None:
    fast = _fast_loads(PLURIBUS)
    assert fast is not None
    assert typed(fast) == typed(reference(PLURIBUS))
    assert fast["finishing_stacks"][0] == Decimal("10162.5")


def test_a_hand_written_file_falls_back_to_tomllib() -> None:
    text = 'variant = "NT"\nactions = [\n  "d dh p1 AcAd",  # Ivey\n  "p1 f",\n]\n'
    assert _fast_loads(text) is None
    assert loads(text) == {"variant": "NT", "actions": ["d dh p1 AcAd", "p1 f"]}


@pytest.mark.parametrize("text", [
    "a = 1\na = 2\n",  # duplicate key
    "a = 01\n",  # leading zero
    "a = [1 2]\n",  # missing comma
    "a = 'unterminated\n",
])
def test_invalid_documents_are_errors(text: str) -> None:
    with pytest.raises(PhhSyntaxError):
        loads(text)


HANDHQ = """[1]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
starting_stacks = [200.30, inf, 197]
actions = ['d dh p1 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
time = 00:00:09
hand = 3017237436
table = 'INDIANA ST'
winnings = [2, 0, 0]

[2]
variant = 'NT'
time = 23:59:59.1234567
table = '''AMY'S AVE'''
"""


def test_a_phhs_file_with_times_and_inf_takes_the_fast_path() -> None:
    """The HandHQ files: a ``[n]`` header per hand, ``time = 00:00:09`` and ``inf``."""
    fast = _fast_loads(HANDHQ)
    assert fast is not None
    assert typed(fast) == typed(reference(HANDHQ))
    assert list(fast) == ["1", "2"]
    assert fast["1"]["time"] == time(0, 0, 9) and fast["2"]["time"] == time(23, 59, 59, 123456)
    assert fast["1"]["starting_stacks"][1] == Decimal("Infinity")
    assert fast["2"]["table"] == "AMY'S AVE"


@pytest.mark.parametrize("text", [
    "[a]\nx = 1\n[a]\ny = 2\n",  # a table defined twice
    "a = 1\n[a]\nx = 1\n",  # a table over a key
    "a = 24:00:00\n", "a = 7:32:00\n", "a = 07:32\n",  # not a TOML local time
])
def test_invalid_headers_and_times_are_errors(text: str) -> None:
    assert _fast_loads(text) is None
    with pytest.raises(PhhSyntaxError):
        loads(text)


@pytest.mark.parametrize("text", [
    "[a.b]\nx = 1\n", "a.b = 1\n", 'a = "x\\ty"\n', "a = 1979-05-27\n",
    "a = 1979-05-27T07:32:00\n", "a = [[1], [2]]\n", "a = {b = 1}\n", "a = 1_000\n",
])
def test_everything_else_is_read_by_tomllib(text: str) -> None:
    assert _fast_loads(text) is None
    assert typed(loads(text)) == typed(reference(text))


keys = st.from_regex(r"[a-z_][a-z0-9_-]{0,8}", fullmatch=True)
strings = st.text(st.characters(codec="utf-8", exclude_characters="'\"\\\n\r\x7f",
                                exclude_categories=("Cc", "Cs")), max_size=12)
scalars = st.one_of(
    strings.map(lambda s: f"'{s}'"),
    st.text(st.sampled_from("ab '"), max_size=8).filter(
        lambda s: "'''" not in s and not s.endswith("'")).map(lambda s: f"'''{s}'''"),
    strings.map(lambda s: f'"{s}"'),
    st.integers(-10**12, 10**12).map(str),
    st.decimals(allow_nan=False, allow_infinity=False, places=2,
                min_value=-10**6, max_value=10**6).map(lambda d: f"{d:.2f}"),
    st.sampled_from(["true", "false", "1e3", "-2.5E-2", "+7", "0", "inf", "-inf", "+inf"]),
    st.times().map(lambda t: t.isoformat()),
)
arrays = st.lists(scalars, max_size=6).map(lambda items: "[" + ", ".join(items) + "]")
lines = st.tuples(keys, st.one_of(scalars, arrays), st.sampled_from(["", "  # note"]))


@given(st.lists(lines, max_size=8, unique_by=lambda line: line[0]))
@settings(max_examples=300, deadline=None)
def test_fast_path_equals_tomllib(doc: list[tuple[str, str, str]]) -> None:
    text = "".join(f"{key} = {value}{comment}\n" for key, value, comment in doc)
    assert typed(loads(text)) == typed(reference(text))


@given(st.lists(st.tuples(keys, st.lists(lines, max_size=5, unique_by=lambda line: line[0])),
                max_size=4, unique_by=lambda table: table[0]))
@settings(max_examples=200, deadline=None)
def test_fast_path_equals_tomllib_with_table_headers(
        tables: list[tuple[str, list[tuple[str, str, str]]]]) -> None:
    """A ``.phhs``-shaped document: ``[name]`` headers, each with its own keys."""
    text = "".join(f"[{name}]\n" + "".join(f"{key} = {value}{comment}\n"
                                            for key, value, comment in doc) + "\n"
                   for name, doc in tables)
    assert _fast_loads(text) is not None
    assert typed(loads(text)) == typed(reference(text))
