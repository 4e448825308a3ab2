#include "router_alloc.h"
#include "router_input.h"

#include <string.h>

/* The commit (stage 3): last cycle's wins, each checked again on the state now. */
void router_alloc_grant(const router *r, router_wires *w) {
    const int np = r->np;
    alloc_grants *g = &w->g;
    for (int q = 0; q < np; q++) g->go[q] = g->out_granted[q] = 0;
    g->mc_in = g->mc_plane = -1;
    for (int q = 0; q < np; q++)
        for (uint64_t m = r->won_go[q] & ~w->plane_void[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q, v = r->won_vc[n];
            const alloc_req *won = &r->won_req[n];
            /* (the VC does not move a grant now: that grant's win committed last cycle, so stage 1
             * did not pick the VC then, and a pick of the cycle before was void in stage 2.) A VC
             * streaming a packet goes on with its next packet only if a flit is there behind the
             * one crossing now (always so when the upstream keeps the protocol; a lost flit
             * upstream must not make the move find an empty VC). */
            if (r->in[i].active[v] && r->in[i].count[v] < 2) continue;
            /* The win stands if its VC proposes the same kind and ports now. Under the protocol the
             * VC's front flit and route entry do not change before this commit, so it proposes the
             * kind it won or nothing, and the ports decide; the kind compare is what stops a drain
             * (DISCARD, no ports) won by a VC that an upstream's protocol error left empty since
             * (docs/architecture.md "Router v3"). */
            alloc_req now = router_input_propose_on(r, w, i, v, q);
            if (now.kind != won->kind) continue;
            if (won->kind == REQ_ACQ) {
                now.ports &= won->ports; /* the slots won that it can take now */
                if (!now.ports) continue;
            } else if (now.ports != won->ports) {
                continue;
            }
            g->go[q] |= (uint64_t)1 << i;
            g->granted_ports[n] = now.ports;
            w->req2[n] = now;
            w->gvc[n] = (int8_t)v;
            if (now.kind == REQ_MCAST) {
                g->mc_in = i;
                g->mc_plane = q;
            } else if (now.kind != REQ_DISCARD) {
                g->out_granted[q] |= now.ports;
                for (uint64_t mo = now.ports; mo; mo &= mo - 1)
                    g->out_winner[__builtin_ctzll(mo) * np + q] = (uint8_t)i;
            }
        }
    if (np < 2) return;
    const alloc_req *req2 = w->req2;
    /* the credit check across planes */
    int tent[ROUTER_MAX_PORTS][VCBUF_MAX_VCS];
    uint64_t tent_ports = 0;
    for (int q = 0; q < np; q++) {
        uint64_t cancel = 0;
        for (uint64_t m = g->go[q]; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (req2[i * np + q].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], w->gvc[i * np + q]);
            for (uint64_t mo = g->granted_ports[i * np + q] & tent_ports; mo; mo &= mo - 1) {
                int o = __builtin_ctzll(mo);
                if (tent[o][e->ovc] + e->len > r->cred[o][e->ovc]) cancel |= (uint64_t)1 << i;
            }
        }
        for (uint64_t m = g->go[q]; m; m &= m - 1) { /* this plane's tentative grants count for the next */
            int i = __builtin_ctzll(m);
            if (req2[i * np + q].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], w->gvc[i * np + q]);
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

/* Stage 2: the registered proposals of stage 1's picks, arbitrated on what the commit will find. */
void router_alloc_arbitrate(const router *r, router_wires *w) {
    const int k = r->t.k, np = r->np;
    alloc_req *rq = w->arb_req;
    alloc_out_view ov;
    memset(&ov, 0, sizeof ov);
    ov.k = k;
    ov.planes = np;
    ov.bulletin = r->prm.bulletin;
    ov.req = rq;
    ov.rr_out = r->rr_out;
    ov.rr_mc = r->rr_mc;
    for (int q = 0; q < np; q++) {
        /* an input plane busy in the next cycle, or whose win commits now, requests nothing; nor a
         * VC whose win commits now (it was picked before that win); and no slot taken by a win now
         * is requested. (A slot still held in the next cycle needs no mask here: stage 1's
         * look-ahead left out every slot whose packet's last flit would not cross by the commit.) */
        const uint64_t held = r->won_slots[q];
        const uint64_t cand = r->pick_inputs & ~(w->busy_next[q] | r->won_go[q]);
        for (uint64_t m = cand; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q, v = r->pick[n];
            if (v < 0 || ((r->won_vcs[i] >> v) & 1)) continue;
            alloc_req a = r->pk_req[n];
            if (a.kind == REQ_ACQ)
                a.ports &= ~held;
            else if (a.kind != REQ_DISCARD && (a.ports & held))
                a.ports = 0;
            if (a.kind != REQ_DISCARD && !a.ports) continue;
            rq[n] = a;
            ov.req_mask[q] |= (uint64_t)1 << i;
        }
    }
    alloc_stage2(&ov, &w->wins);
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
    memset(r->won_vcs, 0, (size_t)k);
    for (int q = 0; q < np; q++) {
        r->won_go[q] = w->wins.go[q];
        r->won_slots[q] = 0;
        for (uint64_t m = w->wins.go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q, v = r->pick[n];
            r->won_vc[n] = (int8_t)v;
            r->won_req[n] = w->arb_req[n];
            r->won_req[n].ports = w->wins.granted_ports[n];
            if (w->arb_req[n].kind != REQ_DISCARD) r->won_slots[q] |= w->wins.granted_ports[n];
            r->won_vcs[i] |= (uint8_t)(1u << v);
        }
    }
    for (uint64_t m = r->pick_inputs & ~w->req_inputs; m; m &= m - 1) /* no proposal: no pick */
        for (int q = 0; q < np; q++) r->pick[__builtin_ctzll(m) * np + q] = -1;
    r->pick_inputs = 0;
    for (uint64_t m = w->req_inputs; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        for (int q = 0; q < np; q++) {
            const int n = i * np + q, pv = w->pick_next[n];
            r->pick[n] = (int8_t)pv;
            if (pv < 0) continue;
            r->pk_req[n] = w->reqs[i * vcs + pv];
            r->rr_in[n] = (uint8_t)(pv + 1 == vcs ? 0 : pv + 1);
            r->pick_inputs |= (uint64_t)1 << i;
        }
    }
}
