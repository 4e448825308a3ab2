/* Route policies (csim/policy.c): every policy delivers every packet on a wired path, within its
 * path-length bound, with VCs that never fall and stay below seed 001 Table 1's count; UGAL-type
 * decisions go minimal on empty queues and non-minimal when the minimal queue is long; the
 * history window forgets credits after one round trip; TPR turns non-minimal on adversarial
 * statistics. Path facts are derived here from the wiring rules, not taken from policy.c. */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "testutil.h"

#define WALK_PAIRS 1500
#define WALK_MAX_HOPS 12
#define OCC_RANDOM_MAX 60
#define RTT_TEST 20
#define HUGE_QUEUE 100000

/* Router-to-router links of the minimal path (brief, "Topology": one global link per group pair). */
static int minimal_hops(const topo *t, int rs, int rd) {
    int gs = topo_gid(t, rs), bs = topo_bid(t, rs), gd = topo_gid(t, rd), bd = topo_bid(t, rd);
    if (rs == rd) return 0;
    if (gs == gd) return 1;
    int j_out = topo_gport_to_group(t, gs, gd), j_in = topo_gport_to_group(t, gd, gs);
    return 1 + (j_out / t->h != bs) + (j_in / t->h != bd);
}

typedef struct {
    topo t;
    policy_state *st; /* one per router */
    int n;
} fabric;

static int fabric_init(fabric *f, const topo *t, route_policy kind, uint64_t seed) {
    policy_params pp;
    char err[DOAR_ERRLEN];
    policy_default_params(&pp);
    pp.kind = kind;
    pp.bias = 8;
    pp.window = 100;
    pp.rtt[0] = pp.rtt[1] = pp.rtt[2] = RTT_TEST;
    f->t = *t;
    f->n = t->n_routers;
    f->st = calloc((size_t)f->n, sizeof *f->st);
    if (!f->st) return -1;
    for (int r = 0; r < f->n; r++) {
        if (policy_init(&f->st[r], t, &pp, err)) return -1;
        policy_reset(&f->st[r], topo_gid(t, r), topo_bid(t, r), seed);
    }
    return 0;
}

static void fabric_free(fabric *f) {
    for (int r = 0; r < f->n; r++) policy_free(&f->st[r]);
    free(f->st);
}

typedef struct {
    int hops, max_vc, ok, went_nonmin;
    char why[160];
} walk_result;

/* Carries one packet from node src to node dst, hop by hop, with the given views. */
static walk_result walk(fabric *f, int src, int dst, const int *occ, const int *group_occ) {
    const topo *t = &f->t;
    walk_result w = {0, 0, 0, 0, ""};
    int r = src / t->p, in_port = src % t->p, vc = 0;
    int dgid = dst / (t->a * t->p), dbid = (dst / t->p) % t->a, dnid = dst % t->p;
    uint64_t hdr = flit_header(dgid, dbid, dnid, topo_gid(t, r), 0, 0, 4, 0);
    for (int step = 0; step <= WALK_MAX_HOPS; step++) {
        policy_view v = {occ, group_occ};
        policy_decision d;
        policy_route(&f->st[r], &v, in_port, vc, hdr, &d);
        if ((d.hdr >> POLICY_NONMIN_SHIFT) & 1) w.went_nonmin = 1;
        if (d.vc < vc && topo_port_class(t, d.port) != PORT_TERMINAL) {
            snprintf(w.why, sizeof w.why, "VC fell from %d to %d at router %d", vc, d.vc, r);
            return w;
        }
        if (d.vc > w.max_vc) w.max_vc = d.vc;
        if (d.port < 0 || d.port >= t->k) {
            snprintf(w.why, sizeof w.why, "port %d out of range", d.port);
            return w;
        }
        if (d.port < t->p) { /* a terminal port: delivered here */
            w.ok = r == dst / t->p && d.port == dnid;
            if (!w.ok) snprintf(w.why, sizeof w.why, "delivered at router %d port %d", r, d.port);
            return w;
        }
        int pr, pp;
        if (topo_peer(t, r, d.port, &pr, &pp)) {
            snprintf(w.why, sizeof w.why, "router %d port %d is unwired", r, d.port);
            return w;
        }
        w.hops++;
        r = pr;
        in_port = pp;
        vc = d.vc;
        hdr = d.hdr;
    }
    snprintf(w.why, sizeof w.why, "more than %d hops", WALK_MAX_HOPS);
    return w;
}

