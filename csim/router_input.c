#include "router_input.h"
#include "rr.h"

#include <string.h>

#include "router_bulletin.h"
#include "router_output.h"
#include "router_xbar.h"

/* The slots of one plane a proposal may take: not held (unl), and of them those a unicast head may
 * take (uc), and the bulletin's free slots (grb). */
typedef struct {
    uint64_t unl, uc, grb;
} slot_view;

/* Speed only: the per-VC helpers below run for every waiting VC every cycle; the compiler left
 * them as calls (about 2.5 % of a mid run's instructions went to the calls alone). */
#define HOT static inline __attribute__((always_inline))

/* The proposal of input i, VC v on plane pl, on the state at the start of the cycle (alloc.h). A
 * VC streaming a packet, or moving last cycle's grant (pending), proposes its next one (its route
 * entry is the front of the route FIFO: an entry leaves the FIFO at its grant). sv: the slots of
 * plane pl it may take: stage 1 counts those whose packet's last flit crosses within three cycles
 * as free (the check is two cycles on, its decision moves two after), the check those whose last
 * flit crosses within two (a decision of this cycle moves two cycles on); router_input_propose. */
/* A unicast head with route entry e on plane pl: every port's slot not held and, with the
 * bulletin, not held or reserved by a multicast (sv->uc), the downstream VC's credits and the
 * queue's room for len; else none. */
HOT alloc_req propose_unicast(const router *r, const slot_view *sv, const route_entry *e, int pl) {
    alloc_req q = {REQ_NONE, 0};
    for (uint64_t m = e->ports; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        if (!((sv->uc >> o) & 1) || r->cred[o][e->ovc] < e->len || r->oqs[o * ROUTER_NP(r) + pl].room < e->len)
            return q;
    }
    q.kind = REQ_HEAD;
    q.ports = e->ports;
    return q;
}

HOT alloc_req propose_any(const router *r, const slot_view *sv, int i, int v, int pl) {
    alloc_req q = {REQ_NONE, 0};
    const vcbuf *b = &r->in[i];
    if (!b->count[v]) return q;
    const int past = router_input_looks_past(r, i, v);
    if (!past && !((b->front_head >> v) & 1)) {
        q.kind = REQ_DISCARD; /* a stray body flit: drained */
        return q;
    }
    const route_entry *e = vcbuf_route(b, v);
    if (!e) return q; /* still being routed */
    if (e->discard) {
        q.kind = REQ_DISCARD;
        return q;
    }
    if (!e->mcast) return propose_unicast(r, sv, e, pl);
    uint64_t ok = 0;
    for (uint64_t m = e->ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        if (((sv->unl >> o) & 1) && r->cred[o][e->ovc] >= e->len && r->oqs[o * ROUTER_NP(r) + pl].room >= e->len)
            ok |= (uint64_t)1 << o;
    }
    if (r->prm.bulletin) {
        int mine = r->res_valid && r->res_in == i && r->res_vc == v;
        if (ok == e->ports && (r->res_valid ? mine : (e->ports & ~sv->grb) == 0)) {
            q.kind = REQ_MCAST;
            q.ports = ok;
        }
    } else {
        uint64_t want = ok & ~b->held[v];
        if (want) {
            q.kind = REQ_ACQ;
            q.ports = want;
        }
    }
    return q;
}

/* Only a unicast head crosses on a plane other than its VC's home plane (the bulletin's multicast
 * and its reservation, ACQ and the drains stay on the home plane). */
HOT alloc_req propose(const router *r, const slot_view *sv, int i, int v, int pl) {
    alloc_req q = propose_any(r, sv, i, v, pl);
    if (q.kind != REQ_HEAD && pl != alloc_plane(i, v, ROUTER_NP(r))) q.kind = REQ_NONE;
    return q;
}

/* The flits VC v of input i still has to send of the packet it streams (0: none): what lies in
 * front of a packet granted now. */
