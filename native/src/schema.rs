//! The v1 event contract as data: every event type, its body's fields and their kinds.
//!
//! This mirrors `services/events/contract.py` (the reference, which generates `schemas/`)
//! field for field; `tests/unit/native/test_schema_mirror.py` compares `describe()` of
//! this table with msgspec's own description of the contract, so the two cannot drift.
//! One table drives validation, the compact storage of open hands and the building of the
//! Python structs, so a new field is added in one place.

/// String patterns of the contract (Python `re`: `$` also matches before one final `\n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    None,
    /// `^[2-9TJQKA][cdhs]$`
    Card,
    /// `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
    Uuid,
    /// `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|\+00:00)$`
    Timestamp,
    /// `^[0-9a-f]{64}$`
    Sha256,
    /// `^(board|stub|burn|seat:[1-9][0-9]?)$` (card_moved.from)
    CardPlace,
    /// `^(designated|house|pot|seat:[1-9][0-9]?)$` (payout.source)
    PayoutSource,
    /// `^(designated|house|seat:[1-9][0-9]?)$` (collection.to)
    CollectionTo,
}

#[derive(Debug)]
pub enum Kind {
    /// A string of `min..=max` code points matching `pattern`.
    Str { min: usize, max: usize, pattern: Pattern },
    Int { min: i64, max: i64 },
    Bool,
    /// One of these strings exactly.
    Lit(&'static [&'static str]),
    /// One of these integers exactly.
    LitInt(&'static [i64]),
    /// `T | None`
    Nullable(&'static Kind),
    /// A list of at most `max` items.
    List(&'static Kind, usize),
    Struct(&'static StructSchema),
    /// `dict[PaytableKey, dict[PaytableKey, Chips]]` (table_configured.paytables): at most
    /// MAX_PAYTABLES tables of MAX_PAYTABLE_ROWS rows, keys of 1..MAX_PAYTABLE_KEY_LENGTH.
    PayTables,
    /// `Seat | Literal[...]` (showdown.seat)
    SeatOrLit(&'static [&'static str]),
}

#[derive(Debug)]
pub struct Field {
    /// The name on the wire.
    pub json: &'static str,
    /// The attribute of the Python struct (differs for `from`).
    pub py: &'static str,
    pub kind: Kind,
    /// No default in the contract: the member must be present.
    pub required: bool,
}

#[derive(Debug)]
pub struct StructSchema {
    /// The Python class in `services.events.contract`.
    pub class: &'static str,
    pub fields: &'static [Field],
}

#[derive(Debug)]
pub struct EventType {
    pub tag: &'static str,
    pub class: &'static str,
    pub body: &'static StructSchema,
    pub table_level: bool,
}

// services/events/bounds.py, the reference's bounds (docs/events.md, "Bounds").
pub const MAX_SAFE: i64 = (1 << 53) - 1;
pub const MAX_SEATS: i64 = 64;
pub const MAX_NAME_LENGTH: usize = 200;
pub const MAX_TEXT_LENGTH: usize = 1_000;
pub const MAX_CARDS_PER_LIST: usize = 52;
pub const MAX_PAYTABLES: usize = 32;
pub const MAX_PAYTABLE_ROWS: usize = 64;
pub const MAX_PAYTABLE_KEY_LENGTH: usize = 64;
const SEAT: Kind = Kind::Int { min: 1, max: MAX_SEATS };
const CHIPS: Kind = Kind::Int { min: 0, max: MAX_SAFE };
const POSITIVE_CHIPS: Kind = Kind::Int { min: 1, max: MAX_SAFE };
const SIGNED_CHIPS: Kind = Kind::Int { min: -MAX_SAFE, max: MAX_SAFE };
const NON_EMPTY: Kind = Kind::Str { min: 1, max: MAX_NAME_LENGTH, pattern: Pattern::None };
const TEXT: Kind = Kind::Str { min: 0, max: MAX_TEXT_LENGTH, pattern: Pattern::None };
const CARD: Kind = Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::Card };
const CARDS: Kind = Kind::List(&CARD, MAX_CARDS_PER_LIST);
const WAGER_KINDS: &[&str] = &["ante", "flush_bonus", "sf_bonus", "raise", "bet", "insurance"];
pub const GAMES: &[&str] = &["hcf", "chinese", "draw7a", "russian", "holdem"];

const fn req(json: &'static str, kind: Kind) -> Field {
    Field { json, py: json, kind, required: true }
}

const fn opt(json: &'static str, kind: Kind) -> Field {
    Field { json, py: json, kind, required: false }
}

const fn nullable_chips(json: &'static str) -> Field {
    opt(json, Kind::Nullable(&CHIPS))
}

pub static LIMITS: StructSchema = StructSchema {
    class: "Limits",
    fields: &[
        nullable_chips("ante"),
        nullable_chips("big_bet"),
        nullable_chips("big_blind"),
        nullable_chips("big_blind_ante"),
        nullable_chips("bonus_cap_per_hand"),
        req("max_wager", CHIPS),
        req("min_wager", CHIPS),
        nullable_chips("point_value"),
        nullable_chips("small_bet"),
        nullable_chips("small_blind"),
    ],
};

pub static RAKE_CONFIG: StructSchema = StructSchema {
    class: "RakeConfig",
    fields: &[req("fee", CHIPS), req("mode", Kind::Lit(&["all", "players", "designated", "none"]))],
};

pub static TABLE_CONFIGURED: StructSchema = StructSchema {
    class: "TableConfigured",
    fields: &[
        opt("authorized_by", Kind::Nullable(&NON_EMPTY)),
        req("game", Kind::Lit(GAMES)),
        req("limits", Kind::Struct(&LIMITS)),
        opt("paytables", Kind::Nullable(&Kind::PayTables)),
        req("rake", Kind::Struct(&RAKE_CONFIG)),
        req("rule_profile", NON_EMPTY),
        opt("scoring", Kind::Nullable(&Kind::Lit(&["standard", "mandarin"]))),
        opt("structure", Kind::Nullable(&Kind::Lit(&["fixed", "pot", "no"]))),
    ],
};

static SEATED_FIELDS: [Field; 3] =
    [req("player_id", NON_EMPTY), req("seat", SEAT), req("stack", CHIPS)];

pub static PLAYER_SEATED: StructSchema = StructSchema { class: "PlayerSeated", fields: &SEATED_FIELDS };
pub static PLAYER_LEFT: StructSchema = StructSchema { class: "PlayerLeft", fields: &SEATED_FIELDS };
pub static SEAT_IN: StructSchema = StructSchema { class: "SeatIn", fields: &SEATED_FIELDS };

pub static CHIPS_CHANGED: StructSchema = StructSchema {
    class: "ChipsChanged",
    fields: &[
        req("amount", SIGNED_CHIPS),
        req("kind", Kind::Lit(&["buy_in", "short_buy", "add", "remove", "cash_in_play"])),
        req("seat", SEAT),
    ],
};

pub static DEALER_CHANGED: StructSchema =
    StructSchema { class: "DealerChanged", fields: &[req("dealer_id", NON_EMPTY)] };

pub static DESIGNATED_PLAYER_OFFER: StructSchema = StructSchema {
    class: "DesignatedPlayerOffer",
    fields: &[req("accepted", Kind::Bool), req("seat", SEAT)],
};

pub static HAND_STARTED: StructSchema = StructSchema {
    class: "HandStarted",
    fields: &[
        req("button", SEAT),
        req("dealer_id", NON_EMPTY),
        req("deck", Kind::LitInt(&[52, 32, 36])),
        req("designated_player", Kind::Nullable(&SEAT)),
        req("seats", Kind::List(&Kind::Struct(&SEAT_IN), MAX_SEATS as usize)),
    ],
};

pub static WAGER: StructSchema = StructSchema {
    class: "Wager",
    fields: &[req("amount", POSITIVE_CHIPS), req("kind", Kind::Lit(WAGER_KINDS)), req("seat", SEAT)],
};

pub static CARD_DEALT: StructSchema = StructSchema {
    class: "CardDealt",
    fields: &[
        req("card", Kind::Nullable(&CARD)),
        req("face_up", Kind::Bool),
        opt("seat", Kind::Nullable(&SEAT)),
        req("to", Kind::Lit(&["seat", "dealer", "board", "burn", "set_aside"])),
    ],
};

pub static CARD_EXPOSED: StructSchema = StructSchema {
    class: "CardExposed",
    fields: &[
        req("card", CARD),
        req("cause", Kind::Lit(&["dealer_error", "player", "dealer_upcard"])),
        req("seat", Kind::Nullable(&SEAT)),
    ],
};

pub static ACTION: StructSchema = StructSchema {
    class: "Action",
    fields: &[
        req(
            "action",
            Kind::Lit(&[
                "fold",
                "check",
                "call",
                "bet",
                "raise",
                "all_in",
                "stand",
                "play",
                "buy_dealer_game",
                "decline_dealer_game",
                "declare_board",
                "post_small_blind",
                "post_big_blind",
                "post_ante",
            ]),
        ),
        opt("amount", Kind::Nullable(&CHIPS)),
        req("seat", SEAT),
    ],
};

pub static DRAW: StructSchema = StructSchema {
    class: "Draw",
    fields: &[req("discarded", CARDS), req("received", CARDS), req("seat", SEAT)],
};

pub static CARD_MOVED: StructSchema = StructSchema {
    class: "CardMoved",
    fields: &[
        req("card", CARD),
        Field {
            json: "from",
            py: "from_",
            kind: Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::CardPlace },
            required: true,
        },
        req("to", Kind::Lit(&["set_aside", "burn", "stub", "board"])),
    ],
};

