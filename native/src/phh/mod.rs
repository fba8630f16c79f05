//! The native PHH importer (issue #23: the import capped hold'em's ratio to pokerkit):
//! `.phh` and `.phhs` files to the hash-chained v1 events
//! `services.importers.phh.import_phh` makes, byte for byte.
//!
//! It reads what it can read exactly and says so rather than guess. A hand the Python
//! importer skips (another variant, no settlement, a straddle, amounts not whole at any
//! scale, a hand listed twice ...) is skipped here at the same point of the same order,
//! and the Python importer words the reason from the hand's document (`Stage`,
//! `phh.skip_reason`), so every message has one source. A document outside the one-line
//! TOML subset (`toml`), a value this reader would read differently (`hand::NotRead::
//! Defer`: `seats`, non-string player names ...), a bet size it does not parse, an
//! unreadable file: any of these makes `import` return `None`, and the whole import is
//! then the Python importer's. The Python importer stays the readable reference;
//! `tests/unit/holdem/test_phh_native_differential.py` compares the two on every file of
//! the shared data, on generated folders and on each kind of file left to Python.

pub mod convert;
pub mod hand;
pub mod pyrandom;
pub mod stream;
pub mod toml;

use std::collections::HashMap;

use convert::{convert, posts, Converted};
use hand::{NotRead, PhhHand};
use stream::{Stream, J};

/// The largest exact JSON integer (RFC 8785): chips at a table stay below it.
const MAX_SAFE_CHIPS: i128 = (1 << 53) - 1;
const MAX_SCALE: i128 = 100;
const DEALER_ID: &str = "phh-dealer";
const AUTHORIZED_BY: &str = "phh-import";

/// One file to import: its path (as the Python importer names it in `sources`), the
/// table name of its folder's session, its stem, and the stem's natural order key.
pub struct SourceFile {
    pub path: String,
    pub folder_table: String,
    pub stem: String,
    pub natural: (i64, String),
}

pub struct Options {
    pub rule_profile: String,
    pub big_blind_ante_field: bool,
    /// The scale a chip unit fixes for every table (`--chip-unit 0.01`: 100), at most
    /// `MAX_FIXED_SCALE`; None: each table's own, the least that makes its hands whole.
    pub fixed_scale: Option<i128>,
}

/// The finest fixed scale taken here: an amount (at most `toml::MAX_DIGITS` digits) times
/// it stays inside i128. A finer chip unit is the Python importer's.
pub const MAX_FIXED_SCALE: i128 = 1_000_000_000_000;

/// Where the Python importer skips a hand; it gives the reason (`phh.skip_reason`), from
/// the hand's document, the table's scale and, for a hand listed twice, its hand id and
/// where it was first read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// `read_hand` refuses the document.
    Read,
    /// No chip scale up to `MAX_SCALE` makes the hand whole at its table.
    Scale,
    /// The hand id again at its table.
    Again,
    /// A copy: the record of a hand already kept at its table, field for field
    /// (`hand::PhhHand::record`), under another id (a session's file saved twice).
    Copy,
    /// More chips at the table than the largest exact JSON integer.
    Safe,
    /// The table's configuration or the replay refuses the hand.
    Play,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Scale => "scale",
            Stage::Again => "again",
            Stage::Copy => "copy",
            Stage::Safe => "safe",
            Stage::Play => "play",
        }
    }
}

/// A skipped hand: (where, stage, its document's text, the table's scale, (hand id, where
/// first read) for `Again`; the first's for `Copy`).
pub type Skipped = (String, Stage, String, i128, Option<(String, String)>);