HOT int stream_left(const router *r, int i, int v) {
    if (!r->in[i].active[v]) return 0;
    const int np = ROUTER_NP(r);
    for (int p = 0; p < np; p++)
        if (((r->in_busy[p] >> i) & 1) && r->strm[i * np + p].vc == v) return r->strm[i * np + p].rem;
    return 0;
}

/* Router v7's look-past one packet deeper (docs/architecture.md "Router v7"): VC v of input i, whose
 * unicast decision is granted now on plane pl (its packet moves in the next cycle), proposes the
 * packet behind it, as it would in the next cycle. Its route entry is the route FIFO's second (the
 * granted packet's leaves the FIFO at this grant); its head is behind the stream's flits left and
 * the granted packet's len. A unicast head only, on plane pl, on the same terms as propose_any's. */
HOT alloc_req propose_next(const router *r, const slot_view *sv, int i, int v, int pl) {
    const vcbuf *b = &r->in[i];
    const route_entry *a = vcbuf_route(b, v), *e = vcbuf_route2(b, v);
    if (!a || !e || e->discard || e->mcast || !vcbuf_head_at(b, v, stream_left(r, i, v) + a->len)) {
        const alloc_req none = {REQ_NONE, 0};
        return none;
    }
    return propose_unicast(r, sv, e, pl);
}

/* Speed only: whether input i's VC v (not bound to a plane, no proposal on its home plane) can
 * propose on another plane at all: a unicast head with a route whose output VC has len credits
 * (credits are the output's, not a plane's). propose() decides; this only saves calling it. */
static int alt_may(const router *r, int i, int v) {
    const route_entry *e = vcbuf_route(&r->in[i], v);
    if (!e || e->mcast || e->discard || !((r->in[i].front_head >> v) & 1)) return 0;
    for (uint64_t m = e->ports; m; m &= m - 1)
        if (r->cred[__builtin_ctzll(m)][e->ovc] < e->len) return 0;
    return 1;
}

/* The credit plane (S >= 2; docs/architecture.md "The credit plane"): a unicast head not bound to
 * a plane whose output VC (o,v) has fewer than S * max_len credits proposes on plane (o + v) mod S
 * only. Why: with fewer credits than a packet on every plane, heads winning that VC on two planes
 * in one cycle would see all but one cancelled at the check, and a cancelled win leaves its slot
 * idle; with one plane per scarce VC its last credits go to one win. Returns the plane, or -1
 * (no rule: home plane, then the alternate one). */
HOT int credit_plane(const router *r, int i, int v) {
    const int np = ROUTER_NP(r);
    if (np < 2) return -1;
    const route_entry *e = vcbuf_route(&r->in[i], v);
    if (!e || e->mcast || e->discard || !((r->in[i].front_head >> v) & 1)) return -1;
    const int o = __builtin_ctzll(e->ports);
    if (r->cred[o][e->ovc] >= np * r->prm.max_len) return -1;
    return (o + e->ovc) % np;
}

int router_input_credit_plane(const router *r, int i, int v) { return credit_plane(r, i, v); }

alloc_req router_input_propose_on(const router *r, const router_wires *w, int i, int v, int q) {
    const slot_view sv = {w->prop_unl[q], w->prop_uc[q], r->grb_free[q]};
    return propose(r, &sv, i, v, q);
}

/* The look-ahead: the flits input plane (i,q) has left to send of the packet it streams or moves
 * now (its front flit included), when they are all here; LEFT_UNKNOWN when some have not arrived
 * (or a drained packet's tail is not at the front); 0 when the plane is idle. A packet ends at its
 * tail or after len flits, whichever comes first (router_input_move), so the flits left are at
 * most the count known here, never more: the check can rely on it two cycles ahead. */
