#include "router_alloc.h"
#include "router_input.h"
#include "router_output.h"

#include <string.h>

/* The check: last cycle's wins, each proposed again on the state now; its decisions are granted
 * in the next cycle (router_input_grant). */
void router_alloc_check(const router *r, router_wires *w) {
    const int np = ROUTER_NP(r);
    alloc_grants *g = &w->g;
    memset(g->go, 0, sizeof g->go); /* (constant sizes: stores, not a call) */
    memset(g->out_granted, 0, sizeof g->out_granted);
    g->mc_in = g->mc_plane = -1;
    for (int q = 0; q < np; q++)
        for (uint64_t m = r->won_go[q] & ~w->plane_void[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q, v = r->won_vc[n];
            const alloc_req *won = &r->won_req[n];
            /* A VC streaming or moving a packet goes on with its next packet only if a flit is
             * there behind all that packet has left: the decision moves two cycles on, when the
             * packet's last flit has crossed (plane_void), and the head must be at the front then
             * (always so when the upstream keeps the protocol; a lost flit upstream must not make
             * the move find an empty VC). Its plane is the packet's: a VC bound to a plane proposes
             * there only. */
            if (router_input_looks_past(r, i, v) && r->in[i].count[v] <= router_input_plane_left(r, i, q)) continue;
            /* The win stands if its VC proposes the same kind and ports now. Under the protocol the
             * VC's front flit and route entry do not change before the grant, so it proposes the
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
    /* The credit check across planes, from the wins (docs/architecture.md "Router v5"): planes
     * decide in parallel and two may send packets to one output VC in one cycle. An output VC is
     * short when it has fewer than S * max_len credits; a decision of plane q is cancelled whole
     * (a multicast stays atomic) when one of its output VCs is short and a slot (o,p) of a lower
     * plane p < q holds a win for the same VC (checked now, whether or not it stands). So a short
     * VC keeps at most one decision, the lowest plane's, which its own check found credits for,
     * and a VC with S * max_len credits or more holds any S packets. */
    uint8_t wv[ROUTER_MAX_PORTS][ROUTER_MAX_PLANES]; /* (o,p): bit v: slot (o,p) holds a win for VC v */
    uint64_t wv_ports = 0;
    for (int p = 0; p + 1 < np; p++)
        for (uint64_t m = r->won_go[p]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + p;
            if (r->won_req[n].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], r->won_vc[n]);
            if (!e) continue; /* (under the protocol a win's entry is there until its grant) */
            for (uint64_t mo = r->won_req[n].ports; mo; mo &= mo - 1) {
                const int o = __builtin_ctzll(mo);
                if (!((wv_ports >> o) & 1)) {
                    memset(wv[o], 0, sizeof wv[o]);
                    wv_ports |= (uint64_t)1 << o;
                }
                wv[o][p] |= (uint8_t)(1u << e->ovc);
            }
        }
    const int short_at = np * r->prm.max_len;
    for (int q = 1; q < np; q++) {
        uint64_t cancel = 0;
        for (uint64_t m = g->go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q;
            if (w->req2[n].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], w->gvc[n]);
            /* the ports won (an ACQ's: not only those granted), as the RTL reads them */
            for (uint64_t mo = r->won_req[n].ports & wv_ports; mo; mo &= mo - 1) {
                const int o = __builtin_ctzll(mo);
                if (r->cred[o][e->ovc] >= short_at) continue;
                for (int p = 0; p < q; p++)
                    if ((wv[o][p] >> e->ovc) & 1) cancel |= (uint64_t)1 << i;
            }
        }
        for (uint64_t m = cancel; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            g->go[q] &= ~((uint64_t)1 << i);
            g->out_granted[q] &= ~g->granted_ports[i * np + q];
            if (g->mc_in == i && g->mc_plane == q) g->mc_in = g->mc_plane = -1;
        }
    }
}

/* The take of the decisions granted now, before this cycle's proposals and check read the
 * credits and the room (the RTL: dec from the decisions' registers, shifting the compares). */
void router_alloc_take(router *r, router_wires *w) {
    const int np = ROUTER_NP(r);
    for (int q = 0; q < np; q++)
        for (uint64_t m = r->dc_go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q;
            if (r->dc_kind[n] == REQ_DISCARD) continue;
            router_output_take(r, q, r->dc_ports[n], vcbuf_route(&r->in[i], r->dc_vc[n]), w->taken);
        }
}

/* sign -1 takes the ghost from the credits and the room (the counters themselves: the occupancy
 * cache is left alone), +1 gives it back. */
void router_alloc_ghost(router *r, int sign) {
    const int np = ROUTER_NP(r);
    for (uint64_t m = r->gh_ports; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        for (int v = 0; v < ROUTER_VCS(r); v++) r->cred[o][v] += sign * r->gh_cred[o][v];
        for (int q = 0; q < np; q++)
            r->oqs[o * np + q].room = (int16_t)(r->oqs[o * np + q].room + sign * r->gh_room[o * np + q]);
    }
}

