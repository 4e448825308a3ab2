#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const policy_names[POLICY_COUNT] = {"doar", "min",    "val",     "ugal_l", "ugal_g",
                                                       "par",  "par_ph", "ugal_le", "tpr"};

/* seed 001 Table 1: MIN 2 VCs, PAR_PH 5, all others 4 (PAR as PAR_PH: the same paths). */
static const int policy_vc_count[POLICY_COUNT] = {4, 2, 4, 4, 4, 5, 5, 4, 4};

#define PRNG_STREAM_POLICY 7u
#define UGAL_BIAS_PACKETS 2 /* default b: two packets toward minimal */

int policy_parse(const char *name, route_policy *out) {
    for (int i = 0; i < POLICY_COUNT; i++)
        if (!strcmp(name, policy_names[i])) {
            *out = (route_policy)i;
            return 0;
        }
    return -1;
}

const char *policy_name(route_policy p) { return p >= 0 && p < POLICY_COUNT ? policy_names[p] : "?"; }
int policy_vcs(route_policy p) { return p >= 0 && p < POLICY_COUNT ? policy_vc_count[p] : 4; }

void policy_default_params(policy_params *p) {
    memset(p, 0, sizeof *p);
    p->kind = POLICY_DOAR;
    p->bias = 0; /* the network sets UGAL_BIAS_PACKETS * packet length (policy_init's default) */
    p->window = POLICY_WINDOW_DEFAULT;
    p->rtt[PORT_TERMINAL] = p->rtt[PORT_LOCAL] = p->rtt[PORT_GLOBAL] = 1;
}

/* The policies whose queue estimate leaves out the flits in flight (phantom congestion: Won et
 * al. 2015 for PAR_PH; TPR's link statistics solve the same problem, seed 000 Table 2). */
static int uses_history(route_policy k) { return k == POLICY_PAR_PH || k == POLICY_UGAL_G || k == POLICY_TPR; }

int policy_init(policy_state *s, const topo *t, const policy_params *prm, char err[DOAR_ERRLEN]) {
    memset(s, 0, sizeof *s);
    if (prm->kind <= POLICY_DOAR || prm->kind >= POLICY_COUNT) {
        snprintf(err, DOAR_ERRLEN, "route policy %d: not a policy of this block", (int)prm->kind);
        return -1;
    }
    if (t->g > POLICY_MAX_GROUPS || t->a > (int)POLICY_IBID_MASK + 1) {
        snprintf(err, DOAR_ERRLEN, "routing %s: the header holds groups < %d and routers < %d", policy_name(prm->kind),
                 POLICY_MAX_GROUPS, (int)POLICY_IBID_MASK + 1);
        return -1;
    }
    if (prm->window < 1 || prm->rtt[0] < 1 || prm->rtt[1] < 1 || prm->rtt[2] < 1 || prm->rtt[0] > 100000 ||
        prm->rtt[1] > 100000 || prm->rtt[2] > 100000) {
        snprintf(err, DOAR_ERRLEN, "policy window and round trips must be 1..100000 cycles");
        return -1;
    }
    s->t = *t;
    s->prm = *prm;
    s->ring = 1;
    if (uses_history(prm->kind))
        for (int c = 0; c < 3; c++) s->ring = prm->rtt[c] > s->ring ? prm->rtt[c] : s->ring;
    s->sent = calloc((size_t)t->k * (size_t)s->ring, 1);
    s->recent = calloc((size_t)t->k, sizeof *s->recent);
    s->le_load = calloc((size_t)t->ah, sizeof *s->le_load);
    s->tpr_count = calloc((size_t)t->g, sizeof *s->tpr_count);
    if (!s->sent || !s->recent || !s->le_load || !s->tpr_count) {
        policy_free(s);
        snprintf(err, DOAR_ERRLEN, "out of memory");
        return -1;
    }
    return 0;
}

void policy_free(policy_state *s) {
    free(s->sent);
    free(s->recent);
    free(s->le_load);
    free(s->tpr_count);
    s->sent = NULL;
    s->recent = s->le_load = s->tpr_count = NULL;
}

void policy_reset(policy_state *s, int gid, int bid, uint64_t seed) {
    s->gid = gid;
    s->bid = bid;
    prng_seed(&s->rng, seed, PRNG_STREAM_POLICY, (uint64_t)topo_router(&s->t, gid, bid));
    memset(s->sent, 0, (size_t)s->t.k * (size_t)s->ring);
    memset(s->recent, 0, (size_t)s->t.k * sizeof *s->recent);
    memset(s->le_load, 0, (size_t)s->t.ah * sizeof *s->le_load);
    memset(s->tpr_count, 0, (size_t)s->t.g * sizeof *s->tpr_count);
    s->tpr_total = s->tpr_max = 0;
    s->tpr_busy = s->tpr_hot = -1;
    s->cycle = 0;
    s->decisions = s->nonminimal = 0;
}

int policy_estimate(const policy_state *s, const int *occ, int o) {
    int e = occ[o] - s->recent[o];
    return e > 0 ? e : 0;
}

