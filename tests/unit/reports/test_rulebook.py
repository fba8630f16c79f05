"""The rule book parser: each cited rule's text, word for word, from docs/rules*.md."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from services.reports.rulebook import RULE_ID, load_rulebook, parse_rules

REPO_ROOT = Path(__file__).resolve().parents[3]

SAMPLE = """# Rules

## GEN — common

- **GEN-1 Deck integrity.** Every card must come from the deck
  named in `hand_started`.
- **GEN-6 Dead hand**, **GEN-7 Walking away**: applied by each game.
- not a rule bullet
- **XY-3 Settlement.** Pays:

  | hand | odds |
  |---|---|
  | flush | 5 |

  **Reading:** the <odds> are *to 1*.

## SURV-9 — event-stream integrity

- `CHAIN_BROKEN` (critical): altered event.

## Other
"""


def test_bullets_headings_and_multi_id_bullets() -> None:
    rules = {r.rule_id: r for r in parse_rules(SAMPLE, "x.md")}
    assert sorted(rules) == ["GEN-1", "GEN-6", "GEN-7", "SURV-9", "XY-3"]
    assert rules["GEN-1"].plain() == ("**GEN-1 Deck integrity.** Every card must come from "
                                      "the deck named in `hand_started`.")
    assert rules["GEN-6"].lines == rules["GEN-7"].lines
    assert rules["SURV-9"].plain() == "- `CHAIN_BROKEN` (critical): altered event."
    assert rules["XY-3"].source == "x.md"


def test_html_escapes_and_formats() -> None:
    rules = {r.rule_id: r for r in parse_rules(SAMPLE, "x.md")}
    html = str(rules["XY-3"].html())
    assert "&lt;odds&gt;" in html and "<odds>" not in html
    assert "<strong>Reading:</strong>" in html and "<em>to 1</em>" in html
    assert "|---|" not in html and "| flush | 5 |" in html
    gen1 = str(rules["GEN-1"].html())
    assert "<code>hand_started</code>" in gen1
    assert "deck named" in gen1  # the wrapped source line is joined back into its sentence


def test_project_rule_book(tmp_path: Path) -> None:
    rules = load_rulebook()
    for rule_id in ("GEN-1", "GEN-8", "GEN-10", "SURV-9"):
        assert rule_id in rules
    assert rules["GEN-8"].source == "docs/rules.md"
    assert "MISPAY" in rules["GEN-8"].plain()
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules.md").write_text("- **GEN-1 First.** one\n")
    (tmp_path / "rules" / "g.md").write_text("- **GEN-1 Again.** two\n- **GX-1 X.** y\n")
    book = load_rulebook(tmp_path)
    assert book["GEN-1"].plain() == "**GEN-1 First.** one"
    assert book["GX-1"].plain() == "**GX-1 X.** y"


HEADINGS = """## FCD-5, FCD-7, FCD-8 Betting

Two rounds.

## GEN-6 Dead hands, GEN-7 walking away and GEN-10 rake

Every chip goes back.

## Pots (FCD-9, FCD-11)

Only a reference.

## FCD-6 The draw (see FCD-12)

Discards.
"""


def test_a_heading_naming_several_ids_gives_its_text_to_each() -> None:
    """QA: ``## FCD-5, FCD-7, FCD-8 Betting`` gave its text to FCD-5 alone, so FCD-8 had
    "no text" in the dispute reports. An ID only referred to (a heading that does not
    open with one, or inside parentheses) names no rule."""
    rules = {r.rule_id: r.plain() for r in parse_rules(HEADINGS, "x.md")}
    assert rules == {"FCD-5": "Two rounds.", "FCD-7": "Two rounds.", "FCD-8": "Two rounds.",
                     "GEN-6": "Every chip goes back.", "GEN-7": "Every chip goes back.",
                     "GEN-10": "Every chip goes back.", "FCD-6": "Discards."}


def test_draw_betting_rules_have_their_text() -> None:
    rules = load_rulebook()
    for rule_id in ("FCD-5", "FCD-7", "FCD-8"):
        assert rules[rule_id].source == "docs/rules/draw7a.md"
        assert rules[rule_id].plain().startswith(
            "Two rounds: before the draw (FCD-5; bet unit the small bet) and after it")


def _cited_rule_ids() -> dict[str, set[str]]:
    """Every rule ID the code names, with the modules naming it: each string constant
    that is a rule ID (a finding's ``rule``, a trace step's, a registry's), and each ID of
    those families inside a longer string (a message citing "(FCD-8)"). Other words of the
    same shape (UTF-8, SHA-256) are of no rule family, so are not taken for rules."""
    rule = re.compile(RULE_ID)
    constants: list[tuple[str, str]] = []
    for path in sorted((REPO_ROOT / "services").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.append((node.value, str(path.relative_to(REPO_ROOT))))
    families = {value.split("-")[0] for value, _ in constants if rule.fullmatch(value)}
    within = re.compile(r"\b(?:" + "|".join(sorted(families)) + r")-\d+\b")
    cited: dict[str, set[str]] = {}
    for value, module in constants:
        for rule_id in within.findall(value):
            cited.setdefault(rule_id, set()).add(module)
    return cited


def test_every_rule_the_code_cites_has_text_in_the_rule_book() -> None:
    """A report quotes the rule of every finding and step; a rule ID the code cites with
    no text in docs/rules*.md is "no text" to the reader (QA: FCD-7 and FCD-8)."""
    cited = _cited_rule_ids()
    assert {"GEN-8", "SURV-9", "HCF-7", "CP-6", "FCD-8", "RP-7", "TH-9"} <= set(cited)
    assert {"CP", "FCD", "GEN", "HCF", "RP", "SURV", "TH"} == {r.split("-")[0] for r in cited}
    book = load_rulebook()
    assert {r: sorted(m) for r, m in sorted(cited.items()) if r not in book} == {}


def test_the_general_rules_a_dead_hand_cites_are_quoted_with_their_text() -> None:
    """GEN-6 and GEN-7 were one line, "applied by each game": a dead hand's report quoted
    no rule for the GEN-6 its decision path cites (QA)."""
    book = load_rulebook()
    assert "every wager is returned, nothing is paid, and no rake" in " ".join(
        book["GEN-6"].html().split())
    assert "has folded it" in book["GEN-7"].html()
