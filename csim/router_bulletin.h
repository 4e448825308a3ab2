/*
 * router_bulletin — the Global Resource Bulletin (seed 003 sec. 5.1): per plane a mask of the
 * output slots no multicast holds (grb_free), and the reservation of one waiting multicast head:
 * its slots leave the bulletin for unicast heads until it has them all, so that it is not starved
 * by unicasts that keep starting on one of them. Mirrors rtl/router_bulletin.v.
 *
 * Contract: router_bulletin_reserved is combinational on the state at the start of the cycle (the
 * proposals read it); router_bulletin_next computes, on the same state (registers only: no
 * decision of this cycle on its path), the reservation after the edge: cleared when its
 * multicast's decision is granted now; else, with none, the first multicast head that waits
 * (route entry with mcast set, discard clear, not streaming, no win checked now, no decision
 * granted now, not moving last cycle's grant), inputs round robin from rr_mc, lowest VC first;
 * router_bulletin_edge applies it.
 * grb_free changes where multicast heads start and multicast tails end (router_input_move).
 * Invariant: with the bulletin on, a multicast never holds some of its slots while waiting for
 * others.
 */
#ifndef DOAR_ROUTER_BULLETIN_H
#define DOAR_ROUTER_BULLETIN_H

#include "router.h"

/* Slots (o, plane) the waiting multicast has reserved. Inline: every proposal reads it. */
static inline uint64_t router_bulletin_reserved(const router *r, int plane) {
    if (!r->res_valid || alloc_plane(r->res_in, r->res_vc, ROUTER_NP(r)) != plane) return 0;
    const route_entry *e = vcbuf_route(&r->in[r->res_in], r->res_vc);
    return e ? e->ports : 0;
}

void router_bulletin_next(const router *r, router_wires *w);
void router_bulletin_edge(router *r, const router_wires *w);

#endif
