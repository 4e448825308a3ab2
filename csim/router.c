#include "router.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_CAP_REF 32    /* seed 001 Table 1: local port buffer, packets */
#define GLOBAL_CAP_REF 256  /* seed 001 Table 1: global port buffer, packets */
#define TL_REF 10           /* seed 001: local threshold, packets */
#define TG_REF 30           /* seed 001: global threshold, packets */
#define TPS_REF 30          /* seed 001 sec. 3.1: t_ps ~ 30 cycles */
#define HW_DEFAULT 8

void router_default_params(const topo *t, router_params *p) {
    (void)t;
    p->depth[PORT_TERMINAL] = 8;
    p->depth[PORT_LOCAL] = 8;
    p->depth[PORT_GLOBAL] = 16;
    for (int c = 0; c < 3; c++) p->ds_depth[c] = p->depth[c];
    p->max_len = 4;
    p->mgroups = 16;
    /* The paper's thresholds relative to the paper's buffers, applied to ours. */
    p->vcs = VCBUF_NUM_VCS;
    policy_default_params(&p->pol);
    int local_cap = VCBUF_NUM_VCS * p->ds_depth[PORT_LOCAL], global_cap = VCBUF_NUM_VCS * p->ds_depth[PORT_GLOBAL];
    p->tl = local_cap * TL_REF / LOCAL_CAP_REF;
    p->tg = global_cap * TG_REF / GLOBAL_CAP_REF;
    if (p->tl < 1) p->tl = 1;
    if (p->tg < 1) p->tg = 1;
    p->hw = HW_DEFAULT;
    p->tps = TPS_REF;
    p->bulletin = 1;
    p->ctl_depth = FAULT_CTL_DEPTH;
    p->cong_demand = 1;   /* rtl/router.v CONG_DEMAND */
    p->speedup = 2;       /* seed 001 Table 1: 2.0 internal speed-up */
    p->oq_depth = 2 * p->max_len;   /* a packet waiting for the link while the next one arrives */
}

int router_check_params(const topo *t, const router_params *p, char err[DOAR_ERRLEN]) {
    for (int c = 0; c < 3; c++)
        if (p->depth[c] < 1 || p->depth[c] > VCBUF_MAX_DEPTH || p->ds_depth[c] < 1 || p->ds_depth[c] > VCBUF_MAX_DEPTH) {
            snprintf(err, DOAR_ERRLEN, "buffer depths must be 1..%d flits", VCBUF_MAX_DEPTH);
            return -1;
        }
    if (p->max_len < 1 || p->max_len > FLIT_MAX_LEN) {
        snprintf(err, DOAR_ERRLEN, "max_len=%d: must be 1..%d flits", p->max_len, FLIT_MAX_LEN);
        return -1;
    }
    for (int c = 0; c < 3; c++)
        if (p->depth[c] < p->max_len || p->ds_depth[c] < p->max_len) {
            snprintf(err, DOAR_ERRLEN, "every VC must hold a whole packet (virtual cut-through): depth >= max_len=%d",
                     p->max_len);
            return -1;
        }
    if (p->vcs < 1 || p->vcs > VCBUF_MAX_VCS) {
        snprintf(err, DOAR_ERRLEN, "vcs=%d: must be 1..%d", p->vcs, VCBUF_MAX_VCS);
        return -1;
    }
    if (p->pol.kind < POLICY_DOAR || p->pol.kind >= POLICY_COUNT) {
        snprintf(err, DOAR_ERRLEN, "unknown route policy %d", (int)p->pol.kind);
        return -1;
    }
    if (p->vcs < policy_vcs(p->pol.kind)) {
        snprintf(err, DOAR_ERRLEN, "routing %s needs %d VCs (seed 001 Table 1), router has %d",
                 policy_name(p->pol.kind), policy_vcs(p->pol.kind), p->vcs);
        return -1;
    }
    if (p->speedup != 1 && p->speedup != 2 && p->speedup != 4) {
        snprintf(err, DOAR_ERRLEN, "speedup=%d: must be 1, 2 or 4 (crossbar planes)", p->speedup);
        return -1;
    }
    if (p->oq_depth < p->max_len || p->oq_depth > VCBUF_MAX_DEPTH) {
        snprintf(err, DOAR_ERRLEN, "oq_depth=%d: an output queue must hold a whole packet (max_len=%d..%d flits)",
                 p->oq_depth, p->max_len, VCBUF_MAX_DEPTH);
        return -1;
    }
    if (p->ctl_depth < 1 || p->ctl_depth > 64) { snprintf(err, DOAR_ERRLEN, "ctl_depth must be 1..64"); return -1; }
    if (p->mgroups < 1 || p->mgroups > 256) { snprintf(err, DOAR_ERRLEN, "mgroups must be 1..256"); return -1; }
    if (p->hw < 1 || p->tps < 1 || p->tl < 0 || p->tg < 0) { snprintf(err, DOAR_ERRLEN, "hw, tps >= 1; tl, tg >= 0"); return -1; }
    (void)t;
    return 0;
}

