//! The table-level events a table applies outside its hands' assembly: configuration,
//! seating and leaving, stacks changed, dealer changes, designated-player offers, and the
//! buys a seat makes (the reference's table-level branch of `apply_event`).
//!
//! Why a module of its own: they change what the table holds between hands (the context a
//! closing hand is judged in), not the hand being assembled nor the chain.

use super::*;

impl TableState {
    pub(super) fn apply_table_event(&mut self, env: &Envelope<'_>, out: &mut Vec<Output>) {
        let data = env.data();
        let d = &data;
        match env.type_index {
            schema::TABLE_CONFIGURED_INDEX => {
                let authorized = !matches!(d.get("authorized_by"), None | Some(Value::Null));
                // The body as the open hand keeps it is the configuration as kept.
                self.config = Some(env.body.into());
                self.config_authorized = authorized;
                if !authorized {
                    out.push(Output::Alert(Alert {
                        code: "UNAUTHORISED_CONFIGURATION",
                        rule: "GEN-5",
                        severity: Severity::Critical,
                        message: "table_configured without authorized_by: limits, game and rake \
                                  change only with a supervisor's authorisation"
                            .to_string(),
                        seq: env.seq,
                        event_id: env.event_id.to_string(),
                        hand_id: None,
                    }));
                }
                if let Some(hand) = self.open_hand.as_mut() {
                    hand.findings.push(Finding {
                        code: "CONFIG_CHANGED_DURING_HAND",
                        rule: "GEN-5",
                        severity: Severity::Critical,
                        message: format!("table configuration changed during the hand (seq {})", env.seq),
                    });
                }
            }
            schema::PLAYER_SEATED_INDEX => {
                let seat = data_int(d, "seat");
                let player_id = data_str(d, "player_id").to_string();
                let stack = data_int(d, "stack");
                match self.seated.iter_mut().find(|s| s.seat == seat) {
                    Some(existing) => {
                        existing.player_id = player_id;
                        existing.stack = stack;
                    }
                    None => self.seated.push(Seated { seat, player_id, stack }),
                }
                if !self.new_seats.contains(&seat) {
                    self.new_seats.push(seat);
                }
                self.buys.retain(|b| b.seat != seat);
                self.record_buy(seat, "seated", stack, env.seq);
            }
            schema::PLAYER_LEFT_INDEX => {
                let seat = data_int(d, "seat");
                self.seated.retain(|s| s.seat != seat);
                self.buys.retain(|b| b.seat != seat);
                if self.seated.is_empty() && self.open_hand.is_none() {
                    self.forget_previous_hand(); // the table emptied: it starts afresh (QA)
                }
            }
            schema::CHIPS_CHANGED_INDEX => {
                let seat = data_int(d, "seat");
                let amount = data_int(d, "amount");
                let kind = data_str(d, "kind");
                if let Some(s) = self.seated.iter_mut().find(|s| s.seat == seat) {
                    s.stack += amount;
                }
                if kind == "buy_in" || kind == "short_buy" {
                    self.record_buy(seat, kind, amount, env.seq);
                } else if kind == "cash_in_play" && self.open_hand.is_none() {
                    out.push(Output::Alert(Alert {
                        code: "CASH_IN_PLAY",
                        rule: "GEN-4",
                        severity: Severity::CashInPlayProfile,
                        message: format!(
                            "seat {} put {} in cash in play between hands (seq {}); only chips \
                             are wagered",
                            seat, amount, env.seq
                        ),
                        seq: env.seq,
                        event_id: env.event_id.to_string(),
                        hand_id: None,
                    }));
                }
            }
            schema::DEALER_CHANGED_INDEX => {
                self.dealer_id = Some(data_str(d, "dealer_id").to_string());
            }
            schema::DESIGNATED_PLAYER_OFFER_INDEX => {
                let accepted = matches!(d.get("accepted"), Some(Value::Bool(true)));
                self.offers.push((data_int(d, "seat"), accepted));
                if self.offers.len() > MAX_OFFERS {
                    // The latest offers decide HCF-2.
                    self.offers.remove(0);
                }
            }
            _ => {}
        }
    }

    pub(super) fn record_buy(&mut self, seat: i64, kind: &str, amount: i64, seq: i64) {
        self.buys.push(Buy { seat, kind: kind.to_string(), amount, seq, hands_played: self.hands_played });
        if self.buys.iter().filter(|b| b.seat == seat).count() > MAX_BUYS_PER_SEAT {
            if let Some(first) = self.buys.iter().position(|b| b.seat == seat) {
                self.buys.remove(first);
            }
        }
    }
}
