//! One PHH hold'em hand's fields, checked as `services/importers/phh_hand.py`'s
//! `read_hand` checks them. Where the Python reader would report the hand as unsupported
//! this says `Skip` (the Python importer then gives the reason); where it would read a
//! value this reader does not (a non-string player name), `Defer`: the whole
//! import is then Python's.

use super::toml::{Num, Toml};
use crate::schema::MAX_NAME_LENGTH;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Structure {
    NoLimit,
    FixedLimit,
}

impl Structure {
    pub fn name(&self) -> &'static str {
        match self {
            Structure::NoLimit => "no",
            Structure::FixedLimit => "fixed",
        }
    }
}

#[derive(Debug, Clone)]
pub struct PhhHand {
    pub variant: String,
    pub structure: Structure,
    pub players: Vec<String>,
    pub starting: Vec<Num>,
    pub finishing: Option<Vec<Num>>,
    pub winnings: Option<Vec<Num>>,
    pub antes: Vec<Num>,
    pub blinds: Vec<Num>,
    pub min_bet: Option<Num>,
    pub small_bet: Option<Num>,
    pub big_bet: Option<Num>,
    /// Each action with its comment cut off and trimmed (`phh_hand.read_hand`).
    pub actions: Vec<String>,
    /// The source's `hand` when it is an integer (the hands' order at a table).
    pub number: Option<i128>,
    /// The source's `hand` as text, when it is an integer or a string.
    pub label: Option<String>,
    pub table: Option<String>,
    pub venue: Option<String>,
    /// The file's `seats`: one distinct seat 1..64 a player, clockwise from the button's
    /// left (the last player is on the button).
    pub seats: Option<Vec<i128>>,
}

impl PhhHand {
    /// Every chip amount of the hand, bet sizes included (`PhhHand.amounts`).
    pub fn amounts(&self) -> Option<Vec<Num>> {
        let mut out: Vec<Num> = self.starting.iter()
            .chain(self.finishing.iter().flatten())
            .chain(self.winnings.iter().flatten())
            .chain(&self.antes).chain(&self.blinds)
            .chain(self.min_bet.iter()).chain(self.small_bet.iter()).chain(self.big_bet.iter())
            .copied().collect();
        for action in &self.actions {
            let parts: Vec<&str> = action.split(' ').filter(|p| !p.is_empty()).collect();
            if parts.len() == 3 && parts[1] == "cbr" {
                out.push(Num::parse(parts[2])?);
            }
        }
        Some(out)
    }
}

/// A hand's record as `phh._once_each` compares two (Python's `PhhHand` equality): every
/// field the import reads, the numbers by value (`1.50` is `1.5`, `100` is `100.0`).
/// Two hands with one record at a table are one hand saved twice.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Record<'h> {
    variant: &'h str,
    players: &'h [String],
    amounts: [Option<Vec<Value>>; 8],
    actions: &'h [String],
    seats: Option<&'h [i128]>,
    number: Option<i128>,
    label: Option<&'h str>,
    table: Option<&'h str>,
    venue: Option<&'h str>,
}

/// A number by value: (finite, mantissa, digits after the point), trailing zeros after
/// the point dropped.
type Value = (bool, i128, u32);

fn value(n: Num) -> Value {
    let (mut mantissa, mut exp) = (n.mantissa, n.exp);
    while exp > 0 && mantissa % 10 == 0 {
        mantissa /= 10;
        exp -= 1;
    }
    (n.finite, mantissa, exp)
}

fn values(numbers: &[Num]) -> Vec<Value> {
    numbers.iter().copied().map(value).collect()
}

impl PhhHand {
    /// The hand's record (`Record`), to find a copy of a hand at its table.
    pub fn record(&self) -> Record<'_> {
        let one = |n: Option<Num>| n.map(|n| vec![value(n)]);
        Record {
            variant: &self.variant,
            players: &self.players,
            amounts: [Some(values(&self.starting)), self.finishing.as_deref().map(values),
                      self.winnings.as_deref().map(values), Some(values(&self.antes)),
                      Some(values(&self.blinds)), one(self.min_bet), one(self.small_bet),
                      one(self.big_bet)],
            actions: &self.actions,
            seats: self.seats.as_deref(),
            number: self.number,
            label: self.label.as_deref(),
            table: self.table.as_deref(),
            venue: self.venue.as_deref(),
        }
    }
}