int router_init(router *r, const topo *t, const router_params *p, const table_params *tp, char err[DOAR_ERRLEN]) {
    memset(r, 0, sizeof *r);
    if (router_check_params(t, p, err)) return -1;
    r->t = *t;
    r->prm = *p;
    r->tprm = *tp;
    int k = t->k;
    r->rcus = calloc((size_t)k, sizeof *r->rcus);
    r->in = aligned_alloc(_Alignof(vcbuf), (size_t)k * sizeof *r->in);   /* sizeof: a multiple of the alignment */
    if (r->in) memset(r->in, 0, (size_t)k * sizeof *r->in);
    r->side = calloc((size_t)k, sizeof *r->side);
    r->cred = calloc((size_t)k, sizeof *r->cred);
    const int np = p->speedup;
    r->np = np;
    r->strm = calloc((size_t)(k * np), sizeof *r->strm);
    r->pick = calloc((size_t)(k * np), sizeof *r->pick);
    r->rr_in = calloc((size_t)(k * np), sizeof *r->rr_in);
    r->rr_out = calloc((size_t)(k * np), sizeof *r->rr_out);
    r->oqs = calloc((size_t)(k * np), sizeof *r->oqs);
    r->oq_store = calloc((size_t)(k * np * p->oq_depth), sizeof *r->oq_store);
    r->lk_q = calloc((size_t)k, 1);
    r->rr_link = calloc((size_t)k, 1);
    r->crp = calloc((size_t)k, sizeof *r->crp);
    r->rr_cr = calloc((size_t)k, 1);
    r->crp_vcs = calloc((size_t)k, 1);
    r->oq_total = calloc((size_t)k, sizeof *r->oq_total);
    if (!r->rcus || !r->in || !r->side || !r->cred || !r->strm || !r->pick || !r->rr_in || !r->rr_out || !r->oqs ||
        !r->oq_store || !r->lk_q || !r->rr_link || !r->crp || !r->rr_cr || !r->crp_vcs || !r->oq_total)
        goto oom;
    for (int n = 0; n < k * np; n++) {
        r->oqs[n].ring = r->oq_store + (size_t)n * (size_t)p->oq_depth;
        r->oqs[n].depth = (uint16_t)p->oq_depth;
    }
    for (int i = 0; i < k; i++) {
        if (rcu_init(&r->rcus[i], t, tp, err)) goto fail;
        if (vcbuf_init(&r->in[i], p->depth[topo_port_class(t, i)], p->vcs)) goto oom;
    }
    r->vc_mask = p->vcs <= VCBUF_NUM_VCS ? VCBUF_NUM_VCS - 1 : VCBUF_MAX_VCS - 1;
    if (p->pol.kind != POLICY_DOAR) {
        r->pol = calloc(1, sizeof *r->pol);
        if (!r->pol) goto oom;
        if (policy_init(r->pol, t, &p->pol, err)) { free(r->pol); r->pol = NULL; goto fail; }
    }
    if (mcast_init(&r->mc, k, p->mgroups)) goto oom;
    cong_params cp = {p->tl, p->tg, p->hw, p->max_len, p->tps};
    if (cong_init(&r->cg, t, &cp)) goto oom;
    return 0;
oom:
    snprintf(err, DOAR_ERRLEN, "out of memory");
fail:
    router_free(r);
    return -1;
}

int router_enable_faults(router *r, const table_set *ts, int router_id, char err[DOAR_ERRLEN]) {
    if (ts->t.k != r->t.k || router_id < 0 || router_id >= ts->t.n_routers) {
        snprintf(err, DOAR_ERRLEN, "fault unit: tables or router id do not match the router");
        return -1;
    }
    if (r->fu) { fault_free(r->fu); free(r->fu); }
    r->fu = calloc(1, sizeof *r->fu);
    if (!r->fu) { snprintf(err, DOAR_ERRLEN, "out of memory"); return -1; }
    if (fault_init(r->fu, ts, router_id, err)) { free(r->fu); r->fu = NULL; return -1; }
    r->fu->in_depth = r->prm.ctl_depth;
    r->fu->out_depth = FAULT_OUT_DEPTH;
    return 0;
}

int router_event_ready(const router *r) { return r->fu && fault_event_ready(r->fu); }

int router_ctl_out_pending(const router *r) {
    const router_out *next = &r->regs[r->cur];   /* after the edge: next cycle's outputs */
    for (uint64_t m = next->out_ports; m; m &= m - 1)
        if (fault_is_ctl(&next->out[__builtin_ctzll(m)])) return 1;
    return 0;
}

void router_free(router *r) {
    if (r->fu) { fault_free(r->fu); free(r->fu); }
    if (r->pol) { policy_free(r->pol); free(r->pol); }
    for (int i = 0; r->rcus && i < r->t.k; i++) rcu_free(&r->rcus[i]);
    for (int i = 0; r->in && i < r->t.k; i++) vcbuf_free(&r->in[i]);
    free(r->rcus);
    free(r->in);
    free(r->side);
    free(r->cred);
    free(r->strm);
    free(r->pick);
    free(r->rr_in);
    free(r->rr_out);
    free(r->oqs);
    free(r->oq_store);
    free(r->lk_q);
    free(r->rr_link);
    free(r->crp);
    free(r->rr_cr);
    free(r->crp_vcs);
    free(r->oq_total);
    mcast_free(&r->mc);
    cong_free(&r->cg);
    memset(r, 0, sizeof *r);
}

static uint32_t port_seed(uint32_t seed, int port) { return seed + (uint32_t)port * 0x9E3779B9u; }

