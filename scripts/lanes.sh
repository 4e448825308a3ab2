#!/usr/bin/env bash
# Runs make targets side by side, one lane each, so that `make test` and `make check` use both
# cores of a small machine: most tests are one process, so two lanes take about the time of the
# longer one. Each lane's lines appear as they come, prefixed [NAME]; its whole output is kept in
# LOGDIR/NAME.log. The lanes must not build the same file: the caller builds what they share first.
# Usage: scripts/lanes.sh LOGDIR NAME TARGET [NAME TARGET ...]
# Exit: 0 when every lane passed, 1 when one failed, 2 on bad usage. Last line:
#   lanes: NAME=ok|fail NAME_seconds=S ... seconds=S   (a failed lane's log is named above it)
set -u
if [ $# -lt 3 ] || [ $(($# % 2)) -ne 1 ]; then
  echo "usage: scripts/lanes.sh LOGDIR NAME TARGET [NAME TARGET ...]" >&2
  exit 2
fi
logdir=$1; shift
mkdir -p "$logdir" || { echo "lanes: cannot create $logdir" >&2; exit 2; }
start=$(date +%s)
names=()
while [ $# -gt 0 ]; do
  name=$1 target=$2; shift 2
  case "$name" in *[!a-z0-9_-]*|'') echo "lanes: bad lane name '$name'" >&2; exit 2;; esac
  names+=("$name")
  rm -f "$logdir/$name.rc" "$logdir/$name.seconds"
  (
    t0=$(date +%s)
    # the exit status is taken inside the group, before the pipe, so the prefixing cannot hide it
    # -j1: the lanes are the parallelism (the Makefile passes MAKEFLAGS without the jobserver)
    { make -j1 --no-print-directory "$target" 2>&1; echo $? >"$logdir/$name.rc"; } \
      | tee "$logdir/$name.log" | sed -u "s/^/[$name] /"
    echo $(($(date +%s) - t0)) >"$logdir/$name.seconds"
  ) &
done
wait

summary="lanes:"; failed=0
for name in "${names[@]}"; do
  rc=$(cat "$logdir/$name.rc" 2>/dev/null || echo 255)
  secs=$(cat "$logdir/$name.seconds" 2>/dev/null || echo 0)
  if [ "$rc" = 0 ]; then summary="$summary $name=ok $name""_seconds=$secs"
  else summary="$summary $name=fail $name""_seconds=$secs"; failed=1
       echo "lanes: lane $name failed (exit $rc); its output: $logdir/$name.log"; fi
done
echo "$summary seconds=$(($(date +%s) - start))"
exit $failed