fn get<'a>(doc: &'a [(String, Toml)], key: &str) -> Option<&'a Toml> {
    doc.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Why a document is not read here: the Python importer skips it (`Skip`: it gives the
/// reason, `phh_hand.read_hand` raising `Unsupported`), or this reader cannot tell what
/// the Python importer would make of it (`Defer`: the whole import is then Python's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRead {
    Skip,
    Defer(&'static str),
}

use NotRead::{Defer, Skip};

/// A list of finite numbers (of `count` entries when given): `_numbers` and `_finite`.
fn numbers(doc: &[(String, Toml)], key: &str, count: Option<usize>) -> Result<Vec<Num>, NotRead> {
    let values = match get(doc, key) {
        Some(Toml::Nums(values)) => values.clone(),
        Some(Toml::Strs(values)) if values.is_empty() => Vec::new(),
        _ => return Err(Skip),
    };
    if count.map_or(false, |n| values.len() != n) || values.iter().any(|v| !v.finite) {
        return Err(Skip);
    }
    Ok(values)
}

/// An optional finite number (`_optional`): absent is `None`.
fn optional(doc: &[(String, Toml)], key: &str) -> Result<Option<Num>, NotRead> {
    match get(doc, key) {
        None => Ok(None),
        Some(Toml::Num(n)) if n.finite => Ok(Some(*n)),
        Some(_) => Err(Skip),
    }
}

fn text(doc: &[(String, Toml)], key: &str) -> Option<String> {
    match get(doc, key) {
        Some(Toml::Str(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// An action as `read_hand` keeps it (`a.split("#", 1)[0].strip()`), for actions of
/// printable ASCII only (Python's `strip` and `split` know other whitespace).
fn action(raw: &str) -> Result<String, NotRead> {
    if !raw.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(Defer("an action with a character other than printable ASCII"));
    }
    Ok(raw.split('#').next().unwrap_or("").trim_matches(' ').to_string())
}

/// The hold'em fields of one parsed document (`phh_hand.read_hand`), or why not.
pub fn read_hand(doc: &[(String, Toml)]) -> Result<PhhHand, NotRead> {
    let (variant, structure) = match get(doc, "variant") {
        Some(Toml::Str(v)) if v == "NT" => (v.clone(), Structure::NoLimit),
        Some(Toml::Str(v)) if v == "FT" => (v.clone(), Structure::FixedLimit),
        _ => return Err(Skip), // no variant, or another game
    };
    let starting = numbers(doc, "starting_stacks", None)?;
    let count = starting.len();
    let players = match get(doc, "players") {
        Some(Toml::Strs(names)) => names.clone(),
        None => (1..=count).map(|i| format!("p{i}")).collect(),
        Some(_) => return Err(Defer("players that are not a list of names")), // Python: str()
    };
    if players.len() != count || starting.iter().any(|s| s.finite && s.is_negative()) {
        return Err(Skip); // `phh_hand._not_below_zero`: a stack below zero is no stack
    }
    let distinct = players.iter().enumerate().all(|(i, p)| !players[..i].contains(p));
    if count < 2 {
        return Err(Defer("fewer than two players"));
    }
    if !distinct {
        return Err(Skip); // `phh_names.player_names_problem`: its seats would be merged
    }
    if !players.iter().all(|p| contract_name(p)) {
        return Err(Defer("a player name the v1 contract does not take"));
    }
    let seats = seats(doc, count)?;
    let finishing = match get(doc, "finishing_stacks") {
        Some(_) => Some(numbers(doc, "finishing_stacks", Some(count))?),
        None => None,
    };
    let winnings = match get(doc, "winnings") {
        Some(_) => Some(numbers(doc, "winnings", Some(count))?),
        None => None,
    };
    if winnings.iter().flatten().any(|w| w.is_negative())
        || (finishing.is_none() && !winnings.iter().flatten().any(|w| !w.is_zero())) {
        return Err(Skip); // negative winnings, or no settlement recorded
    }
    let actions = match get(doc, "actions") {
        Some(Toml::Strs(actions)) => actions.iter().map(|a| action(a)).collect::<Result<Vec<String>, NotRead>>()?,
        _ => return Err(Skip),
    };
    let antes = numbers(doc, "antes", Some(count))?;
    let blinds = numbers(doc, "blinds_or_straddles", Some(count))?;
    let (min_bet, small_bet, big_bet) = (optional(doc, "min_bet")?, optional(doc, "small_bet")?,
                                         optional(doc, "big_bet")?);
    let (number, label) = match get(doc, "hand") {
        Some(Toml::Num(n)) if n.integer => (Some(n.mantissa), Some(n.mantissa.to_string())),
        Some(Toml::Str(s)) => (None, Some(s.clone())),
        Some(Toml::Num(_)) => return Err(Skip), // `hand = 2.0`: PHH's hand number is an integer
        _ => (None, None),
    };
    Ok(PhhHand {
        variant,
        structure,
        players,
        starting,
        finishing,
        winnings,
        antes,
        blinds,
        min_bet,
        small_bet,
        big_bet,
        actions,
        number,
        label,
        table: text(doc, "table"),
        venue: text(doc, "venue"),
        seats,
    })
}

/// Whether `text` is a name of the v1 contract (`NonEmpty`: 1 to MAX_NAME_LENGTH
/// characters, none a control character, Unicode's Cc as `wire.control_character` has it).
/// A hand or player named otherwise is left to the Python importer, which skips it with
/// the reason (`phh_hand.contract_name_problem`).
pub fn contract_name(text: &str) -> bool {
    !text.is_empty() && text.chars().count() <= MAX_NAME_LENGTH && !text.chars().any(char::is_control)
}

/// The file's `seats` (`phh_hand._seats`), if given.
fn seats(doc: &[(String, Toml)], count: usize) -> Result<Option<Vec<i128>>, NotRead> {
    let values = match get(doc, "seats") {
        None => return Ok(None),
        Some(Toml::Nums(values)) if values.iter().all(|v| v.integer && v.finite) => {
            values.iter().map(|v| v.mantissa).collect::<Vec<i128>>()
        }
        Some(_) => return Err(Skip),
    };
    let distinct = values.iter().enumerate().all(|(i, s)| !values[..i].contains(s));
    if values.len() != count || !distinct || !values.iter().all(|s| (1..=64).contains(s)) {
        return Err(Skip);
    }
    if !clockwise_from_the_button(&values) {
        return Err(Skip);
    }
    Ok(Some(values))
}

/// Whether seats listed by position run clockwise from the button's left, the button
/// being the last (`phh_hand._seats`, `phh_table.TableWriter._kept_seats`).
pub fn clockwise_from_the_button(seats: &[i128]) -> bool {
    let button = match seats.last() {
        Some(&button) => button,
        None => return true,
    };
    let mut ordered = seats.to_vec();
    ordered.sort_unstable();
    ordered.iter().filter(|&&s| s > button).chain(ordered.iter().filter(|&&s| s <= button))
        .eq(seats.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phh::toml::parse;

    const HAND: &str = "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n\
                        starting_stacks = [100, 100]\nactions = ['d dh p1 AsAd', 'd dh p2 KcKd', 'p2 f']\n\
                        finishing_stacks = [102, 98]\nhand = 3\n";

    fn read(text: &str) -> PhhHand {
        let sections = parse(text, false).unwrap();
        read_hand(&sections[0].doc).unwrap()
    }

    #[test]
    fn a_record_is_its_fields_with_numbers_by_value() {
        let hand = read(HAND);
        // The same hand written otherwise: a comment, another key order, 100.0 and 102.00.
        let rewritten = read(&format!("# saved again\nhand = 3\n{}",
            HAND.replace("hand = 3\n", "").replace("[100, 100]", "[100.0, 100]")
                .replace("[102, 98]", "[102.00, 98]").replace("'p2 f'", "'p2 f # folds'")));
        assert_eq!(hand.record(), rewritten.record());
        for other in [HAND.replace("hand = 3", "hand = 4"), HAND.replace("hand = 3\n", ""),
                      HAND.replace("[102, 98]", "[102.5, 97.5]"), HAND.replace("AsAd", "AsAh"),
                      HAND.replace("hand = 3", "hand = '3'")] {
            assert_ne!(hand.record(), read(&other).record(), "{other}");
        }
    }

    #[test]
    fn a_player_named_twice_or_a_hand_number_not_an_integer_is_skipped() {
        let named = HAND.replace("hand = 3\n", "hand = 3\nplayers = ['Ann', 'Ann']\n");
        for text in [named, HAND.replace("hand = 3", "hand = 3.0"), HAND.replace("hand = 3", "hand = inf")] {
            let sections = parse(&text, false).unwrap();
            assert!(matches!(read_hand(&sections[0].doc), Err(NotRead::Skip)), "{text}");
        }
        assert_eq!(read(&HAND.replace("hand = 3", "hand = 'h3'")).label.as_deref(), Some("h3"));
    }
}
