/*
 * traffic — synthetic traffic patterns of seed 001 sec. 5 for the network simulator, and the
 * small explicit PRNG every random choice of the simulator draws from.
 *
 * Contract
 *   Inputs : a topology, a pattern (ur, adv+i, rp), the run seed.
 *   Outputs: traffic_dest() gives the destination node of a new packet created at node src.
 *   Patterns (node ids as topo_node()):
 *     ur     uniform over every node except src.
 *     adv+i  a uniformly random node of group (G+i) mod g, G = src's group (i mod g != 0).
 *     rp     a fixed random permutation of the nodes drawn once from the run seed with
 *            Sattolo's algorithm: one cycle through every node, so no node sends to itself.
 *   Timing : stateless per call apart from the caller's PRNG; the permutation is fixed at init.
 *   Invariants: the destination is never src; everything is a pure function of the run seed and
 *            the draws of the caller's PRNG (one PRNG per node: results do not depend on the
 *            order nodes are visited in, so a network split across processes gives the same run).
 */
#ifndef DOAR_TRAFFIC_H
#define DOAR_TRAFFIC_H

#include <stdint.h>

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64 (Steele, Lea, Flood 2014): 64-bit state, one add and a mixing function per draw. */
typedef struct { uint64_t s; } prng;

#define PRNG_GOLDEN 0x9E3779B97F4A7C15ull
#define PRNG_UNIT_BITS 53   /* a double's mantissa: uniform draws in [0,1) */

static inline uint64_t prng_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint64_t prng_next(prng *r) { return prng_mix(r->s += PRNG_GOLDEN); }
/* The stream of item `index` (a node, a router) of a run: independent of every other index. */
static inline void prng_seed(prng *r, uint64_t run_seed, uint64_t stream, uint64_t index) {
    r->s = prng_mix(run_seed ^ prng_mix((stream << 32) ^ (index + 1)));
}
/* Uniform in [0, n), n >= 1 (multiply-shift: no modulo bias worth naming for n < 2^32). */
static inline uint32_t prng_below(prng *r, uint32_t n) {
    return (uint32_t)(((prng_next(r) >> 32) * (uint64_t)n) >> 32);
}
/* A probability as a threshold on 53-bit draws: prng_chance() is true with probability p. */
static inline uint64_t prng_threshold(double p) {
    if (p <= 0.0) return 0;
    if (p >= 1.0) return (uint64_t)1 << PRNG_UNIT_BITS;
    return (uint64_t)(p * (double)((uint64_t)1 << PRNG_UNIT_BITS));
}
static inline int prng_chance(prng *r, uint64_t threshold) {
    return (prng_next(r) >> (64 - PRNG_UNIT_BITS)) < threshold;
}

typedef enum { TRAFFIC_UR = 0, TRAFFIC_ADV = 1, TRAFFIC_RP = 2 } traffic_kind;

typedef struct {
    traffic_kind kind;
    int shift;          /* adv+i: i */
} traffic_spec;

typedef struct {
    topo t;
    traffic_spec spec;
    int *perm;          /* rp: [n_nodes] destination of every node; NULL otherwise */
} traffic;

/* Parses "ur", "adv+i" (i >= 1, i mod g != 0) or "rp". Returns 0, or -1 with a reason. */
int traffic_parse(const char *name, const topo *t, traffic_spec *out, char err[DOAR_ERRLEN]);
/* Canonical name ("ur", "adv+3", "rp") into buf. */
void traffic_name(const traffic_spec *s, char *buf, size_t len);
/* rp draws its permutation from run_seed. Returns 0, or -1 (memory, or a network of 1 node). */
int traffic_init(traffic *tr, const topo *t, const traffic_spec *s, uint64_t run_seed, char err[DOAR_ERRLEN]);
void traffic_free(traffic *tr);
/* Destination node of a packet created at src; draws from the node's own PRNG. */
int traffic_dest(const traffic *tr, int src, prng *node_rng);

#ifdef __cplusplus
}
#endif

#endif