static int hop_bound(route_policy k) {
    switch (k) {
        case POLICY_MIN: return 3;
        case POLICY_PAR:
        case POLICY_PAR_PH: return 7; /* L, then L-G-L-L-G-L from the second router */
        default: return 6;            /* L-G-L-L-G-L */
    }
}

static void test_walks(test_ctx *c, const topo *t) {
    for (int kind = POLICY_MIN; kind < POLICY_COUNT; kind++) {
        fabric f;
        EXPECT(c, fabric_init(&f, t, (route_policy)kind, 11) == 0, "init %s", policy_name(kind));
        prng rng;
        prng_seed(&rng, 5, 1, (uint64_t)kind);
        int occ[DOAR_MAX_RADIX];
        int *gocc = calloc((size_t)t->ah, sizeof *gocc);
        int bad = 0, over = 0, nonmin = 0, vc_over = 0, inter = 0;
        for (int n = 0; n < WALK_PAIRS; n++) {
            for (int o = 0; o < t->k; o++) occ[o] = (int)prng_below(&rng, OCC_RANDOM_MAX);
            for (int j = 0; j < t->ah; j++) gocc[j] = (int)prng_below(&rng, OCC_RANDOM_MAX);
            int src = (int)prng_below(&rng, (uint32_t)t->n_nodes), dst = (int)prng_below(&rng, (uint32_t)t->n_nodes);
            if (src == dst) continue;
            walk_result w = walk(&f, src, dst, occ, gocc);
            if (!w.ok && bad++ == 0)
                EXPECT(c, w.ok, "%s on %s: %d -> %d: %s", policy_name(kind), t->name, src, dst, w.why);
            if (w.hops > hop_bound((route_policy)kind) && over++ == 0)
                EXPECT(c, 0, "%s on %s: %d -> %d took %d hops (bound %d)", policy_name(kind), t->name, src, dst, w.hops,
                       hop_bound((route_policy)kind));
            if (w.max_vc >= policy_vcs((route_policy)kind) && vc_over++ == 0)
                EXPECT(c, 0, "%s on %s: VC %d with %d VCs", policy_name(kind), t->name, w.max_vc,
                       policy_vcs((route_policy)kind));
            if (src / (t->a * t->p) != dst / (t->a * t->p)) {
                inter++;
                nonmin += w.went_nonmin;
                if (kind == POLICY_MIN)
                    EXPECT(c, w.hops == minimal_hops(t, src / t->p, dst / t->p), "min took %d hops", w.hops);
            } else {
                EXPECT(c, !w.went_nonmin && w.hops == minimal_hops(t, src / t->p, dst / t->p),
                       "%s: intra-group packets go minimally", policy_name(kind));
            }
        }
        EXPECT(c, bad == 0 && over == 0 && vc_over == 0, "%s on %s: %d undelivered, %d too long, %d VC overflows",
               policy_name(kind), t->name, bad, over, vc_over);
        if (kind == POLICY_MIN) EXPECT(c, nonmin == 0, "min never goes non-minimally");
        if (kind == POLICY_VAL)
            EXPECT(c, nonmin == inter, "val: every inter-group packet non-minimal (%d of %d)", nonmin, inter);
        free(gocc);
        fabric_free(&f);
    }
}

