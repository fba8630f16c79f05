#!/bin/bash
# Mutation check of the native rules (issue #23): each mutation of a rule site in the core
# (a payout, the bankroll test, the cap remainder order, the rake, a paytable row) must make
# the differential tests (tests/unit/native/test_rules_differential.py) fail. Rebuilds the
# module once per mutation and restores the source after each; prints one line each.
cd "$(dirname "$0")/.."
eval "$(bash scripts/native.sh env)"
export PITWATCH_NATIVE_HYPOTHESIS=150
run() {
  name="$1"; file="$2"; old="$3"; new="$4"
  cp "$file" /tmp/mut.bak
  python3 - "$file" "$old" "$new" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
assert s.count(old) == 1, (p, old, s.count(old))
open(p, 'w').write(s.replace(old, new))
PY
  .venv/bin/python -m pip install -q -e . >/dev/null 2>&1
  out=$(timeout 900 .venv/bin/python -m pytest -q -p no:cacheprovider -x tests/unit/native/test_rules_differential.py -k "every_fault_kind or hypothesis or unit_scenario" 2>&1 | tail -1)
  echo "MUTATION $name: $out"
  cp /tmp/mut.bak "$file"
}
run "HCF-7 Ante+Raise win +1" native/src/rules/hcf/settlement.rs "        ante + raised
    } else if value < dp.value {" "        ante + raised + 1
    } else if value < dp.value {"
run "HCF-11 short funds vs max(available,0)" native/src/rules/hcf/settlement.rs "if wins > available.max(0) && p.short_funds_dead_hand {" "if wins > available && p.short_funds_dead_hand {"
run "HCF-10 largest remainder order" native/src/rules/hcf/settlement.rs "by_remainder.push((-mul(w, cap)?.rem_euclid(total), i, k));" "by_remainder.push((mul(w, cap)?.rem_euclid(total), i, k));"
run "HCF-12 designated rake fee per participant" native/src/rules/hcf/settlement.rs "\"designated\" => due.set(dp, mul(fee, counted.len() as Chips)?)," "\"designated\" => due.set(dp, mul(fee, counted.len() as Chips + 1)?),"
run "HCF-8 flush odds of the next row" native/src/rules/hcf/settlement.rs "live.flush_win = mul(play.flush_bonus, rules.flush_odds[flush_length(value) as usize])?;" "live.flush_win = mul(play.flush_bonus, rules.flush_odds[(flush_length(value) as usize + 1).min(14)])?;"
.venv/bin/python -m pip install -q -e . >/dev/null 2>&1
echo "restored: $(git status --short native/src | wc -l) changed files under native/src"
