#include "router_output.h"
#include "rr.h"

#include <string.h>

/* A credit of output port o, VC v becomes cred (the occupancy, a speed cache, follows). */
static void set_cred(router *r, int o, int v, int cred) {
    r->occ[o] -= cred - r->cred[o][v];
    r->cred[o][v] = cred;
}

void router_output_link(router *r, router_wires *w) {
    const int np = ROUTER_NP(r);
    router_out *nx = w->nx;
    w->room_ports = 0;
    for (uint64_t m = (r->oq_busy | w->ctl_wait) & w->kmask; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        const uint64_t bit = (uint64_t)1 << o;
        int q = -1;
        if (r->lk_lock & bit) {
            q = r->lk_q[o];
            if (!r->oqs[o * np + q].count) q = -1; /* the packet's next flit has not arrived */
        } else if (w->ctl_wait & bit) {
            w->ctl_ports |= bit;
        } else if (r->ord_n[o]) {
            /* the packets leave in the order their heads entered the queues: a VC's packets to a
             * port leave in order whatever planes they crossed on. An entry whose queue is empty
             * (only after an upstream protocol error: a packet longer than its len) is dropped. */
            q = r->ord[o * r->ord_depth + r->ord_head[o]];
            r->ord_head[o] = (uint16_t)(r->ord_head[o] + 1 == r->ord_depth ? 0 : r->ord_head[o] + 1);
            r->ord_n[o]--;
            if (!r->oqs[o * np + q].count) q = -1;
        } else {
            /* no entry but a flit waiting (again only after a protocol error): the lowest plane */
            for (int c = np - 1; c >= 0; c--)
                if (r->oqs[o * np + c].count) q = c;
        }
        if (q < 0) continue;
        oq *b = &r->oqs[o * np + q];
        const flit *f = oq_front(b);
        nx->out[o] = *f;
        nx->out_ports |= bit;
        if (f->tail)
            r->lk_lock &= ~bit;
        else {
            r->lk_lock |= bit;
            r->lk_q[o] = (uint8_t)q;
        }
        oq_pop(b);
        w->room_back[o] = q;
        w->room_ports |= bit;
        if (!--r->oq_total[o]) r->oq_busy &= ~bit;
    }
}

void router_output_take(router *r, int pl, uint64_t ports, const route_entry *e, uint8_t *taken) {
    for (uint64_t m = ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        set_cred(r, o, e->ovc, r->cred[o][e->ovc] - e->len);
        r->oqs[o * ROUTER_NP(r) + pl].room = (int16_t)(r->oqs[o * ROUTER_NP(r) + pl].room - e->len);
        r->demand[o] -= e->len;
        taken[o] = (uint8_t)(taken[o] + e->len);
    }
}

void router_output_room(router *r, const router_wires *w) {
    for (uint64_t m = w->room_ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        r->oqs[o * ROUTER_NP(r) + w->room_back[o]].room++;
    }
}

void router_output_ctl(router *r, router_wires *w) {
    router_out *nx = w->nx;
    for (uint64_t m = w->ctl_ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        nx->out[o].valid = nx->out[o].head = nx->out[o].tail = 1;
        nx->out[o].vc = 0;
        nx->out[o].data = fault_msg_pack(&w->ctl_msg[o]);
        nx->out_ports |= (uint64_t)1 << o;
        fault_out_take(r->fu, o);
        r->ctl_cred[o]--;
    }
}

void router_output_credits(router *r, const router_in *in, const router_wires *w) {
    const topo *t = &r->t;
    const int vcs = ROUTER_VCS(r);
    for (uint64_t m = w->pm.cr & w->kmask; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        int cv = in->cr_vc[o] & r->vc_mask;
        if (cv >= vcs) continue;
        int cap = r->prm.ds_depth[topo_port_class(t, o)];
        set_cred(r, o, cv, r->cred[o][cv] + 1 > cap ? cap : r->cred[o][cv] + 1);
    }
    for (uint64_t m = w->pm.ctl_cr & w->kmask; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        if (r->ctl_cred[o] < r->prm.ctl_depth) r->ctl_cred[o]++;
    }
    for (uint64_t m = w->port_down & w->kmask; m;
         m &= m - 1) { /* a dead link swallows flits: nothing waits for its credits */
        int o = __builtin_ctzll(m);
        for (int v = 0; v < vcs; v++) set_cred(r, o, v, r->prm.ds_depth[topo_port_class(t, o)]);
        r->ctl_cred[o] = r->prm.ctl_depth;
    }
}
