/*
 * router_output — the output side of every port: per port and plane an output queue (csim/oq.h),
 * the link stage, the credit counters per output VC, the control credits of FD/FR packets.
 * Mirrors rtl/router_output.v. docs/architecture.md "Unit map".
 *
 * Contract (one cycle, calls in router_cycle_ref's order)
 *   router_output_link (start of the cycle): per output one flit into the next output registers:
 *     the packet it is sending (from the queue it started on; nothing if its next flit has not
 *     arrived), else a waiting FD/FR packet (w->ctl_wait: it goes in w->ctl_ports), else the next
 *     packet in the order the packets' first flits entered the port's queues (router.h ord,
 *     written by router_xbar_store; rtl/oq_order.v). The queue's room counts from the next cycle
 *     (router_output_room).
 *   router_output_take: a grant takes len credits of its output VC and len flits of room of its
 *     output queues at once (virtual cut-through: a head needs room for the whole packet).
 *   router_output_ctl: the FD/FR packets of w->ctl_ports leave (next cycle's registers), one
 *     control credit each.
 *   router_output_credits (end of the cycle): returned credits count up to the downstream depth (a
 *     credit nobody took saturates); a port whose link is down has full credits and control credits.
 * Invariants: credits >= 0; a packet's flits leave one port contiguously; the packets of one input
 *   VC leave a port in the order they were granted; occ[o] (speed cache) is
 *   the sum over o's VCs of ds_depth - credits.
 */
#ifndef DOAR_ROUTER_OUTPUT_H
#define DOAR_ROUTER_OUTPUT_H

#include "router.h"

void router_output_link(router *r, router_wires *w);
void router_output_take(router *r, int pl, uint64_t ports, const route_entry *e, uint8_t *taken);
void router_output_room(router *r, const router_wires *w);
void router_output_ctl(router *r, router_wires *w);
void router_output_credits(router *r, const router_in *in, const router_wires *w);

#endif