/* Stage 2: the registered proposals of stage 1's picks, arbitrated on what the check will find. */
void router_alloc_arbitrate(const router *r, router_wires *w) {
    const int k = r->t.k, np = ROUTER_NP(r);
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
        /* an input plane still sending when a win of now would move (busy_next), or with a win
         * checked now or a decision granted now, requests nothing; nor a VC with either (it was
         * picked before them); and no slot taken by a win now is requested. (A slot still held
         * when the win is checked needs no mask here: stage 1's look-ahead left out every slot
         * whose packet's last flit would not cross by then.) */
        const uint64_t held = r->won_slots[q];
        const uint64_t cand = r->pick_inputs & ~(w->busy_next[q] | r->won_go[q] | r->dc_go[q]);
        for (uint64_t m = cand; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q, v = r->pick[n];
            if (v < 0 || (((r->won_vcs[i] | r->dc_vcs[i]) >> v) & 1)) continue;
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

/* Stage 1 on the proposal register, as router_input_requests masked it (router v7). */
void router_alloc_pick(const router *r, router_wires *w) {
    alloc_in_view iv = {r->t.k,       ROUTER_VCS(r), ROUTER_NP(r), r->pr_req,
                        w->pk_pl_vcs, w->pk_inputs,  r->rr_in,     r->res_valid ? r->res_in : -1,
                        r->res_vc};
    alloc_stage1(&iv, w->pick_next);
}

void router_alloc_edge(router *r, const router_wires *w) {
    const int k = r->t.k, np = ROUTER_NP(r), vcs = ROUTER_VCS(r);
    for (int q = 0; q < np; q++)
        for (uint64_t m = w->g.out_granted[q]; m; m &= m - 1) {
            int o = __builtin_ctzll(m);
            int wi = w->g.out_winner[o * np + q];
            r->rr_out[o * np + q] = (uint8_t)(wi + 1 == k ? 0 : wi + 1);
        }
    if (w->g.mc_in >= 0) r->rr_mc = w->g.mc_in + 1 == k ? 0 : w->g.mc_in + 1;
    /* the decisions, granted in the next cycle */
    /* dc_vcs is 0 but at the inputs of dc_go: those are cleared (speed only: a call to memset
     * for k bytes cost more than the few inputs) */
    for (int q = 0; q < np; q++)
        for (uint64_t m = r->dc_go[q]; m; m &= m - 1) r->dc_vcs[__builtin_ctzll(m)] = 0;
    for (int q = 0; q < np; q++) {
        r->dc_go[q] = w->g.go[q];
        r->dc_slots[q] = 0;
        for (uint64_t m = w->g.go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q;
            r->dc_ports[n] = w->g.granted_ports[n];
            r->dc_kind[n] = (uint8_t)w->req2[n].kind;
            r->dc_vc[n] = w->gvc[n];
            r->dc_vcs[i] |= (uint8_t)(1u << w->gvc[n]);
            if (w->req2[n].kind != REQ_DISCARD) r->dc_slots[q] |= w->g.granted_ports[n];
        }
    }
    /* the ghost of the next cycle: the wins checked now, less what their decisions take */
    for (uint64_t m = r->gh_ports; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        memset(r->gh_cred[o], 0, sizeof r->gh_cred[o]);
        for (int q = 0; q < np; q++) r->gh_room[o * np + q] = 0;
    }
    r->gh_ports = 0;
    for (int q = 0; q < np; q++)
        for (uint64_t m = r->won_go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q;
            if (r->won_req[n].kind == REQ_DISCARD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], r->won_vc[n]);
            if (!e) continue;
            uint64_t ghost = r->won_req[n].ports;
            if ((w->g.go[q] >> i) & 1) ghost &= ~w->g.granted_ports[n];
            for (uint64_t mo = ghost; mo; mo &= mo - 1) {
                const int o = __builtin_ctzll(mo);
                r->gh_ports |= (uint64_t)1 << o;
                r->gh_cred[o][e->ovc] += e->len;
                r->gh_room[o * np + q] = (int16_t)(r->gh_room[o * np + q] + e->len);
            }
        }
    for (int q = 0; q < np; q++) /* as dc_vcs above: 0 but at the inputs of won_go */
        for (uint64_t m = r->won_go[q]; m; m &= m - 1) r->won_vcs[__builtin_ctzll(m)] = 0;
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
    for (uint64_t m = r->pick_inputs & ~w->pk_inputs; m; m &= m - 1) /* no request: no pick */
        for (int q = 0; q < np; q++) r->pick[__builtin_ctzll(m) * np + q] = -1;
    r->pick_inputs = 0;
    for (uint64_t m = w->pk_inputs; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        for (int q = 0; q < np; q++) {
            const int n = i * np + q, pv = w->pick_next[n];
            r->pick[n] = (int8_t)pv;
            if (pv < 0) continue;
            r->pk_req[n] = r->pr_req[i * vcs + pv];
            r->rr_in[n] = (uint8_t)(pv + 1 == vcs ? 0 : pv + 1);
            r->pick_inputs |= (uint64_t)1 << i;
        }
    }
}
