#include "alloc.h"
#include "rr.h"

void alloc_stage1(const alloc_in_view *v, int8_t *pick) {
    const int vcs = v->vcs, np = v->planes;
    for (uint64_t m = v->req_inputs; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        for (int q = 0; q < np; q++) {
            const unsigned vm = (v->req_pl_vcs[i] >> (8 * q)) & 0xffu; /* the VCs proposing on plane q */
            pick[i * np + q] = -1;
            if (!vm) continue;
            int p;
            if (i == v->prio_in && ((vm >> v->prio_vc) & 1) && v->req[i * vcs + v->prio_vc].kind == REQ_MCAST)
                p = v->prio_vc;
            else
                p = rr_pick(vm, v->rr_in[i * np + q]);
            pick[i * np + q] = (int8_t)p;
        }
    }
}

void alloc_stage2(const alloc_out_view *v, alloc_grants *g) {
    const int k = v->k, np = v->planes;
    g->mc_in = g->mc_plane = -1;
    uint64_t mc_in = 0, mc_block[ALLOC_MAX_PLANES] = {0}, ho[ALLOC_MAX_PLANES] = {0};
    for (int q = 0; q < np; q++) {
        g->go[q] = 0;
        g->out_granted[q] = 0;
        for (uint64_t m = v->req_mask[q]; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            const alloc_req *r = &v->req[i * np + q];
            if (r->kind == REQ_DISCARD) {
                g->go[q] |= (uint64_t)1 << i;
                g->granted_ports[i * np + q] = 0;
            } else if (r->kind == REQ_MCAST) {
                mc_in |= (uint64_t)1 << i;
                mc_block[q] |= r->ports;
            } else if (r->kind == REQ_HEAD || r->kind == REQ_ACQ) {
                ho[q] |= (uint64_t)1 << i;
                g->granted_ports[i * np + q] = 0;
            }
        }
    }
    /* the bulletin: one multicast takes every slot of its set at once */
    if (v->bulletin && mc_in) {
        int i = rr_pick(mc_in, v->rr_mc);
        int q = 0;
        while (!((v->req_mask[q] >> i) & 1) || v->req[i * np + q].kind != REQ_MCAST) q++;
        g->mc_in = i;
        g->mc_plane = q;
        g->go[q] |= (uint64_t)1 << i;
        g->granted_ports[i * np + q] = v->req[i * np + q].ports;
    }
    /* the output arbiters: slot (o,q) grants one HEAD or ACQ pick of plane q */
    for (int q = 0; q < np; q++) {
        uint64_t wanted = 0;
        for (uint64_t m = ho[q]; m; m &= m - 1) wanted |= v->req[__builtin_ctzll(m) * np + q].ports;
        for (uint64_t m = wanted & ~mc_block[q]; m; m &= m - 1) {
            int o = __builtin_ctzll(m);
            if (o >= k) break;
            uint64_t cand = 0;
            for (uint64_t c = ho[q]; c; c &= c - 1) {
                int i = __builtin_ctzll(c);
                if ((v->req[i * np + q].ports >> o) & 1) cand |= (uint64_t)1 << i;
            }
            int i = rr_pick(cand, v->rr_out[o * np + q]);
            g->granted_ports[i * np + q] |= (uint64_t)1 << o;
            g->go[q] |= (uint64_t)1 << i;
            g->out_granted[q] |= (uint64_t)1 << o;
            g->out_winner[o * np + q] = (uint8_t)i;
        }
    }
}
