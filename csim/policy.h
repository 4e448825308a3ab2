/*
 * policy — the route policies the network simulator compares DOAR with (seed 001 sec. 5, Table 1):
 * MIN, VAL, UGAL_L, UGAL_G, PAR, PAR_PH, UGAL_LE, TPR. A C-only block of the router model: the
 * RTL has the DOAR route-compute unit only (csim/rcu.h), which stays the router's default policy.
 * docs/network.md "Routing algorithms" gives every decision the cited papers leave open.
 *
 * Contract
 *   Inputs : per head flit, the input port and VC, the header (csim/flit.h) with the policy's
 *            state bits below, and a view of the router: flits outstanding per output port
 *            (credit-based, as the router's congestion logic sees them) and, for UGAL_G only,
 *            the same figure for every group-level global port of the router's group.
 *   Outputs: one output port, the output VC, and the header to send (state bits updated).
 *   Timing : the router keeps the route-compute latency of 4 cycles: the head presented in cycle
 *            t is decided in cycle t+4 on the router state of that cycle (the RCU decides on the
 *            congestion of t+2; the difference is two cycles of occupancy, documented).
 *   Paths  : minimal = at most local, global, local. Non-minimal = minimal to a random
 *            intermediate router <gi,bi> of a third group, then minimal to the destination
 *            (Valiant to a router: at most L-G-L-L-G-L). Source-routed policies decide at the
 *            source router (input from a terminal); PAR/PAR_PH decide again once, at the next
 *            router of the source group when the packet came minimally over a local link.
 *            Packets whose destination is in the source group always go minimally. The
 *            intermediate group is the n-th of the g-2 other groups in id order, n uniform from
 *            the router's PRNG, then the router bid uniform (two draws per candidate).
 *   VCs    : the DOAR rule of csim/rcu.c for every policy (terminal in: VC 0; the VC rises by one
 *            on every hop whose port class is not lower than the input's, i.e. all but G->L), so
 *            the VC never falls and no dependency cycle exists. Longest paths: MIN L-G-L needs 2
 *            VCs, VAL/UGAL L-G-L-L-G-L 4, PAR L-L-G-L-L-G-L 5: exactly Table 1's counts
 *            (policy_vcs()).
 *   Header state (unicast only; the multicast fields are free there):
 *            mgrp[5:0] = intermediate router bid, mgrp[6] = non-minimal, mgrp[7] = intermediate
 *            reached; tag[15:4] = intermediate group. tag[3:0] belongs to the network's hop
 *            counter (csim/network.h), which the policies never touch.
 *   Invariants: a decision never names a port that is unwired; every decision is a function of
 *            the router's state and its own PRNG stream (no global state).
 */
#ifndef DOAR_POLICY_H
#define DOAR_POLICY_H

#include <stdint.h>

#include "flit.h"
#include "topo.h"
#include "traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    POLICY_DOAR = 0, /* the route-compute unit (rcu), not this block */
    POLICY_MIN,
    POLICY_VAL,
    POLICY_UGAL_L,
    POLICY_UGAL_G,
    POLICY_PAR,
    POLICY_PAR_PH,
    POLICY_UGAL_LE,
    POLICY_TPR,
    POLICY_COUNT
} route_policy;

#define POLICY_IBID_SHIFT FLIT_MGRP_SHIFT /* 6 bits: intermediate router bid */
#define POLICY_IBID_MASK 0x3fu
#define POLICY_NONMIN_SHIFT (FLIT_MGRP_SHIFT + 6)
#define POLICY_REACHED_SHIFT (FLIT_MGRP_SHIFT + 7)
#define POLICY_IGID_SHIFT (FLIT_TAG_SHIFT + 4) /* 12 bits: intermediate group */
#define POLICY_IGID_MASK 0xfffu
#define POLICY_MAX_GROUPS ((int)POLICY_IGID_MASK + 1)

#define POLICY_WINDOW_DEFAULT 1000 /* TPR / UGAL_LE statistics window, cycles */
/* TPR: a window whose busiest destination group takes more than this share of the inter-group
 * packets marks that group "hot" (an adversarial pattern toward it) for the next window */
#define POLICY_TPR_ADV_SHARE_PCT 50

typedef struct {
    route_policy kind;
    int bias;   /* UGAL bias b in flits: minimal when q_min*H_min <= q_nm*H_nm + b */
    int window; /* TPR / UGAL_LE statistics window, cycles */
    int rtt[3]; /* PAR_PH / UGAL_G / TPR: credit round trip per port class, cycles (history window:
                   a packet's credits are all back rtt cycles after its head took them) */
} policy_params;

typedef struct {
    int port, vc;
    uint64_t hdr; /* the header to send */
} policy_decision;

typedef struct {
    topo t;
    policy_params prm;
    int gid, bid;
    prng rng;
    /* history window (PAR_PH, UGAL_G): per output port, credits taken (a head takes its packet's
     * length) in each of the last rtt cycles */
    uint8_t *sent; /* [k * ring] */
    int ring;      /* ring length = the longest rtt */
    int *recent;   /* [k]: credits taken in the port's own window */
    long cycle;
    /* UGAL_LE: flits this router routed toward each group-level global port, halved per window */
    int *le_load; /* [a*h] */
    /* TPR: inter-group packets injected here per destination group in the current window; the
     * busiest group so far (tpr_busy), and the hot group of the last window (-1: none) */
    int *tpr_count; /* [g] */
    int tpr_total, tpr_max, tpr_busy, tpr_hot;
    long decisions, nonminimal; /* statistics */
} policy_state;

/* Parses a routing name of issue 6 ("doar", "min", "val", "ugal_l", "ugal_g", "par", "par_ph",
 * "ugal_le", "tpr"). Returns 0, or -1. */
int policy_parse(const char *name, route_policy *out);
const char *policy_name(route_policy p);
/* VCs the policy needs (seed 001 Table 1). */
int policy_vcs(route_policy p);
void policy_default_params(policy_params *p);

int policy_init(policy_state *s, const topo *t, const policy_params *prm, char err[DOAR_ERRLEN]);
void policy_free(policy_state *s);
void policy_reset(policy_state *s, int gid, int bid, uint64_t seed);

/* The router's state as a policy sees it in the deciding cycle. */
typedef struct {
    const int *occ;       /* [k]: flits outstanding per output port (ds capacity - credits) */
    const int *group_occ; /* [a*h] (UGAL_G): the same for every global port of the group, as
                             estimated by the owning routers' history windows; NULL otherwise */
} policy_view;

/* Decides a unicast head that arrived on (in_port, in_vc). */
void policy_route(policy_state *s, const policy_view *v, int in_port, int in_vc, uint64_t hdr, policy_decision *d);
/* End of a router cycle: credits each output port took this cycle ([k]; the history window),
 * statistics windows roll over. */
void policy_tick(policy_state *s, const uint8_t *taken);
/* Outstanding flits of output port o minus the credits it took within its round trip (PAR_PH,
 * UGAL_G: flits and credits still on the link are not congestion), never below 0. */
int policy_estimate(const policy_state *s, const int *occ, int o);

#ifdef __cplusplus
}
#endif

#endif
