# shellcheck shell=bash
# Shared by the CLI test scripts (sourced; needs $TMP): pass/fail counters and the two checks
# every script uses.
pass=0; fail=0
ok()   { pass=$((pass+1)); }
bad()  { fail=$((fail+1)); echo "FAIL: $*"; }

# expect_exit CODE CMD...: runs CMD, keeps stdout/stderr in $TMP/out $TMP/err.
expect_exit() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [ "$got" -eq "$want" ]; then ok; else bad "exit $got (want $want): $*"; sed 's/^/  | /' "$TMP/err" | head -5; fi
}
# expect_error PATTERN CMD...: exit 2 and exactly one line on stderr matching PATTERN.
expect_error() {
  local pattern=$1; shift
  expect_exit 2 "$@"
  local lines; lines=$(grep -c . "$TMP/err")
  if [ "$lines" -ne 1 ]; then bad "stderr has $lines lines (want 1): $*"; sed 's/^/  | /' "$TMP/err" | head -5
  elif ! grep -qE -- "$pattern" "$TMP/err"; then bad "stderr does not match /$pattern/: $(cat "$TMP/err")"
  else ok; fi
}
