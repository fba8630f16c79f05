//! One PHH hold'em hand's fields, checked as `services/importers/phh_hand.py`'s
//! `read_hand` checks them. Where the Python reader would report the hand as unsupported
//! (or read a value this reader does not, such as a non-string player name or `seats`),
//! this gives `None`: the whole import is then Python's, with its reasons.

use super::toml::{Num, Toml};

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

fn get<'a>(doc: &'a [(String, Toml)], key: &str) -> Option<&'a Toml> {
    doc.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// A list of numbers (of `count` entries when given).
fn numbers(doc: &[(String, Toml)], key: &str, count: Option<usize>) -> Option<Vec<Num>> {
    let values = match get(doc, key)? {
        Toml::Nums(values) => values.clone(),
        Toml::Strs(values) if values.is_empty() => Vec::new(),
        _ => return None,
    };
    count.map_or(true, |n| values.len() == n).then_some(values)
}

/// An optional number: absent is `Some(None)`; anything but a number is `None`.
fn optional(doc: &[(String, Toml)], key: &str) -> Option<Option<Num>> {
    match get(doc, key) {
        None => Some(None),
        Some(Toml::Num(n)) => Some(Some(*n)),
        Some(_) => None,
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
fn action(raw: &str) -> Option<String> {
    if !raw.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return None;
    }
    Some(raw.split('#').next().unwrap_or("").trim_matches(' ').to_string())
}

/// A document read: its hold'em hand, or why the Python importer skips it (a variant
/// other than hold'em, in its words: `variant_names` is its `VARIANT_NAMES`).
pub enum Read {
    Hand(Box<PhhHand>),
    Skipped(String),
}

/// The hold'em fields of one parsed document, the reason it is skipped, or `None` (see
/// the module's doc).
pub fn read_hand(doc: &[(String, Toml)], variant_names: &[(String, String)]) -> Option<Read> {
    let variant = match get(doc, "variant") {
        Some(Toml::Str(v)) => v.clone(),
        _ => return Some(Read::Skipped("no 'variant' field".to_string())),
    };
    let structure = match variant.as_str() {
        "NT" => Structure::NoLimit,
        "FT" => Structure::FixedLimit,
        _ => {
            let name = variant_names.iter().find(|(v, _)| *v == variant).map_or("a variant", |(_, n)| n);
            return Some(Read::Skipped(format!(
                "variant {variant} ({name}): pitwatch adjudicates Texas hold'em (NT, FT) only")));
        }
    };
    let starting = numbers(doc, "starting_stacks", None)?;
    let count = starting.len();
    let players = match get(doc, "players") {
        Some(Toml::Strs(names)) => names.clone(),
        None => (1..=count).map(|i| format!("p{i}")).collect(),
        Some(_) => return None,
    };
    let distinct = players.iter().enumerate().all(|(i, p)| !players[..i].contains(p));
    if players.len() != count || count < 2 || !distinct || get(doc, "seats").is_some() {
        return None;
    }
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
        return None;
    }
    let actions = match get(doc, "actions")? {
        Toml::Strs(actions) => actions.iter().map(|a| action(a)).collect::<Option<Vec<String>>>()?,
        _ => return None,
    };
    let (number, label) = match get(doc, "hand") {
        Some(Toml::Num(n)) if n.integer => (Some(n.mantissa), Some(n.mantissa.to_string())),
        Some(Toml::Str(s)) => (None, Some(s.clone())),
        _ => (None, None),
    };
    Some(Read::Hand(Box::new(PhhHand {
        variant,
        structure,
        players,
        starting,
        finishing,
        winnings,
        antes: numbers(doc, "antes", Some(count))?,
        blinds: numbers(doc, "blinds_or_straddles", Some(count))?,
        min_bet: optional(doc, "min_bet")?,
        small_bet: optional(doc, "small_bet")?,
        big_bet: optional(doc, "big_bet")?,
        actions,
        number,
        label,
        table: text(doc, "table"),
        venue: text(doc, "venue"),
    })))
}
