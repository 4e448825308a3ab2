/*
 * router_alloc — router v3's switch allocation around the arbiters of csim/alloc.h, in three
 * stages: stage 1's picks (registered with their proposals), stage 2 on the registered proposals
 * (its wins are registers), and the commit, which checks each win again on the state of its cycle
 * and then the credits across planes. Mirrors rtl/router_alloc.v (alloc_in.v and alloc_out.v are
 * csim/alloc.c). docs/architecture.md "Pipelined allocation: router v3".
 *
 * Contract (one cycle, on the state at the start of it)
 *   router_alloc_grant: the commit. Each win of the last cycle whose input plane is not void and
 *     whose VC proposes now, on the plane it won, the same kind and ports (an ACQ: some of the
 *     slots won) stands; then the credit check: planes grant in parallel and two may send packets
 *     to one output VC in one cycle; a grant stands only if its len, added to what the lower
 *     planes granted there (before their own cancellations: no chain), fits the credits, else it
 *     is cancelled whole (a multicast stays atomic). Result: w->g, w->req2 (each grant's proposal
 *     now), w->gvc (its VC).
 *   router_alloc_arbitrate: stage 2 on the picks' registered proposals; no request from an input
 *     plane busy in the next cycle or whose win commits now, nor from a pick whose VC's win
 *     commits now; no slot held in the next cycle or taken by a win now is requested. Result:
 *     w->wins (alloc_stage2), w->arb_req.
 *   router_alloc_pick: stage 1 on the proposals (the reserved multicast's VC first): w->pick_next.
 *   router_alloc_edge: the picks (with their proposals) and the wins become the registers; the round
 *     robins move past each pick, committed output grant and committed multicast.
 * Invariants: an output slot (o,q) is granted to at most one input; a granted head's len fits its
 *   output VC's credits together with every other grant to that VC this cycle; a win is granted
 *   only as its VC proposes it now.
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
