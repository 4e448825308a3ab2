#include "alloc.h"

#include <string.h>


void alloc_compute(const alloc_view *v, alloc_grants *g) {
    const int k = v->k;
    int pick[64];
    memset(g, 0, sizeof *g);
    g->mc_winner = -1;
    for (int o = 0; o < 64; o++) g->out_winner[o] = -1;
    /* Input stage: one proposing VC per input, round robin. */
    for (int i = 0; i < k; i++) {
        pick[i] = -1;
        g->pick_vc[i] = -1;
        if (i == v->prio_in && v->req[i * v->vcs + v->prio_vc].kind == REQ_MCAST) {
            pick[i] = v->prio_vc;
            continue;
        }
        for (int n = 0; n < v->vcs; n++) {
            int vc = (v->rr_in[i] + n) % v->vcs;
            if (v->req[i * v->vcs + vc].kind != REQ_NONE) { pick[i] = vc; break; }
        }
    }
    /* Bulletin stage: one multicast takes all its ports at once. */
    uint64_t taken = 0;
    if (v->bulletin) {
        for (int n = 0; n < k; n++) {
            int i = (v->rr_mc + n) % k;
            if (pick[i] >= 0 && v->req[i * v->vcs + pick[i]].kind == REQ_MCAST) {
                g->mc_winner = i;
                taken = v->req[i * v->vcs + pick[i]].ports;
                g->acq_ports[i] = taken;
                g->pick_vc[i] = pick[i];
                break;
            }
        }
    }
    /* Output stage: the remaining outputs each grant one head or acquisition. Outputs no pick
     * asks for grant nothing and are skipped (the same result, less work). */
    uint64_t wanted = 0;
    for (int i = 0; i < k; i++) {
        if (pick[i] < 0) continue;
        const alloc_req *r = &v->req[i * v->vcs + pick[i]];
        if (r->kind == REQ_HEAD || r->kind == REQ_ACQ) wanted |= r->ports;
    }
    for (uint64_t m = wanted & ~taken; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        if (o >= k) break;
        for (int n = 0, i = v->rr_out[o] % k; n < k; n++, i = i + 1 == k ? 0 : i + 1) {
            if (pick[i] < 0) continue;
            const alloc_req *r = &v->req[i * v->vcs + pick[i]];
            if ((r->kind == REQ_HEAD || r->kind == REQ_ACQ) && ((r->ports >> o) & 1)) {
                g->acq_ports[i] |= (uint64_t)1 << o;
                g->pick_vc[i] = pick[i];
                g->out_granted |= (uint64_t)1 << o;
                g->out_winner[o] = i;
                break;
            }
        }
    }
    /* Bodies and discards always move. */
    for (int i = 0; i < k; i++) {
        if (pick[i] < 0) continue;
        int kind = v->req[i * v->vcs + pick[i]].kind;
        if (kind == REQ_BODY || kind == REQ_DISCARD) g->pick_vc[i] = pick[i];
    }
}