/// The import's events (JSON lines) and its account, as `ImportResult` holds it.
#[derive(Default)]
pub struct Imported {
    pub jsonl: Vec<u8>,
    pub events: usize,
    pub hands: usize,
    /// Hand documents read (imported or skipped).
    pub read: usize,
    pub scales: Vec<(String, i128)>,
    pub limited: Vec<(String, &'static str)>,
    pub sources: Vec<(String, String)>,
    /// The hands the Python importer skips, in its order.
    pub skipped: Vec<Skipped>,
}

struct Source<'f> {
    file: &'f SourceFile,
    /// The hand's `[name]` in a `.phhs` file, its place in the file, its document's text.
    section: Option<String>,
    position: usize,
    text: String,
    hand: PhhHand,
}

impl Source<'_> {
    /// `<table>#<the source's hand id>`, or by file (and `[n]`) without one (`phh.hand_id`).
    fn hand_id(&self, table_id: &str) -> String {
        match (&self.hand.table, &self.hand.label, &self.section) {
            (Some(_), Some(label), _) => format!("{table_id}#{label}"),
            (_, _, Some(section)) => format!("{table_id}#{}.{section}", self.file.stem),
            _ => format!("{table_id}#{}", self.file.stem),
        }
    }

    /// `file` or `file[n]` (`phh_source.location`).
    fn location(&self) -> String {
        location(&self.file.path, self.section.as_deref())
    }

    fn skip(&self, stage: Stage, scale: i128, again: Option<(String, String)>) -> Skipped {
        (self.location(), stage, self.text.clone(), scale, again)
    }
}

fn location(path: &str, section: Option<&str>) -> String {
    match section {
        Some(section) => format!("{path}[{section}]"),
        None => path.to_string(),
    }
}

/// Output bytes reserved per input byte: a Pluribus hand's ~800 bytes of PHH become about
/// 11,400 bytes of events. Reserving once spares the copies of a growing buffer; pages
/// never written are never touched.
const OUTPUT_PER_INPUT_BYTE: usize = 16;

/// Why the native importer leaves an import to Python: where, and what it met there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declined {
    pub location: String,
    pub why: String,
}

fn declined(location: &str, why: &str) -> Declined {
    Declined { location: location.to_string(), why: why.to_string() }
}

/// Where an import may write each table's events as soon as the table is done (then
/// `Imported::jsonl` holds none of them): an import of many tables then holds one table's
/// events, not all of them. An error ends the import (declined with its words).
pub type TableSink<'s> = &'s mut dyn FnMut(&[u8]) -> Result<(), String>;

/// Every file's hands, grouped by table and imported table by table, or why the import is
/// Python's (see the module's doc).
pub fn import(files: &[SourceFile], options: &Options) -> Result<Imported, Declined> {
    import_to(files, options, None)
}

