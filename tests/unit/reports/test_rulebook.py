"""The rule book parser: each cited rule's text, word for word, from docs/rules*.md."""

from __future__ import annotations

from pathlib import Path

from services.reports.rulebook import load_rulebook, parse_rules

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
