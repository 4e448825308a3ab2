#include "router_xbar.h"

void router_xbar_write(router *r, int pl, uint64_t ports, int ovc, const flit *f, const route_entry *rw) {
    flit w = *f;
    w.valid = 1;
    w.vc = (uint8_t)ovc;
    if (rw && rw->rewrite && f->head) w.data = rw->hdr;
    for (uint64_t m = ports; m; m &= m - 1) r->xw_flit[__builtin_ctzll(m) * ROUTER_NP(r) + pl] = w;
    r->xw_valid[pl] |= ports;
    if (rw) r->xw_start[pl] |= ports;
}

void router_xbar_store(router *r, router_wires *w) {
    const int np = ROUTER_NP(r);
    for (int q = 0; q < np; q++) {
        const uint64_t ports = r->xw_valid[q];
        if (!ports) continue;
        for (uint64_t m = ports; m; m &= m - 1) {
            const int o = __builtin_ctzll(m);
            const int in = oq_push(&r->oqs[o * np + q], &r->xw_flit[o * np + q]);
            r->oq_total[o] = (uint16_t)(r->oq_total[o] + in);
            if (in && ((r->xw_start[q] >> o) & 1)) { /* a packet's first flit: the link stage's order */
                int at = r->ord_head[o] + r->ord_n[o];
                if (at >= r->ord_depth) at -= r->ord_depth;
                r->ord[o * r->ord_depth + at] = (uint8_t)q;
                r->ord_n[o]++;
            }
        }
        r->oq_busy |= ports;
        w->written[q] |= ports;
        r->xw_valid[q] = r->xw_start[q] = 0;
    }
}

void router_xbar_count(router *r, const router_wires *w) {
    if (ROUTER_NP(r) < 2) return;
    uint64_t once = 0, twice = 0;
    for (int q = 0; q < ROUTER_NP(r); q++) {
        twice |= once & w->written[q];
        once |= w->written[q];
    }
    /* (the test first: without POPCNT in the base ISA the count is a call) */
    if (twice) r->multi_plane_cycles += (uint64_t)__builtin_popcountll(twice);
}