/// `import`, each table's events given to `sink` (when there is one) as the table is done.
pub fn import_to(files: &[SourceFile], options: &Options, mut sink: Option<TableSink<'_>>)
                 -> Result<Imported, Declined> {
    // (is a source table, its name) -> its hands, in the order first seen
    let mut groups: Vec<((bool, String), Vec<Source<'_>>)> = Vec::new();
    let mut group_of: HashMap<(bool, String), usize> = HashMap::new();
    let mut imported = Imported::default();
    let mut input_bytes = 0;
    for file in files {
        let bytes = std::fs::read(&file.path).map_err(|_| declined(&file.path, "the file cannot be read"))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| declined(&file.path, "not UTF-8"))?;
        // A leading byte order mark (Windows Notepad's UTF-8) is passed over, as
        // `phh_source.read_sources` passes it over.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        input_bytes += bytes.len();
        let phhs = file.path.ends_with(".phhs");
        let sections = toml::parse(text, phhs).map_err(|line| match line {
            0 => declined(&file.path, "a key outside every hand ([n] table)"),
            n => declined(&format!("{}:{n}", file.path),
                          "a line outside the one-line TOML the native reader reads \
                           (multi-line arrays, escapes, exponents, dates, dotted keys ...)"),
        })?;
        for (position, section) in sections.into_iter().enumerate() {
            imported.read += 1;
            let at = location(&file.path, section.name.as_deref());
            let body = text.get(section.text.0..section.text.1).unwrap_or_default().to_string();
            let hand = match hand::read_hand(&section.doc) {
                Ok(hand) => hand,
                Err(NotRead::Defer(why)) => return Err(declined(&at, why)),
                Err(NotRead::Skip) => {
                    imported.skipped.push((at, Stage::Read, body, 1, None));
                    continue;
                }
            };
            let key = match &hand.table {
                Some(table) => (true, match &hand.venue {
                    Some(venue) => format!("phh:{venue}/{table}"),
                    None => format!("phh:{table}"),
                }),
                None => (false, file.folder_table.clone()),
            };
            let source = Source { file, section: section.name, position, text: body, hand };
            match group_of.get(&key) {
                Some(&at) => groups[at].1.push(source),
                None => {
                    group_of.insert(key.clone(), groups.len());
                    groups.push((key, vec![source]));
                }
            }
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    if sink.is_none() {
        imported.jsonl.reserve(input_bytes.saturating_mul(OUTPUT_PER_INPUT_BYTE));
    }
    for ((_, table_id), mut hands) in groups {
        hands.sort_by(|a, b| order(a).cmp(&order(b)));
        import_table(&table_id, hands, options, &mut imported)?;
        if let Some(write) = sink.as_mut() {
            write(&imported.jsonl).map_err(|why| declined(&table_id, &why))?;
            imported.jsonl.clear();
        }
    }
    Ok(imported)
}

const BET_SIZE: &str = "a bet size written otherwise than digits with an optional point";

/// Hand number (-1 without one), then the file's natural order, then the place in it.
fn order<'s>(source: &'s Source<'_>) -> (i128, i64, &'s str, usize) {
    (source.hand.number.unwrap_or(-1), source.file.natural.0, &source.file.natural.1, source.position)
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The smallest scale up to `MAX_SCALE` that makes every amount of the hand whole
/// (`Some(None)`: none does; `None`: a bet size this reader leaves to Python).
fn hand_scale(hand: &PhhHand) -> Option<Option<i128>> {
    let amounts = hand.amounts()?;
    Some((1..=MAX_SCALE).find(|&scale| amounts.iter().all(|a| a.whole_at(scale).is_some())))
}

/// Whether every chip amount of `hand` at `scale` fits an exact JSON integer
/// (`phh.unsafe_chips`): the table's chips, then each amount on its own (a bet the source
/// wrote is carried into the events as written, whatever the stacks). An amount not
/// whole at `scale`, which every kept hand's amounts divide, can only have overflowed.
fn safe_chips(hand: &PhhHand, scale: i128) -> bool {
    let starting: Option<i128> = hand.starting.iter().map(|s| s.whole_at(scale)).sum();
    if starting.map_or(true, |chips| chips > MAX_SAFE_CHIPS) {
        return false;
    }
    hand.amounts().map_or(false, |amounts| {
        amounts.iter().all(|a| a.whole_at(scale).map_or(false, |chips| chips.abs() <= MAX_SAFE_CHIPS))
    })
}

/// The table's chip scale and the hands whole in it (`phh.table_scale`): the scale a chip
/// unit fixes, or the least common multiple of the hands' own scales up to `MAX_SCALE`;
/// a hand not whole in it is skipped.
fn table_scale<'f>(hands: Vec<Source<'f>>, fixed: Option<i128>, imported: &mut Imported)
    -> Result<(i128, Vec<Source<'f>>), Declined> {
    let mut scale = fixed.unwrap_or(1);
    let mut whole = Vec::with_capacity(hands.len());
    for source in hands {
        let fits = match fixed {
            Some(fixed) => {
                let amounts = source.hand.amounts().ok_or_else(|| declined(&source.location(), BET_SIZE))?;
                amounts.iter().all(|a| a.whole_at(fixed).is_some())
            }
            None => {
                let needed = hand_scale(&source.hand).ok_or_else(|| declined(&source.location(), BET_SIZE))?;
                match needed {
                    Some(needed) if scale * needed / gcd(scale, needed) <= MAX_SCALE => {
                        scale = scale * needed / gcd(scale, needed);
                        true
                    }
                    _ => false,
                }
            }
        };
        if fits {
            whole.push(source);
        } else {
            imported.skipped.push(source.skip(Stage::Scale, 1, None));
        }
    }
    Ok((scale, whole))
}

/// What `once_each` makes of a hand: kept (with its id), its id again (the id and where
/// it was first read), or a copy of a kept hand (that hand's id and place).
enum Once {
    Kept(String),
    Again(String, String),
    Copy(String, String),
}

/// Each hand once at its table (`phh._once_each`), in the table's order: a hand id
/// again, or a copy of a kept hand's record under another id (a session's file saved
/// twice), is skipped.
fn once_each(table_id: &str, hands: &[Source<'_>]) -> Result<Vec<Once>, Declined> {
    let mut first: HashMap<String, String> = HashMap::new();
    let mut records: HashMap<hand::Record<'_>, (String, String)> = HashMap::new();
    let mut fates = Vec::with_capacity(hands.len());
    for source in hands {
        let name = source.hand_id(table_id);
        if !hand::contract_name(&name) {
            return Err(declined(&source.location(), "a hand id the v1 contract does not take"));
        }
        if let Some(at) = first.get(&name) {
            fates.push(Once::Again(name, at.clone()));
            continue;
        }
        let record = source.hand.record();
        if let Some((earlier, at)) = records.get(&record) {
            fates.push(Once::Copy(earlier.clone(), at.clone()));
            continue;
        }
        records.insert(record, (name.clone(), source.location()));
        first.insert(name.clone(), source.location());
        fates.push(Once::Kept(name));
    }
    Ok(fates)
}

/// One table's hands: the scale, the hands listed twice or copied, the chips bound
/// (`phh.table_scale`, `_once_each`, `_safe_chips`), then each hand played.
fn import_table(table_id: &str, hands: Vec<Source<'_>>, options: &Options, imported: &mut Imported)
    -> Result<(), Declined> {
    let (scale, whole) = table_scale(hands, options.fixed_scale, imported)?;
    let fates = once_each(table_id, &whole)?;
    let mut once = Vec::with_capacity(whole.len());
    for (source, fate) in whole.into_iter().zip(fates) {
        match fate {
            Once::Kept(name) => once.push((source, name)),
            Once::Again(name, at) => imported.skipped.push(source.skip(Stage::Again, scale, Some((name, at)))),
            Once::Copy(name, at) => imported.skipped.push(source.skip(Stage::Copy, scale, Some((name, at)))),
        }
    }
    let mut hands = Vec::with_capacity(once.len());
    for (source, name) in once {
        if !safe_chips(&source.hand, scale) {
            imported.skipped.push(source.skip(Stage::Safe, scale, None));
        } else {
            hands.push((source, name));
        }
    }
    if hands.is_empty() {
        return Ok(());
    }
    let mut max_wager: Vec<(&str, i128)> = Vec::new();
    for (source, _) in &hands {
        let top = source.hand.starting.iter().filter_map(|s| s.whole_at(scale)).max().unwrap_or(0);
        match max_wager.iter_mut().find(|(v, _)| *v == source.hand.variant) {
            Some((_, wager)) => *wager = (*wager).max(top),
            None => max_wager.push((&source.hand.variant, top.max(0))),
        }
    }
    let mut out = std::mem::take(&mut imported.jsonl);
    let mut writer = TableWriter { stream: Stream::new(table_id, &mut out), scale, config: None,
                                   seat_of: Vec::new(), stacks: Vec::new() };
    let mut played = 0;
    for (source, name) in &hands {
        let wager = max_wager.iter().find(|(v, _)| *v == source.hand.variant).map_or(0, |w| w.1);
        match writer.play(&source.hand, name, wager, options) {
            Some(limits) => {
                played += 1;
                imported.limited.extend(limits.into_iter().map(|limit| (name.clone(), limit)));
                imported.sources.push((name.clone(), source.location()));
            }
            None => imported.skipped.push(source.skip(Stage::Play, scale, None)),
        }
    }
    if played > 0 {
        imported.events += writer.stream.events;
        imported.hands += played;
        imported.scales.push((table_id.to_string(), scale));
    }
    imported.jsonl = out;
    Ok(())
}

struct TableWriter<'o> {
    stream: Stream<'o>,
    scale: i128,
    config: Option<J>,
    /// Who sits where, in the order they sat down (a Python dict's order).
    seat_of: Vec<(String, i128)>,
    stacks: Vec<(String, i128)>,
}

impl TableWriter<'_> {
    /// Emit one hand; its limits (what its record cannot tell).
    fn play(&mut self, hand: &PhhHand, hand_id: &str, max_wager: i128, options: &Options)
        -> Option<Vec<&'static str>> {
        let kept = self.kept_seats(hand);
        let reseat = hand.seats.is_none() && kept.is_none();
        let seats: Vec<i128> = hand.seats.clone().or(kept)
            .unwrap_or_else(|| (1..=hand.players.len() as i128).collect());
        let config = table_configuration(hand, self.scale, max_wager, options)?;
        let Converted { events, limits, finishing } = convert(hand, &seats, self.scale)?;
        let starting = hand.starting.iter().map(|s| s.whole_at(self.scale)).collect::<Option<Vec<i128>>>()?;
        if self.config.as_ref() != Some(&config) {
            self.stream.emit("table_configured", config.clone(), None);
            self.config = Some(config);
        }
        self.seat(hand, &seats, &starting, reseat);
        self.align_stacks(hand, &seats, &starting);
        let mut seated: Vec<(i128, &String, i128)> = seats.iter().copied().zip(&hand.players)
            .zip(starting.iter().copied()).map(|((seat, name), stack)| (seat, name, stack)).collect();
        seated.sort();
        self.stream.emit("hand_started", J::Obj(vec![
            ("button", J::Int(*seats.last()?)),
            ("designated_player", J::Null),
            ("dealer_id", J::Lit(DEALER_ID)),
            ("seats", J::Arr(seated.into_iter().map(|(seat, name, stack)| J::Obj(vec![
                ("seat", J::Int(seat)), ("player_id", J::str(name)), ("stack", J::Int(stack))])).collect())),
            ("deck", J::Int(52)),
        ]), Some(hand_id));
        for (kind, data) in events {
            self.stream.emit(kind, data, Some(hand_id));
        }
        self.stream.emit("hand_ended", J::Obj(Vec::new()), Some(hand_id));
        for (name, stack) in hand.players.iter().zip(finishing) {
            self.set_stack(name, stack);
        }
        Some(limits)
    }

    fn seat_of(&self, name: &str) -> Option<i128> {
        self.seat_of.iter().find(|(n, _)| n == name).map(|(_, s)| *s)
    }

    fn stack_of(&self, name: &str) -> i128 {
        self.stacks.iter().find(|(n, _)| n == name).map_or(0, |(_, s)| *s)
    }

    fn set_stack(&mut self, name: &str, stack: i128) {
        match self.stacks.iter_mut().find(|(n, _)| n == name) {
            Some((_, s)) => *s = stack,
            None => self.stacks.push((name.to_string(), stack)),
        }
    }

    /// Everyone's current seat, if all are seated in the clockwise order of the hand's
    /// positions from the button (the last player's seat).
    fn kept_seats(&self, hand: &PhhHand) -> Option<Vec<i128>> {
        let seats = hand.players.iter().map(|name| self.seat_of(name)).collect::<Option<Vec<i128>>>()?;
        hand::clockwise_from_the_button(&seats).then_some(seats)
    }

    /// `player_left` / `player_seated` so the table matches the hand's seating.
    fn seat(&mut self, hand: &PhhHand, seats: &[i128], starting: &[i128], reseat: bool) {
        let sitting: Vec<String> = self.seat_of.iter().map(|(n, _)| n.clone()).collect();
        for name in sitting {
            if reseat || !hand.players.contains(&name) {
                self.leave(&name);
            }
        }
        for ((name, &seat), &stack) in hand.players.iter().zip(seats).zip(starting) {
            if self.seat_of(name) != Some(seat) {
                if self.seat_of(name).is_some() {
                    self.leave(name);
                }
                let taken = self.seat_of.iter().find(|(_, s)| *s == seat).map(|(n, _)| n.clone());
                if let Some(taken) = taken {
                    self.leave(&taken);
                }
                self.stream.emit("player_seated", J::Obj(vec![
                    ("seat", J::Int(seat)), ("player_id", J::str(name)), ("stack", J::Int(stack))]), None);
                self.seat_of.push((name.clone(), seat));
                self.set_stack(name, stack);
            }
        }
    }

    fn leave(&mut self, name: &str) {
        let at = match self.seat_of.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => return,
        };
        let (_, seat) = self.seat_of.remove(at);
        let stack = self.stack_of(name);
        self.stacks.retain(|(n, _)| n != name);
        self.stream.emit("player_left", J::Obj(vec![
            ("seat", J::Int(seat)), ("player_id", J::str(name)), ("stack", J::Int(stack))]), None);
    }

    /// Bring every seat's stack to the hand's starting stack between hands.
    fn align_stacks(&mut self, hand: &PhhHand, seats: &[i128], starting: &[i128]) {
        for ((name, &seat), &stack) in hand.players.iter().zip(seats).zip(starting) {
            let change = stack - self.stack_of(name);
            if change != 0 {
                self.stream.emit("chips_changed", J::Obj(vec![
                    ("seat", J::Int(seat)), ("amount", J::Int(change)),
                    ("kind", J::Lit(if change > 0 { "add" } else { "remove" }))]), None);
                self.set_stack(name, stack);
            }
        }
    }
}

