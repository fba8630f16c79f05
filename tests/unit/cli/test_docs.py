"""The repository's docs stand alone, and the front door names what a newcomer needs.

Before: docs cited ``shared/spec/rules.md`` and ``architecture.md``, files outside the
repository; there was no guide for a compliance officer; the README named no game
``--game`` accepts and no exit-code convention."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.simulator.registry import SIMULATORS

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
MARKDOWN = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
RULE_BOOK = [DOCS / "rules.md", *sorted((DOCS / "rules").glob("*.md"))]
CODE = re.compile(r"`([A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+)`")
RULE_ID = re.compile(r"\b([A-Z]{2,5}-\d+)\b")
# Findings raised outside the games' pages: the ledger's, and intake's for a table it
# cannot adjudicate at all.
OTHER_FINDINGS = {"LEDGER_REFUSED", "LEDGER_CONFLICT", "GAME_NOT_SUPPORTED",
                  "UNKNOWN_RULE_PROFILE", "ADJUDICATION_ERROR"}


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_nothing_cites_files_outside_the_repository() -> None:
    outside = "shared/" + "spec"  # (spelled apart so this file does not cite it)
    files = [*MARKDOWN, *sorted((ROOT / "services").rglob("*.py"))]
    citing = [str(f.relative_to(ROOT)) for f in files if outside in _text(f)]
    assert citing == []


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", _text(page)):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.relative_to(ROOT)} links to {target}"


def test_the_authority_and_the_architecture_are_in_docs() -> None:
    house = _text(DOCS / "house-rules.md")
    assert "the rule book's authority" in house
    assert "](house-rules.md)" in _text(DOCS / "rules.md")
    used = {rule for page in RULE_BOOK for rule in RULE_ID.findall(_text(page))}
    assert used <= set(RULE_ID.findall(house))  # every rule the book applies is stated
    architecture = _text(DOCS / "architecture.md")
    for heading in ("## Shape", "## Real components", "## Targets", "## Reliability"):
        assert heading in architecture


def test_the_compliance_guide_covers_every_finding_and_alert() -> None:
    guide = _text(DOCS / "compliance-guide.md")
    for section in ("## The daily routine", "## Triage a finding", "## Triage an alert",
                    "## What each finding means and what to do about it"):
        assert section in guide
    defined = {code for page in [*RULE_BOOK, DOCS / "surveillance.md"]
               for code in CODE.findall(_text(page))}
    named = set(CODE.findall(guide))
    assert sorted((defined | OTHER_FINDINGS) - named) == []
    assert len(defined) > 140  # the rule book really was read (148 codes today)


def test_readme_names_the_games_and_the_exit_codes() -> None:
    readme = _text(ROOT / "README.md")
    for game in SIMULATORS:
        assert f"`{game}`" in readme
    assert "### Exit codes" in readme
    for row in ("| 0 | success |", "| 1 | the input had problems", "| 2 | a usage or"):
        assert row in readme
    assert "docs/compliance-guide.md" in readme and ".venv" in readme


INDEX_CODE = re.compile(r"`([A-Z][A-Z0-9_]+)`")  # MISPAY too: CODE wants an underscore


def _guide_rules() -> dict[str, set[str] | None]:
    """Each finding code of the guide's finding index, and the rule ids its row's Rule
    column names (None: the row names the rule by what it is, with examples: MISPAY
    cites the settlement rule the table broke, whichever game)."""
    rows: dict[str, set[str] | None] = {}
    for line in _text(DOCS / "compliance-guide.md").splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 3 and INDEX_CODE.search(cells[1]):
            for code in INDEX_CODE.findall(cells[1]):
                if "e.g." in cells[2]:
                    rows[code] = None
                else:
                    named = rows.setdefault(code, set())
                    if named is not None:
                        named.update(RULE_ID.findall(cells[2]))
    return rows


def test_the_guides_rule_column_names_the_rule_each_finding_cites() -> None:
    """The guide tells an officer to open the rule book at the rule a finding cites; three
    rows named another rule (EXTRA_BURN, FALSE_AUTO_WIN_DECLARATION, WRONG_CALL_AMOUNT:
    QA against simulated floors, 2026-12-06). Every game simulated with every fault kind:
    each finding's rule is in its row."""
    import orjson

    from services.adjudicator.embedded import adjudicate_lines
    from services.simulator.run import available_faults, simulate
    from tests.profiles import HOUSE, PROFILES

    cited: dict[str, set[str]] = {}
    for game in SIMULATORS:
        log = simulate([game], 2, 120, seed=11, faults=frozenset(available_faults(game)),
                       fault_rate=0.5, profile=HOUSE)
        lines = [orjson.dumps(e) for e in log.events]
        for step in adjudicate_lines(lines, PROFILES):
            for record in step.records:
                for found in record.findings:
                    cited.setdefault(found.code, set()).add(found.rule)
    rows = _guide_rules()
    assert len(cited) > 40  # the floors raised most kinds
    wrong = {code: (sorted(rules), sorted(rows.get(code) or ()))
             for code, rules in cited.items()  # a row of None names any rule of a kind
             if (row := rows.get(code, set())) is not None and not rules <= row}
    assert wrong == {}
