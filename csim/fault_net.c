#include "fault_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fault_net_init(fault_net *n, const table_set *ts, int lat_local, int lat_global, char err[DOAR_ERRLEN]) {
    memset(n, 0, sizeof *n);
    n->ts = ts;
    n->t = &ts->t;
    n->lat_local = lat_local;
    n->lat_global = lat_global;
    int nr = n->t->n_routers;
    n->fu = calloc((size_t)nr, sizeof *n->fu);
    n->router_dead = calloc((size_t)nr, 1);
    n->port_dead = calloc((size_t)nr * n->t->k, 1);
    n->act = calloc((size_t)(nr + 63) / 64, sizeof *n->act);
    if (!n->fu || !n->router_dead || !n->port_dead || !n->act) {
        fault_net_free(n);
        snprintf(err, DOAR_ERRLEN, "out of memory for the fault network");
        return -1;
    }
    for (int r = 0; r < nr; r++)
        if (fault_init(&n->fu[r], ts, r, err)) {
            fault_net_free(n);
            return -1;
        }
    return 0;
}

void fault_net_free(fault_net *n) {
    if (n->fu)
        for (int r = 0; r < n->t->n_routers; r++)
            if (n->fu[r].mask) fault_free(&n->fu[r]);
    free(n->fu);
    free(n->router_dead);
    free(n->port_dead);
    free(n->act);
    free(n->fl);
    memset(n, 0, sizeof *n);
}

static int link_up(const fault_net *n, int r, int p, int *q, int *qp) {
    if (topo_port_class(n->t, p) == PORT_TERMINAL) return 0;
    if (topo_peer(n->t, r, p, q, qp)) return 0;
    return !n->router_dead[r] && !n->router_dead[*q] && !n->port_dead[(size_t)r * n->t->k + p];
}

int fault_net_fail_link(fault_net *n, int router, int port) {
    int q, qp;
    if (!link_up(n, router, port, &q, &qp)) return -1;
    n->port_dead[(size_t)router * n->t->k + port] = 1;
    n->port_dead[(size_t)q * n->t->k + qp] = 1;
    fault_event(&n->fu[router], FEV_LINK_DOWN, port);
    fault_event(&n->fu[q], FEV_LINK_DOWN, qp);
    return 0;
}

int fault_net_fail_router(fault_net *n, int router) {
    if (n->router_dead[router]) return -1;
    /* every live neighbour sees the peer go down, also over a link that failed before:
     * the router must learn that the far router is dead, not merely unreachable */
    for (int p = n->t->p; p < n->t->k; p++) {
        int q, qp;
        if (!topo_peer(n->t, router, p, &q, &qp) && !n->router_dead[q]) fault_event(&n->fu[q], FEV_PEER_DOWN, qp);
    }
    n->router_dead[router] = 1;
    return 0;
}

void fault_net_repair_all(fault_net *n) {
    const topo *t = n->t;
    uint8_t *was_dead = malloc((size_t)t->n_routers);
    if (!was_dead) abort();
    memcpy(was_dead, n->router_dead, (size_t)t->n_routers);
    for (int r = 0; r < t->n_routers; r++)
        if (was_dead[r]) fault_reset(&n->fu[r]);
    for (int r = 0; r < t->n_routers; r++) {
        for (int p = t->p; p < t->k; p++) {
            int q, qp;
            if (topo_peer(t, r, p, &q, &qp)) continue;
            int down = was_dead[r] || was_dead[q] || n->port_dead[(size_t)r * t->k + p];
            if (down) fault_event(&n->fu[r], FEV_UP, p);
        }
    }
    memset(n->router_dead, 0, (size_t)t->n_routers);
    memset(n->port_dead, 0, (size_t)t->n_routers * t->k);
    free(was_dead);
}

int fault_net_repair_link(fault_net *n, int router, int port) {
    const topo *t = n->t;
    int q, qp;
    if (topo_port_class(t, port) == PORT_TERMINAL || topo_peer(t, router, port, &q, &qp)) return -1;
    if (!n->port_dead[(size_t)router * t->k + port]) return -1;
    n->port_dead[(size_t)router * t->k + port] = 0;
    n->port_dead[(size_t)q * t->k + qp] = 0;
    if (!n->router_dead[router] && !n->router_dead[q]) {
        fault_event(&n->fu[router], FEV_UP, port);
        fault_event(&n->fu[q], FEV_UP, qp);
    }
    return 0;
}

