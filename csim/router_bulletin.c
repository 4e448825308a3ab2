#include "router_bulletin.h"
#include "rr.h"

void router_bulletin_next(const router *r, router_wires *w) {
    const int k = r->t.k, np = ROUTER_NP(r), vcs = ROUTER_VCS(r);
    /* from registers only (router v5): the decision granted now clears the reservation; a VC
     * with a win checked now or a decision granted now may not reserve */
    w->n_res_valid = r->res_valid;
    w->n_res_in = r->res_in;
    w->n_res_vc = r->res_vc;
    if (!r->prm.bulletin) return;
    if (r->res_valid) {
        const int n = r->res_in * np + alloc_plane(r->res_in, r->res_vc, np);
        if (((r->dc_go[n % np] >> r->res_in) & 1) && r->dc_kind[n] == REQ_MCAST && r->dc_vc[n] == r->res_vc)
            w->n_res_valid = 0;
    }
    /* only a route entry with mcast set and discard clear can reserve (none: nothing to search) */
    if (r->res_valid || r->mc_routes <= 0) return;
    uint64_t cand = 0; /* the inputs with a multicast head that may reserve */
    int8_t low_vc[64]; /* per input its lowest such VC */
    for (int i = 0; i < k; i++) {
        low_vc[i] = -1;
        for (int v = 0; v < vcs && low_vc[i] < 0; v++) {
            const flit *f = vcbuf_front(&r->in[i], v);
            const route_entry *e = vcbuf_route(&r->in[i], v);
            const int busy = ((r->won_vcs[i] | r->dc_vcs[i]) >> v) & 1;
            const int moving = (r->pend_vcs[i] >> v) & 1; /* granted last cycle: crosses now */
            if (f && f->head && e && e->mcast && !e->discard && !r->in[i].active[v] && !busy && !moving) {
                low_vc[i] = (int8_t)v;
                cand |= (uint64_t)1 << i;
            }
        }
    }
    /* inputs round robin from rr_mc, lowest VC first */
    const int i = rr_pick(cand, r->rr_mc);
    if (i < 0) return;
    w->n_res_valid = 1;
    w->n_res_in = i;
    w->n_res_vc = low_vc[i];
}

void router_bulletin_edge(router *r, const router_wires *w) {
    r->res_valid = w->n_res_valid;
    r->res_in = w->n_res_in;
    r->res_vc = w->n_res_vc;
}
