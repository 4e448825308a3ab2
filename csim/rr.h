/*
 * rr — the one round-robin (rotating priority) pick of the C model; every arbiter uses it. Its
 * RTL twin is rtl/rr_pick.v, which every arbiter of the RTL instantiates, so the two models
 * share one definition of "round robin" instead of a hand-written scan per arbiter.
 *
 * Contract
 *   rr_pick(m, start): m holds the requests, bit j for index j (0..63); start is the index the
 *   scan begins at, the arbiter's pointer, which holds the index after its last winner ("next to
 *   try"). Returns the lowest j >= start with bit j set, else (wrapping) the lowest set j, else
 *   -1 when m is 0. start >= 64 finds nothing at or after it and so acts as 0 (rr_pick.v: any
 *   start beyond the last index).
 *   Invariant: a result j >= 0 has bit j of m set; an arbiter that moves its pointer to j + 1
 *   (wrapping at its width) serves every requester within that many picks.
 *   Pure: no state, no side effects.
 */
#ifndef DOAR_RR_H
#define DOAR_RR_H

#include <stdint.h>

static inline int rr_pick(uint64_t m, int start) {
    if (!m) return -1;
    /* the requests at or after start; shifting by 64 or more is undefined in C, and none are */
    uint64_t hi = start >= 64 ? 0 : m & (~(uint64_t)0 << start);
    return __builtin_ctzll(hi ? hi : m);
}

#endif