#define LEFT_UNKNOWN 255
HOT int plane_left(const router *r, int i, int q) {
    const int np = ROUTER_NP(r), n = i * np + q;
    const uint64_t bit = (uint64_t)1 << i;
    int v, len, drain;
    if ((r->in_busy[q] & bit)) {
        v = r->strm[n].vc;
        len = r->strm[n].rem;
        drain = r->strm[n].discard;
    } else if ((r->g_go[q] & bit)) {
        v = r->g_vc[n];
        len = r->g_e[n].len;
        drain = r->g_kind[n] == REQ_DISCARD;
    } else {
        return 0;
    }
    const flit *f = vcbuf_front(&r->in[i], v);
    if (f && f->tail) return 1;
    if (drain || r->in[i].count[v] < len) return LEFT_UNKNOWN;
    return len;
}

int router_input_plane_left(const router *r, int i, int q) { return plane_left(r, i, q); }

void router_input_propose(const router *r, router_wires *w) {
    const int vcs = ROUTER_VCS(r), np = ROUTER_NP(r);
    /* the plane each VC's packet streams or moves on: its next packet proposes there only
     * (bvm[i]: input i's VCs bound to a plane, bound[i][v]: the plane where bvm[i] says) */
    uint8_t bvm[ROUTER_MAX_PORTS];
    int8_t bound[ROUTER_MAX_PORTS][VCBUF_MAX_VCS];
    memset(bvm, 0, sizeof bvm); /* (all of it: one store, and no branch below) */
    /* Per plane, from each input plane's flits left to send (plane_left; a stream, or last cycle's
     * grant moving now): the look-ahead of stage 1, the slots whose packet's last flit crosses
     * within three cycles (fr3; the bulletin's: fr3_mc), and the slots whose last flit crosses
     * within two, free for the check (frx); the input planes still sending two cycles on, whose
     * wins the check cancels (plane_void), and three cycles on, which stage 2 does not grant
     * (busy_next). A drain holds no slot. */
    slot_view ahead[ROUTER_MAX_PLANES];
    for (int q = 0; q < np; q++) {
        uint64_t fr3 = 0, fr3_mc = 0, frx = 0, bn2 = 0, bn3 = 0;
        for (uint64_t m = r->in_busy[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            const router_stream *s = &r->strm[i * np + q];
            bound[i][s->vc] = (int8_t)q;
            bvm[i] |= (uint8_t)(1u << s->vc);
            const int left = plane_left(r, i, q);
            if (left > 2) bn2 |= (uint64_t)1 << i;
            if (left > 3) bn3 |= (uint64_t)1 << i;
            if (s->discard) continue;
            if (left <= 5) {
                fr3 |= s->ports;
                if (s->mcast) fr3_mc |= s->ports;
            }
            if (left <= 2) frx |= s->ports;
        }
        for (uint64_t m = r->g_go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            const int v = r->g_vc[i * np + q];
            bound[i][v] = (int8_t)q;
            bvm[i] |= (uint8_t)(1u << v);
            const int left = plane_left(r, i, q);
            if (left > 2) bn2 |= (uint64_t)1 << i;
            if (left > 3) bn3 |= (uint64_t)1 << i;
            if (r->g_kind[i * np + q] == REQ_DISCARD) continue;
            const route_entry *ge = &r->g_e[i * np + q];
            if (left <= 5) {
                fr3 |= ge->ports;
                if (ge->mcast) fr3_mc |= ge->ports;
            }
            if (left <= 2) frx |= ge->ports;
        }
        /* the slots of a unicast decision granted now count as free when its packet is all here
         * and its last flit crosses within four cycles (it moves in the next one: router v7) */
        uint64_t frdc = 0;
        for (uint64_t m = r->dc_go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m), n = i * np + q, v = r->dc_vc[n];
            if (r->dc_kind[n] != REQ_HEAD) continue;
            const route_entry *e = vcbuf_route(&r->in[i], v);
            if (e && e->len <= 4 && r->in[i].count[v] >= stream_left(r, i, v) + e->len) frdc |= r->dc_ports[n];
        }
        w->plane_void[q] = bn2;
        w->busy_next[q] = bn3;
        const uint64_t res = r->prm.bulletin ? router_bulletin_reserved(r, q) : 0;
        /* a slot won now or granted now is held then (a decision's until its last flit crosses) */
        ahead[q].unl = ~((r->locked[q] & ~fr3) | r->won_slots[q] | (r->dc_slots[q] & ~frdc));
        ahead[q].grb = r->grb_free[q] | fr3_mc;
        ahead[q].uc = ahead[q].unl & (r->prm.bulletin ? ahead[q].grb & ~res : ~(uint64_t)0);
        /* the check: a slot granted now is locked at the edge */
        w->prop_unl[q] = ~((r->locked[q] & ~frx) | r->dc_slots[q]);
        /* with the bulletin a unicast head may not start on a slot a multicast holds or has reserved */
        w->prop_uc[q] = w->prop_unl[q] & (r->prm.bulletin ? r->grb_free[q] & ~res : ~(uint64_t)0);
    }
    w->req_inputs = 0;
    for (uint64_t m = r->busy; m; m &= m - 1) { /* a VC without flits proposes nothing */
        int i = __builtin_ctzll(m);
        const unsigned bvi = bvm[i];
        unsigned vm = 0;
        uint32_t plm = 0; /* byte q: the VCs proposing on plane q */
        /* a VC whose front flit is a head without a route entry (still being routed) proposes
         * nothing (propose_any): skipped, for speed only */
        const vcbuf *b = &r->in[i];
        /* a VC whose unicast decision is granted now proposes the packet behind it (router v7) */
        if (r->dc_vcs[i])
            for (int q = 0; q < np; q++) {
                const int n = i * np + q, v = r->dc_vc[n];
                if (!((r->dc_go[q] >> i) & 1) || r->dc_kind[n] != REQ_HEAD || ((r->won_vcs[i] >> v) & 1)) continue;
                const alloc_req a = propose_next(r, &ahead[q], i, v, q);
                if (a.kind == REQ_NONE) continue;
                w->reqs[i * vcs + v] = a;
                plm |= (1u << v) << (8 * q);
                vm |= 1u << v;
            }
        /* any other VC whose win is checked now or whose decision is granted now proposes nothing:
         * the packet it would name is that one */
        for (unsigned mv = b->nonempty & (b->routed | ~b->front_head) & ~(r->won_vcs[i] | r->dc_vcs[i]); mv;
             mv &= mv - 1) {
            int v = __builtin_ctz(mv);
            const int is_bound = (bvi >> v) & 1;
            int pl = is_bound ? bound[i][v] : alloc_plane(i, v, np);
            const int cpl = is_bound ? -1 : credit_plane(r, i, v);
            if (cpl >= 0) pl = cpl; /* scarce credits: that plane only, no alternate */
            alloc_req q = propose(r, &ahead[pl], i, v, pl);
            if (q.kind == REQ_NONE && cpl < 0 && !is_bound && np > 1 && alt_may(r, i, v)) {
                /* a unicast head that cannot go on its home plane may go on the alternate one */
                alloc_req a = propose(r, &ahead[pl ^ 1], i, v, pl ^ 1);
                if (a.kind == REQ_HEAD) {
                    q = a;
                    pl ^= 1;
                }
            }
            if (q.kind == REQ_NONE) continue;
            w->reqs[i * vcs + v] = q;
            plm |= (1u << v) << (8 * pl);
            vm |= 1u << v;
        }
        w->req_pl_vcs[i] = plm;
        if (vm) w->req_inputs |= (uint64_t)1 << i;
    }
}