/* UGAL-type choices at the source router: empty queues -> minimal; a huge minimal queue -> not. */
static void test_ugal_choices(test_ctx *c, const topo *t) {
    const route_policy kinds[] = {POLICY_UGAL_L, POLICY_UGAL_G, POLICY_PAR, POLICY_PAR_PH, POLICY_UGAL_LE, POLICY_TPR};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        fabric f;
        EXPECT(c, fabric_init(&f, t, kinds[i], 3) == 0, "init");
        int zero[DOAR_MAX_RADIX] = {0}, full[DOAR_MAX_RADIX];
        int *gzero = calloc((size_t)t->ah, sizeof *gzero);
        int empty_nonmin = 0, full_nonmin = 0, pairs = 0, same_port = 0;
        for (int src = 0; src < t->n_nodes; src += 3)
            for (int dst = 1; dst < t->n_nodes; dst += 7) {
                int gs = src / (t->a * t->p), gd = dst / (t->a * t->p);
                if (gs == gd) continue;
                pairs++;
                int rs = src / t->p;
                /* a fresh source router: no statistics (UGAL_LE, TPR) from earlier packets */
                policy_reset(&f.st[rs], topo_gid(t, rs), topo_bid(t, rs), 3);
                walk_result w = walk(&f, src, dst, zero, gzero);
                empty_nonmin += w.went_nonmin;
                /* the source router's minimal first hop full, everything else empty: decide once */
                policy_reset(&f.st[rs], topo_gid(t, rs), topo_bid(t, rs), 3);
                int dgid = gd, dbid = (dst / t->p) % t->a;
                int j = topo_gport_to_group(t, gs, dgid), owner = j / t->h;
                int min_port =
                    owner == topo_bid(t, rs) ? topo_global_port(t, j) : topo_local_port(t, topo_bid(t, rs), owner);
                for (int o = 0; o < t->k; o++) full[o] = o == min_port ? HUGE_QUEUE : 0;
                policy_view v = {full, gzero};
                policy_decision d;
                uint64_t hdr = flit_header(dgid, dbid, dst % t->p, gs, 0, 0, 4, 0);
                /* the candidate the policy will draw (policy.h: the k-th of the other groups in id
                 * order, k uniform), and its first hop: through the full port it cannot win */
                prng peek = f.st[rs].rng;
                int gi = (int)prng_below(&peek, (uint32_t)(t->g - 2));
                for (int g = 0; g <= gi; g++)
                    if (g == gs || g == gd) gi++;
                int ji = topo_gport_to_group(t, gs, gi), oi = ji / t->h;
                int nm_port = oi == topo_bid(t, rs) ? topo_global_port(t, ji) : topo_local_port(t, topo_bid(t, rs), oi);
                policy_route(&f.st[rs], &v, src % t->p, 0, hdr, &d);
                int went = (int)((d.hdr >> POLICY_NONMIN_SHIFT) & 1);
                EXPECT(c, went == (nm_port != min_port),
                       "%s: %d -> %d (candidate group %d via port %d, minimal port %d): "
                       "non-minimal=%d",
                       policy_name(kinds[i]), src, dst, gi, nm_port, min_port, went);
                full_nonmin += went;
                same_port += nm_port == min_port;
            }
        EXPECT(c, pairs > 0 && empty_nonmin == 0, "%s: %d of %d packets non-minimal on empty queues",
               policy_name(kinds[i]), empty_nonmin, pairs);
        EXPECT(c, full_nonmin == pairs - same_port && full_nonmin > pairs / 2,
               "%s: %d of %d non-minimal with a full minimal queue", policy_name(kinds[i]), full_nonmin, pairs);
        free(gzero);
        fabric_free(&f);
    }
}

/* The history window: credits taken within the round trip are not congestion; after it they are. */
static void test_history_window(test_ctx *c, const topo *t) {
    fabric f;
    EXPECT(c, fabric_init(&f, t, POLICY_PAR_PH, 1) == 0, "init");
    policy_state *s = &f.st[0];
    int o = t->first_global;
    uint8_t taken[DOAR_MAX_RADIX] = {0};
    int occ[DOAR_MAX_RADIX] = {0};
    taken[o] = 4;
    policy_tick(s, taken);
    occ[o] = 4;
    EXPECT(c, policy_estimate(s, occ, o) == 0, "just sent: estimate %d, want 0", policy_estimate(s, occ, o));
    taken[o] = 0;
    for (int n = 1; n < RTT_TEST; n++) policy_tick(s, taken);
    EXPECT(c, policy_estimate(s, occ, o) == 0, "within the round trip: estimate %d", policy_estimate(s, occ, o));
    policy_tick(s, taken);
    EXPECT(c, policy_estimate(s, occ, o) == 4, "after the round trip the credits count: estimate %d, want 4",
           policy_estimate(s, occ, o));
    fabric_free(&f);
}

/* TPR: a window of packets to one group makes it the hot group: toward it empty queues then go
 * non-minimally, toward another group they stay minimal; a window spread over every group keeps
 * all of them minimal. Then the hot group's first hop: a candidate port holding more than the
 * minimal one plus b keeps the packet minimal. */