pub static STUB_RESHUFFLED: StructSchema = StructSchema {
    class: "StubReshuffled",
    fields: &[req("cards", CARDS), req("reason", TEXT)],
};

pub static HAND_SET: StructSchema = StructSchema {
    class: "HandSet",
    fields: &[req("back", CARDS), req("front", CARDS), req("middle", CARDS), req("seat", SEAT)],
};

pub static AUTO_WIN_DECLARED: StructSchema = StructSchema {
    class: "AutoWinDeclared",
    fields: &[
        req("kind", Kind::Lit(&["dragon", "six_pairs", "three_flushes", "three_straights"])),
        req("seat", SEAT),
    ],
};

pub static DEALER_REPLACED_CARD: StructSchema = StructSchema {
    class: "DealerReplacedCard",
    fields: &[req("burned", CARDS), req("received", CARD), req("removed", CARD)],
};

pub static SHUFFLER_ALARM: StructSchema =
    StructSchema { class: "ShufflerAlarm", fields: &[req("detail", TEXT)] };
pub static MISDEAL: StructSchema = StructSchema { class: "Misdeal", fields: &[req("reason", TEXT)] };
pub static HAND_DEAD: StructSchema = StructSchema { class: "HandDead", fields: &[req("reason", TEXT)] };

pub static SHOWDOWN: StructSchema = StructSchema {
    class: "Showdown",
    fields: &[
        opt("cards", Kind::Nullable(&CARDS)),
        opt("mucked", Kind::Bool),
        req("seat", Kind::SeatOrLit(&["dealer", "designated"])),
    ],
};

