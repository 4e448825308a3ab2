#include "router_alloc.h"
#include "router_input.h"

#include <string.h>

void router_alloc_grant(const router *r, router_wires *w) {
    const int k = r->t.k, np = r->np, vcs = r->prm.vcs;
    alloc_req *req2 = w->req2;
    alloc_grants *g = &w->g;
    alloc_out_view ov;
    memset(&ov, 0, sizeof ov);
    ov.k = k;
    ov.planes = np;
    ov.bulletin = r->prm.bulletin;
    ov.req = req2;
    ov.rr_out = r->rr_out;
    ov.rr_mc = r->rr_mc;
    for (int q = 0; q < np; q++) {
        for (uint64_t m = r->pick_inputs & r->busy & ~w->plane_void[q]; m;
             m &= m - 1) { /* a pick needs flits and a free plane */
            int i = __builtin_ctzll(m);
            int v = r->pick[i * np + q];
            if (v < 0) continue;
            /* stage 2's proposal is stage 1's of the same cycle (the same state) on the pick's plane
             * (a VC proposing on another plane now proposes again on this one), except that a
             * pick whose VC moves last cycle's grant is void: it was picked before that grant, so
             * it names the packet that grant took ("registered requests": the RTL then checks a
             * pick from the route entry it registered with it, docs/architecture.md). A VC
             * streaming a packet looks past it; its plane is void unless that packet's tail
             * crosses now: then its next packet may be granted, to cross in the next cycle right
             * behind, if a flit is there behind (always so when the upstream keeps the protocol:
             * the next packet's route entry means its head arrived; a lost flit upstream must not
             * make the move find an empty VC) */
            const int past = r->in[i].active[v];
            if (((w->req_vcs[i] >> v) & 1) && !((r->pend_vcs[i] >> v) & 1) && (!past || r->in[i].count[v] >= 2))
                req2[i * np + q] = (w->req_pl_vcs[i] >> (8 * q + v)) & 1 ? w->reqs[i * vcs + v]
                                                                         : router_input_propose_on(r, w, i, v, q);
            else
                req2[i * np + q].kind = REQ_NONE;
            if (req2[i * np + q].kind != REQ_NONE) ov.req_mask[q] |= (uint64_t)1 << i;
        }
    }
    alloc_stage2(&ov, g);
    if (np < 2) return;
    /* the credit check across planes */
    int tent[ROUTER_MAX_PORTS][VCBUF_MAX_VCS];
    uint64_t tent_ports = 0;
    for (int q = 0; q < np; q++) {
        uint64_t cancel = 0;
        for (uint64_t m = g->go[q]; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (req2[i * np + q].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], r->pick[i * np + q]);
            for (uint64_t mo = g->granted_ports[i * np + q] & tent_ports; mo; mo &= mo - 1) {
                int o = __builtin_ctzll(mo);
                if (tent[o][e->ovc] + e->len > r->cred[o][e->ovc]) cancel |= (uint64_t)1 << i;
            }
        }
        for (uint64_t m = g->go[q]; m; m &= m - 1) { /* this plane's tentative grants count for the next */
            int i = __builtin_ctzll(m);
            if (req2[i * np + q].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], r->pick[i * np + q]);
            for (uint64_t mo = g->granted_ports[i * np + q]; mo; mo &= mo - 1) {
                int o = __builtin_ctzll(mo);
                if (!((tent_ports >> o) & 1)) {
                    memset(tent[o], 0, sizeof tent[o]);
                    tent_ports |= (uint64_t)1 << o;
                }
                tent[o][e->ovc] += e->len;
            }
        }
        for (uint64_t m = cancel; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            g->go[q] &= ~((uint64_t)1 << i);
            g->out_granted[q] &= ~g->granted_ports[i * np + q];
            if (g->mc_in == i && g->mc_plane == q) g->mc_in = g->mc_plane = -1;
        }
    }
}

void router_alloc_pick(const router *r, router_wires *w) {
    alloc_in_view iv = {r->t.k,        r->prm.vcs,    r->np,    w->reqs,
                        w->req_pl_vcs, w->req_inputs, r->rr_in, r->res_valid ? r->res_in : -1,
                        r->res_vc};
    alloc_stage1(&iv, w->pick_next);
}

void router_alloc_edge(router *r, const router_wires *w) {
    const int k = r->t.k, np = r->np, vcs = r->prm.vcs;
    for (int q = 0; q < np; q++)
        for (uint64_t m = w->g.out_granted[q]; m; m &= m - 1) {
            int o = __builtin_ctzll(m);
            int wi = w->g.out_winner[o * np + q];
            r->rr_out[o * np + q] = (uint8_t)(wi + 1 == k ? 0 : wi + 1);
        }
    if (w->g.mc_in >= 0) r->rr_mc = w->g.mc_in + 1 == k ? 0 : w->g.mc_in + 1;
    for (uint64_t m = r->pick_inputs & ~w->req_inputs; m; m &= m - 1) /* no proposal: no pick */
        for (int q = 0; q < np; q++) r->pick[__builtin_ctzll(m) * np + q] = -1;
    r->pick_inputs = 0;
    for (uint64_t m = w->req_inputs; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        for (int q = 0; q < np; q++) {
            const int n = i * np + q, pv = w->pick_next[n];
            r->pick[n] = (int8_t)pv;
            if (pv < 0) continue;
            r->rr_in[n] = (uint8_t)(pv + 1 == vcs ? 0 : pv + 1);
            r->pick_inputs |= (uint64_t)1 << i;
        }
    }
}