int fault_net_repair_router(fault_net *n, int router) {
    const topo *t = n->t;
    if (!n->router_dead[router]) return -1;
    n->router_dead[router] = 0;
    fault_reset(&n->fu[router]);
    for (int p = t->p; p < t->k; p++) {
        int q, qp;
        if (topo_peer(t, router, p, &q, &qp)) continue;
        if (n->router_dead[q])
            fault_event(&n->fu[router], FEV_PEER_DOWN, p);
        else if (n->port_dead[(size_t)router * t->k + p]) {
            fault_event(&n->fu[router], FEV_LINK_DOWN, p);
            fault_event(&n->fu[q], FEV_LINK_DOWN, qp); /* "your peer is alive, the link is not" */
        } else {
            fault_event(&n->fu[q], FEV_UP, qp);
            fault_event(&n->fu[router], FEV_UP, p);
        }
    }
    return 0;
}

static void send(fault_net *n, int r, int p, const fault_msg *m) {
    int q, qp;
    if (!link_up(n, r, p, &q, &qp)) {
        n->lost_msgs++;
        return;
    }
    if (n->fl_n == n->fl_cap) {
        n->fl_cap = n->fl_cap ? n->fl_cap * 2 : 256;
        n->fl = realloc(n->fl, (size_t)n->fl_cap * sizeof *n->fl);
        if (!n->fl) abort();
    }
    fault_flight *f = &n->fl[n->fl_n++];
    f->due = n->cycle + (topo_port_class(n->t, p) == PORT_GLOBAL ? n->lat_global : n->lat_local);
    f->router = q;
    f->port = qp;
    f->m = *m;
}

int fault_net_run(fault_net *n, int max_cycles) {
    const topo *t = n->t;
    const int words = (t->n_routers + 63) / 64;
    int start = n->cycle;
    /* every live unit with work has its bit (events came between runs); a unit gets work during
     * the run only from its own tick or a delivery, which set it again. The units are visited in
     * router order, as a loop over all of them would. */
    memset(n->act, 0, (size_t)words * sizeof *n->act);
    for (int r = 0; r < t->n_routers; r++)
        if (!n->router_dead[r] && !fault_idle(&n->fu[r])) n->act[r >> 6] |= (uint64_t)1 << (r & 63);
    for (;;) {
        int busy = 0;
        for (int w = 0; w < words; w++)
            for (uint64_t a = n->act[w]; a; a &= a - 1) {
                const int r = w * 64 + __builtin_ctzll(a);
                fault_unit *fu = &n->fu[r];
                if (n->router_dead[r] || fault_idle(fu)) {
                    n->act[w] &= ~((uint64_t)1 << (r & 63));
                    continue;
                }
                busy = 1;
                fault_tick(fu);
                int p;
                fault_msg m;
                while (fault_pop(fu, &p, &m)) send(n, r, p, &m);
            }
        /* arrivals due now, in send order: the receiver's scheduler sees them next cycle */
        int keep = 0;
        for (int i = 0; i < n->fl_n; i++) {
            fault_flight *f = &n->fl[i];
            if (f->due > n->cycle) {
                n->fl[keep++] = *f;
                continue;
            }
            int q, qp;
            if (n->router_dead[f->router] || !link_up(n, f->router, f->port, &q, &qp)) {
                n->lost_msgs++;
                continue;
            }
            fault_receive(&n->fu[f->router], f->port, &f->m);
            n->act[f->router >> 6] |= (uint64_t)1 << (f->router & 63);
            n->delivered_msgs++;
            busy = 1; /* the receiver has work next cycle */
        }
        n->fl_n = keep;
        if (busy) n->last_busy = n->cycle;
        if (!busy && n->fl_n == 0) return n->cycle - start;
        n->cycle++;
        if (n->cycle - start > max_cycles) return -1;
    }
}
