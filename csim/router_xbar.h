/*
 * router_xbar — the S crossbar planes (seed 003 sec. 4, parallel switching): a flit that crosses
 * plane pl is written into the output queues (o, pl) of its ports, with its output VC and, for a
 * head a route policy rewrote, the new header. rw (the route entry) is given for a granted packet's
 * first flit, which also enters the output's send order (router.h ord; rtl/oq_order.v). Mirrors rtl/router_xbar.v (there the write happens
 * at the edge; here at once, which nothing in the same cycle reads: the link stage ran first).
 * Invariant: per cycle at most one input writes an output queue (the output slot (o,pl) is held
 * by one packet).
 */
#ifndef DOAR_ROUTER_XBAR_H
#define DOAR_ROUTER_XBAR_H

#include "router.h"

void router_xbar_write(router *r, int pl, uint64_t ports, int ovc, const flit *f, const route_entry *rw,
                       uint64_t *written);
/* Statistic for the lock-step's coverage: outputs two or more planes wrote this cycle. */
void router_xbar_count(router *r, const router_wires *w);

#endif
