/*
 * net_part — a network simulation split over processes by groups (docs/network.md, "Beyond one
 * machine"). Used by the network simulator (network.c and its files) only when net_params.comm is
 * set (build/doar-mpi); it needs no MPI headers: the transport is net_comm.
 *
 * Contract
 *   Partition: R ranks, rank i runs groups [i*g/R, (i+1)*g/R) — contiguous, and balanced by router
 *            count because every group has a routers; R > g is refused. A rank allocates the
 *            state of its routers and nodes, the rings into them and the rings its routers write
 *            across a global link into another rank's router (the send side of that link).
 *   Exchange: only global links cross ranks. A word a router writes in cycle t is read in t+L
 *            (L = lat_global), so what crossed in cycles [s, e) must be at the reader before it
 *            runs cycle s+L: net_part_exchange is called before every step and moves everything
 *            written since the last exchange when the step would otherwise read past it —
 *            about once per L cycles in blocks, more often in single cycles. The words travel with
 *            the cycle they are read in; the receiver writes them into the same ring slot and
 *            arrival-wheel bit the writer would have, so the reader cannot tell.
 *   Totals : the counters in `network` that network.c sums (packets, flits, losses, events and
 *            control flits in flight, hop histogram, latency sums) hold, after net_part_sync, the
 *            whole network's values on every rank: each rank adds its own increments since the
 *            last sync (one reduction; the latency and creation-cycle sums are doubles holding
 *            whole numbers below 2^53, summed exactly as longs), and last_move / last_settle are
 *            the maximum. net_run syncs before every
 *            step, so the run's decisions (drain, early stop, watchdog, livelock, faults) see the
 *            serial run's figures in the same cycle.
 *   Results: net_part_finish sums the per-router arrays (channel loads, time series bins, the
 *            per-creation-cycle loss counters) and picks the first error in simulated order, so
 *            every rank's net_result and arrays equal the single process's.
 *   Errors : net_part_agree makes a failure on any rank (out of memory, bad input) fail all of
 *            them with the first failing rank's message: no rank waits for ever in a collective.
 */
#ifndef DOAR_NET_PART_H
#define DOAR_NET_PART_H

#include "network.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct net_part net_part;

/* The rank that runs group gid, and this rank's groups (sets n->g_lo..r_hi). Returns 0, or -1 with
 * a reason (more ranks than groups). Called by net_init before any allocation. */
int net_part_range(network *n, char err[DOAR_ERRLEN]);
/* After the rings are allocated: the exchange lists. Returns 0 or -1 (out of memory). */
int net_part_init(network *n, char err[DOAR_ERRLEN]);
void net_part_free(network *n);
/* Every rank passes its own ok; returns 1 when all are ok, else 0 with err set to the message of
 * the lowest failing rank on every rank. */
int net_part_agree(const net_comm *c, int ok, char err[DOAR_ERRLEN]);
/* Ring (r, port) is allocated on this rank. */
int net_part_needs_ring(const network *n, int r, int port);
/* The counters become the whole network's (Totals above). */
void net_part_sync(network *n);
/* Before the cycles [c, c + b): moves what crossed ranks since the last exchange if the step could
 * read it. */
void net_part_exchange(network *n, long c, int b);
/* v[0..count) maximum (e.g. readiness flags of link ends, filled by their owners). */
void net_part_max(network *n, long *v, int count);
/* All ranks' local flag is 1. */
int net_part_all(network *n, int flag);
/* The deadlock report (network.c computes each rank's part): holding / flits summed, the first
 * router holding flits is the lowest; its owner's text is broadcast. */
void net_part_deadlock(const network *n, int *holding, long *flits, int *first_router, char *text, size_t len);
/* After the run: arrays and first error combined; decisions / nonminimal summed into res. */
void net_part_finish(network *n, net_result *res);
/* Bytes malloc has handed out now (glibc's mallinfo2). */
size_t net_part_allocated(void);
/* Called once the first router of this process is initialised (allocated() was `before` just
 * ahead of it): refuses, with a reason saying what it would need and pointing to MPI, a network
 * whose routers and links would not fit in this machine's available memory (MemAvailable, shared
 * by the ranks on this machine) — instead of being killed half way. Returns 0 or -1. */
int net_part_memory_check(const network *n, size_t before, char err[DOAR_ERRLEN]);
/* Communication figures of this rank: exchanges, words sent, bytes sent, syncs, and the wall time
 * spent in syncs and exchanges (waiting for slower ranks included). */
void net_part_stats(const network *n, long *exchanges, long *words, long *bytes, long *syncs, double *seconds);

#ifdef __cplusplus
}
#endif

#endif
