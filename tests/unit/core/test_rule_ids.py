"""Every rule ID the code or the docs cite is defined in the rule book (docs/).

A finding, a trace step or a docstring that cites a rule the book does not define sends a
compliance officer to a page that is not there. The book defines an ID in a heading
(``## HCF-7 ...``, ``## FCD-5, FCD-7, FCD-8 Betting``) or at the start of a bold bullet
(``- **GEN-1 Deck integrity.**``). Citations are counted in every form the code uses:
``HCF-7``, ranges ``HCF-1..14`` / ``RP-1..RP-10`` and lists ``CP-2/3/7``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PREFIX = r"(GEN|HCF|CP|FCD|RP|TH|SURV)"
_ID = re.compile(rf"\b{PREFIX}-(\d+)\b")
_CITATION = re.compile(rf"\b{PREFIX}-(\d+)((?:\.\.(?:{PREFIX}-)?\d+)|(?:/\d+)+)?")
_BOLD_ID = re.compile(rf"\*\*{PREFIX}-(\d+)\b")


def cited(text: str) -> set[str]:
    """Every rule ID a text cites, ranges and slash lists expanded."""
    out: set[str] = set()
    for match in _CITATION.finditer(text):
        prefix, first, tail = match.group(1), int(match.group(2)), match.group(3) or ""
        numbers = [first]
        if tail.startswith(".."):
            numbers = list(range(first, int(re.findall(r"\d+", tail)[-1]) + 1))
        elif tail.startswith("/"):
            numbers += [int(n) for n in tail[1:].split("/")]
        out |= {f"{prefix}-{n}" for n in numbers}
    return out


def defined(lines: Iterable[str]) -> set[str]:
    """IDs a rule-book page defines: every ID of a heading, bold IDs opening a bullet."""
    out: set[str] = set()
    for line in lines:
        if line.startswith("#"):
            out |= {f"{m.group(1)}-{m.group(2)}" for m in _ID.finditer(line)}
        elif line.startswith("- **"):
            out |= {f"{m.group(1)}-{m.group(2)}" for m in _BOLD_ID.finditer(line)}
    return out


def rule_book() -> set[str]:
    return set().union(*(defined(p.read_text("utf-8").splitlines())
                         for p in (REPO / "docs").rglob("*.md")))


def citing_files() -> list[Path]:
    """The code (services/, its profiles' comments included) and the docs."""
    code = [p for p in (REPO / "services").rglob("*") if p.suffix in (".py", ".toml")]
    return [*code, *(REPO / "docs").rglob("*.md"), REPO / "README.md"]


def test_the_parsers() -> None:
    assert cited("HCF-1..14") == {f"HCF-{n}" for n in range(1, 15)}
    assert cited("RP-1..RP-3, CP-2/3/7 and GEN-10.") == {
        "RP-1", "RP-2", "RP-3", "CP-2", "CP-3", "CP-7", "GEN-10"}
    assert cited("XHCF-1 HCF- SURV") == set()
    assert defined(["## FCD-5, FCD-7, FCD-8 Betting", "- **GEN-6 Dead**, **GEN-7 Walk**",
                    "text citing HCF-3", "- plain bullet citing RP-2"]) == {
        "FCD-5", "FCD-7", "FCD-8", "GEN-6", "GEN-7"}


def test_every_cited_rule_is_in_the_rule_book() -> None:
    book = rule_book()
    undefined = {str(path.relative_to(REPO)): sorted(cited(path.read_text("utf-8")) - book)
                 for path in citing_files()}
    assert {path: ids for path, ids in undefined.items() if ids} == {}


def test_the_rule_book_is_the_spec_s_rule_set() -> None:
    """Every section of rules.md is in the book, numbered without a hole."""
    book = rule_book()
    sizes = {"GEN": 10, "HCF": 14, "CP": 12, "FCD": 11, "RP": 10, "TH": 9, "SURV": 9}
    for prefix, size in sizes.items():
        assert {r for r in book if r.startswith(prefix + "-")} == {
            f"{prefix}-{n}" for n in range(1, size + 1)}, prefix
