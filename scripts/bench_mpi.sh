#!/usr/bin/env bash
# make bench-mpi: the network simulator split over MPI ranks (docs/network.md "Beyond one machine").
# For mid, paper and a tianhe slice (tianhe's 63-port routers p,a,h = 16,32,16 in 17 of its 513
# groups, at UR 0.02: a slice has 16 of a group's 512 global links wired, so it saturates early),
# UR, DOAR, seed 1: the single process build/doar, then doar-mpi at R = 1, 2, 4 ranks (best of
# REPEAT, default 1), each with its speed (router-cycles per second of the whole run), the ratio to
# the single process, what crossed ranks per exchange (words and bytes, summed over ranks; an
# exchange happens about once per global latency), the syncs, and the largest rank's memory.
# Every split run's summary is required identical to the single process's.
# Lines: bench-mpi: config=C ranks=R|serial speed=N router-cycles/s ratio=X [bytes_per_exchange=..]
# Last line: bench-mpi: cores=N configs=N runs=M identical=M
# Usage: scripts/bench_mpi.sh DOAR DOAR_MPI [REPEAT]
set -u
DOAR=${1:?usage: scripts/bench_mpi.sh DOAR DOAR_MPI [REPEAT]}
MPI=${2:?usage: scripts/bench_mpi.sh DOAR DOAR_MPI [REPEAT]}
REPEAT=${3:-1}
[ -x "$DOAR" ] && [ -x "$MPI" ] || { echo "bench-mpi: $DOAR or $MPI is not executable" >&2; exit 2; }
case $REPEAT in ''|*[!0-9]*|0) echo "bench-mpi: REPEAT '$REPEAT': expected a count >= 1" >&2; exit 2;; esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# a rank waiting in a reduction yields its core instead of spinning: on a machine whose cores are
# shared (other jobs, or more ranks than cores) spinning takes the time the other ranks need
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
cores=$(nproc)
echo "bench-mpi: this machine has $cores cores; ranks beyond them share cores (oversubscribed)"
runs=0 same=0 configs=0
field() { sed -nE "s/.*[ ]$1=([^ ]+).*/\1/p" | head -n 1; }
while read -r name rest; do
  read -ra args <<<"$rest"
  configs=$((configs + 1))
  ref=$("$DOAR" sim "${args[@]}" --seed 1 --quiet < /dev/null) || { echo "bench-mpi: $name: build/doar failed" >&2; exit 1; }
  refsum=$(echo "$ref" | tail -n 1)
  base=$(echo "$ref" | grep '^sim: cycles=' | field speed)
  echo "bench-mpi: config=$name ranks=serial speed=$base router-cycles/s ratio=1.00"
  for R in 1 2 4; do
    best=0 out=""
    for _ in $(seq "$REPEAT"); do
      o=$(mpirun -np "$R" "$MPI" sim "${args[@]}" --seed 1 --quiet < /dev/null) || { echo "bench-mpi: $name R=$R failed" >&2; exit 1; }
      runs=$((runs + 1))
      [ "$(echo "$o" | tail -n 1)" = "$refsum" ] && same=$((same + 1)) || echo "bench-mpi: $name R=$R: summary differs" >&2
      s=$(echo "$o" | grep '^sim: cycles=' | field speed)
      [ "${s:-0}" -gt "$best" ] && { best=$s; out=$o; }
    done
    m=$(echo "$out" | grep '^sim: mpi ')
    echo "bench-mpi: config=$name ranks=$R speed=$best router-cycles/s ratio=$(awk -v a="$best" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
         "exchanges=$(echo "$m" | field exchanges) words_per_exchange=$(echo "$m" | field words_per_exchange)" \
         "bytes_per_exchange=$(echo "$m" | field bytes_per_exchange) syncs=$(echo "$m" | field syncs) comm_share=$(echo "$m" | field comm_share)" \
         "max_rss_per_rank=$(echo "$m" | field max_rss_per_rank)"
  done
  echo "bench-mpi: config=$name summary: $refsum"
done <<'L'
mid mid --rate 0.3 --warmup 2000 --sample 2000
paper paper --rate 0.3 --warmup 500 --sample 500
tianhe_slice --dfly 16,32,16,17 --rate 0.02 --warmup 500 --sample 500
L
echo "bench-mpi: cores=$cores configs=$configs runs=$runs identical=$same"
[ "$same" -eq "$runs" ]
