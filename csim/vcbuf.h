/*
 * vcbuf — the input unit of one router port: a flit FIFO per VC, a route FIFO per VC (one entry
 * per packet, written when the route-compute result returns), and the state of the packet at the
 * front of each VC. Mirrors rtl/vcbuf.v.
 *
 * Memory: a route FIFO holds up to depth entries (one packet per flit), as the RTL's, but its
 * storage starts at route_cap entries (vcbuf_init; the router sizes it for its longest packet) and
 * doubles when a push finds it full, up to depth: the behaviour is the same at any route_cap.
 *
 * Contract
 *   Push: an arriving flit is appended at the end of its cycle (visible to the allocator from the
 *         next cycle). A flit arriving on a full VC is dropped and sets the sticky overflow flag.
 *   Route: one entry per packet in packet order; written 4 cycles after the head arrived.
 *   Invariants: flits of one packet are contiguous in a VC; the front route entry belongs to the
 *         packet whose flits are at the front.
 */
#ifndef DOAR_VCBUF_H
#define DOAR_VCBUF_H

#include <stdint.h>
#include "flit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VCBUF_NUM_VCS 4      /* the hardware's VCs (rtl/vcbuf.v, seed 001's VC rule) */
#define VCBUF_MAX_VCS 8      /* the C model's limit: route policies need up to 5 (csim/policy.h) */
#define VCBUF_MAX_DEPTH 1024 /* flits per VC (router_check_params) */
#ifdef __cplusplus           /* (the SystemC and Verilator harnesses include this header from C++) */
#define VCBUF_CACHE_ALIGNED alignas(64)
#else
#define VCBUF_CACHE_ALIGNED _Alignas(64)
#endif

typedef struct {
    uint8_t discard; /* no route: the packet is drained without output */
    uint8_t mcast;
    uint8_t ovc; /* output VC */
    uint8_t len;
    uint8_t rewrite; /* a route policy updated the header: hdr replaces the head's data */
    uint64_t ports;  /* output port set (one bit for unicast) */
    uint64_t hdr;
} route_entry;

typedef struct {                          /* fields in the order the allocator reads them: the first two cache lines
                                             hold everything a cycle reads (simulation speed only) */
    VCBUF_CACHE_ALIGNED uint8_t nonempty; /* bit v: count[v] > 0 (kept by push/pop/reset) */
    uint8_t front_head;                   /* bit v: VC v's front flit is a head (the same; 0 when empty) */
    uint8_t routed;                       /* bit v: rcount[v] > 0 (kept by push_route/pop_route/reset) */
    uint8_t active[VCBUF_MAX_VCS];        /* the front packet holds its output ports */
    uint16_t count[VCBUF_MAX_VCS], head[VCBUF_MAX_VCS];   /* flits; depth <= VCBUF_MAX_DEPTH */
    uint16_t rcount[VCBUF_MAX_VCS], rhead[VCBUF_MAX_VCS]; /* route entries */
    flit *fifo;                                           /* [nvcs * depth]: VC v's ring at fifo + v * depth */
    route_entry *route[VCBUF_MAX_VCS];                    /* [rcap[v]]: VC v's route ring (rcount <= depth, at most
                                                             one packet per flit; the storage grows on demand) */
    int depth;                                            /* flits per VC */
    int nvcs;                                             /* VCs in use, 1..VCBUF_MAX_VCS */
    int overflow;
    uint16_t rcap[VCBUF_MAX_VCS]; /* route entries allocated per VC, 1..depth */
    uint64_t held[VCBUF_MAX_VCS]; /* ports acquired so far (multicast without bulletin) */
} vcbuf;

/* A flit on a VC >= nvcs is dropped as an overflow. route_cap: route entries allocated per VC at
 * first (clamped to 1..depth); more are allocated when needed. */
int vcbuf_init(vcbuf *b, int depth, int nvcs, int route_cap);
void vcbuf_free(vcbuf *b);
void vcbuf_reset(vcbuf *b);
static inline const flit *vcbuf_front(const vcbuf *b, int vc) {
    return b->count[vc] ? &b->fifo[vc * b->depth + b->head[vc]] : (const flit *)0;
}
static inline const route_entry *vcbuf_route(const vcbuf *b, int vc) {
    return b->rcount[vc] ? &b->route[vc][b->rhead[vc]] : (const route_entry *)0;
}
/* Router v7's look-past one packet deeper: VC vc's second route entry (NULL when it has one or
 * none), and whether the flit n deep (0: the front) is there and is a head. */
static inline const route_entry *vcbuf_route2(const vcbuf *b, int vc) {
    if (b->rcount[vc] < 2) return (const route_entry *)0;
    const int at = b->rhead[vc] + 1;
    return &b->route[vc][at >= b->rcap[vc] ? at - b->rcap[vc] : at];
}
static inline int vcbuf_head_at(const vcbuf *b, int vc, int n) {
    if (b->count[vc] <= n) return 0;
    const int at = b->head[vc] + n;
    return b->fifo[vc * b->depth + (at >= b->depth ? at - b->depth : at)].head;
}
void vcbuf_push(vcbuf *b, const flit *f);
void vcbuf_pop(vcbuf *b, int vc);
/* A push onto depth entries is dropped and sets overflow; one that needs more storage than is
 * allocated and cannot get it ends the process (out of memory, a message on stderr). */
void vcbuf_push_route(vcbuf *b, int vc, const route_entry *e);
void vcbuf_pop_route(vcbuf *b, int vc);

#ifdef __cplusplus
}
#endif

#endif
