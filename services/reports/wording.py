"""Engine wording in plain words, for the dispute report's decision path and findings.

Why here and not in the engines: the decision path and the findings are written by the
games' rules (``services.games``, and the native engine, which must write the same text
byte for byte) and are stored in the ledger as they are. Someone reading a report must
not meet Python's syntax or the engines' codes in them ("settlement order: [4, 2, 1, 7]",
"rake due {4: 1, 2: 1}", "rake mode 'all'", "(one_pair)"). So the report rewrites them
for display, and only for display: the stored texts, which tests and other tools compare,
stay as the engines wrote them. What it rewrites is a closed list of forms the engines
write; anything else is shown as written.
"""

from __future__ import annotations

import re

# Engine codes a reader would otherwise meet, as words: hand categories (evaluation and
# the Russian paytable), the HCF-10 rounding, event types.
CODE_WORDS = {
    "high_card": "high card", "one_pair": "one pair", "two_pair": "two pair",
    "three_of_a_kind": "three of a kind", "four_of_a_kind": "four of a kind",
    "full_house": "full house", "straight_flush": "straight flush",
    "royal_flush": "royal flush", "ace_king": "ace-king",
    "largest_remainder": "largest remainder first", "shuffler_alarm": "shuffler alarm",
    "hand_ended": "the hand's end", "flush_bonus": "Flush bonus",
    "sf_bonus": "Straight-flush bonus",
}
# HCF-12 / GEN-10 rake modes, what each charges (docs/rules/hcf.md, HCF-12).
RAKE_MODES = {
    "all": "every participant and the designated player pay the fee",
    "players": "every participant except the designated player pays the fee",
    "designated": "the designated player pays the fee for every participant",
    "none": "no rake",
}

_CODE = re.compile(r"\b(" + "|".join(sorted(CODE_WORDS, key=len, reverse=True)) + r")\b")
_ITS_END = re.compile(r"\bits (?=hand_ended\b)")
_THIS_HANDS_END = re.compile(r"\bthis hand's hand_ended\b")
_INT_LIST = re.compile(r"\[(\d+(?:, \d+)*)?\]")
_INT_DICT = re.compile(r"\{(\d+: -?\d+(?:, \d+: -?\d+)*)\}")
_RAKE_MODE = re.compile(r"rake mode '([a-z_]+)'")
_QUOTED = re.compile(r"'([a-z_]+)'")
_PARTICIPANTS = re.compile(r"\b(\d+) participant\(s\) ")
_SEGMENTS = re.compile(r"\bseat (\d+) (\d+) segment\(s\) (\d+)")
_SCOOP = re.compile(r"\bseat (\d+) scoop (\d+)")
_ONE = re.compile(r"(?<![\d.,])1 (chip|point|segment|card|hand|seat|participant|opponent|"
                  r"box|wager|event|alert)s\b")
_PLURAL = re.compile(r"\b(\d+) (chip|point|segment|card|hand|seat|participant|opponent|"
                     r"box|wager|draw|event)\(s\)")
_ELIGIBLE = re.compile(r"\beligible (\d+(?: \d+)*)")
_ONE_WERE = re.compile(r"\b1 chip( more)? were\b")
_SPLIT_NOTE = re.compile(r"(pot (\d+)[^:]*:[^(]*?((?:seat \d+ \d+(?:, )?)+)) "
                         r"\(split, odd chip ([^)]*)\)")


def count(n: int, noun: str) -> str:
    """"1 chip", "2 chips"; "1 box", "2 boxes"."""
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {noun}es" if noun.endswith(("x", "s")) else f"{n} {noun}s"


def seats(numbers: str | None) -> str:
    """"4, 2, 1" -> "seats 4, 2, 1"; "4" -> "seat 4"; nothing -> "nobody"."""
    if not numbers:
        return "nobody"
    return f"seat {numbers}" if "," not in numbers else f"seats {numbers}"


def _dict_words(match: re.Match[str]) -> str:
    pairs = (p.split(": ") for p in match.group(1).split(", "))
    return ", ".join(f"seat {seat}: {amount}" for seat, amount in pairs)


def _split_note(match: re.Match[str]) -> str:
    """The odd-chip note only when the pot did not split evenly (QA: "main pot 12 ...:
    seat 1 6, seat 3 6 (split, odd chip to ...)" had no odd chip)."""
    shares = [int(s.rsplit(" ", 1)[1]) for s in re.findall(r"seat \d+ \d+",
                                                           match.group(3))]
    if len(set(shares)) <= 1:
        return f"{match.group(1)} (split evenly)"
    return f"{match.group(1)} (split, odd chip {match.group(4)})"


def plain_step(text: str) -> str:
    """A decision-path step in plain words (see the module): Python's lists of seats,
    its dicts of seat to chips and its quoted names as words too."""
    text = text.replace("], declined [", "]; declined [")
    text = _RAKE_MODE.sub(lambda m: f"rake mode {m.group(1)}" + (
        f" ({RAKE_MODES[m.group(1)]})" if m.group(1) in RAKE_MODES else ""), text)
    text = _PARTICIPANTS.sub(lambda m: f"{count(int(m.group(1)), 'participant')}: ", text)
    text = _INT_DICT.sub(_dict_words, text)
    text = _INT_LIST.sub(lambda m: seats(m.group(1)), text)
    text = _QUOTED.sub(lambda m: m.group(1).replace("_", " "), text)
    text = _SEGMENTS.sub(lambda m: f"seat {m.group(1)} won "
                         f"{count(int(m.group(2)), 'segment')}: "
                         f"{count(int(m.group(3)), 'point')}", text)
    text = _SCOOP.sub(lambda m: f"seat {m.group(1)} won all three segments (a scoop): "
                      f"{count(int(m.group(2)), 'point')}", text)
    text = _ELIGIBLE.sub(lambda m: f"eligible {seats(m.group(1).replace(' ', ', '))}", text)
    text = _SPLIT_NOTE.sub(_split_note, text)
    return plain(text)


def plain(text: str) -> str:
    """A finding's message in plain words: the engines' codes as words, "1 chip" not
    "1 chips", "3 cards" not "3 card(s)"."""
    text = _ITS_END.sub("", text)  # "before its hand_ended": "before its the hand's end" (QA)
    # "before this hand's hand_ended" (a hand_started arriving early) read "this hand's
    # the hand's end" (QA)
    text = _THIS_HANDS_END.sub("this hand's end", text)
    text = _CODE.sub(lambda m: CODE_WORDS[m.group(1)], text)
    text = _PLURAL.sub(lambda m: count(int(m.group(1)), m.group(2)), text)
    text = _ONE.sub(lambda m: f"1 {m.group(1)}", text)
    return _ONE_WERE.sub(lambda m: f"1 chip{m.group(1) or ''} was", text)
