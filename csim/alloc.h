/*
 * alloc — the switch allocator with the Global Resource Bulletin (seed 003 sec. 5.1).
 * Mirrors rtl/alloc.v. Combinational: from the state at the start of a cycle it decides which
 * flits cross the crossbar in this cycle; router.c applies the grants at the clock edge.
 *
 * Contract (docs/architecture.md, "Switch allocation")
 *   Output ports are held per packet: a head that is granted locks its output port(s) until its
 *   tail leaves (virtual cut-through: the head also takes `len` credits of the output VC).
 *   1. Each VC of each input proposes its front flit: BODY (its packet holds its ports), HEAD
 *      (unicast: port unlocked and len credits), MCAST (all ports unlocked, free in the bulletin,
 *      len credits each), ACQ (bulletin off: some still-missing ports unlocked with credits),
 *      DISCARD (no route).
 *   2. Input stage: each input picks one proposing VC, round robin from rr_in (the VC of the
 *      reserved multicast first, when it proposes MCAST).
 *   3. Bulletin stage (on): among inputs whose pick is MCAST, one wins all its ports at once,
 *      round robin from rr_mc; the ports leave the bulletin until the tail.
 *   4. Output stage: every other unlocked output grants one HEAD or ACQ pick that wants it,
 *      round robin from rr_out.
 *   BODY and DISCARD picks always proceed (one flit per input per cycle).
 */
#ifndef DOAR_ALLOC_H
#define DOAR_ALLOC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { REQ_NONE = 0, REQ_BODY, REQ_HEAD, REQ_MCAST, REQ_ACQ, REQ_DISCARD } alloc_req_kind;

typedef struct {
    uint8_t kind;       /* alloc_req_kind */
    uint64_t ports;     /* HEAD: the port; MCAST: the set; ACQ: ports it can take now */
} alloc_req;

typedef struct {
    int k;              /* router ports */
    int vcs;            /* VCs per input (4 in the hardware; route policies use 2..5) */
    int bulletin;       /* 1: Global Resource Bulletin on */
    const alloc_req *req;   /* [k * vcs]: input i, VC v at i*vcs+v; read only where req_vcs says */
    const uint8_t *req_vcs; /* [k]: bit v set iff input i, VC v proposes (kind != REQ_NONE) */
    uint64_t req_inputs;    /* inputs with a proposing VC (req_vcs[i] != 0) */
    const int *rr_in;       /* [k] */
    const int *rr_out;      /* [k] */
    int rr_mc;
    int prio_in, prio_vc;   /* the reserved multicast: its input picks it when it is ready (-1: none) */
} alloc_view;

/* pick_vc and acq_ports are defined for the inputs in req_inputs, out_winner for the outputs in
 * out_granted (the other entries are not written: an input outside req_inputs picks nothing). */
typedef struct {
    int pick_vc[64];        /* per input: the VC that moves or acquires (-1: none) */
    uint64_t acq_ports[64]; /* per input: ports granted this cycle (HEAD, MCAST or ACQ) */
    int mc_winner;          /* input that won the bulletin (-1: none) */
    uint64_t out_granted;   /* outputs granted to a head or an acquisition this cycle */
    int out_winner[64];     /* per output: the input it granted (-1: none) */
} alloc_grants;

void alloc_compute(const alloc_view *v, alloc_grants *g);

#ifdef __cplusplus
}
#endif

#endif
