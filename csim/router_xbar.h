/*
 * router_xbar — the S crossbar planes (seed 003 sec. 4, parallel switching): a flit that crosses
 * plane pl goes to the output queues (o, pl) of its ports, with its output VC and, for a head a
 * route policy rewrote, the new header. rw (the route entry) is given for a granted packet's first
 * flit, which also enters the output's send order (router.h ord; rtl/oq_order.v).
 * Router v6: the crossing is registered (rtl/router_xbar.v: the write register between
 * router_input and router_output, so no path runs from the grant stage into the output queues):
 * router_xbar_write fills the register in cycle t, router_xbar_store moves it into the queues in
 * t+1, before that cycle's writes (the queues store at the edge ending t+1, as the RTL's do). So a
 * flit that leaves its input VC in t is in its output queue for the link stage of t+2.
 * Invariant: per cycle at most one input writes an output slot (o,pl) (the slot is held by one
 * packet), so the register holds one flit per slot.
 */
#ifndef DOAR_ROUTER_XBAR_H
#define DOAR_ROUTER_XBAR_H

#include "router.h"

void router_xbar_write(router *r, int pl, uint64_t ports, int ovc, const flit *f, const route_entry *rw);
/* Last cycle's writes into the output queues (their send order too); marks them in w->written. */
void router_xbar_store(router *r, router_wires *w);
/* Statistic for the lock-step's coverage: outputs two or more planes stored into this cycle. */
void router_xbar_count(router *r, const router_wires *w);

#endif
