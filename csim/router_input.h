/*
 * router_input — the input side of every port: per port a vcbuf (VC FIFOs and route FIFOs) and a
 * route-compute unit with the side stages that carry a head's VC / multicast facts beside it; the
 * proposals of every VC; the packet each input plane streams; the credits owed upstream.
 * Mirrors rtl/router_input.v.
 *
 * Contract (one cycle, calls in router_cycle_ref's order)
 *   router_input_propose (start of the cycle, after router_alloc_take; credits and room less the
 *     ghost): every VC's proposal (alloc.h) on the state at the
 *     start: HEAD / MCAST / ACQ with the ports whose slot is free three cycles on (the look-ahead:
 *     held, unless its packet's last flit crosses within three cycles; not taken by a win checked
 *     now or a decision granted now), whose output VC has len credits and whose output queue len
 *     flits of room; DISCARD for a packet without a route, a bad length or a stray body flit. A VC
 *     streaming a packet, or moving last cycle's grant, proposes its next one, on that plane; a VC
 *     whose win is checked now or whose decision is granted now proposes nothing. The plane of
 *     any other VC: its home plane, else (a unicast head) the alternate one; a unicast head whose
 *     output VC has fewer than S * max_len credits its credit plane only
 *     (router_input_credit_plane). Also, for the check, plane_void (the input planes still
 *     sending two cycles on) and prop_unl / prop_uc (the slots free then: held only until a last
 *     flit crossing now or in the next cycle, not granted now); for stage 2 busy_next (the input
 *     planes still sending three cycles on).
 *   router_input_requests (router v7): stage 1's requests, the proposal register (last cycle's
 *     proposals) less the VCs with a win checked or a decision granted now and the heads whose
 *     ports on their plane such a win or decision holds (registers only).
 *   router_input_move: streams and last cycle's grants (the grant stage) move flits (through
 *     router_xbar): a streaming input plane sends its packet's next flit if it has arrived; a
 *     granted head crosses and its packet streams from the next cycle; a DISCARD drains. A tail
 *     frees its slots and returns multicast slots to the bulletin.
 *   router_input_grant: the decisions granted now (the check's of last cycle) take their slots
 *     (locked until the tail has crossed), multicast slots leave the bulletin, an ACQ adds to its
 *     held slots, a complete grant's route entry leaves its FIFO; the grant is registered (g_go /
 *     g_vc / g_kind) and moves in the next cycle.
 *   router_input_credits: per input one credit a cycle upstream, round robin over the VCs owed.
 *   router_input_route (end of the cycle): the route-compute units step; a completed route (the
 *     head arrived 4 cycles ago) enters its VC's route FIFO; this cycle's flits enter the VC
 *     buffers (a head on a full VC gets no route entry).
 *   Timing: a head in at t has its route entry at the end of t+4, proposes in t+5, wins in t+6, is
 *     checked in t+7 and granted in t+8 at the earliest, and crosses in t+9.
 * Invariants: a VC's route FIFO holds one entry per head in its flit FIFO that has been routed;
 *   an input plane streams at most one packet.
 */
#ifndef DOAR_ROUTER_INPUT_H
#define DOAR_ROUTER_INPUT_H

#include "router.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Input i's VC v streams a packet or moves last cycle's grant: it proposes the packet behind it
 * (its route entry is at the front of the route FIFO; docs/architecture.md "The grant stage"). */
static inline int router_input_looks_past(const router *r, int i, int v) {
    return r->in[i].active[v] || ((r->pend_vcs[i] >> v) & 1);
}

/* The credit plane of input i's VC v, a VC not streaming or moving a packet: (o + ovc) mod S when
 * its front flit is a unicast head whose output VC has fewer than S * max_len credits, else -1
 * (docs/architecture.md "The credit plane"). */
int router_input_credit_plane(const router *r, int i, int v);
/* Input i, VC v's proposal on plane q now, for the check of a win. */
alloc_req router_input_propose_on(const router *r, const router_wires *w, int i, int v, int q);
void router_input_propose(const router *r, router_wires *w);
void router_input_requests(const router *r, router_wires *w);
void router_input_edge(router *r, const router_wires *w);
void router_input_move(router *r, router_wires *w);
void router_input_grant(router *r, router_wires *w);
/* The flits input plane (i,q) has left to send of the packet it streams or moves now (its front
 * flit included) when they are all here; 255 when some have not arrived; 0 when idle. */
int router_input_plane_left(const router *r, int i, int q);
void router_input_credits(router *r, router_wires *w);
void router_input_route(router *r, const router_in *in, router_wires *w);

#ifdef __cplusplus
}
#endif

#endif
