"""The rule book as the reports quote it: rule ID -> its text from ``docs/rules*.md``.

Why quote the docs rather than paraphrase: a dispute report is read by someone who has
only the report, and the verdict must be checkable against the posted rules. The rule
book compliance staff sign is ``docs/rules.md`` (GEN, SURV) plus ``docs/rules/<game>.md``;
the report prints each cited rule's bullet from there, word for word.

A rule is either a bullet that opens with its bold ID (``- **HCF-7 Settlement.** ...``,
continuation lines indented; one bullet may name several IDs) or a heading that opens with
one (``## SURV-9 — event-stream integrity``), whose text is the section below it. A
heading may name several, as a list (``## FCD-5, FCD-7, FCD-8 Betting``) or one part each
(``## GEN-6 Dead hands, GEN-7 walking away``): the section is the text of each, since a
game's rule book writes rules that share their text once (taking only the first ID left
FCD-7 and FCD-8, cited by every Draw 7-A betting finding, "with no text" in the dispute
reports). An ID the heading only refers to (``## Pots (FCD-9, FCD-11)``, or inside
parentheses) is not one it names: its text is elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

RULE_ID = r"[A-Z]{2,5}-\d+"
_BULLET_IDS = re.compile(r"\*\*(" + RULE_ID + r")\b")
_HEADING = re.compile(r"^#{2,6}\s+(.*)$")
_HEADING_PART_ID = re.compile(r"(" + RULE_ID + r")\b")
_HEADING_PARTS = re.compile(r",|\band\b|&")
_PARENTHESES = re.compile(r"\([^)]*\)")
_TABLE_RULE = re.compile(r"^\|[\s:|-]+\|$")


@dataclass(frozen=True)
class RuleText:
    """One rule's text as written (markdown lines, dedented) and the file it came from."""

    rule_id: str
    lines: tuple[str, ...]
    source: str

    def html(self) -> Markup:
        """The text as safe HTML: escaped first, then bold/italic/code marks applied;
        wrapped source lines joined back into their sentences."""
        return Markup("<br>").join(_inline(block) for block in _blocks(self.lines))

    def plain(self) -> str:
        return " ".join(line.strip() for line in self.lines if line.strip())


def docs_root() -> Path:
    """``docs/`` of the source tree this package sits in."""
    return Path(__file__).resolve().parents[2] / "docs"


def load_rulebook(root: Path | None = None) -> dict[str, RuleText]:
    """Every rule ID found in ``docs/rules.md`` and ``docs/rules/*.md`` (first wins)."""
    root = root or docs_root()
    files = [root / "rules.md", *sorted((root / "rules").glob("*.md"))]
    rules: dict[str, RuleText] = {}
    for path in files:
        if not path.is_file():
            continue
        source = str(path.relative_to(root.parent)) if root.parent in path.parents else str(path)
        for rule in parse_rules(path.read_text(encoding="utf-8"), source):
            rules.setdefault(rule.rule_id, rule)
    return rules


def parse_rules(text: str, source: str) -> list[RuleText]:
    """The rules of one markdown file, in file order."""
    lines = text.splitlines()
    found: list[RuleText] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        heading_ids = _heading_ids(line)
        if heading_ids:
            body, i = _section(lines, i + 1)
            found += [RuleText(rule_id, tuple(body), source) for rule_id in heading_ids]
            continue
        if line.startswith("- **"):
            ids = _BULLET_IDS.findall(line)
            body, i = _bullet(lines, i)
            found += [RuleText(rule_id, tuple(body), source) for rule_id in ids]
            continue
        i += 1
    return found


def _heading_ids(line: str) -> list[str]:
    """The rule IDs a heading names: none unless it opens with one; then each part of it
    (split at commas and "and", parentheses left out) that opens with an ID."""
    heading = _HEADING.match(line)
    if heading is None or not _HEADING_PART_ID.match(heading.group(1)):
        return []
    parts = _HEADING_PARTS.split(_PARENTHESES.sub("", heading.group(1)))
    return [m.group(1) for m in map(_HEADING_PART_ID.match, map(str.strip, parts))
            if m is not None]


def _bullet(lines: list[str], start: int) -> tuple[list[str], int]:
    """A top-level bullet: its first line and every following blank or indented line."""
    body = [lines[start][2:]]
    i = start + 1
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
        body.append(lines[i][2:] if lines[i].startswith("  ") else lines[i].strip())
        i += 1
    return _trim(body), i


def _section(lines: list[str], start: int) -> tuple[list[str], int]:
    i = start
    while i < len(lines) and not lines[i].startswith("#"):
        i += 1
    return _trim(lines[start:i]), i


def _trim(body: list[str]) -> list[str]:
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    return body


def _blocks(lines: tuple[str, ...]) -> list[str]:
    """Source lines joined into display blocks: a block starts after a blank line, at a list
    item, a table row or a bold lead-in (``**Reading:**``); other lines continue it."""
    blocks: list[str] = []
    fresh = True
    for line in lines:
        stripped = line.strip()
        if not stripped:
            fresh = True
            continue
        if _TABLE_RULE.match(stripped):
            continue
        starts = fresh or stripped.startswith(("- ", "|", "**")) or not blocks
        if starts:
            blocks.append(line.rstrip())
        else:
            blocks[-1] += " " + stripped
        fresh = stripped.startswith("|")
    return blocks


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*])\*(?![\s*])(.+?)(?<![\s*])\*(?![*])")
_CODE = re.compile(r"`([^`]+)`")


def _inline(line: str) -> Markup:
    """Escape, then turn the markdown marks the rule book uses into tags."""
    indent = len(line) - len(line.lstrip(" "))
    text = str(escape(line.strip()))
    text = _CODE.sub(r"<code>\1</code>", text)
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    text = _ITALIC.sub(r"<em>\1</em>", text)
    return Markup("&nbsp;" * indent + text)  # built from escaped text only