/* Stage 1's requests: the proposal register (router v7), whose proposals were made in the last
 * cycle, so what happened since is taken out here, from registers only: a VC with a win checked now or a
 * decision granted now proposes nothing (the packet it named is that one), nor does a unicast head
 * or a multicast whose ports a win checked now or a decision granted now holds. (Stage 2's wins of
 * this cycle are not read: that would put two arbitration levels in one cycle. Stage 2 leaves out
 * the slots they take in the next cycle.) */
void router_input_requests(const router *r, router_wires *w) {
    const int np = ROUTER_NP(r), vcs = ROUTER_VCS(r);
    uint64_t taken[ROUTER_MAX_PLANES];
    for (int q = 0; q < np; q++) taken[q] = r->won_slots[q] | r->dc_slots[q];
    w->pk_inputs = 0;
    for (uint64_t m = r->pr_inputs; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        uint32_t plm =
            r->pr_pl_vcs[i] & ~((uint32_t)(r->won_vcs[i] | r->dc_vcs[i]) * 0x01010101u); /* every plane's byte */
        for (int q = 0; q < np; q++) {
            if (!taken[q]) continue;
            for (unsigned vm = (plm >> (8 * q)) & 0xffu; vm; vm &= vm - 1) {
                const int v = __builtin_ctz(vm);
                const alloc_req *a = &r->pr_req[i * vcs + v];
                if (a->kind != REQ_DISCARD && a->kind != REQ_ACQ && (a->ports & taken[q]))
                    plm &= ~((1u << v) << (8 * q));
            }
        }
        w->pk_pl_vcs[i] = plm;
        if (plm) w->pk_inputs |= (uint64_t)1 << i;
    }
}

