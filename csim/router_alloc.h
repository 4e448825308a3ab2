/*
 * router_alloc — router v2's switch allocation around the arbiters of csim/alloc.h: stage 1's
 * picks (registers), stage 2 on this cycle's proposals of the picked VCs, and the credit check
 * across planes. Mirrors rtl/router_alloc.v (alloc_in.v and alloc_out.v are csim/alloc.c).
 *
 * Contract (one cycle, on the state at the start of it)
 *   router_alloc_grant: stage 2. A pick is void where its input plane streams a packet, it has no
 *     flits, or its VC proposes nothing now (or only past a stream). The grants of alloc_stage2,
 *     then the credit check: planes grant in parallel and two may send packets to one output VC
 *     in one cycle; a grant stands only if its len, added to what the lower planes granted there
 *     (before their own cancellations: no chain), fits the credits, else it is cancelled whole (a
 *     multicast stays atomic) and its output slots grant nothing this cycle. Result: w->g.
 *   router_alloc_pick: stage 1 on the proposals (the reserved multicast's VC first): w->pick_next.
 *   router_alloc_edge: the picks become the registers; the round robins move past each pick,
 *     output grant and multicast winner.
 * Invariants: an output slot (o,q) is granted to at most one input; a granted head's len fits its
 *   output VC's credits together with every other grant to that VC this cycle.
 */
#ifndef DOAR_ROUTER_ALLOC_H
#define DOAR_ROUTER_ALLOC_H

#include "router.h"

void router_alloc_grant(const router *r, router_wires *w);
void router_alloc_arbitrate(const router *r, router_wires *w);
void router_alloc_pick(const router *r, router_wires *w);
void router_alloc_edge(router *r, const router_wires *w);

#endif