void router_reset(router *r, const router_cfg_in *cfg) {
    const topo *t = &r->t;
    r->cfg = *cfg;
    for (int i = 0; i < t->k; i++) {
        rcu_cfg rc;
        rc.gid = cfg->gid;
        rc.bid = cfg->bid;
        rc.pc = topo_port_class(t, i);
        rc.wired = cfg->wired;
        rc.lfsr_seed = port_seed(cfg->seed, i);
        rcu_reset(&r->rcus[i], &rc);
        vcbuf_reset(&r->in[i]);
        memset(r->side[i], 0, sizeof r->side[i]);
        for (int v = 0; v < r->prm.vcs; v++) r->cred[i][v] = r->prm.ds_depth[topo_port_class(t, i)];
        for (int q = 0; q < r->np; q++) {
            r->pick[i * r->np + q] = -1;
            r->rr_in[i * r->np + q] = 0;
            r->rr_out[i * r->np + q] = 0;
            oq_reset(&r->oqs[i * r->np + q]);
        }
        r->lk_q[i] = r->rr_link[i] = r->rr_cr[i] = r->crp_vcs[i] = 0;
        r->oq_total[i] = 0;
        memset(r->crp[i], 0, sizeof r->crp[i]);
    }
    r->rr_mc = 0;
    for (int q = 0; q < ROUTER_MAX_PLANES; q++) {
        r->locked[q] = 0;
        r->in_busy[q] = 0;
        r->grb_free[q] = t->k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->k) - 1);
    }
    r->oq_busy = r->lk_lock = r->crp_ports = r->pick_inputs = 0;
    r->res_valid = 0;
    r->res_in = 0;
    r->res_vc = 0;
    cong_reset(&r->cg, cfg->bid);
    memset(&r->regs, 0, sizeof r->regs);
    r->cur = 0;
    r->side_pos = 0;
    memset(r->occ, 0, sizeof r->occ);
    memset(r->demand, 0, sizeof r->demand);
    r->busy = 0;
    r->mc_routes = 0;
    memset(r->side_valid, 0, sizeof r->side_valid);
    r->ovf_ports = 0;
    r->parked = 0;
    r->now = 0;
    if (r->fu) fault_reset(r->fu);
    if (r->pol) policy_reset(r->pol, cfg->gid, cfg->bid, cfg->seed);
    r->link_dn = 0;
    for (int o = 0; o < t->k; o++) { r->ctl_cred[o] = r->prm.ctl_depth; r->inv_q[o] = 0; }
}

int router_buffered(const router *r) {
    int n = 0;
    for (int i = 0; i < r->t.k; i++) {
        for (int v = 0; v < r->prm.vcs; v++) n += r->in[i].count[v];
        for (int q = 0; q < r->np; q++) n += r->oqs[i * r->np + q].count;
    }
    return n;
}

int router_gport_estimate(const router *r, int o) {
    int occ = r->occ[o];
    if (!r->pol) return occ;
    int e = occ - r->pol->recent[o];
    return e > 0 ? e : 0;
}

/* Slots (o, plane) the waiting multicast has reserved (they leave the bulletin until it is done). */
static uint64_t reserved_ports(const router *r, int plane) {
    if (!r->res_valid || alloc_plane(r->res_in, r->res_vc, r->np) != plane) return 0;
    const route_entry *e = vcbuf_route(&r->in[r->res_in], r->res_vc);
    return e ? e->ports : 0;
}

/* The proposal of input i, VC v on the state at the start of the cycle (alloc.h). A VC streaming a
 * packet proposes its next one (its route entry is the front of the route FIFO: an entry leaves the
 * FIFO when its head is granted); stage 2 drops such proposals (router_cycle_ref). */
static alloc_req propose(const router *r, int i, int v) {
    alloc_req q = {REQ_NONE, 0};
    const vcbuf *b = &r->in[i];
    if (!b->count[v]) return q;
    if (!b->active[v] && !((b->front_head >> v) & 1)) {
        q.kind = REQ_DISCARD;   /* a stray body flit: drained */
        return q;
    }
    const route_entry *e = vcbuf_route(b, v);
    if (!e) return q;           /* still being routed */
    if (e->discard) { q.kind = REQ_DISCARD; return q; }
    const int pl = alloc_plane(i, v, r->np);
    uint64_t ok = 0;
    for (uint64_t m = e->ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        if (!((r->locked[pl] >> o) & 1) && r->cred[o][e->ovc] >= e->len && r->oqs[o * r->np + pl].room >= e->len)
            ok |= (uint64_t)1 << o;
    }
    if (!e->mcast) {
        /* with the bulletin a unicast head may not start on a slot a multicast holds or has reserved */
        uint64_t bulletin = r->prm.bulletin ? r->grb_free[pl] & ~reserved_ports(r, pl) : ~(uint64_t)0;
        if (ok == e->ports && (e->ports & ~bulletin) == 0) { q.kind = REQ_HEAD; q.ports = ok; }
    } else if (r->prm.bulletin) {
        int mine = r->res_valid && r->res_in == i && r->res_vc == v;
        if (ok == e->ports && (r->res_valid ? mine : (e->ports & ~r->grb_free[pl]) == 0)) {
            q.kind = REQ_MCAST;
            q.ports = ok;
        }
    } else {
        uint64_t want = ok & ~b->held[v];
        if (want) { q.kind = REQ_ACQ; q.ports = want; }
    }
    return q;
}

/* A credit of output port o, VC v becomes cred (the occupancy follows). */
static void set_cred(router *r, int o, int v, int cred) {
    r->occ[o] -= cred - r->cred[o][v];
    r->cred[o][v] = cred;
}

