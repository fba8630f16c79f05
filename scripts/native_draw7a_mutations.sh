#!/bin/bash
# Mutation check of the native Five Card Draw 7-A rules and the betting engine (issue #23):
# each mutation of a rule site in the core must make the Draw 7-A differential tests
# (tests/unit/native/test_draw7a_differential.py) fail. Rebuilds the module once per
# mutation and restores the source after each; prints one line each.
# The runner: scripts/native_mutation_runner.sh.
MUTATION_TESTS=tests/unit/native/test_draw7a_differential.py
MUTATION_SELECT="every_fault_kind or hypothesis or unit_scenario or odd_chip"
source "$(dirname "$0")/native_mutation_runner.sh"
B=native/src/rules/betting
D=native/src/rules/draw7a
mutate "FCD-11 odd chip from the button's seat" $B/showdown.rs "for (i, seat) in clockwise_after(winners, button).into_iter().enumerate() {" "for (i, seat) in clockwise_after(winners, button + 1).into_iter().enumerate() {"
mutate "FCD-8 pot limit read as the total" $B/engine.rs "PotLimitReading::RaiseByPotAfterCall => self.bet_level + pot_after_call," "PotLimitReading::RaiseByPotAfterCall => pot_after_call,"
mutate "FCD-8 an all-in of exactly the minimum is short" $B/engine.rs "let short_all_in = all_in && new_level < low;" "let short_all_in = all_in && new_level <= low;"
mutate "FCD-3 heads-up blinds the other way" $B/seating.rs "if seats.len() == 2 && seats.contains(&button) {" "if seats.len() == 2 && !seats.contains(&button) {"
mutate "FCD-9 showdown order ignores the last aggressor" $B/engine.rs "Some(last) if contenders.contains(&last) => last," "Some(last) if contenders.contains(&last) && last < 0 => last,"
mutate "GEN-10 pot rake cap row by more players" $B/rake.rs "find(|(min_players, _)| hand.players_dealt >= *min_players)" "find(|(min_players, _)| hand.players_dealt > *min_players)"
mutate "GEN-10 stack fee not capped at the holding" $B/rake.rs "let capped = charge.min(holding.get(seat).copied().unwrap_or(0).max(0));" "let capped = charge;"
mutate "FCD-6 an unread card not taken by a discard" $D/walk.rs "} else if let Some(at) = hand.iter().position(Option::is_none) {" "} else if let Some(at) = hand.iter().position(|_| false) {"
mutate "FCD-10 ace-low straight not recognised" $D/evaluation.rs "let ace_low = counts[14] == 1 && (low..low + 4).all(|r| counts[r as usize] == 1);" "let ace_low = false;"
restore_build
