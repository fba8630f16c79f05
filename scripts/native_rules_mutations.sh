#!/bin/bash
# Mutation check of the native rules (issue #23): each mutation of a rule site in the core
# (a payout, the bankroll test, the cap remainder order, the rake, a paytable row) must make
# the differential tests (tests/unit/native/test_rules_differential.py) fail. Rebuilds the
# module once per mutation and restores the source after each; prints one line each.
# The runner: scripts/native_mutation_runner.sh.
MUTATION_TESTS=tests/unit/native/test_rules_differential.py
MUTATION_SELECT="every_fault_kind or hypothesis or unit_scenario"
source "$(dirname "$0")/native_mutation_runner.sh"
mutate "HCF-7 Ante+Raise win +1" native/src/rules/hcf/settlement.rs "        ante + raised
    } else if value < dp.value {" "        ante + raised + 1
    } else if value < dp.value {"
mutate "HCF-11 short funds vs max(available,0)" native/src/rules/hcf/settlement.rs "if wins > available.max(0) && p.short_funds_dead_hand {" "if wins > available && p.short_funds_dead_hand {"
mutate "HCF-10 largest remainder order" native/src/rules/hcf/settlement.rs "by_remainder.push((-mul(w, cap)?.rem_euclid(total), i, k));" "by_remainder.push((mul(w, cap)?.rem_euclid(total), i, k));"
mutate "HCF-12 designated rake fee per participant" native/src/rules/hcf/settlement.rs "\"designated\" => due.set(dp, mul(fee, counted.len() as Chips)?)," "\"designated\" => due.set(dp, mul(fee, counted.len() as Chips + 1)?),"
mutate "HCF-8 flush odds of the next row" native/src/rules/hcf/settlement.rs "live.flush_win = mul(play.flush_bonus, rules.flush_odds[flush_length(value) as usize])?;" "live.flush_win = mul(play.flush_bonus, rules.flush_odds[(flush_length(value) as usize + 1).min(14)])?;"
restore_build