/* Clears the register set ro for a new cycle: every entry its masks name, then the masks. */
static void regs_clear(router_out *ro) {
    for (uint64_t m = ro->out_ports; m; m &= m - 1) memset(&ro->out[__builtin_ctzll(m)], 0, sizeof ro->out[0]);
    for (uint64_t m = ro->cr_ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        ro->cr_valid[o] = 0;
        ro->cr_vc[o] = 0;
    }
    for (uint64_t m = ro->ctl_cr_ports; m; m &= m - 1) ro->ctl_cr_valid[__builtin_ctzll(m)] = 0;
    for (uint64_t m = ro->discard; m; m &= m - 1) ro->discard_vcs[__builtin_ctzll(m)] = 0;
    ro->sb_valid = 0;
    ro->sb_bits = 0;
    ro->overflow = 0;
    ro->discard = 0;
    ro->out_ports = ro->cr_ports = ro->ctl_cr_ports = 0;
}

void router_cycle(router *r, const router_in *in, router_out *out) { *out = *router_cycle_ref(r, in, NULL); }

/* The crossbar: flit f of a packet that holds `ports` through plane pl is written into their output
 * queues (VC and, for a head a route policy rewrote, header applied). */
static void cross(router *r, int pl, uint64_t ports, int ovc, const flit *f, const route_entry *rw, uint64_t *written) {
    flit w = *f;
    w.valid = 1;
    w.vc = (uint8_t)ovc;
    if (rw && rw->rewrite && f->head) w.data = rw->hdr;
    for (uint64_t m = ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        r->oq_total[o] = (uint16_t)(r->oq_total[o] + oq_push(&r->oqs[o * r->np + pl], &w));
    }
    r->oq_busy |= ports;
    written[pl] |= ports;
}

/* Takes the credits and output-queue room of a packet for `ports` on plane pl. */
static void take_ports(router *r, int pl, uint64_t ports, const route_entry *e, uint8_t *taken) {
    for (uint64_t m = ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        set_cred(r, o, e->ovc, r->cred[o][e->ovc] - e->len);
        r->oqs[o * r->np + pl].room = (int16_t)(r->oqs[o * r->np + pl].room - e->len);
        r->demand[o] -= e->len;
        taken[o] = (uint8_t)(taken[o] + e->len);
    }
}