void policy_tick(policy_state *s, const uint8_t *taken) {
    const topo *t = &s->t;
    if (uses_history(s->prm.kind)) {
        /* slot (cycle mod rtt) of port o holds what o took rtt cycles ago: it leaves the window */
        for (int o = 0; o < t->k; o++) {
            int len = s->prm.rtt[topo_port_class(t, o)];
            uint8_t *slot = &s->sent[(size_t)o * (size_t)s->ring + (size_t)(s->cycle % len)];
            s->recent[o] -= *slot;
            *slot = taken[o];
            s->recent[o] += *slot;
        }
    }
    s->cycle++;
    if (s->cycle % s->prm.window == 0) {
        for (int j = 0; j < t->ah; j++) s->le_load[j] /= 2;
        if (s->prm.kind == POLICY_TPR) {
            s->tpr_hot =
                s->tpr_total > 0 && s->tpr_max * 100 > s->tpr_total * POLICY_TPR_ADV_SHARE_PCT ? s->tpr_busy : -1;
            memset(s->tpr_count, 0, (size_t)t->g * sizeof *s->tpr_count);
            s->tpr_total = s->tpr_max = 0;
            s->tpr_busy = -1;
        }
    }
}

/* ---- paths ---- */

/* First hop from router <gid,bid> toward router <tg,tb> on a minimal path, and its hop count. */
static int min_hop(const topo *t, int gid, int bid, int tg, int tb, int *hops) {
    if (gid == tg) {
        *hops = bid != tb;
        return topo_local_port(t, bid, tb); /* only used when bid != tb */
    }
    int j = topo_gport_to_group(t, gid, tg);
    int owner = j / t->h;
    int pr, pp;
    topo_peer(t, topo_router(t, gid, owner), topo_global_port(t, j), &pr, &pp);
    *hops = (owner != bid) + 1 + (topo_bid(t, pr) != tb);
    return owner == bid ? topo_global_port(t, j) : topo_local_port(t, bid, owner);
}

/* First hop toward group tg (any router of it), and the router of tg the path arrives at. */
static int group_hop(const topo *t, int gid, int bid, int tg, int *arrive_bid, int *hops) {
    int j = topo_gport_to_group(t, gid, tg);
    int owner = j / t->h;
    int pr, pp;
    topo_peer(t, topo_router(t, gid, owner), topo_global_port(t, j), &pr, &pp);
    *arrive_bid = topo_bid(t, pr);
    *hops = (owner != bid) + 1;
    return owner == bid ? topo_global_port(t, j) : topo_local_port(t, bid, owner);
}

/* Group-level global port a first hop from <gid,bid> toward group tg uses. */
static int group_channel(const topo *t, int gid, int tg) { return topo_gport_to_group(t, gid, tg); }

static int out_vc(const topo *t, int in_port, int in_vc, int port, int vcs) {
    port_class in = topo_port_class(t, in_port), outc = topo_port_class(t, port);
    if (in == PORT_TERMINAL) return 0;
    if (outc == PORT_TERMINAL) return in_vc;
    int vc = in_vc + ((outc == PORT_GLOBAL ? 2 : 1) >= (in == PORT_GLOBAL ? 2 : 1));
    return vc > vcs - 1 ? vcs - 1 : vc; /* saturates; unreachable on the policies' paths */
}

typedef struct {
    int gi, bi;     /* intermediate router */
    int port, hops; /* first hop from here, whole path length */
    int chan;       /* group-level global port of the first global hop */
} nonmin_path;

/* A random intermediate router of a group that is neither ours nor the destination's. */
static int draw_nonmin(policy_state *s, int dg, int db, nonmin_path *np) {
    const topo *t = &s->t;
    if (t->g < 3) return -1;
    int gi = (int)prng_below(&s->rng, (uint32_t)(t->g - 2));
    int lo = s->gid < dg ? s->gid : dg, hi = s->gid < dg ? dg : s->gid;
    if (gi >= lo) gi++;
    if (gi >= hi) gi++;
    np->gi = gi;
    np->bi = (int)prng_below(&s->rng, (uint32_t)t->a);
    int arrive, h1, h2;
    np->port = group_hop(t, s->gid, s->bid, gi, &arrive, &h1);
    np->chan = group_channel(t, s->gid, gi);
    min_hop(t, gi, np->bi, dg, db, &h2);
    np->hops = h1 + (arrive != np->bi) + h2;
    return 0;
}

static uint64_t set_nonmin(uint64_t hdr, const nonmin_path *np) {
    uint64_t clear = ((uint64_t)0xff << FLIT_MGRP_SHIFT) | ((uint64_t)POLICY_IGID_MASK << POLICY_IGID_SHIFT);
    return (hdr & ~clear) | ((uint64_t)(np->bi & POLICY_IBID_MASK) << POLICY_IBID_SHIFT) |
           ((uint64_t)1 << POLICY_NONMIN_SHIFT) | ((uint64_t)(np->gi & POLICY_IGID_MASK) << POLICY_IGID_SHIFT);
}