pub static WAGER_COLLECTED: StructSchema = StructSchema {
    class: "WagerCollected",
    fields: &[
        req("amount", POSITIVE_CHIPS),
        req("kind", Kind::Lit(WAGER_KINDS)),
        req("seat", SEAT),
        req("to", Kind::Lit(&["designated", "house"])),
    ],
};

pub static PAYOUT: StructSchema = StructSchema {
    class: "Payout",
    fields: &[
        req("amount", POSITIVE_CHIPS),
        req("kind", Kind::Lit(&["win", "bonus", "insurance", "pot", "refund"])),
        req("seat", SEAT),
        req("source", Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::PayoutSource }),
    ],
};

pub static COLLECTION: StructSchema = StructSchema {
    class: "Collection",
    fields: &[
        req("amount", POSITIVE_CHIPS),
        req("kind", Kind::Lit(&["points", "buy_card", "exchange", "buy_dealer_game", "other"])),
        req("seat", SEAT),
        req("to", Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::CollectionTo }),
    ],
};

pub static RAKE_COLLECTED: StructSchema = StructSchema {
    class: "RakeCollected",
    fields: &[
        req("amount", POSITIVE_CHIPS),
        Field { json: "from", py: "from_", kind: Kind::Lit(&["stack", "pot"]), required: true },
        req("seat", Kind::Nullable(&SEAT)),
    ],
};

pub static HAND_ENDED: StructSchema = StructSchema { class: "HandEnded", fields: &[] };

const fn event(tag: &'static str, class: &'static str, body: &'static StructSchema) -> EventType {
    EventType { tag, class, body, table_level: false }
}

const fn table_event(
    tag: &'static str,
    class: &'static str,
    body: &'static StructSchema,
) -> EventType {
    EventType { tag, class, body, table_level: true }
}