void router_input_edge(router *r, const router_wires *w) {
    /* w->reqs and w->req_pl_vcs are pr_nx_req and pr_nx_pl_vcs: the register takes them */
    alloc_req *req = r->pr_req;
    uint32_t *pl = r->pr_pl_vcs;
    r->pr_req = r->pr_nx_req;
    r->pr_pl_vcs = r->pr_nx_pl_vcs;
    r->pr_nx_req = req;
    r->pr_nx_pl_vcs = pl;
    r->pr_inputs = w->req_inputs;
}

void router_input_move(router *r, router_wires *w) {
    const int np = ROUTER_NP(r);
    router_out *nx = w->nx;
    uint64_t busy_start[ROUTER_MAX_PLANES]; /* the streams as at the start of the cycle */
    memcpy(busy_start, r->in_busy, sizeof busy_start);
    for (int q = 0; q < np; q++) {
        /* streams: the packet an input plane holds sends its next flit, if it has arrived */
        for (uint64_t m = busy_start[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            router_stream *s = &r->strm[i * np + q];
            vcbuf *b = &r->in[i];
            const flit *f = vcbuf_front(b, s->vc);
            if (!f) continue;
            if (!s->discard) router_xbar_write(r, q, s->ports, s->ovc, f, NULL);
            /* the packet ends at its tail, or after len flits (a drain at its tail only): a flit
             * behind its len (an upstream's protocol error) is a stray body, drained */
            if (f->tail || (!s->discard && s->rem == 1)) {
                r->locked[q] &= ~s->ports;
                if (s->mcast) r->grb_free[q] |= s->ports;
                r->in_busy[q] &= ~((uint64_t)1 << i);
                b->active[s->vc] = 0;
            } else if (s->rem > 1) {
                s->rem--;
            }
            w->popped[i] |= (uint8_t)(1u << s->vc);
            w->popped_ports |= (uint64_t)1 << i;
            vcbuf_pop(b, s->vc);
        }
        /* the grant stage: last cycle's grants move: a head crosses (or is dropped), its packet
         * starts streaming (its slots, credits and room were taken at the grant) */
        for (uint64_t m = r->g_go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            const int v = r->g_vc[i * np + q];
            vcbuf *b = &r->in[i];
            const flit *f = vcbuf_front(b, v);
            const route_entry *e = &r->g_e[i * np + q];
            router_stream *s = &r->strm[i * np + q];
            r->pend_vcs[i] = 0;
            if (r->g_kind[i * np + q] == REQ_DISCARD) {
                /* A packet without a route is drained: its head here, the rest as a stream with no
                 * output. A stray body flit (no packet in progress) just leaves. */
                if ((r->g_rh[q] >> i) & 1) {
                    if (!f->tail) {
                        s->vc = (uint8_t)v;
                        s->discard = 1;
                        s->mcast = 0;
                        s->ports = 0;
                        s->ovc = 0;
                        s->rem = 1;
                        r->in_busy[q] |= (uint64_t)1 << i;
                        b->active[v] = 1;
                    }
                    nx->discard |= (uint64_t)1 << i;
                    nx->discard_vcs[i] |= (uint8_t)(1u << v);
                    nx->discard_marked += (uint8_t)(f->data >> 63);
                    r->discarded_heads++;
                }
                w->popped[i] |= (uint8_t)(1u << v);
                w->popped_ports |= (uint64_t)1 << i;
                vcbuf_pop(b, v);
                continue;
            }
            /* the head crosses; the packet streams on from the next cycle */
            router_xbar_write(r, q, e->ports, e->ovc, f, e);
            if (f->tail || e->len <= 1) {
                r->locked[q] &= ~e->ports;
                if (e->mcast) r->grb_free[q] |= e->ports;
            } else {
                s->vc = (uint8_t)v;
                s->discard = 0;
                s->mcast = e->mcast;
                s->ovc = e->ovc;
                s->ports = e->ports;
                s->rem = (uint8_t)(e->len > 2 ? e->len - 1 : 1);
                r->in_busy[q] |= (uint64_t)1 << i;
                b->active[v] = 1;
            }
            w->popped[i] |= (uint8_t)(1u << v);
            w->popped_ports |= (uint64_t)1 << i;
            vcbuf_pop(b, v);
        }
        r->g_go[q] = r->g_rh[q] = 0;
    }
    /* speed cache: inputs whose VC buffers emptied */
    for (uint64_t m = w->popped_ports; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        if (!r->in[i].nonempty) r->busy &= ~((uint64_t)1 << i);
    }
}

void router_input_grant(router *r, router_wires *w) {
    const int np = ROUTER_NP(r);
    for (int q = 0; q < np; q++)
        for (uint64_t m = r->dc_go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            const int n = i * np + q, v = r->dc_vc[n];
            const int kind = r->dc_kind[n];
            vcbuf *b = &r->in[i];
            const route_entry *e = vcbuf_route(b, v);
            if (kind != REQ_DISCARD) {
                /* (its credits and room were taken at the start of the cycle: router_alloc_take) */
                const uint64_t got = r->dc_ports[n];
                r->locked[q] |= got; /* until the tail has crossed (a one-flit packet: its move) */
                if (kind == REQ_MCAST) r->grb_free[q] &= ~got;
                if (kind == REQ_ACQ) {
                    b->held[v] |= got;
                    if (b->held[v] != e->ports) continue; /* still acquiring: nothing moves */
                }
                b->held[v] = 0;
            } else {
                /* a head's DISCARD (its route entry says so) or a stray body flit's (no packet in
                 * progress, a body at the front): a look-past proposal always names an entry */
                const int past = router_input_looks_past(r, i, v);
                if (!e || !(past || ((b->front_head >> v) & 1))) goto registered;
                r->g_rh[q] |= (uint64_t)1 << i;
            }
            /* the route entry leaves its FIFO at the grant: the VC's next packet may propose */
            r->g_e[n] = *e;
            if (e->mcast && !e->discard) r->mc_routes--;
            vcbuf_pop_route(b, v);
            w->rpopped[i] |= (uint8_t)(1u << v);
        registered:
            r->g_go[q] |= (uint64_t)1 << i;
            r->g_vc[n] = (int8_t)v;
            r->g_kind[n] = (uint8_t)kind;
            r->pend_vcs[i] |= (uint8_t)(1u << v);
        }
}

void router_input_credits(router *r, router_wires *w) {
    const int vcs = ROUTER_VCS(r);
    router_out *nx = w->nx;
    for (uint64_t m = w->popped_ports | r->crp_ports; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        const unsigned pop = w->popped[i];
        unsigned owed;
        int v;
        if (!r->crp_vcs[i] && pop && !(pop & (pop - 1))) {
            /* speed only, the common case: one pop and no debt; its credit goes now (what the
             * counts below would do: up one and down one) */
            v = __builtin_ctz(pop);
            owed = 0;
        } else {
            for (unsigned pv = pop; pv; pv &= pv - 1) r->crp[i][__builtin_ctz(pv)]++;
            owed = r->crp_vcs[i] | pop;
            v = rr_pick(owed, r->rr_cr[i]); /* owed is not 0: a pop or an old debt */
            if (!--r->crp[i][v]) owed &= ~(1u << v);
        }
        r->crp_vcs[i] = (uint8_t)owed;
        r->rr_cr[i] = (uint8_t)(v + 1 == vcs ? 0 : v + 1);
        nx->cr_valid[i] = 1;
        nx->cr_vc[i] = (uint8_t)v;
        nx->cr_ports |= (uint64_t)1 << i;
        if (owed)
            r->crp_ports |= (uint64_t)1 << i;
        else
            r->crp_ports &= ~((uint64_t)1 << i);
    }
}

void router_input_route(router *r, const router_in *in, router_wires *w) {
    const topo *t = &r->t;
    const int vcs = ROUTER_VCS(r);
    router_out *nx = w->nx;
    const int done_slot = (r->side_pos + 1) % RCU_LATENCY; /* stage RCU_LATENCY-1; stage 0 next */
    const uint64_t tw_bit = in->tw_valid ? (uint64_t)1 << (in->tw_port & 63) : 0; /* the RTL's port fields are 6 bits */
    /* Ports with nothing arriving, no route completing, no table write and a parked (or, with a
     * route policy, unused) RCU have nothing to do: their done slot is all zero and stays so. */
    const uint64_t work = (w->pm.in | r->side_valid[done_slot] | tw_bit | (r->pol ? 0 : ~r->parked)) & w->kmask;
    const flit none = {0, 0, 0, 0, 0};
    for (uint64_t mw = work; mw; mw &= mw - 1) {
        const int i = __builtin_ctzll(mw);
        const uint64_t bit = (uint64_t)1 << i;
        const flit *f = w->pm.in & bit ? &in->in[i] : &none;
        if (r->fu && f->valid && fault_is_ctl(f)) f = &none; /* FD/FR: to the fault unit (below) */
        side_stage *slot = &r->side[i][done_slot];
        rcu_out ro = {0, 0, 0, 0, 0, 0};
        const int uc_head = f->valid && f->head && !flit_mcast(f->data);
        /* with a route policy the policy decides below and the RCUs idle. Speed only: a parked
         * RCU given no header and no table write stays parked (it would only step its LFSR, which
         * rcu_idle_cycles catches up on); its output is not read, as no route completes here:
         * a header two cycles ago would have kept it from parking. */
        if (!r->pol && (!(r->parked & bit) || uc_head || (tw_bit & bit))) {
            rcu *u = &r->rcus[i];
            if (r->parked & bit) { /* it runs again: the LFSR steps it missed */
                rcu_idle_cycles(u, r->now - r->parked_at[i]);
                r->parked &= ~bit;
            }
            rcu_in ri; /* all but cong_global (passed by reference) */
            memset(&ri.hdr, 0, sizeof ri.hdr);
            if (uc_head) {
                ri.hdr.valid = 1;
                ri.hdr.dst_gid = flit_dst_gid(f->data);
                ri.hdr.dst_bid = flit_dst_bid(f->data);
                ri.hdr.dst_nid = flit_dst_nid(f->data);
                ri.hdr.src_gid = flit_src_gid(f->data);
                ri.hdr.vc = f->vc & r->vc_mask;
            }
            ri.opt_invalid = r->inv_q[i];
            ri.cong_local = r->cg.cong_local;
            ri.tw_valid = 0;
            if (tw_bit & bit) {
                ri.tw_valid = 1;
                ri.tw_table = in->tw_table;
                ri.tw_addr = in->tw_addr;
                ri.tw_data = in->tw_data;
            }
            rcu_cycle_cg(u, &ri, &r->cg.group, &ro);
            if (rcu_idle(u)) { /* from the next cycle on it only steps its LFSR: park it */
                r->parked |= bit;
                r->parked_at[i] = r->now + 1;
            }
        }
        const int slot_valid = (r->side_valid[done_slot] & bit) != 0; /* = slot->valid, without reading it */
        if (slot_valid) {
            const side_stage done = *slot;
            route_entry e;
            memset(&e, 0, sizeof e);
            e.len = done.len;
            if (done.mcast) {
                e.mcast = 1;
                e.ovc = done.vc;
                e.ports = mcast_lookup(&r->mc, i, done.grp);
                e.discard = e.ports == 0;
            } else if (r->pol) {
                policy_view pv = {w->occ, in->group_occ};
                policy_decision d;
                policy_route(r->pol, &pv, i, done.vc, done.data, &d);
                e.ovc = (uint8_t)d.vc;
                e.discard = d.port < 0 || d.port >= t->k;
                e.ports = e.discard ? 0 : (uint64_t)1 << d.port;
                e.rewrite = d.hdr != done.data;
                e.hdr = d.hdr;
            } else {
                e.ovc = (uint8_t)ro.vc;
                e.discard = ro.cls == RCU_NONE || ro.port >= t->k; /* a table C item beyond k */
                e.ports = e.discard ? 0 : (uint64_t)1 << ro.port;
            }
            /* a length the credits cannot cover is a protocol error: the packet is drained */
            if (done.len == 0 || done.len > r->prm.max_len) e.discard = 1;
            if (e.discard) e.ports = 0;
            /* a route FIFO full at the start of the cycle refuses the entry, even when a grant
             * popped one now (rtl/vcbuf.v: the grant stays off the route-push path) */
            int full = r->in[i].rcount[done.vc] + ((w->rpopped[i] >> done.vc) & 1) >= r->in[i].depth;
            if (e.mcast && !e.discard && !full) r->mc_routes++;
            if (!full)
                for (uint64_t m = e.ports; m; m &= m - 1) r->demand[__builtin_ctzll(m)] += e.len;
            if (full)
                r->in[i].overflow = 1;
            else
                vcbuf_push_route(&r->in[i], done.vc, &e);
        }
        /* the side stages shift: the done slot becomes stage 0 */
        side_stage st = {0, 0, 0, 0, 0, 0};
        /* a head dropped on a full VC (an upstream protocol error) gets no route entry */
        int fvc = f->vc & r->vc_mask;
        int accepted = f->valid && fvc < vcs && r->in[i].count[fvc] < r->in[i].depth;
        if (f->valid && f->head && accepted) {
            st.valid = 1;
            st.vc = (uint8_t)fvc;
            st.mcast = (uint8_t)flit_mcast(f->data);
            st.grp = (uint8_t)flit_mgrp(f->data);
            st.len = (uint8_t)flit_len(f->data);
            st.data = f->data;
        }
        if (st.valid || slot_valid) *slot = st; /* a slot not valid is all zero already */
        if (st.valid)
            r->side_valid[done_slot] |= bit;
        else
            r->side_valid[done_slot] &= ~bit;
        /* ---- arrivals enter the VC buffers at the end of the cycle ---- */
        if (f->valid) {
            flit a = *f;
            a.vc = (uint8_t)fvc;
            vcbuf_push(&r->in[i], &a);
            if (r->in[i].nonempty) r->busy |= bit;
        }
        if (r->in[i].overflow) r->ovf_ports |= bit; /* sticky, as the flag */
    }
    r->side_pos = done_slot;
    nx->overflow |= r->ovf_ports;
}