static int queue_of(const policy_state *s, const policy_view *v, int port) {
    return uses_history(s->prm.kind) ? policy_estimate(s, v->occ, port) : v->occ[port];
}

/* The UGAL comparison at the current router: 1 = go non-minimally through *np. */
static int ugal_nonmin(policy_state *s, const policy_view *v, int dg, int db, nonmin_path *np) {
    const topo *t = &s->t;
    int h_min;
    int p_min = min_hop(t, s->gid, s->bid, dg, db, &h_min);
    if (draw_nonmin(s, dg, db, np)) return 0;
    long q_min = queue_of(s, v, p_min), q_nm = queue_of(s, v, np->port);
    long bias = s->prm.bias;
    switch (s->prm.kind) {
        case POLICY_UGAL_G:
            /* global knowledge: the queues of both paths' global channels, wherever they are (when the
         * first hop is that channel, it is already counted) */
            if (v->group_occ) {
                if (topo_port_class(t, p_min) == PORT_LOCAL) q_min += v->group_occ[group_channel(t, s->gid, dg)];
                if (topo_port_class(t, np->port) == PORT_LOCAL) q_nm += v->group_occ[np->chan];
            }
            break;
        case POLICY_UGAL_LE:
            /* the channel conflicts this router's own recent traffic predicts */
            q_min += s->le_load[group_channel(t, s->gid, dg)];
            q_nm += s->le_load[np->chan];
            break;
        case POLICY_TPR:
            /* toward the hot group the minimal channel is one global link for the whole pattern:
             * the hop counts are no reason to stay on it; go non-minimally unless the candidate's
             * first hop holds more than the minimal one's plus b (docs/network.md, TPR) */
            if (dg == s->tpr_hot) return q_nm <= q_min + bias;
            break;
        default: break;
    }
    return q_min * h_min > q_nm * np->hops + bias;
}

void policy_route(policy_state *s, const policy_view *v, int in_port, int in_vc, uint64_t hdr, policy_decision *d) {
    const topo *t = &s->t;
    const int vcs = policy_vcs(s->prm.kind);
    int dg = flit_dst_gid(hdr), db = flit_dst_bid(hdr), dn = flit_dst_nid(hdr);
    int nonmin = (int)((hdr >> POLICY_NONMIN_SHIFT) & 1), reached = (int)((hdr >> POLICY_REACHED_SHIFT) & 1);
    int gi = (int)((hdr >> POLICY_IGID_SHIFT) & POLICY_IGID_MASK),
        bi = (int)((hdr >> POLICY_IBID_SHIFT) & POLICY_IBID_MASK);
    port_class in_class = topo_port_class(t, in_port);
    d->hdr = hdr;

    if (in_class == PORT_TERMINAL) { /* a fresh packet: no state may come from the source */
        nonmin = reached = 0;
        d->hdr &= ~(((uint64_t)0xff << FLIT_MGRP_SHIFT) | ((uint64_t)POLICY_IGID_MASK << POLICY_IGID_SHIFT));
    }
    if (nonmin && !reached && s->gid == gi && s->bid == bi) {
        reached = 1;
        d->hdr |= (uint64_t)1 << POLICY_REACHED_SHIFT;
    }
    int decide = dg != s->gid && !nonmin &&
                 (in_class == PORT_TERMINAL || ((s->prm.kind == POLICY_PAR || s->prm.kind == POLICY_PAR_PH) &&
                                                in_class == PORT_LOCAL && flit_src_gid(hdr) == s->gid));
    if (decide) {
        nonmin_path np;
        int go = 0;
        if (in_class == PORT_TERMINAL) {
            s->decisions++;
            if (s->prm.kind == POLICY_TPR) {
                int c = ++s->tpr_count[dg];
                s->tpr_total++;
                if (c > s->tpr_max) {
                    s->tpr_max = c;
                    s->tpr_busy = dg;
                }
            }
        }
        switch (s->prm.kind) {
            case POLICY_MIN: go = 0; break;
            case POLICY_VAL: go = draw_nonmin(s, dg, db, &np) == 0; break;
            default: go = ugal_nonmin(s, v, dg, db, &np); break;
        }
        int chan;
        if (go) {
            s->nonminimal++;
            d->hdr = set_nonmin(d->hdr, &np);
            nonmin = 1;
            gi = np.gi;
            bi = np.bi;
            chan = np.chan;
        } else {
            chan = group_channel(t, s->gid, dg);
        }
        if (s->prm.kind == POLICY_UGAL_LE) s->le_load[chan] += flit_len(hdr);
    }
    int port, hops;
    if (nonmin && !reached) {
        port = min_hop(t, s->gid, s->bid, gi, bi, &hops);
    } else if (s->gid == dg && s->bid == db) {
        port = dn; /* terminal port nid */
    } else {
        port = min_hop(t, s->gid, s->bid, dg, db, &hops);
    }
    d->port = port;
    d->vc = out_vc(t, in_port, in_vc, port, vcs);
}