/// The `table_configured` body of the game the hand was played under
/// (`phh_table.table_configuration`).
fn table_configuration(hand: &PhhHand, scale: i128, max_wager: i128, options: &Options) -> Option<J> {
    let posted = posts(hand, scale)?;
    let mut limits = vec![("small_blind", J::Int(posted.small_blind)), ("big_blind", J::Int(posted.big_blind))];
    match hand.structure {
        hand::Structure::FixedLimit => {
            let small_bet = hand.small_bet?.whole_at(scale)?;
            let big_bet = hand.big_bet?.whole_at(scale)?;
            limits.push(("small_bet", J::Int(small_bet)));
            limits.push(("big_bet", J::Int(big_bet)));
            limits.push(("min_wager", J::Int(small_bet)));
        }
        hand::Structure::NoLimit => {
            let minimum = match hand.min_bet {
                Some(bet) => bet.whole_at(scale)?,
                None => posted.big_blind,
            };
            if minimum != posted.big_blind {
                return None;
            }
            limits.push(("min_wager", J::Int(minimum)));
        }
    }
    limits.push(("max_wager", J::Int(max_wager)));
    if posted.ante_each != 0 {
        limits.push(("ante", J::Int(posted.ante_each)));
    }
    if posted.big_blind_ante != 0 {
        if !options.big_blind_ante_field {
            return None;
        }
        limits.push(("big_blind_ante", J::Int(posted.big_blind_ante)));
    }
    Some(J::Obj(vec![
        ("game", J::Lit("holdem")),
        ("limits", J::Obj(limits)),
        ("structure", J::Lit(hand.structure.name())),
        ("rake", J::Obj(vec![("mode", J::Lit("none")), ("fee", J::Int(0))])),
        ("rule_profile", J::str(&options.rule_profile)),
        ("authorized_by", J::Lit(AUTHORIZED_BY)),
    ]))
}
