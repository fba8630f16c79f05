# Sourced by the native_*_mutations.sh scripts (issue #23): the mutation runner they share.
# A script sets MUTATION_TESTS (the differential test file) and MUTATION_SELECT (its -k
# expression), sources this file, then calls `mutate NAME FILE OLD NEW` once per mutation
# and `restore_build` at the end. Each mutation replaces OLD (which must occur exactly
# once) by NEW, rebuilds the module, runs the tests (which must fail), prints one line,
# and restores the source.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
eval "$(bash scripts/native.sh env)"
export PITWATCH_NATIVE_HYPOTHESIS=150
MUTATION_BACKUP="$(mktemp)"

mutate() {
  local name="$1" file="$2" old="$3" new="$4" out
  cp "$file" "$MUTATION_BACKUP"
  python3 - "$file" "$old" "$new" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
assert s.count(old) == 1, (p, old, s.count(old))
open(p, 'w').write(s.replace(old, new))
PY
  .venv/bin/python -m pip install -q -e . >/dev/null 2>&1
  out=$(timeout 900 .venv/bin/python -m pytest -q -p no:cacheprovider -x "$MUTATION_TESTS" -k "$MUTATION_SELECT" 2>&1 | tail -1)
  echo "MUTATION $name: $out"
  cp "$MUTATION_BACKUP" "$file"
}

restore_build() {
  rm -f "$MUTATION_BACKUP"
  .venv/bin/python -m pip install -q -e . >/dev/null 2>&1
  echo "restored: $(git status --short native/src | wc -l) changed files under native/src"
}
