/*
 * fault_net — a whole dragonfly of fault units (csim/fault.c), wired as the topology, for the
 * network-scale proof (`doar faults`) and seed 001's worked examples. It carries FD/FR
 * messages only; data traffic is the network simulator's job.
 *
 * Contract
 *   Links: a message sent out of (router, port) reaches the peer's input port after the
 *          link latency (intra-group / global, cycles) unless the link or either router is
 *          dead when it is sent or when it arrives (then it is lost, and counted).
 *   Faults: fault_net_fail_* mark links/routers dead and deliver the local events to the
 *          live routers at the ends (peer-down when the far router is dead, else link-down),
 *          all in the current cycle. fault_net_repair_all revives everything: repaired routers
 *          restart with fresh units, and every live end of a repaired link gets a link-up event.
 *   Run:   fault_net_run steps every unit one cycle at a time until nothing is busy, queued or
 *          in flight, and returns the cycles that took. (Idle units are not ticked; it keeps
 *          the units that may have work apart, so a cycle does not look at every idle one.)
 */
#ifndef DOAR_FAULT_NET_H
#define DOAR_FAULT_NET_H

#include "fault.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int due;          /* cycle of arrival */
    int router, port; /* destination */
    fault_msg m;
} fault_flight;

typedef struct {
    const table_set *ts;
    const topo *t;
    fault_unit *fu;       /* [n_routers] */
    uint8_t *router_dead; /* [n_routers] */
    uint8_t *port_dead;   /* [n_routers * k]: the link on this port is faulted (both ends) */
    int lat_local, lat_global;
    int cycle;
    fault_flight *fl; /* messages in flight */
    int fl_n, fl_cap;
    uint64_t lost_msgs, delivered_msgs;
    int last_busy; /* last cycle any unit did work */
    /* speed only (fault_net_run): a bit per router whose unit may have work, so that a cycle
     * visits the busy units rather than every unit (tianhe: 6 busy of 16,416 late in a run) */
    uint64_t *act; /* [(n_routers + 63) / 64] */
} fault_net;

int fault_net_init(fault_net *n, const table_set *ts, int lat_local, int lat_global, char err[DOAR_ERRLEN]);
void fault_net_free(fault_net *n);

/* Fails the link on (router, port) (a network port); returns -1 if unwired or already dead. */
int fault_net_fail_link(fault_net *n, int router, int port);
/* Fails a router; returns -1 if already dead. */
int fault_net_fail_router(fault_net *n, int router);
/* Repairs every link and router. */
void fault_net_repair_all(fault_net *n);
/* Repairs one link (both routers' ends get link-up events if they are alive); -1 if not faulted. */
int fault_net_repair_link(fault_net *n, int router, int port);
/* Revives one router with a fresh unit: link-up events at both ends of every link that is
 * not faulted, and link-down / peer-down events on its own ports that still are; -1 if alive. */
int fault_net_repair_router(fault_net *n, int router);
/* Runs to quiescence; returns cycles elapsed, or -1 when max_cycles pass first. */
int fault_net_run(fault_net *n, int max_cycles);

#ifdef __cplusplus
}
#endif

#endif
