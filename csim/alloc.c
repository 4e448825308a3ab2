#include "alloc.h"

/* First set bit of m (bits below width) at or after start, wrapping; -1 if none. */
static int first_from(uint64_t m, int start) {
    if (!m) return -1;
    uint64_t hi = start >= 64 ? 0 : m & (~(uint64_t)0 << start);
    return __builtin_ctzll(hi ? hi : m);
}

/* x mod n for x >= 0 (round-robin pointers are below n: no division then). */
static int mod(int x, int n) { return x < n ? x : x % n; }

void alloc_compute(const alloc_view *v, alloc_grants *g) {
    const int k = v->k, vcs = v->vcs;
    int pick[64];   /* defined for the inputs in req_inputs */
    g->mc_winner = -1;
    g->out_granted = 0;
    for (uint64_t m = v->req_inputs; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        g->pick_vc[i] = -1;
        g->acq_ports[i] = 0;
    }
    /* Input stage: one proposing VC per input, round robin. Inputs no VC of which proposes
     * pick nothing and are skipped (the same result, less work). */
    uint64_t mc_in = 0, ho_in = 0;   /* inputs whose pick is MCAST / HEAD or ACQ */
    for (uint64_t m = v->req_inputs; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        unsigned vm = v->req_vcs[i];
        if (i == v->prio_in && ((vm >> v->prio_vc) & 1) && v->req[i * vcs + v->prio_vc].kind == REQ_MCAST)
            pick[i] = v->prio_vc;
        else
            pick[i] = first_from(vm, mod(v->rr_in[i], vcs));
        int kind = v->req[i * vcs + pick[i]].kind;
        if (kind == REQ_MCAST) mc_in |= (uint64_t)1 << i;
        else if (kind == REQ_HEAD || kind == REQ_ACQ) ho_in |= (uint64_t)1 << i;
        else g->pick_vc[i] = pick[i];   /* bodies and discards always move */
    }
    /* Bulletin stage: one multicast takes all its ports at once. */
    uint64_t taken = 0;
    if (v->bulletin && mc_in) {
        int i = first_from(mc_in, mod(v->rr_mc, k));
        g->mc_winner = i;
        taken = v->req[i * vcs + pick[i]].ports;
        g->acq_ports[i] = taken;
        g->pick_vc[i] = pick[i];
    }
    /* Output stage: the remaining outputs each grant one head or acquisition. Outputs no pick
     * asks for grant nothing and are skipped (the same result, less work). */
    uint64_t wanted = 0;
    for (uint64_t m = ho_in; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        wanted |= v->req[i * vcs + pick[i]].ports;
    }
    for (uint64_t m = wanted & ~taken; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        if (o >= k) break;
        uint64_t cand = 0;   /* inputs asking for o */
        for (uint64_t c = ho_in; c; c &= c - 1) {
            int i = __builtin_ctzll(c);
            if ((v->req[i * vcs + pick[i]].ports >> o) & 1) cand |= (uint64_t)1 << i;
        }
        int i = first_from(cand, mod(v->rr_out[o], k));
        g->acq_ports[i] |= (uint64_t)1 << o;
        g->pick_vc[i] = pick[i];
        g->out_granted |= (uint64_t)1 << o;
        g->out_winner[o] = i;
    }
}