const router_out *router_cycle_ref(router *r, const router_in *in, const router_in_ports *ports) {
    const topo *t = &r->t;
    const int k = t->k, np = r->np;
    router_in_ports pm = {0, 0, 0, 0};   /* from here on, only these input entries are read */
    if (ports) {
        pm = *ports;
    } else {
        for (int i = 0; i < k; i++) {
            if (in->in[i].valid) pm.in |= (uint64_t)1 << i;
            if (in->cr_valid[i]) pm.cr |= (uint64_t)1 << i;
            if (in->sb_valid[i]) pm.sb |= (uint64_t)1 << i;
            if (in->ctl_cr_valid[i]) pm.ctl_cr |= (uint64_t)1 << i;
        }
    }
    const router_out *regs = &r->regs[r->cur];   /* the outputs during this cycle */
    router_out *nx = &r->regs[r->cur ^ 1];       /* the registers after the edge */
    regs_clear(nx);

    int occ[ROUTER_MAX_PORTS];   /* output port occupancy at the start of the cycle */
    memcpy(occ, r->occ, (size_t)k * sizeof occ[0]);
    int demand_start[ROUTER_MAX_PORTS];
    if (r->prm.cong_demand) memcpy(demand_start, r->demand, (size_t)k * sizeof demand_start[0]);

    /* ---- fault unit, start of the cycle: its outputs and readiness (fault.h calling order) ---- */
    fault_unit *fu = r->fu;
    uint64_t ctl_ports = 0, port_down = 0, kmask = k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1);
    fault_msg ctl_msg[ROUTER_MAX_PORTS];
    uint64_t inv_next[ROUTER_MAX_PORTS];
    uint64_t ctl_wait = 0;   /* outputs whose unit has a message and a control credit */
    int ev_ready = 0, ctl_ready[ROUTER_MAX_PORTS];
    if (fu) {
        port_down = r->link_dn;
        ev_ready = fault_event_ready(fu);
        for (int o = 0; o < k; o++) {
            ctl_ready[o] = fault_receive_ready(fu, o);
            if (r->ctl_cred[o] > 0 && fault_out_head(fu, o, &ctl_msg[o])) ctl_wait |= (uint64_t)1 << o;
            /* the synchronous mask read for the RCU (read before this cycle's writes) */
            int row = rcu_mask_row(&r->rcus[o]);
            inv_next[o] = (row >= 0 && row < fu->et_num) ? ~fault_mask(fu, o, row) & kmask : 0;
        }
    }

    /* ---- router_output, link stage: each output sends one flit of its queues (start of cycle):
     * the packet it is sending, else a waiting FD/FR packet, else a head of a queue in round robin
     * over the planes. The room a flit frees counts from the next cycle. ---- */
    int room_back[ROUTER_MAX_PORTS];   /* per output: the plane whose queue gave a flit, -1 none */
    uint64_t room_ports = 0;
    for (uint64_t m = (r->oq_busy | ctl_wait) & kmask; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        const uint64_t bit = (uint64_t)1 << o;
        int q = -1;
        if (r->lk_lock & bit) {
            q = r->lk_q[o];
            if (!r->oqs[o * np + q].count) q = -1;   /* the packet's next flit has not arrived */
        } else if (ctl_wait & bit) {
            ctl_ports |= bit;
        } else {
            for (int n = 0; n < np && q < 0; n++) {
                int c = r->rr_link[o] + n;
                if (c >= np) c -= np;
                if (r->oqs[o * np + c].count) q = c;
            }
            if (q >= 0) r->rr_link[o] = (uint8_t)(q + 1 == np ? 0 : q + 1);
        }
        if (q < 0) continue;
        oq *b = &r->oqs[o * np + q];
        const flit *f = oq_front(b);
        nx->out[o] = *f;
        nx->out_ports |= bit;
        if (f->tail) r->lk_lock &= ~bit;
        else { r->lk_lock |= bit; r->lk_q[o] = (uint8_t)q; }
        oq_pop(b);
        room_back[o] = q;
        room_ports |= bit;
        if (!--r->oq_total[o]) r->oq_busy &= ~bit;
    }

    /* ---- router_alloc: every VC's proposal on the state at the start of the cycle ---- */
    const int vcs = r->prm.vcs;
    alloc_req reqs[ROUTER_MAX_PORTS * VCBUF_MAX_VCS];   /* written where req_vcs says */
    uint8_t req_vcs[ROUTER_MAX_PORTS];
    uint64_t req_inputs = 0;
    for (uint64_t m = r->busy; m; m &= m - 1) {   /* a VC without flits proposes nothing */
        int i = __builtin_ctzll(m);
        unsigned vm = 0;
        for (unsigned mv = r->in[i].nonempty; mv; mv &= mv - 1) {
            int v = __builtin_ctz(mv);
            alloc_req q = propose(r, i, v);
            if (q.kind == REQ_NONE) continue;
            reqs[i * vcs + v] = q;
            vm |= 1u << v;
        }
        req_vcs[i] = (uint8_t)vm;
        if (vm) req_inputs |= (uint64_t)1 << i;
    }
    /* ---- router_alloc, stage 2: the registered picks propose again on this cycle's state ---- */
    alloc_req req2[ROUTER_MAX_PORTS * ROUTER_MAX_PLANES];
    alloc_out_view ov;
    memset(&ov, 0, sizeof ov);
    ov.k = k;
    ov.planes = np;
    ov.bulletin = r->prm.bulletin;
    ov.req = req2;
    ov.rr_out = r->rr_out;
    ov.rr_mc = r->rr_mc;
    for (int q = 0; q < np; q++) {
        for (uint64_t m = r->pick_inputs & r->busy & ~r->in_busy[q]; m; m &= m - 1) {   /* a pick needs flits and a free plane */
            int i = __builtin_ctzll(m);
            int v = r->pick[i * np + q];
            if (v < 0) continue;
            /* stage 2's proposal is stage 1's of the same cycle (the same state), except that a VC
             * streaming a packet proposes nothing there */
            if (((req_vcs[i] >> v) & 1) && !r->in[i].active[v]) req2[i * np + q] = reqs[i * vcs + v];
            else req2[i * np + q].kind = REQ_NONE;
            if (req2[i * np + q].kind != REQ_NONE) ov.req_mask[q] |= (uint64_t)1 << i;
        }
    }
    alloc_grants g;
    alloc_stage2(&ov, &g);
    /* Credits across planes: the planes grant in parallel, and two of them may send packets to
     * the same output VC in one cycle. A grant stands only if its len, added to what the lower
     * planes granted there (before their own cancellations: no chain), fits the credits; else it
     * is cancelled whole (a multicast stays atomic) and its output slots grant nothing this cycle. */
    if (np > 1) {
        int tent[ROUTER_MAX_PORTS][VCBUF_MAX_VCS];
        uint64_t tent_ports = 0;
        for (int q = 0; q < np; q++) {
            uint64_t cancel = 0;
            for (uint64_t m = g.go[q]; m; m &= m - 1) {
                int i = __builtin_ctzll(m);
                if (req2[i * np + q].kind == REQ_DISCARD) continue;
                const route_entry *e = vcbuf_route(&r->in[i], r->pick[i * np + q]);
                for (uint64_t mo = g.granted_ports[i * np + q] & tent_ports; mo; mo &= mo - 1) {
                    int o = __builtin_ctzll(mo);
                    if (tent[o][e->ovc] + e->len > r->cred[o][e->ovc]) cancel |= (uint64_t)1 << i;
                }
            }
            for (uint64_t m = g.go[q]; m; m &= m - 1) {   /* this plane's tentative grants count for the next */
                int i = __builtin_ctzll(m);
                if (req2[i * np + q].kind == REQ_DISCARD) continue;
                const route_entry *e = vcbuf_route(&r->in[i], r->pick[i * np + q]);
                for (uint64_t mo = g.granted_ports[i * np + q]; mo; mo &= mo - 1) {
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
                g.go[q] &= ~((uint64_t)1 << i);
                g.out_granted[q] &= ~g.granted_ports[i * np + q];
                if (g.mc_in == i && g.mc_plane == q) g.mc_in = g.mc_plane = -1;
            }
        }
    }

    /* ---- router_alloc, stage 1: new picks (registers) ---- */
    alloc_in_view iv = {k, vcs, np, reqs, req_vcs, req_inputs, r->rr_in, r->res_valid ? r->res_in : -1, r->res_vc};
    int8_t pick_next[ROUTER_MAX_PORTS * ROUTER_MAX_PLANES];
    alloc_stage1(&iv, pick_next);

    /* The reservation: a multicast that waits (or lost the bulletin) reserves its slots, so that
     * unicast heads stop starting on them and it gets them once their packets end. Only a route
     * entry with mcast set and discard clear can reserve (none: nothing to search). */
    int n_res_valid = r->res_valid, n_res_in = r->res_in, n_res_vc = r->res_vc;
    if (r->prm.bulletin) {
        if (r->res_valid && g.mc_in == r->res_in && g.mc_plane == alloc_plane(r->res_in, r->res_vc, np) &&
            r->pick[g.mc_in * np + g.mc_plane] == r->res_vc)
            n_res_valid = 0;
        if (!r->res_valid && r->mc_routes > 0) {
            for (int n = 0; n < k && !n_res_valid; n++) {
                int i = (r->rr_mc + n) % k;
                for (int v = 0; v < vcs; v++) {
                    const flit *f = vcbuf_front(&r->in[i], v);
                    const route_entry *e = vcbuf_route(&r->in[i], v);
                    int granted = g.mc_in == i && g.mc_plane == alloc_plane(i, v, np) && r->pick[i * np + g.mc_plane] == v;
                    if (f && f->head && e && e->mcast && !e->discard && !r->in[i].active[v] && !granted) {
                        n_res_valid = 1;
                        n_res_in = i;
                        n_res_vc = v;
                        break;
                    }
                }
            }
        }
    }

    /* ---- router_input + router_xbar: streams and grants move flits (state as at the start) ---- */
    uint8_t taken[ROUTER_MAX_PORTS] = {0};   /* credits each output took (route policies' history) */
    uint8_t popped[ROUTER_MAX_PORTS] = {0};  /* per input: VCs a flit left */
    uint64_t popped_ports = 0;
    uint64_t busy_start[ROUTER_MAX_PLANES], written[ROUTER_MAX_PLANES] = {0};
    memcpy(busy_start, r->in_busy, sizeof busy_start);
    for (int q = 0; q < np; q++) {
        /* streams: the packet an input plane holds sends its next flit, if it has arrived */
        for (uint64_t m = busy_start[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            router_stream *s = &r->strm[i * np + q];
            vcbuf *b = &r->in[i];
            const flit *f = vcbuf_front(b, s->vc);
            if (!f) continue;
            if (!s->discard) cross(r, q, s->ports, s->ovc, f, NULL, written);
            if (f->tail) {
                r->locked[q] &= ~s->ports;
                if (s->mcast) r->grb_free[q] |= s->ports;
                r->in_busy[q] &= ~((uint64_t)1 << i);
                b->active[s->vc] = 0;
            }
            popped[i] |= (uint8_t)(1u << s->vc);
            popped_ports |= (uint64_t)1 << i;
            vcbuf_pop(b, s->vc);
        }
        /* grants: a head crosses (or is dropped), its packet starts streaming */
        for (uint64_t m = g.go[q]; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            const int v = r->pick[i * np + q];
            vcbuf *b = &r->in[i];
            const alloc_req *rq = &req2[i * np + q];
            const flit *f = vcbuf_front(b, v);
            const route_entry *e = vcbuf_route(b, v);
            router_stream *s = &r->strm[i * np + q];
            if (rq->kind == REQ_DISCARD) {
                /* A packet without a route is drained: its head here, the rest as a stream with no
                 * output. A stray body flit (no packet in progress) just leaves. */
                if (f->head && e) {
                    if (!f->tail) {
                        s->vc = (uint8_t)v;
                        s->discard = 1;
                        s->mcast = 0;
                        s->ports = 0;
                        s->ovc = 0;
                        r->in_busy[q] |= (uint64_t)1 << i;
                        b->active[v] = 1;
                    }
                    if (e->mcast && !e->discard) r->mc_routes--;
                    vcbuf_pop_route(b, v);
                    nx->discard |= (uint64_t)1 << i;
                    nx->discard_vcs[i] |= (uint8_t)(1u << v);
                    r->discarded_heads++;
                }
                popped[i] |= (uint8_t)(1u << v);
                popped_ports |= (uint64_t)1 << i;
                vcbuf_pop(b, v);
                continue;
            }
            uint64_t got = g.granted_ports[i * np + q];
            take_ports(r, q, got, e, taken);
            if (rq->kind == REQ_ACQ) {
                r->locked[q] |= got;
                b->held[v] |= got;
                if (b->held[v] != e->ports) continue;   /* still acquiring: nothing crosses */
            } else if (rq->kind == REQ_MCAST) {
                r->locked[q] |= got;
                r->grb_free[q] &= ~got;
            } else {
                r->locked[q] |= got;
            }
            /* the head crosses; the packet streams on from the next cycle */
            cross(r, q, e->ports, e->ovc, f, e, written);
            if (f->tail) {
                r->locked[q] &= ~e->ports;
                if (e->mcast) r->grb_free[q] |= e->ports;
            } else {
                s->vc = (uint8_t)v;
                s->discard = 0;
                s->mcast = e->mcast;
                s->ovc = e->ovc;
                s->ports = e->ports;
                r->in_busy[q] |= (uint64_t)1 << i;
                b->active[v] = 1;
            }
            b->held[v] = 0;
            if (e->mcast && !e->discard) r->mc_routes--;
            vcbuf_pop_route(b, v);
            popped[i] |= (uint8_t)(1u << v);
            popped_ports |= (uint64_t)1 << i;
            vcbuf_pop(b, v);
        }
        for (uint64_t m = g.out_granted[q]; m; m &= m - 1) {
            int o = __builtin_ctzll(m);
            int w = g.out_winner[o * np + q];
            r->rr_out[o * np + q] = (uint8_t)(w + 1 == k ? 0 : w + 1);
        }
    }
    if (np > 1) {   /* outputs two or more planes wrote this cycle */
        uint64_t once = 0, twice = 0;
        for (int q = 0; q < np; q++) { twice |= once & written[q]; once |= written[q]; }
        r->multi_plane_cycles += (uint64_t)__builtin_popcountll(twice);
    }
    for (uint64_t m = popped_ports; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        if (!r->in[i].nonempty) r->busy &= ~((uint64_t)1 << i);
    }
    if (g.mc_in >= 0) r->rr_mc = g.mc_in + 1 == k ? 0 : g.mc_in + 1;
    r->res_valid = n_res_valid;
    r->res_in = n_res_in;
    r->res_vc = n_res_vc;
    /* the new picks become the stage-1 registers; the round robin moves past each pick */
    for (uint64_t m = r->pick_inputs & ~req_inputs; m; m &= m - 1)   /* no proposal: no pick */
        for (int q = 0; q < np; q++) r->pick[__builtin_ctzll(m) * np + q] = -1;
    r->pick_inputs = 0;
    for (uint64_t m = req_inputs; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        for (int q = 0; q < np; q++) {
            const int n = i * np + q, pv = pick_next[n];
            r->pick[n] = (int8_t)pv;
            if (pv < 0) continue;
            r->rr_in[n] = (uint8_t)(pv + 1 == vcs ? 0 : pv + 1);
            r->pick_inputs |= (uint64_t)1 << i;
        }
    }
    /* the room the link stage freed */
    for (uint64_t m = room_ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        r->oqs[o * np + room_back[o]].room++;
    }

    /* ---- router_input: credits upstream, one a cycle per input, round robin over the VCs owed ---- */
    for (uint64_t m = popped_ports | r->crp_ports; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        for (unsigned pv = popped[i]; pv; pv &= pv - 1) r->crp[i][__builtin_ctz(pv)]++;
        unsigned owed = r->crp_vcs[i] | popped[i];
        const unsigned hi = owed & (~0u << r->rr_cr[i]);   /* the first owed VC at or after rr_cr */
        const int v = __builtin_ctz(hi ? hi : owed);
        if (!--r->crp[i][v]) owed &= ~(1u << v);
        r->crp_vcs[i] = (uint8_t)owed;
        r->rr_cr[i] = (uint8_t)(v + 1 == vcs ? 0 : v + 1);
        nx->cr_valid[i] = 1;
        nx->cr_vc[i] = (uint8_t)v;
        nx->cr_ports |= (uint64_t)1 << i;
        if (owed) r->crp_ports |= (uint64_t)1 << i;
        else r->crp_ports &= ~((uint64_t)1 << i);
    }

    if (r->pol) policy_tick(r->pol, taken);

    /* ---- FD/FR packets leave on the ports the link stage gave them ---- */
    for (uint64_t m = ctl_ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        nx->out[o].valid = nx->out[o].head = nx->out[o].tail = 1;
        nx->out[o].vc = 0;
        nx->out[o].data = fault_msg_pack(&ctl_msg[o]);
        nx->out_ports |= (uint64_t)1 << o;
        fault_out_take(fu, o);
        r->ctl_cred[o]--;
    }

    /* ---- credits returned by the downstream routers (a credit nobody took saturates) ---- */
    for (uint64_t m = pm.cr & kmask; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        int cv = in->cr_vc[o] & r->vc_mask;
        if (cv >= vcs) continue;
        int cap = r->prm.ds_depth[topo_port_class(t, o)];
        set_cred(r, o, cv, r->cred[o][cv] + 1 > cap ? cap : r->cred[o][cv] + 1);
    }
    for (uint64_t m = pm.ctl_cr & kmask; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        if (r->ctl_cred[o] < r->prm.ctl_depth) r->ctl_cred[o]++;
    }
    for (uint64_t m = port_down & kmask; m; m &= m - 1) {   /* a dead link swallows flits: nothing waits for its credits */
        int o = __builtin_ctzll(m);
        for (int v = 0; v < vcs; v++) set_cred(r, o, v, r->prm.ds_depth[topo_port_class(t, o)]);
        r->ctl_cred[o] = r->prm.ctl_depth;
    }

    /* ---- route-compute units; completed routes enter the route FIFOs ---- */
    const int done_slot = (r->side_pos + 1) % RCU_LATENCY;   /* stage RCU_LATENCY-1; stage 0 next */
    const uint64_t tw_bit = in->tw_valid ? (uint64_t)1 << (in->tw_port & 63) : 0;  /* the RTL's port fields are 6 bits */
    /* Ports with nothing arriving, no route completing, no table write and a parked (or, with a
     * route policy, unused) RCU have nothing to do: their done slot is all zero and stays so. */
    const uint64_t work = (pm.in | r->side_valid[done_slot] | tw_bit | (r->pol ? 0 : ~r->parked)) & kmask;
    const flit none = {0, 0, 0, 0, 0};
    for (uint64_t mw = work; mw; mw &= mw - 1) {
        const int i = __builtin_ctzll(mw);
        const uint64_t bit = (uint64_t)1 << i;
        const flit *f = pm.in & bit ? &in->in[i] : &none;
        if (fu && f->valid && fault_is_ctl(f)) f = &none;   /* FD/FR: to the fault unit (below) */
        side_stage *slot = &r->side[i][done_slot];
        rcu_out ro = {0, 0, 0, 0, 0, 0};
        if (!r->pol) {   /* with a route policy the policy decides below; the RCUs idle */
            rcu *u = &r->rcus[i];
            if (r->parked & bit) {   /* it runs again: the LFSR steps it missed */
                rcu_idle_cycles(u, r->now - r->parked_at[i]);
                r->parked &= ~bit;
            }
            rcu_in ri;   /* all but cong_global (passed by reference) */
            memset(&ri.hdr, 0, sizeof ri.hdr);
            if (f->valid && f->head && !flit_mcast(f->data)) {
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
            if (rcu_idle(u)) {   /* from the next cycle on it only steps its LFSR: park it */
                r->parked |= bit;
                r->parked_at[i] = r->now + 1;
            }
        }
        const int slot_valid = (r->side_valid[done_slot] & bit) != 0;   /* = slot->valid, without reading it */
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
                policy_view pv = {occ, in->group_occ};
                policy_decision d;
                policy_route(r->pol, &pv, i, done.vc, done.data, &d);
                e.ovc = (uint8_t)d.vc;
                e.discard = d.port < 0 || d.port >= t->k;
                e.ports = e.discard ? 0 : (uint64_t)1 << d.port;
                e.rewrite = d.hdr != done.data;
                e.hdr = d.hdr;
            } else {
                e.ovc = (uint8_t)ro.vc;
                e.discard = ro.cls == RCU_NONE || ro.port >= t->k;  /* a table C item beyond k */
                e.ports = e.discard ? 0 : (uint64_t)1 << ro.port;
            }
            /* a length the credits cannot cover is a protocol error: the packet is drained */
            if (done.len == 0 || done.len > r->prm.max_len) e.discard = 1;
            if (e.discard) e.ports = 0;
            int full = r->in[i].rcount[done.vc] == r->in[i].depth;   /* vcbuf_push_route drops it */
            if (e.mcast && !e.discard && !full) r->mc_routes++;
            if (!full)
                for (uint64_t m = e.ports; m; m &= m - 1) r->demand[__builtin_ctzll(m)] += e.len;
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
        if (st.valid || slot_valid) *slot = st;   /* a slot not valid is all zero already */
        if (st.valid) r->side_valid[done_slot] |= bit;
        else r->side_valid[done_slot] &= ~bit;
        /* ---- arrivals enter the VC buffers at the end of the cycle ---- */
        if (f->valid) {
            flit a = *f;
            a.vc = (uint8_t)fvc;
            vcbuf_push(&r->in[i], &a);
            if (r->in[i].nonempty) r->busy |= bit;
        }
        if (r->in[i].overflow) r->ovf_ports |= bit;   /* sticky, as the flag */
    }
    r->side_pos = done_slot;
    nx->overflow |= r->ovf_ports;
    if (fu) memcpy(r->inv_q, inv_next, (size_t)k * sizeof inv_next[0]);   /* read above: one cycle late */

    /* ---- fault unit: the tick, then this cycle's inputs (seen from the next cycle) ---- */
    if (fu) {
        fault_tick(fu);
        if (fu->in_taken >= 0) {
            nx->ctl_cr_valid[fu->in_taken] = 1;
            nx->ctl_cr_ports |= (uint64_t)1 << fu->in_taken;
        }
        if (in->ev_valid) {
            if (ev_ready && in->ev_port >= 0 && in->ev_port < k && in->ev_kind >= FEV_LINK_DOWN && in->ev_kind <= FEV_UP) {
                fault_event(fu, (fault_event_kind)in->ev_kind, in->ev_port);
                if (in->ev_kind == FEV_UP) r->link_dn &= ~((uint64_t)1 << in->ev_port);
                else r->link_dn |= (uint64_t)1 << in->ev_port;
            } else
                r->events_dropped++;
        }
        for (uint64_t mi = pm.in & kmask; mi; mi &= mi - 1) {
            int i = __builtin_ctzll(mi);
            const flit *f = &in->in[i];
            if (!fault_is_ctl(f)) continue;
            fault_msg m;
            fault_msg_unpack(f->data, &m);
            if (ctl_ready[i] && (m.kind == FMSG_FD || m.kind == FMSG_FR)) {
                fault_receive(fu, i, &m);
            } else {   /* no control credit was free, or not a message: a protocol error */
                r->ctl_dropped++;
                nx->overflow |= (uint64_t)1 << i;
            }
        }
    }
    nx->overflow |= regs->overflow;

    /* ---- congestion, side-band, multicast table ---- */
    /* intra-group and global ports: a queue here shows at once, not a link round trip later
     * (architecture.md "Congestion") */
    if (r->prm.cong_demand)
        for (int o = t->first_local; o < k; o++) occ[o] += demand_start[o];
    cong_cycle(&r->cg, occ, pm.sb, in->sb_bits);
    nx->sb_valid = (uint8_t)cong_sb_valid(&r->cg);
    nx->sb_bits = cong_sb_bits(&r->cg);
    if (in->mw_valid) mcast_write(&r->mc, in->mw_port & 63, in->mw_group & 255, in->mw_set);

    r->cur ^= 1;   /* the clock edge */
    r->now++;
    return regs;
}
