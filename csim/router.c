/* router — the router's set-up: default and checked parameters, init, reset, free, and what the
 * network reads of it (csim/router.h). Its cycle, the structural top, is router_cycle.c. */
#include "router.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_CAP_REF 32   /* seed 001 Table 1: local port buffer, packets */
#define GLOBAL_CAP_REF 256 /* seed 001 Table 1: global port buffer, packets */
#define TL_REF 10          /* seed 001: local threshold, packets */
#define TG_REF 30          /* seed 001: global threshold, packets */
#define TPS_REF 30         /* seed 001 sec. 3.1: t_ps ~ 30 cycles */
#define HW_DEFAULT 8
#define CONG_RTT_DEFAULT 32 /* cycles: a link of 12 each way and the router's 8 (rtl/router.v CONG_RTT) */

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
    p->cong_demand = 1;             /* rtl/router.v CONG_DEMAND */
    p->cong_rtt = CONG_RTT_DEFAULT; /* rtl/router.v CONG_RTT */
    p->speedup = 2;                 /* seed 001 Table 1: 2.0 internal speed-up */
    p->oq_depth = 2 * p->max_len;   /* a packet waiting for the link while the next one arrives */
}

int router_check_params(const topo *t, const router_params *p, char err[DOAR_ERRLEN]) {
    for (int c = 0; c < 3; c++)
        if (p->depth[c] < 1 || p->depth[c] > VCBUF_MAX_DEPTH || p->ds_depth[c] < 1 ||
            p->ds_depth[c] > VCBUF_MAX_DEPTH) {
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
    if (p->ctl_depth < 1 || p->ctl_depth > 64) {
        snprintf(err, DOAR_ERRLEN, "ctl_depth must be 1..64");
        return -1;
    }
    if (p->mgroups < 1 || p->mgroups > 256) {
        snprintf(err, DOAR_ERRLEN, "mgroups must be 1..256");
        return -1;
    }
    if (p->cong_rtt < 0 || p->cong_rtt > ROUTER_MAX_CONG_RTT) {
        snprintf(err, DOAR_ERRLEN, "cong_rtt=%d: must be 0..%d cycles", p->cong_rtt, ROUTER_MAX_CONG_RTT);
        return -1;
    }
    if (p->hw < 1 || p->tps < 1 || p->tl < 0 || p->tg < 0) {
        snprintf(err, DOAR_ERRLEN, "hw, tps >= 1; tl, tg >= 0");
        return -1;
    }
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
    r->in = aligned_alloc(_Alignof(vcbuf), (size_t)k * sizeof *r->in); /* sizeof: a multiple of the alignment */
    if (r->in) memset(r->in, 0, (size_t)k * sizeof *r->in);
    r->side = calloc((size_t)k, sizeof *r->side);
    r->cred = calloc((size_t)k, sizeof *r->cred);
    const int np = p->speedup;
    r->np = np;
    r->strm = calloc((size_t)(k * np), sizeof *r->strm);
    r->pick = calloc((size_t)(k * np), sizeof *r->pick);
    r->g_vc = calloc((size_t)(k * np), sizeof *r->g_vc);
    r->g_kind = calloc((size_t)(k * np), sizeof *r->g_kind);
    r->g_e = calloc((size_t)(k * np), sizeof *r->g_e);
    r->pend_vcs = calloc((size_t)k, sizeof *r->pend_vcs);
    r->pk_req = calloc((size_t)(k * np), sizeof *r->pk_req);
    r->pr_req = calloc((size_t)(k * p->vcs), sizeof *r->pr_req);
    r->pr_pl_vcs = calloc((size_t)k, sizeof *r->pr_pl_vcs);
    r->pr_nx_req = calloc((size_t)(k * p->vcs), sizeof *r->pr_nx_req);
    r->pr_nx_pl_vcs = calloc((size_t)k, sizeof *r->pr_nx_pl_vcs);
    r->won_vc = calloc((size_t)(k * np), sizeof *r->won_vc);
    r->won_req = calloc((size_t)(k * np), sizeof *r->won_req);
    r->won_vcs = calloc((size_t)k, sizeof *r->won_vcs);
    r->dc_ports = calloc((size_t)(k * np), sizeof *r->dc_ports);
    r->dc_kind = calloc((size_t)(k * np), sizeof *r->dc_kind);
    r->dc_vc = calloc((size_t)(k * np), sizeof *r->dc_vc);
    r->dc_vcs = calloc((size_t)k, sizeof *r->dc_vcs);
    r->gh_cred = calloc((size_t)k, sizeof *r->gh_cred);
    r->gh_room = calloc((size_t)(k * np), sizeof *r->gh_room);
    r->rr_in = calloc((size_t)(k * np), sizeof *r->rr_in);
    r->rr_out = calloc((size_t)(k * np), sizeof *r->rr_out);
    r->xw_flit = calloc((size_t)(k * np), sizeof *r->xw_flit);
    r->oqs = calloc((size_t)(k * np), sizeof *r->oqs);
    r->oq_store = calloc((size_t)(k * np * p->oq_depth), sizeof *r->oq_store);
    r->lk_q = calloc((size_t)k, 1);
    r->ord_depth = np * p->oq_depth;
    r->ord = calloc((size_t)(k * r->ord_depth), 1);
    r->ord_head = calloc((size_t)k, sizeof *r->ord_head);
    r->ord_n = calloc((size_t)k, sizeof *r->ord_n);
    r->crp = calloc((size_t)k, sizeof *r->crp);
    r->rr_cr = calloc((size_t)k, 1);
    r->crp_vcs = calloc((size_t)k, 1);
    r->oq_total = calloc((size_t)k, sizeof *r->oq_total);
    if (!r->rcus || !r->in || !r->side || !r->cred || !r->strm || !r->pick || !r->g_vc || !r->g_kind || !r->g_e ||
        !r->pend_vcs || !r->pk_req || !r->pr_req || !r->pr_pl_vcs || !r->pr_nx_req || !r->pr_nx_pl_vcs || !r->won_vc ||
        !r->won_req || !r->won_vcs || !r->rr_in || !r->rr_out || !r->xw_flit || !r->oqs || !r->oq_store || !r->lk_q ||
        !r->ord || !r->ord_head || !r->ord_n || !r->crp || !r->rr_cr || !r->crp_vcs || !r->oq_total || !r->dc_ports ||
        !r->dc_kind || !r->dc_vc || !r->dc_vcs || !r->gh_cred || !r->gh_room)
        goto oom;
    for (int n = 0; n < k * np; n++) {
        r->oqs[n].ring = r->oq_store + (size_t)n * (size_t)p->oq_depth;
        r->oqs[n].depth = (uint16_t)p->oq_depth;
    }
    for (int i = 0; i < k; i++) {
        if (rcu_init(&r->rcus[i], t, tp, err)) goto fail;
        /* route entries at first: packets of max_len flits in a VC (the front one's tail, whole
         * ones, an arriving head); shorter packets make the FIFO grow (vcbuf.h) */
        const int depth = p->depth[topo_port_class(t, i)];
        if (vcbuf_init(&r->in[i], depth, p->vcs, depth / p->max_len + 2)) goto oom;
    }
    r->vc_mask = p->vcs <= VCBUF_NUM_VCS ? VCBUF_NUM_VCS - 1 : VCBUF_MAX_VCS - 1;
    if (p->pol.kind != POLICY_DOAR) {
        r->pol = calloc(1, sizeof *r->pol);
        if (!r->pol) goto oom;
        if (policy_init(r->pol, t, &p->pol, err)) {
            free(r->pol);
            r->pol = NULL;
            goto fail;
        }
    }
    if (mcast_init(&r->mc, k, p->mgroups)) goto oom;
    cong_params cp = {p->tl, p->tg, p->hw, p->max_len, p->tps, p->cong_rtt};
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
    if (r->fu) {
        fault_free(r->fu);
        free(r->fu);
    }
    r->fu = calloc(1, sizeof *r->fu);
    if (!r->fu) {
        snprintf(err, DOAR_ERRLEN, "out of memory");
        return -1;
    }
    if (fault_init(r->fu, ts, router_id, err)) {
        free(r->fu);
        r->fu = NULL;
        return -1;
    }
    r->fu->in_depth = r->prm.ctl_depth;
    r->fu->out_depth = FAULT_OUT_DEPTH;
    return 0;
}

int router_event_ready(const router *r) { return r->fu && fault_event_ready(r->fu); }

int router_ctl_out_pending(const router *r) {
    const router_out *next = &r->regs[r->cur]; /* after the edge: next cycle's outputs */
    for (uint64_t m = next->out_ports; m; m &= m - 1)
        if (fault_is_ctl(&next->out[__builtin_ctzll(m)])) return 1;
    return 0;
}

void router_free(router *r) {
    if (r->fu) {
        fault_free(r->fu);
        free(r->fu);
    }
    if (r->pol) {
        policy_free(r->pol);
        free(r->pol);
    }
    for (int i = 0; r->rcus && i < r->t.k; i++) rcu_free(&r->rcus[i]);
    for (int i = 0; r->in && i < r->t.k; i++) vcbuf_free(&r->in[i]);
    free(r->rcus);
    free(r->in);
    free(r->side);
    free(r->cred);
    free(r->strm);
    free(r->pick);
    free(r->g_vc);
    free(r->g_kind);
    free(r->g_e);
    free(r->pend_vcs);
    free(r->pk_req);
    free(r->pr_req);
    free(r->pr_pl_vcs);
    free(r->pr_nx_req);
    free(r->pr_nx_pl_vcs);
    free(r->won_vc);
    free(r->won_req);
    free(r->won_vcs);
    free(r->dc_ports);
    free(r->dc_kind);
    free(r->dc_vc);
    free(r->dc_vcs);
    free(r->gh_cred);
    free(r->gh_room);
    free(r->rr_in);
    free(r->rr_out);
    free(r->xw_flit);
    free(r->oqs);
    free(r->oq_store);
    free(r->lk_q);
    free(r->ord);
    free(r->ord_head);
    free(r->ord_n);
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
            r->g_vc[i * r->np + q] = -1;
            r->g_kind[i * r->np + q] = REQ_NONE;
            r->dc_vc[i * r->np + q] = -1;
            r->dc_kind[i * r->np + q] = REQ_NONE;
            r->dc_ports[i * r->np + q] = 0;
            r->gh_room[i * r->np + q] = 0;
            r->rr_in[i * r->np + q] = 0;
            r->rr_out[i * r->np + q] = 0;
            oq_reset(&r->oqs[i * r->np + q]);
        }
        r->ord_head[i] = r->ord_n[i] = 0;
        r->lk_q[i] = r->rr_cr[i] = r->crp_vcs[i] = r->pend_vcs[i] = r->won_vcs[i] = r->dc_vcs[i] = 0;
        memset(r->gh_cred[i], 0, sizeof r->gh_cred[i]);
        r->oq_total[i] = 0;
        memset(r->crp[i], 0, sizeof r->crp[i]);
    }
    r->rr_mc = 0;
    for (int q = 0; q < ROUTER_MAX_PLANES; q++) {
        r->locked[q] = 0;
        r->in_busy[q] = 0;
        r->g_go[q] = r->g_rh[q] = 0;
        r->won_go[q] = r->won_slots[q] = 0;
        r->dc_go[q] = r->dc_slots[q] = 0;
        r->grb_free[q] = t->k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->k) - 1);
    }
    memset(r->xw_valid, 0, sizeof r->xw_valid);
    memset(r->xw_start, 0, sizeof r->xw_start);
    r->oq_busy = r->lk_lock = r->crp_ports = r->pick_inputs = r->gh_ports = 0;
    r->pr_inputs = 0;
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
    for (int o = 0; o < t->k; o++) {
        r->ctl_cred[o] = r->prm.ctl_depth;
        r->inv_q[o] = 0;
    }
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
