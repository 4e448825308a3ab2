/*
 * router_alloc — router v5's switch allocation around the arbiters of csim/alloc.h: stage 1's
 * picks (registered with their proposals), stage 2 on the registered proposals (its wins are
 * registers), the check, which proposes each win again on the state of its cycle and checks the
 * credits across planes from the wins (its decisions are registers), and the take of the
 * decisions granted in the cycle after. Mirrors rtl/router_alloc.v (alloc_in.v and alloc_out.v
 * are csim/alloc.c). docs/architecture.md "Pipelined allocation: router v3", "Router v5".
 *
 * Contract (one cycle, on the state at the start of it)
 *   router_alloc_take (first): the decisions of the last cycle take their credits and room
 *     (router_output_take), before this cycle's proposals and check read them.
 *   router_alloc_ghost: -1 takes the ghost (what the wins checked in the last cycle would have
 *     taken and did not) from the credits and room that the proposals and the check read, +1
 *     gives it back.
 *   router_alloc_check: each win of the last cycle whose input plane is not void and whose VC
 *     proposes now, on the plane it won, the same kind and ports (an ACQ: some of the slots won)
 *     stands, unless its VC streams or moves a packet with no flit behind all it has left; then
 *     the credit check across planes: a decision of plane q is cancelled whole (a multicast stays
 *     atomic) when one of its output VCs has fewer than S * max_len credits and a slot of a lower
 *     plane holds a win (checked now) for the same VC. Result: w->g, w->req2 (each decision's
 *     proposal now), w->gvc (its VC).
 *   router_alloc_arbitrate: stage 2 on the picks' registered proposals; no request from an input
 *     plane still sending three cycles on or with a win checked now or a decision granted now, nor
 *     from a pick whose VC has either; no slot taken by a win now is requested. Result: w->wins
 *     (alloc_stage2), w->arb_req.
 *   router_alloc_pick: stage 1 on the proposals (the reserved multicast's VC first): w->pick_next.
 *   router_alloc_edge: the picks (with their proposals), the wins, the decisions and the ghost of
 *     the next cycle become the registers; the round robins move past each pick, each output
 *     decision and multicast decision that stands.
 * Invariants: an output slot (o,q) is granted to at most one input; a decision's len fits its
 *   output VC's credits, and two planes decide for one output VC only while it has S * max_len
 *   credits or more; a win is decided only as its VC proposes it now.
 */
#ifndef DOAR_ROUTER_ALLOC_H
#define DOAR_ROUTER_ALLOC_H

#include "router.h"

void router_alloc_take(router *r, router_wires *w);
void router_alloc_ghost(router *r, int sign);
void router_alloc_check(const router *r, router_wires *w);
void router_alloc_arbitrate(const router *r, router_wires *w);
void router_alloc_pick(const router *r, router_wires *w);
void router_alloc_edge(router *r, const router_wires *w);

#endif
