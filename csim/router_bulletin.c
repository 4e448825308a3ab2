#include "router_bulletin.h"
#include "rr.h"

void router_bulletin_next(const router *r, router_wires *w) {
    const int k = r->t.k, np = r->np, vcs = r->prm.vcs;
    const alloc_grants *g = &w->g;
    w->n_res_valid = r->res_valid;
    w->n_res_in = r->res_in;
    w->n_res_vc = r->res_vc;
    if (!r->prm.bulletin) return;
    if (r->res_valid && g->mc_in == r->res_in && g->mc_plane == alloc_plane(r->res_in, r->res_vc, np) &&
        w->gvc[g->mc_in * np + g->mc_plane] == r->res_vc)
        w->n_res_valid = 0;
    /* only a route entry with mcast set and discard clear can reserve (none: nothing to search) */
    if (r->res_valid || r->mc_routes <= 0) return;
    uint64_t cand = 0; /* the inputs with a multicast head that may reserve */
    int8_t low_vc[64]; /* per input its lowest such VC */
    for (int i = 0; i < k; i++) {
        low_vc[i] = -1;
        for (int v = 0; v < vcs && low_vc[i] < 0; v++) {
            const flit *f = vcbuf_front(&r->in[i], v);
            const route_entry *e = vcbuf_route(&r->in[i], v);
            int granted = g->mc_in == i && g->mc_plane == alloc_plane(i, v, np) && w->gvc[i * np + g->mc_plane] == v;
            int moving = (r->pend_vcs[i] >> v) & 1; /* granted last cycle: crosses now */
            if (f && f->head && e && e->mcast && !e->discard && !r->in[i].active[v] && !granted && !moving) {
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
