/*
 * net_internal — what the network simulator's own files share: csim/network.c (the engine) and
 * net_params.c (parameters).
 * Included by those files only, never by a caller: csim/network.h stays the interface.
 *
 * Contract
 *   The PRNG streams of the run seed, the small helpers several files use (static inline, as they
 *   were in the one file) and the functions one file calls in another (named net_*, no global
 *   mutable state: each works on the `network` it is given). Whatever a file does in a cycle
 *   keeps the stamps blocks rely on: errors noted in simulated order (net_fail), packets settled
 *   and flits moved stamped with the cycle they happen in (settled, moved), so a run in blocks
 *   gives the results of cycle by cycle (network.c net_block).
 *   Why: network.c held all of this in 1,431 lines; split by concern, as BookSim2 splits its
 *   simulator (channels, traffic manager, the run), each file needs this much of the others
 *   (issue 23).
 */
#ifndef DOAR_NET_INTERNAL_H
#define DOAR_NET_INTERNAL_H

#include "network.h"

#define NODE_STREAM 1u               /* PRNG streams of the run seed */
#define ROUTER_STREAM 2u
#define FAULT_STREAM 3u
#define ROUTER_FAULT_STREAM 4u

/* Fault units run (link or router faults). */
static inline int faults_on(const net_params *p) { return p->fault_links > 0 || p->fault_routers > 0; }

#endif
