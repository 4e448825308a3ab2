/*
 * traffic — synthetic traffic patterns of seed 001 sec. 5 for the network simulator (uniform,
 * adversarial, permutation, the router- and node-level mixes, and six application-like patterns
 * after seed 001's LU, FFT3D, Halo3D, Stencil5D, DL and LULESH), and the small explicit PRNG
 * every random choice of the simulator draws from. docs/network.md, "Traffic patterns".
 *
 * Contract
 *   Inputs : a topology, a pattern, the run seed; per packet the source node, the node's own
 *            PRNG and the current cycle.
 *   Outputs: traffic_dest() gives the destination node of a new packet created at node src.
 *   Patterns (node ids as topo_node(); N nodes):
 *     ur     uniform over every node except src.
 *     adv+i  a uniformly random node of group (G+i) mod g, G = src's group (i mod g != 0).
 *     rp     a fixed random permutation of the nodes drawn once from the run seed with
 *            Sattolo's algorithm: one cycle through every node, so no node sends to itself.
 *     r_mixed_ua(x,y) / r_mixed_ur(x,y)   router level: round(y% of the routers), a set drawn
 *            from the run seed, send ADV+1 (ua) / RP (ur, the permutation of rp); every node of
 *            the other routers sends UR. x + y = 100.
 *     n_mixed_ua(x,y) / n_mixed_ur(x,y)   the same with round(y% of the nodes).
 *     lu, fft3d, halo3d, stencil5d, dl, lulesh   application-like: ranks 0..N-1 on a grid as
 *            cubic as possible, placed on a random permutation of the nodes drawn from the run
 *            seed (default, NAME(random)) or rank r on node r (NAME(linear)); lu and fft3d change phase
 *            every P cycles (NAME(P), default 2000). The pattern decides only WHERE a packet
 *            goes; the Bernoulli source still decides when.
 *   Timing : stateless per call apart from the caller's PRNG; the tables (permutation, mix
 *            choice, placement) are fixed at init.
 *   Invariants: the destination is never src; everything is a pure function of the run seed,
 *            the cycle and the draws of the caller's PRNG (one PRNG per node: results do not
 *            depend on the order nodes are visited in, so a network split across processes
 *            gives the same run).
 */
#ifndef DOAR_TRAFFIC_H
#define DOAR_TRAFFIC_H

#include <stdint.h>

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64 (Steele, Lea, Flood 2014): 64-bit state, one add and a mixing function per draw. */
typedef struct {
    uint64_t s;
} prng;

#define PRNG_GOLDEN 0x9E3779B97F4A7C15ull
#define PRNG_UNIT_BITS 53 /* a double's mantissa: uniform draws in [0,1) */

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

typedef enum {
    TRAFFIC_UR = 0,
    TRAFFIC_ADV = 1,
    TRAFFIC_RP = 2,
    TRAFFIC_MIXED, /* r_/n_mixed_ua/ur */
    TRAFFIC_LU,
    TRAFFIC_FFT3D,
    TRAFFIC_HALO3D,
    TRAFFIC_STENCIL5D,
    TRAFFIC_DL,
    TRAFFIC_LULESH
} traffic_kind;

#define TRAFFIC_MAX_DIMS 5
#define TRAFFIC_DEFAULT_PERIOD 2000 /* lu, fft3d: cycles per phase */
#define TRAFFIC_LULESH_REDUCE 0.05  /* lulesh: share of packets that are all-reduce steps */
#define TRAFFIC_NAME_LEN 32         /* every canonical name fits */

typedef struct {
    traffic_kind kind;
    int shift;           /* adv+i: i */
    int mix_nodes;       /* mixed: 0 = router level (r_), 1 = node level (n_) */
    int mix_rp;          /* mixed: 0 = UR with ADV+1 (ua), 1 = UR with RP (ur) */
    int ur_pct, mix_pct; /* mixed: x and y, x + y = 100 */
    int linear_place;    /* applications: 0 = seeded random placement (default), 1 = rank r on node r */
    long period;         /* lu, fft3d: cycles per phase (0 in the spec means the default) */
} traffic_spec;

typedef struct {
    topo t;
    traffic_spec spec;
    int *perm;                  /* rp, *_mixed_ur: [n_nodes] destination of every node; NULL otherwise */
    unsigned char *mix_other;   /* mixed: [n_nodes] 1 = the node sends ADV+1 / RP, 0 = UR */
    int *rank_of;               /* applications: [n_nodes] rank placed on each node */
    int *node_of;               /* applications: [n_nodes] node of each rank */
    int ndims;                  /* applications: grid of ranks, dims[0] >= dims[1] >= ..., */
    int dims[TRAFFIC_MAX_DIMS]; /* rank = c0 + dims[0]*(c1 + dims[1]*(c2 + ...)) */
} traffic;

/* Parses a pattern name (see the contract; docs/network.md). Returns 0, or -1 with a reason. */
int traffic_parse(const char *name, const topo *t, traffic_spec *out, char err[DOAR_ERRLEN]);
/* Canonical name ("ur", "adv+3", "r_mixed_ua(25,75)", "fft3d(linear,500)") into buf; it parses
 * back to the same spec. TRAFFIC_NAME_LEN bytes always suffice. */
void traffic_name(const traffic_spec *s, char *buf, size_t len);
/* Draws the fixed tables from run_seed. Returns 0, or -1 (memory, or a network of 1 node). */
int traffic_init(traffic *tr, const topo *t, const traffic_spec *s, uint64_t run_seed, char err[DOAR_ERRLEN]);
void traffic_free(traffic *tr);
/* Destination node of a packet created at src in cycle `cycle`; draws from the node's own PRNG
 * (rp draws nothing and accepts NULL). */
int traffic_dest(const traffic *tr, int src, prng *node_rng, long cycle);
/* Splits n into d factors as equal as possible (the smallest sum; ties: the smallest largest
 * factor), non-increasing, into dims[0..d-1]. */
void traffic_grid(int n, int d, int dims[TRAFFIC_MAX_DIMS]);

#ifdef __cplusplus
}
#endif

#endif