static void test_tpr(test_ctx *c, const topo *t) {
    int zero[DOAR_MAX_RADIX] = {0};
    uint8_t none[DOAR_MAX_RADIX] = {0};
    for (int adversarial = 0; adversarial <= 1; adversarial++) {
        fabric f;
        EXPECT(c, fabric_init(&f, t, POLICY_TPR, 2) == 0, "init");
        policy_state *s = &f.st[0]; /* router <0,0> */
        policy_view v = {zero, NULL};
        policy_decision d;
        for (int n = 0; n < 4 * t->g; n++) {
            int dg = adversarial ? 1 : 1 + n % (t->g - 1);
            policy_route(s, &v, 0, 0, flit_header(dg, 0, 0, 0, 0, 0, 4, 0), &d);
        }
        for (int n = 0; n < f.st[0].prm.window; n++) policy_tick(s, none);
        long before = s->nonminimal;
        policy_route(s, &v, 0, 0, flit_header(1, 0, 0, 0, 0, 0, 4, 0), &d);
        EXPECT(c, (s->nonminimal - before) == adversarial, "tpr toward group 1 after %s statistics: non-minimal %ld",
               adversarial ? "adversarial" : "uniform", s->nonminimal - before);
        before = s->nonminimal;
        policy_route(s, &v, 0, 0, flit_header(2, 0, 0, 0, 0, 0, 4, 0), &d);
        EXPECT(c, s->nonminimal == before, "tpr toward group 2 (not hot) after %s statistics: non-minimal %ld",
               adversarial ? "adversarial" : "uniform", s->nonminimal - before);
        if (adversarial) /* every port but the minimal one's holds b (non-minimal), then b + 1 (minimal) */
            for (int extra = 0; extra <= 1; extra++) {
                int busy[DOAR_MAX_RADIX];
                int j = topo_gport_to_group(t, 0, 1), owner = j / t->h;
                int min_port = owner == 0 ? topo_global_port(t, j) : topo_local_port(t, 0, owner);
                for (int o = 0; o < t->k; o++) busy[o] = o == min_port ? 0 : f.st[0].prm.bias + extra;
                policy_view vb = {busy, NULL};
                before = s->nonminimal;
                policy_route(s, &vb, 0, 0, flit_header(1, 0, 0, 0, 0, 0, 4, 0), &d);
                EXPECT(c, s->nonminimal - before == 1 - extra,
                       "tpr toward the hot group, candidate's port at b + %d: non-minimal %ld", extra,
                       s->nonminimal - before);
            }
        fabric_free(&f);
    }
}

static void test_names(test_ctx *c) {
    const char *names[] = {"doar", "min", "val", "ugal_l", "ugal_g", "par", "par_ph", "ugal_le", "tpr"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        route_policy p;
        EXPECT(c, policy_parse(names[i], &p) == 0 && !strcmp(policy_name(p), names[i]), "name %s", names[i]);
    }
    route_policy p;
    EXPECT(c, policy_parse("UGAL_L", &p) != 0 && policy_parse("", &p) != 0 && policy_parse("ugal", &p) != 0,
           "unknown names are refused");
    /* seed 001 Table 1 */
    EXPECT(c,
           policy_vcs(POLICY_MIN) == 2 && policy_vcs(POLICY_PAR_PH) == 5 && policy_vcs(POLICY_VAL) == 4 &&
               policy_vcs(POLICY_UGAL_L) == 4 && policy_vcs(POLICY_UGAL_G) == 4 && policy_vcs(POLICY_TPR) == 4 &&
               policy_vcs(POLICY_UGAL_LE) == 4 && policy_vcs(POLICY_DOAR) == 4,
           "VC counts of Table 1");
}

int main(void) {
    test_ctx c = {0, 0, "test_policy"};
    char err[DOAR_ERRLEN];
    test_names(&c);
    const char *configs[] = {"small", "mid"};
    for (int i = 0; i < 2; i++) {
        topo t;
        EXPECT(&c, topo_named(&t, configs[i], err) == 0, "%s", err);
        test_walks(&c, &t);
        test_ugal_choices(&c, &t);
        test_history_window(&c, &t);
        test_tpr(&c, &t);
    }
    return test_finish(&c);
}
