#include "router_xbar.h"

void router_xbar_write(router *r, int pl, uint64_t ports, int ovc, const flit *f, const route_entry *rw,
                       uint64_t *written) {
    flit w = *f;
    w.valid = 1;
    w.vc = (uint8_t)ovc;
    if (rw && rw->rewrite && f->head) w.data = rw->hdr;
    for (uint64_t m = ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        const int in = oq_push(&r->oqs[o * r->np + pl], &w);
        r->oq_total[o] = (uint16_t)(r->oq_total[o] + in);
        if (in && rw) { /* a granted packet's first flit: the link stage's order (router_output_link) */
            int at = r->ord_head[o] + r->ord_n[o];
            if (at >= r->ord_depth) at -= r->ord_depth;
            r->ord[o * r->ord_depth + at] = (uint8_t)pl;
            r->ord_n[o]++;
        }
    }
    r->oq_busy |= ports;
    written[pl] |= ports;
}

void router_xbar_count(router *r, const router_wires *w) {
    if (r->np < 2) return;
    uint64_t once = 0, twice = 0;
    for (int q = 0; q < r->np; q++) {
        twice |= once & w->written[q];
        once |= w->written[q];
    }
    /* (the test first: without POPCNT in the base ISA the count is a call) */
    if (twice) r->multi_plane_cycles += (uint64_t)__builtin_popcountll(twice);
}
