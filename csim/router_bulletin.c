#include "router_bulletin.h"

void router_bulletin_next(const router *r, router_wires *w) {
    const int k = r->t.k, np = r->np, vcs = r->prm.vcs;
    const alloc_grants *g = &w->g;
    w->n_res_valid = r->res_valid;
    w->n_res_in = r->res_in;
    w->n_res_vc = r->res_vc;
    if (!r->prm.bulletin) return;
    if (r->res_valid && g->mc_in == r->res_in && g->mc_plane == alloc_plane(r->res_in, r->res_vc, np) &&
        r->pick[g->mc_in * np + g->mc_plane] == r->res_vc)
        w->n_res_valid = 0;
    /* only a route entry with mcast set and discard clear can reserve (none: nothing to search) */
    if (!r->res_valid && r->mc_routes > 0) {
        for (int n = 0; n < k && !w->n_res_valid; n++) {
            int i = (r->rr_mc + n) % k;
            for (int v = 0; v < vcs; v++) {
                const flit *f = vcbuf_front(&r->in[i], v);
                const route_entry *e = vcbuf_route(&r->in[i], v);
                int granted = g->mc_in == i && g->mc_plane == alloc_plane(i, v, np) && r->pick[i * np + g->mc_plane] == v;
                int moving = (r->pend_vcs[i] >> v) & 1;   /* granted last cycle: crosses now */
                if (f && f->head && e && e->mcast && !e->discard && !r->in[i].active[v] && !granted && !moving) {
                    w->n_res_valid = 1;
                    w->n_res_in = i;
                    w->n_res_vc = v;
                    break;
                }
            }
        }
    }
}

void router_bulletin_edge(router *r, const router_wires *w) {
    r->res_valid = w->n_res_valid;
    r->res_in = w->n_res_in;
    r->res_vc = w->n_res_vc;
}
