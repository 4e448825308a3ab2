#!/usr/bin/env bash
# Saves the run outputs of a reproduction (scripts/reproduce.sh OUTDIR) into DEST, ended runs and
# the loads an unfinished sweep has done so far, so that it can go on elsewhere or later:
#   RESUME_FROM=DEST scripts/reproduce.sh ...   (make reproduce REPRO_RESUME=DEST)
# The evaluation on `paper` takes longer than one session of this machine; docs/reproduce/paper/runs
# holds what earlier sessions ran. Runs still going are saved as far as they got (a line cut off
# in the middle is ignored by doar sweep --resume); an unfinished simulation is not saved.
# A line per save goes to DEST/SAVES.log (date, host, what is saved, its machine time).
# Last line: reproduce_save: saved=N ended=E partial=P own_time=S dest=DEST
set -u
[ $# -eq 2 ] || { echo "usage: scripts/reproduce_save.sh OUTDIR DEST" >&2; exit 2; }
OUT=$1 DEST=$2
[ -d "$OUT/runs" ] || { echo "reproduce_save: $OUT/runs: no such directory" >&2; exit 2; }
mkdir -p "$DEST" || exit 2
ended=0; partial=0
for f in "$OUT"/runs/*.txt; do
  [ -s "$f" ] || continue
  b=$(basename "$f" .txt)
  if grep -qE '^(sweep|sim): config=.* (saturation|lost)=' "$f"; then
    ended=$((ended + 1))
  elif [ "$b" != "${b#sweep_}" ] || [ "$b" != "${b#fault_}" ]; then
    grep -q '^sweep: rate=' "$f" || continue    # nothing done yet
    partial=$((partial + 1))
  else
    continue
  fi
  cp "$f" "$DEST/"
  [ -f "$OUT/runs/$b.csv" ] && cp "$OUT/runs/$b.csv" "$DEST/"
  [ "$b" = "${b#hops_}" ] || { [ -f "$OUT/runs/chan_${b#hops_}.csv" ] && cp "$OUT/runs/chan_${b#hops_}.csv" "$DEST/"; }
done
# the machine time of what is saved: every sweep load's own time, every simulation's
own=$(cat "$DEST"/*.txt 2>/dev/null | sed -nE 's/^(sweep: rate=.*|sim: cycles=.*) time=([0-9.]+)s.*/\2/p' | awk '{ t += $1 } END { printf "%.0f", t }')
echo "$(date -u '+%Y-%m-%d %H:%M') UTC on $(hostname): ended=$ended partial=$partial runs_own_time=${own}s" >> "$DEST/SAVES.log"
echo "reproduce_save: saved=$((ended + partial)) ended=$ended partial=$partial own_time=${own}s dest=$DEST"