/// Every event type, in the order of the contract's `Event` union.
pub static EVENT_TYPES: [EventType; 26] = [
    table_event("table_configured", "TableConfiguredEvent", &TABLE_CONFIGURED),
    table_event("player_seated", "PlayerSeatedEvent", &PLAYER_SEATED),
    table_event("player_left", "PlayerLeftEvent", &PLAYER_LEFT),
    table_event("chips_changed", "ChipsChangedEvent", &CHIPS_CHANGED),
    table_event("dealer_changed", "DealerChangedEvent", &DEALER_CHANGED),
    table_event("designated_player_offer", "DesignatedPlayerOfferEvent", &DESIGNATED_PLAYER_OFFER),
    event("hand_started", "HandStartedEvent", &HAND_STARTED),
    event("wager", "WagerEvent", &WAGER),
    event("card_dealt", "CardDealtEvent", &CARD_DEALT),
    event("card_exposed", "CardExposedEvent", &CARD_EXPOSED),
    event("action", "ActionEvent", &ACTION),
    event("draw", "DrawEvent", &DRAW),
    event("card_moved", "CardMovedEvent", &CARD_MOVED),
    event("stub_reshuffled", "StubReshuffledEvent", &STUB_RESHUFFLED),
    event("hand_set", "HandSetEvent", &HAND_SET),
    event("auto_win_declared", "AutoWinDeclaredEvent", &AUTO_WIN_DECLARED),
    event("dealer_replaced_card", "DealerReplacedCardEvent", &DEALER_REPLACED_CARD),
    event("shuffler_alarm", "ShufflerAlarmEvent", &SHUFFLER_ALARM),
    event("misdeal", "MisdealEvent", &MISDEAL),
    event("hand_dead", "HandDeadEvent", &HAND_DEAD),
    event("showdown", "ShowdownEvent", &SHOWDOWN),
    event("wager_collected", "WagerCollectedEvent", &WAGER_COLLECTED),
    event("payout", "PayoutEvent", &PAYOUT),
    event("collection", "CollectionEvent", &COLLECTION),
    event("rake_collected", "RakeCollectedEvent", &RAKE_COLLECTED),
    event("hand_ended", "HandEndedEvent", &HAND_ENDED),
];

pub const TABLE_CONFIGURED_INDEX: u8 = 0;
pub const PLAYER_SEATED_INDEX: u8 = 1;
pub const PLAYER_LEFT_INDEX: u8 = 2;
pub const CHIPS_CHANGED_INDEX: u8 = 3;
pub const DEALER_CHANGED_INDEX: u8 = 4;
pub const DESIGNATED_PLAYER_OFFER_INDEX: u8 = 5;
pub const HAND_STARTED_INDEX: u8 = 6;
pub const HAND_ENDED_INDEX: u8 = 25;

pub fn event_index(tag: &str) -> Option<u8> {
    EVENT_TYPES.iter().position(|t| crate::short_eq::same_str(t.tag, tag)).map(|i| i as u8)
}

/// Every struct schema reachable from the event types (bodies and nested structs).
pub fn all_structs() -> Vec<&'static StructSchema> {
    let mut out: Vec<&'static StructSchema> = Vec::new();
    fn walk(kind: &'static Kind, out: &mut Vec<&'static StructSchema>) {
        match kind {
            Kind::Struct(s) => visit(s, out),
            Kind::Nullable(k) | Kind::List(k, _) => walk(k, out),
            _ => {}
        }
    }
    fn visit(s: &'static StructSchema, out: &mut Vec<&'static StructSchema>) {
        if out.iter().any(|known| std::ptr::eq(*known, s)) {
            return;
        }
        out.push(s);
        for field in s.fields {
            walk(&field.kind, out);
        }
    }
    for t in EVENT_TYPES.iter() {
        visit(t.body, &mut out);
    }
    out
}

/// A plain-text description of a kind, compared with msgspec's view of the contract.
pub fn describe_kind(kind: &Kind) -> String {
    match kind {
        Kind::Str { min, max, pattern } => {
            let max = if *max == usize::MAX { "-".to_string() } else { max.to_string() };
            format!("str[{},{},{:?}]", min, max, pattern)
        }
        Kind::Int { min, max } => format!("int[{},{}]", min, max),
        Kind::Bool => "bool".into(),
        Kind::Lit(values) => format!("lit{:?}", sorted(values)),
        Kind::LitInt(values) => format!("litint{:?}", sorted(values)),
        Kind::Nullable(k) => format!("{}|null", describe_kind(k)),
        Kind::List(k, max) => format!("list[{}]<={}", describe_kind(k), max),
        Kind::Struct(s) => s.class.to_string(),
        Kind::PayTables => format!(
            "dict[str[1,{k},None],dict[str[1,{k},None],int[0,{}]]<={}]<={}",
            MAX_SAFE,
            MAX_PAYTABLE_ROWS,
            MAX_PAYTABLES,
            k = MAX_PAYTABLE_KEY_LENGTH
        ),
        Kind::SeatOrLit(values) => format!("int[1,64]|lit{:?}", sorted(values)),
    }
}

fn sorted<T: Ord + Copy>(values: &[T]) -> Vec<T> {
    let mut out = values.to_vec();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_in_canonical_order() {
        // The canonical writer (validate.rs) writes a struct's members in schema order:
        // that must be RFC 8785's (ASCII names: byte order).
        for s in all_structs() {
            let names: Vec<&str> = s.fields.iter().map(|f| f.json).collect();
            let mut sorted = names.clone();
            sorted.sort_unstable();
            assert_eq!(names, sorted, "{}", s.class);
            assert!(names.iter().all(|n| n.is_ascii()));
            assert!(s.fields.len() <= 12, "{} has more fields than validate::MAX_FIELDS", s.class);
        }
    }
}
