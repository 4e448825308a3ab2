/*
 * topo — the dragonfly dfly(p,a,h,g) of seed 001 sec. 2.1 / 3.1.
 *
 * Contract
 *   Inputs : p terminals per router, a routers per group, h global ports per router,
 *            g groups (brief, "Topology").
 *   Outputs: port classes and numbering, the peer of every port, the group-level
 *            global wiring, node addresses <gid,bid,nid>.
 *   Timing : purely combinational facts; no state changes after topo_init().
 *   Invariants (checked by tests/test_topo.c):
 *     k = p + (a-1) + h <= DOAR_MAX_RADIX, g <= a*h + 1;
 *     peer(peer(x)) == x for every wired network port;
 *     group-level global port j of group G leads to group j, except the port whose
 *     index equals G, which leads to group a*h (when that group exists);
 *     with g < a*h+1 the ports that would lead to a group >= g are left unwired
 *     (docs/architecture.md, "Global wiring").
 *
 * Port numbering inside a router (bid b):
 *   [0, p)            terminal ports; port t serves node nid = t
 *   [p, p+a-1)        intra-group ports; local index j reaches bid j (j < b) or j+1 (j >= b)
 *   [p+a-1, k)        global ports; router global index i is group-level port b*h + i
 */
#ifndef DOAR_TOPO_H
#define DOAR_TOPO_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DOAR_MAX_RADIX 64         /* LP bitmaps are one 64-bit word (seed 001 sec. 3.2) */
#define DOAR_MAX_GROUP_PORTS 1024 /* a*h with a + h <= 64 */
#define DOAR_GBM_WORDS (DOAR_MAX_GROUP_PORTS / 64)
#define DOAR_ERRLEN 256

typedef enum { PORT_TERMINAL = 0, PORT_LOCAL = 1, PORT_GLOBAL = 2 } port_class;

/* An a*h-bit group-level global port bitmap (the paper's 512-bit request vectors). */
typedef struct {
    uint64_t w[DOAR_GBM_WORDS];
} gport_bitmap;

typedef struct {
    int p, a, h, g;   /* dfly(p,a,h,g) */
    int k;            /* router radix p + (a-1) + h */
    int ah;           /* group-level global ports per group */
    int n_routers;    /* a * g */
    int n_nodes;      /* a * p * g */
    int first_local;  /* = p */
    int first_global; /* = p + a - 1 */
    char name[32];    /* named configuration, or "custom" */
} topo;

/* Global router id of <gid,bid>. */
static inline int topo_router(const topo *t, int gid, int bid) { return gid * t->a + bid; }
static inline int topo_gid(const topo *t, int router) { return router / t->a; }
static inline int topo_bid(const topo *t, int router) { return router % t->a; }

static inline port_class topo_port_class(const topo *t, int port) {
    if (port < t->first_local) return PORT_TERMINAL;
    if (port < t->first_global) return PORT_LOCAL;
    return PORT_GLOBAL;
}

/* Intra-group port of router bid `from` that reaches router bid `to` (to != from). */
static inline int topo_local_port(const topo *t, int from, int to) {
    return t->first_local + (to < from ? to : to - 1);
}
/* Router bid reached through intra-group port `port` of router bid `from`. */
static inline int topo_local_peer(const topo *t, int from, int port) {
    int j = port - t->first_local;
    return j < from ? j : j + 1;
}
/* Group-level global port index of router-level global port `port` of router bid `bid`. */
static inline int topo_group_port(const topo *t, int bid, int port) { return bid * t->h + (port - t->first_global); }
/* Router-level port number of group-level global port j (on router j / h). */
static inline int topo_global_port(const topo *t, int j) { return t->first_global + j % t->h; }

/* Bit mask over router ports of every intra-group port / every global port. */
uint64_t topo_local_mask(const topo *t);
uint64_t topo_global_mask(const topo *t);

/*
 * Validates dfly(p,a,h,g) and fills *t. Returns 0, or -1 with a one-line reason in err
 * (radix > 64, g > a*h+1, non-positive parameters, ...).
 */
int topo_init(topo *t, int p, int a, int h, int g, const char *name, char err[DOAR_ERRLEN]);

/* Named configurations of the brief: tiny small fig8 mid paper tianhe (defined once, in
 * csim/topo.c; `doar configs` prints them, `doar configs --make` for the Makefile). */
int topo_named(topo *t, const char *name, char err[DOAR_ERRLEN]);
/* How many named configurations there are, and the i-th (0-based, in topo_named_list's order). */
int topo_named_count(void);
int topo_named_at(topo *t, int i, char err[DOAR_ERRLEN]);
/* Parses "p,a,h,g". */
int topo_parse_dfly(topo *t, const char *spec, char err[DOAR_ERRLEN]);
/* Space-separated list of the named configurations, for help texts. */
const char *topo_named_list(void);

/* Group reached by group-level port j of group gid, or -1 when that port is unwired. */
int topo_gport_target(const topo *t, int gid, int j);
/* Group-level port of group gid that leads to group dst (dst != gid), or -1. */
int topo_gport_to_group(const topo *t, int gid, int dst);

/* Wired group-level ports of group gid. */
void topo_wired(const topo *t, int gid, gport_bitmap *out);

/*
 * Peer of (router, port). For a terminal port: *peer_router = -1, *peer_port = node id.
 * For a network port: the router and port at the far end. Returns 0, or -1 when the
 * port is an unwired global port.
 */
int topo_peer(const topo *t, int router, int port, int *peer_router, int *peer_port);

/* Node id of <gid,bid,nid> and back. */
static inline int topo_node(const topo *t, int gid, int bid, int nid) { return (gid * t->a + bid) * t->p + nid; }

/* Number of intra-group and wired global (bidirectional) links. */
long topo_local_links(const topo *t);
long topo_global_links(const topo *t);

/* gport_bitmap helpers */
static inline void gbm_clear(gport_bitmap *b) {
    for (int i = 0; i < DOAR_GBM_WORDS; i++) b->w[i] = 0;
}
static inline void gbm_set(gport_bitmap *b, int j) { b->w[j >> 6] |= (uint64_t)1 << (j & 63); }
static inline int gbm_test(const gport_bitmap *b, int j) { return (int)((b->w[j >> 6] >> (j & 63)) & 1); }
static inline int gbm_empty(const gport_bitmap *b) {
    uint64_t x = 0;
    for (int i = 0; i < DOAR_GBM_WORDS; i++) x |= b->w[i];
    return x == 0;
}
int gbm_count(const gport_bitmap *b);
/* Bits [j0, j0 + n) of b |= bits [0, n) of v (1 <= n <= 64, j0 + n <= DOAR_MAX_GROUP_PORTS). */
static inline void gbm_or_field(gport_bitmap *b, int j0, int n, uint64_t v) {
    int w = j0 >> 6, s = j0 & 63;
    if (n < 64) v &= ((uint64_t)1 << n) - 1;
    b->w[w] |= v << s;
    if (s && s + n > 64) b->w[w + 1] |= v >> (64 - s);
}
/* Words of a gport_bitmap that hold the a*h group-level global ports (bits beyond are never set). */
static inline int gbm_words(const topo *t) { return (t->ah + 63) / 64; }

#ifdef __cplusplus
}
#endif

#endif
