/*
 * alloc — the arbiters of the switch allocator: S crossbar planes (seed 003 sec. 4, parallel
 * switching), each with its own 1:N arbiters, stage 1 (input arbiters) and stage 2 (the Global
 * Resource Bulletin, seed 003 sec. 5.1, and the output arbiters). Mirrors rtl/alloc_in.v (stage 1)
 * and rtl/alloc_out.v (stage 2). Both are combinational on registers; router_alloc.c registers
 * stage 1's picks and stage 2's wins and commits the wins a cycle later. docs/architecture.md
 * "Router v2" and "Pipelined allocation: router v3".
 *
 * Planes. Input VC v of input port i has a home plane (i + v) mod S and an alternate plane
 * home XOR 1 (S >= 2). Each cycle a VC proposes on one plane (router_input.c): the plane its
 * packet streams or moves on, if any; else its home plane if it can go there; else, for a unicast
 * head that can go on the alternate plane, that one (multicasts, ACQ and DISCARD stay home). A
 * packet crosses wholly on the plane it was granted on. Plane q of output o (the "slot" (o,q))
 * writes output queue (o,q).
 *
 * Proposals (router_input.c propose): per input VC, on the state at the start of the cycle,
 *   HEAD (unicast: its slot (o,q) free, len credits of the output VC, len flits of room in
 *   output queue (o,q), in the bulletin), MCAST (bulletin on: every slot of its set so), ACQ
 *   (bulletin off: some still-missing slots so), DISCARD (no route, a bad length, or a stray body
 *   flit).
 * Stage 1 (cycle c): per input and plane, one VC proposing on the plane, round robin from
 *   rr_in (the VC of the reserved multicast first when it proposes MCAST). The pick and its
 *   proposal are registers (router v3: router_alloc.c).
 * Stage 2 (cycle c+1): on the registered proposals (router_alloc.c masks those the commit in c+2
 *   could not grant). DISCARD requests go. Bulletin: among the MCAST requests, one wins all its
 *   slots, inputs in round robin from rr_mc, the lowest plane first. Every other output slot (o,q)
 *   grants one HEAD or ACQ request of plane q that wants o, round robin from rr_out, unless an
 *   MCAST request of plane q wants o (the bulletin's slots are kept out of the output stage from
 *   the requests, not from the bulletin's result: one arbitration level per stage). The wins are
 *   registers; the commit (router_alloc.c) checks each again in c+2.
 */
#ifndef DOAR_ALLOC_H
#define DOAR_ALLOC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ALLOC_MAX_PLANES 4 /* speed-up S: 1, 2 or 4 */

typedef enum { REQ_NONE = 0, REQ_BODY, REQ_HEAD, REQ_MCAST, REQ_ACQ, REQ_DISCARD } alloc_req_kind;

typedef struct {
    uint8_t kind;   /* alloc_req_kind (REQ_BODY is not proposed in v2: streams need no grant) */
    uint64_t ports; /* HEAD: the port; MCAST: the set; ACQ: ports it can take now */
} alloc_req;

/* Stage 1: the input arbiters of every plane. */
typedef struct {
    int k, vcs, planes;
    const alloc_req *req;       /* [k * vcs]: input i, VC v at i*vcs+v; read only where req_pl_vcs says */
    const uint32_t *req_pl_vcs; /* [k]: bit 8q+v set iff input i, VC v proposes on plane q */
    uint64_t req_inputs;        /* inputs with a proposing VC */
    const uint8_t *rr_in;       /* [k * planes]: input i, plane q at i*planes+q: a VC index */
    int prio_in, prio_vc;       /* the reserved multicast (-1: none) */
} alloc_in_view;

/* pick[i*planes+q]: the VC input i offers on plane q, -1 none (written for the inputs in
 * req_inputs only: every other input picks nothing). */
void alloc_stage1(const alloc_in_view *v, int8_t *pick);

/* Stage 2: the bulletin and the output arbiters of every plane. */
typedef struct {
    int k, planes, bulletin;
    const alloc_req *req;                /* [k * planes]: the request of input plane (i,q) (its pick's
                                            registered proposal); read only where req_mask says */
    uint64_t req_mask[ALLOC_MAX_PLANES]; /* per plane: inputs whose entry is not REQ_NONE */
    const uint8_t *rr_out;               /* [k * planes]: output o, plane q at o*planes+q: an input index */
    int rr_mc;
} alloc_out_view;

typedef struct {
    uint64_t go[ALLOC_MAX_PLANES];                 /* per plane: inputs whose pick moves (DISCARD, or
                                                      granted HEAD / MCAST / ACQ ports) */
    uint64_t granted_ports[64 * ALLOC_MAX_PLANES]; /* (i,q): ports granted; defined where go says */
    int mc_in, mc_plane;                           /* the bulletin's winner (-1: none) */
    uint64_t out_granted[ALLOC_MAX_PLANES];        /* per plane: output slots granted to a HEAD / ACQ */
    uint8_t out_winner[64 * ALLOC_MAX_PLANES];     /* (o,q): the input; defined where out_granted says */
} alloc_grants;

void alloc_stage2(const alloc_out_view *v, alloc_grants *g);

/* The home plane of input i's VC v with S planes ((i + v) mod S; S is a power of two); its
 * alternate plane is home ^ 1. */
static inline int alloc_plane(int i, int v, int planes) { return (i + v) & (planes - 1); }

#ifdef __cplusplus
}
#endif

#endif
