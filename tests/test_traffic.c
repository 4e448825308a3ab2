/* Traffic patterns (csim/traffic.c): names parse and print back, bad names are refused; no
 * pattern ever sends to its source, on networks down to 2 nodes; the mixes choose round(y%) of the
 * routers or nodes, whole routers for r_, and their ADV part is ADV+1 and their RP part rp's
 * permutation; the application patterns send exactly to the grid neighbours, ring successor,
 * row / column group, wavefront successors their definitions name (docs/network.md, "Traffic
 * patterns"). Every destination set below is derived here from the definition, with its own
 * coordinate arithmetic, and compared with what traffic_dest() draws. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "traffic.h"

#define MAX_NODES 128

static int setup(test_ctx *c, traffic *tr, const topo *t, const char *name, uint64_t seed) {
    char err[DOAR_ERRLEN];
    traffic_spec s;
    if (traffic_parse(name, t, &s, err)) {
        EXPECT(c, 0, "parse '%s': %s", name, err);
        return -1;
    }
    if (traffic_init(tr, t, &s, seed, err)) {
        EXPECT(c, 0, "init '%s': %s", name, err);
        return -1;
    }
    return 0;
}

static void named(topo *t, const char *name) {
    char err[DOAR_ERRLEN];
    if (topo_named(t, name, err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

static void dfly(topo *t, int p, int a, int h, int g) {
    char err[DOAR_ERRLEN];
    if (topo_init(t, p, a, h, g, NULL, err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

/* Counts of the destinations of `draws` packets from src in cycle `cycle`. */
static void histogram(const traffic *tr, int src, long cycle, int draws, prng *r, int counts[MAX_NODES]) {
    memset(counts, 0, MAX_NODES * sizeof counts[0]);
    for (int i = 0; i < draws; i++) {
        int d = traffic_dest(tr, src, r, cycle);
        if (d >= 0 && d < MAX_NODES)
            counts[d]++;
        else
            counts[0] += 1000000; /* out of range: no set equality can hold */
    }
}

/* The destinations drawn are exactly the set `want` (every member drawn at least once). */
static int same_set(const int counts[MAX_NODES], const unsigned char want[MAX_NODES], int n) {
    for (int d = 0; d < n; d++)
        if ((counts[d] > 0) != (want[d] != 0)) return 0;
    for (int d = n; d < MAX_NODES; d++)
        if (counts[d]) return 0;
    return 1;
}

static int specs_equal(const traffic_spec *a, const traffic_spec *b) {
    return a->kind == b->kind && a->shift == b->shift && a->mix_nodes == b->mix_nodes && a->mix_rp == b->mix_rp &&
           a->ur_pct == b->ur_pct && a->mix_pct == b->mix_pct && a->linear_place == b->linear_place &&
           a->period == b->period;
}

static void test_names(test_ctx *c) {
    char err[DOAR_ERRLEN], buf[TRAFFIC_NAME_LEN];
    topo t;
    traffic_spec s, s2;
    named(&t, "small");
    /* canonical names print as themselves and parse back to the same spec */
    const char *canon[] = {"ur",
                           "rp",
                           "adv+3",
                           "r_mixed_ua(25,75)",
                           "r_mixed_ur(0,100)",
                           "n_mixed_ua(100,0)",
                           "n_mixed_ur(50,50)",
                           "lu",
                           "lu(linear)",
                           "lu(700)",
                           "fft3d(linear,500)",
                           "fft3d",
                           "halo3d",
                           "halo3d(linear)",
                           "stencil5d(linear)",
                           "stencil5d",
                           "dl",
                           "dl(linear)",
                           "lulesh",
                           "lulesh(linear)",
                           "fft3d(linear,1000000000)"};
    for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        int rc = traffic_parse(canon[i], &t, &s, err);
        EXPECT(c, rc == 0, "'%s' refused: %s", canon[i], err);
        if (rc) continue;
        traffic_name(&s, buf, sizeof buf);
        EXPECT(c, !strcmp(buf, canon[i]), "'%s' printed as '%s'", canon[i], buf);
        EXPECT(c, traffic_parse(buf, &t, &s2, err) == 0 && specs_equal(&s, &s2), "'%s' does not round-trip", buf);
    }
    /* other spellings of the same patterns */
    const char *alias[][2] = {{"lu(random)", "lu"},
                              {"fft3d(2000)", "fft3d"},
                              {"fft3d(500,linear)", "fft3d(linear,500)"},
                              {"halo3d(random)", "halo3d"},
                              {"r_mixed_ua(050,50)", "r_mixed_ua(50,50)"},
                              {"fft3d(random,2000)", "fft3d"},
                              {"adv+01", "adv+1"}};
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++) {
        int rc = traffic_parse(alias[i][0], &t, &s, err);
        EXPECT(c, rc == 0, "'%s' refused: %s", alias[i][0], err);
        traffic_name(&s, buf, sizeof buf);
        EXPECT(c, rc || !strcmp(buf, alias[i][1]), "'%s' printed as '%s', want '%s'", alias[i][0], buf, alias[i][1]);
    }
    /* what the names mean */
    EXPECT(c,
           traffic_parse("n_mixed_ur(30,70)", &t, &s, err) == 0 && s.kind == TRAFFIC_MIXED && s.mix_nodes == 1 &&
               s.mix_rp == 1 && s.ur_pct == 30 && s.mix_pct == 70,
           "n_mixed_ur(30,70) parsed wrong");
    EXPECT(c, traffic_parse("r_mixed_ua(30,70)", &t, &s, err) == 0 && s.mix_nodes == 0 && s.mix_rp == 0,
           "r_mixed_ua(30,70) parsed wrong");
    EXPECT(c,
           traffic_parse("fft3d(500,linear)", &t, &s, err) == 0 && s.kind == TRAFFIC_FFT3D && s.period == 500 &&
               s.linear_place == 1,
           "fft3d(500,linear) parsed wrong");
    EXPECT(c, traffic_parse("lu", &t, &s, err) == 0 && s.kind == TRAFFIC_LU && s.period == 2000 && s.linear_place == 0,
           "lu defaults wrong");
    /* refused, with the name quoted in the one-line reason */
    const char *bad[] = {"r_mixed_ua(30,30)",
                         "r_mixed_ua(a,b)",
                         "r_mixed_ua(101,-1)",
                         "r_mixed_ua",
                         "r_mixed_ua()",
                         "r_mixed_ua(50,50",
                         "r_mixed_ua(50,50)x",
                         "r_mixed_ua(50, 50)",
                         "r_mixed_ua(+50,50)",
                         "r_mixed_ua(50,50,0)",
                         "r_mixed_ua(,100)",
                         "r_mixed_ua(100,)",
                         "x_mixed_ua(50,50)",
                         "r_mixed_uu(50,50)",
                         "R_MIXED_UA(50,50)",
                         "n_mixed_ur(60,60)",
                         "r_mixed_ur(101,0)",
                         "halo3d(500)",
                         "halo3d()",
                         "halo3d(linear,random)",
                         "halo3d(linear,linear)",
                         "fft3d(0)",
                         "fft3d(random,)",
                         "fft3d(,random)",
                         "fft3d(1000000001)",
                         "lu(500,600)",
                         "lu(linear))",
                         "lulesh(",
                         "dl(x)",
                         "stencil5d ",
                         "",
                         "adv+",
                         "adv+-1",
                         "halo3d(Random)",
                         "lu(-5)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "traffic '%s'", bad[i]);
        err[0] = '\0';
        EXPECT(c, traffic_parse(bad[i], &t, &s, err) == -1 && strstr(err, quoted) == err && !strchr(err, '\n'),
               "'%s' accepted or reason '%s'", bad[i], err);
    }
    traffic_parse("r_mixed_ua(30,30)", &t, &s, err);
    EXPECT(c, strstr(err, "add up to 100") != NULL, "sum reason: %s", err);
    traffic_parse("r_mixed_ua(a,b)", &t, &s, err);
    EXPECT(c, strstr(err, "expected r_mixed_ua(x,y)") != NULL, "form reason: %s", err);
    /* ADV+1 needs a second group; RP does not */
    topo one;
    dfly(&one, 2, 2, 1, 1);
    EXPECT(c, traffic_parse("r_mixed_ua(50,50)", &one, &s, err) == -1, "r_mixed_ua accepted with g=1");
    EXPECT(c, traffic_parse("r_mixed_ur(50,50)", &one, &s, err) == 0, "r_mixed_ur refused with g=1: %s", err);
}

/* Grid shapes worked out by hand: the factors with the smallest sum, largest first. */
static void test_grid(test_ctx *c) {
    struct {
        int n, d, want[5];
    } cases[] = {
        {72, 3, {6, 4, 3, 1, 1}},
        {72, 2, {9, 8, 1, 1, 1}},
        {72, 5, {3, 3, 2, 2, 2}},
        {64, 3, {4, 4, 4, 1, 1}},
        {1056, 3, {12, 11, 8, 1, 1}},
        {13, 3, {13, 1, 1, 1, 1}},
        {6, 5, {3, 2, 1, 1, 1}},
        {5256, 3, {73, 9, 8, 1, 1}},
        {5256, 2, {73, 72, 1, 1, 1}},
        {2, 2, {2, 1, 1, 1, 1}},
        {262656, 5, {19, 12, 12, 12, 8}},
        {360, 3, {9, 8, 5, 1, 1}}, /* sum 22 ties with 10x6x6: the smaller largest factor wins */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int dims[TRAFFIC_MAX_DIMS];
        traffic_grid(cases[i].n, cases[i].d, dims);
        EXPECT(c, !memcmp(dims, cases[i].want, sizeof dims), "grid %d in %d dims: %d %d %d %d %d", cases[i].n,
               cases[i].d, dims[0], dims[1], dims[2], dims[3], dims[4]);
    }
}

static const char *every_pattern[] = {"ur",
                                      "rp",
                                      "adv+1",
                                      "r_mixed_ua(50,50)",
                                      "r_mixed_ur(50,50)",
                                      "n_mixed_ua(30,70)",
                                      "n_mixed_ur(70,30)",
                                      "r_mixed_ua(0,100)",
                                      "n_mixed_ur(0,100)",
                                      "lu",
                                      "lu(linear,7)",
                                      "fft3d",
                                      "fft3d(linear,7)",
                                      "halo3d",
                                      "halo3d(linear)",
                                      "stencil5d",
                                      "stencil5d(linear)",
                                      "dl",
                                      "dl(linear)",
                                      "lulesh",
                                      "lulesh(linear)"};
#define N_EVERY (sizeof every_pattern / sizeof every_pattern[0])

/* No destination is the source or outside the network, on every size down to 2 nodes (13 and 7:
 * prime, so the grids are lines), in every phase; the same seed gives the same destinations. */
static void test_never_self(test_ctx *c) {
    topo ts[6];
    named(&ts[0], "tiny");
    named(&ts[1], "small");
    named(&ts[2], "fig8");
    dfly(&ts[3], 1, 1, 1, 2);   /* 2 nodes */
    dfly(&ts[4], 1, 1, 12, 13); /* 13 nodes */
    dfly(&ts[5], 1, 1, 6, 7);   /* 7 nodes */
    long bad = 0, draws = 0, differ = 0;
    for (int ti = 0; ti < 6; ti++)
        for (size_t pi = 0; pi < N_EVERY; pi++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                traffic a, b;
                if (setup(c, &a, &ts[ti], every_pattern[pi], seed) || setup(c, &b, &ts[ti], every_pattern[pi], seed))
                    continue;
                for (int src = 0; src < ts[ti].n_nodes; src++) {
                    prng ra, rb;
                    prng_seed(&ra, seed, 5, (uint64_t)src);
                    prng_seed(&rb, seed, 5, (uint64_t)src);
                    for (int i = 0; i < 60; i++) {
                        long cycle = i * 3; /* phases of 7 cycles: both phases of lu(linear,7), fft3d */
                        int d = traffic_dest(&a, src, &ra, cycle), e = traffic_dest(&b, src, &rb, cycle);
                        draws++;
                        if (d == src || d < 0 || d >= ts[ti].n_nodes) {
                            if (bad++ < 3)
                                EXPECT(c, 0, "%s on %d nodes: node %d -> %d", every_pattern[pi], ts[ti].n_nodes, src,
                                       d);
                        }
                        differ += d != e;
                    }
                }
                traffic_free(&a);
                traffic_free(&b);
            }
    EXPECT(c, bad == 0, "%ld of %ld destinations were the source or out of range", bad, draws);
    EXPECT(c, differ == 0, "the same seed gave %ld different destinations", differ);
    printf("  never self: %ld destinations, %zu patterns, 6 networks (2..72 nodes)\n", draws, N_EVERY);
}

/* Which nodes of a mix send the second pattern, judged from 200 draws each: ADV+1 always lands
 * in group G+1, RP always on rp's perm[src]; UR does either with probability < (8/71)^199. */
static void classify(test_ctx *c, const topo *t, const char *name, uint64_t seed, unsigned char *other) {
    traffic tr, rp;
    if (setup(c, &tr, t, name, seed) || setup(c, &rp, t, "rp", seed)) return;
    int per_group = t->a * t->p;
    for (int src = 0; src < t->n_nodes; src++) {
        prng r;
        prng_seed(&r, seed, 6, (uint64_t)src);
        int in_next = 0, on_perm = 0;
        for (int i = 0; i < 200; i++) {
            int d = traffic_dest(&tr, src, &r, i);
            in_next += d / per_group == (src / per_group + 1) % t->g;
            on_perm += d == traffic_dest(&rp, src, NULL, i);
        }
        other[src] = strstr(name, "_ua") ? in_next == 200 : on_perm == 200;
    }
    traffic_free(&tr);
    traffic_free(&rp);
}

static void test_mixed(test_ctx *c) {
    struct {
        const char *config, *name;
        int want, routers;
    } cases[] = {
        /* want: round(y% of 36 routers / 72 nodes) on small, 32 / 64 on fig8, 6 / 6 on tiny, half up */
        {"small", "r_mixed_ua(75,25)", 9, 1},  {"small", "r_mixed_ua(50,50)", 18, 1},
        {"small", "r_mixed_ua(25,75)", 27, 1}, {"small", "r_mixed_ur(75,25)", 9, 1},
        {"small", "r_mixed_ur(25,75)", 27, 1}, {"small", "n_mixed_ua(75,25)", 18, 0},
        {"small", "n_mixed_ua(50,50)", 36, 0}, {"small", "n_mixed_ur(25,75)", 54, 0},
        {"small", "n_mixed_ur(50,50)", 36, 0}, {"fig8", "r_mixed_ua(70,30)", 10, 1},
        {"fig8", "n_mixed_ur(70,30)", 19, 0},  {"tiny", "r_mixed_ur(75,25)", 2, 1},
        {"tiny", "n_mixed_ua(75,25)", 2, 0},   {"small", "r_mixed_ua(100,0)", 0, 1},
        {"small", "n_mixed_ur(0,100)", 72, 0},
    };
    unsigned char other[MAX_NODES], again[MAX_NODES];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        topo t;
        named(&t, cases[i].config);
        classify(c, &t, cases[i].name, 3, other);
        int nodes = 0, routers = 0, split = 0;
        for (int n = 0; n < t.n_nodes; n++) nodes += other[n];
        for (int r = 0; r < t.n_routers; r++) {
            int k = 0;
            for (int j = 0; j < t.p; j++) k += other[r * t.p + j];
            routers += k == t.p;
            split += k > 0 && k < t.p;
        }
        if (cases[i].routers)
            EXPECT(c, split == 0 && routers == cases[i].want,
                   "%s on %s: %d routers send the second pattern (want %d), "
                   "%d routers split",
                   cases[i].name, cases[i].config, routers, cases[i].want, split);
        else
            EXPECT(c, nodes == cases[i].want, "%s on %s: %d nodes send the second pattern, want %d", cases[i].name,
                   cases[i].config, nodes, cases[i].want);
        /* the choice is the run seed's: the same seed again gives it, another seed another one */
        classify(c, &t, cases[i].name, 3, again);
        EXPECT(c, !memcmp(other, again, (size_t)t.n_nodes), "%s: seed 3 twice chose differently", cases[i].name);
        if (!strcmp(cases[i].name, "n_mixed_ua(50,50)")) {
            EXPECT(c, split > 0, "n_mixed_ua(50,50): no router has nodes of both patterns");
            classify(c, &t, cases[i].name, 4, again);
            EXPECT(c, memcmp(other, again, (size_t)t.n_nodes) != 0, "seeds 3 and 4 chose the same nodes");
        }
        if (!strcmp(cases[i].name, "r_mixed_ua(50,50)")) {
            classify(c, &t, cases[i].name, 4, again);
            EXPECT(c, memcmp(other, again, (size_t)t.n_nodes) != 0, "seeds 3 and 4 chose the same routers");
        }
    }
    /* the UR nodes of a mix are uniform: over 400 draws a UR node of small reaches most nodes */
    topo t;
    named(&t, "small");
    traffic tr;
    if (setup(c, &tr, &t, "n_mixed_ua(50,50)", 3)) return;
    classify(c, &t, "n_mixed_ua(50,50)", 3, other);
    int src = 0;
    while (src < t.n_nodes && other[src]) src++;
    prng r;
    prng_seed(&r, 3, 7, 0);
    int counts[MAX_NODES], reached = 0;
    histogram(&tr, src, 0, 400, &r, counts);
    for (int d = 0; d < t.n_nodes; d++) reached += counts[d] > 0;
    EXPECT(c, src < t.n_nodes && counts[src] == 0 && reached > 60, "UR node %d of a mix reached %d nodes", src,
           reached);
    traffic_free(&tr);
    printf("  mixes: router / node counts, whole routers, ADV+1, rp's permutation, seeded choice\n");
}

/* ---- application patterns, checked against the test's own coordinates ---- */

typedef struct {
    int nd, dims[5];
} grid;

static void to_coords(const grid *g, int rank, int x[5]) {
    for (int i = 0; i < 5; i++) x[i] = 0;
    for (int i = 0; i < g->nd; i++) {
        x[i] = rank % g->dims[i];
        rank /= g->dims[i];
    }
}

/* halo3d / stencil5d: want = ranks one step away (mod the size) in exactly one dimension. */
static void face_set(const grid *g, int rank, int n, unsigned char want[MAX_NODES]) {
    memset(want, 0, MAX_NODES);
    int x[5], y[5];
    to_coords(g, rank, x);
    for (int o = 0; o < n; o++) {
        to_coords(g, o, y);
        int off = 0, far = 0;
        for (int i = 0; i < g->nd; i++) {
            int dlt = (y[i] - x[i] + g->dims[i]) % g->dims[i];
            if (dlt == 0) continue;
            if (dlt == 1 || dlt == g->dims[i] - 1)
                off++;
            else
                far = 1;
        }
        want[o] = off == 1 && !far;
    }
}

/* Ranks as the pattern sees them: checks the placement (a permutation, identity when linear) and
 * maps rank-space sets onto nodes. */
static int placement_ok(const traffic *tr, int linear) {
    int n = tr->t.n_nodes, identity = 1;
    for (int r = 0; r < n; r++) {
        int node = tr->node_of[r];
        if (node < 0 || node >= n || tr->rank_of[node] != r) return 0;
        identity &= node == r;
    }
    return linear ? identity : !identity;
}

static void to_nodes(const traffic *tr, const unsigned char by_rank[MAX_NODES], unsigned char by_node[MAX_NODES]) {
    memset(by_node, 0, MAX_NODES);
    for (int r = 0; r < tr->t.n_nodes; r++) by_node[tr->node_of[r]] = by_rank[r];
}

static void test_faces(test_ctx *c, const char *config, const char *name, const grid *g) {
    topo t;
    named(&t, config);
    traffic tr;
    if (setup(c, &tr, &t, name, 9)) return;
    EXPECT(c, tr.ndims == g->nd && !memcmp(tr.dims, g->dims, (size_t)g->nd * sizeof(int)), "%s on %s: grid", name,
           config);
    EXPECT(c, placement_ok(&tr, strstr(name, "linear") != NULL), "%s: placement", name);
    int wrong = 0, members = 0;
    for (int node = 0; node < t.n_nodes; node++) {
        unsigned char by_rank[MAX_NODES], want[MAX_NODES];
        int counts[MAX_NODES];
        prng r;
        prng_seed(&r, 9, 8, (uint64_t)node);
        face_set(g, tr.rank_of[node], t.n_nodes, by_rank);
        to_nodes(&tr, by_rank, want);
        histogram(&tr, node, 0, 300, &r, counts);
        for (int d = 0; d < t.n_nodes; d++) members += want[d];
        if (!same_set(counts, want, t.n_nodes) && wrong++ < 2)
            EXPECT(c, 0, "%s on %s: node %d's destinations", name, config, node);
    }
    EXPECT(c, wrong == 0, "%s on %s: %d nodes sent outside their neighbour set or missed one", name, config, wrong);
    printf("  %s on %s: every node reaches exactly its %.1f neighbours (mean)\n", name, config,
           (double)members / t.n_nodes);
    traffic_free(&tr);
}

static void test_dl(test_ctx *c, const char *name) {
    topo t;
    named(&t, "small");
    traffic tr;
    if (setup(c, &tr, &t, name, 5)) return;
    int linear = strstr(name, "linear") != NULL;
    EXPECT(c, placement_ok(&tr, linear), "%s: placement", name);
    int wrong = 0, node = 0, steps = 0;
    for (int src = 0; src < t.n_nodes; src++) {
        prng r;
        prng_seed(&r, 5, 8, (uint64_t)src);
        int want = linear ? (src + 1) % t.n_nodes : tr.node_of[(tr.rank_of[src] + 1) % t.n_nodes];
        for (int i = 0; i < 5; i++) wrong += traffic_dest(&tr, src, &r, i * 1000) != want;
    }
    /* one ring through every node */
    do {
        node = traffic_dest(&tr, node, NULL, 0);
        steps++;
    } while (node != 0 && steps <= t.n_nodes);
    EXPECT(c, wrong == 0 && steps == t.n_nodes, "%s: %d destinations not the ring successor, ring of %d", name, wrong,
           steps);
    traffic_free(&tr);
}

/* fft3d: even phases the other ranks of the row (same y), odd phases of the column (same x). */
static void test_fft3d(test_ctx *c, const char *name) {
    topo t;
    named(&t, "small");
    traffic tr;
    if (setup(c, &tr, &t, name, 6)) return;
    const grid g = {2, {9, 8, 1, 1, 1}};
    EXPECT(c, tr.dims[0] == 9 && tr.dims[1] == 8, "%s: grid %dx%d", name, tr.dims[0], tr.dims[1]);
    EXPECT(c, placement_ok(&tr, strstr(name, "linear") != NULL), "%s: placement", name);
    long cycles[4] = {0, 499, 500, 1234}; /* P = 500: phases 0, 0, 1, 0 */
    int wrong = 0;
    for (int node = 0; node < t.n_nodes; node++)
        for (int k = 0; k < 4; k++) {
            int x[5], y[5], counts[MAX_NODES];
            unsigned char by_rank[MAX_NODES], want[MAX_NODES];
            to_coords(&g, tr.rank_of[node], x);
            for (int o = 0; o < t.n_nodes; o++) {
                to_coords(&g, o, y);
                by_rank[o] = (cycles[k] / 500) % 2 == 0 ? y[1] == x[1] && y[0] != x[0] : y[0] == x[0] && y[1] != x[1];
            }
            to_nodes(&tr, by_rank, want);
            prng r;
            prng_seed(&r, 6, 8, (uint64_t)node);
            histogram(&tr, node, cycles[k], 200, &r, counts);
            if (!same_set(counts, want, t.n_nodes) && wrong++ < 2)
                EXPECT(c, 0, "%s: node %d cycle %ld destinations", name, node, cycles[k]);
        }
    EXPECT(c, wrong == 0, "%s: %d (node, phase) pairs outside the row / column group", name, wrong);
    traffic_free(&tr);
}

/* lu on 9x8: even phases east (+x) and south (+y) where they exist, odd phases west and north;
 * a rank with neither (the sweep's last corner) sends the other way. */
static void test_lu(test_ctx *c, const char *name) {
    topo t;
    named(&t, "small");
    traffic tr;
    if (setup(c, &tr, &t, name, 2)) return;
    EXPECT(c, tr.dims[0] == 9 && tr.dims[1] == 8, "%s: grid %dx%d", name, tr.dims[0], tr.dims[1]);
    int wrong = 0, corner_checked = 0;
    for (int node = 0; node < t.n_nodes; node++)
        for (int phase = 0; phase < 2; phase++) {
            int rank = tr.rank_of[node], x = rank % 9, y = rank / 9, counts[MAX_NODES];
            unsigned char by_rank[MAX_NODES], want[MAX_NODES];
            memset(by_rank, 0, sizeof by_rank);
            int s = phase == 0 ? 1 : -1;
            if (x + s >= 0 && x + s < 9) by_rank[rank + s] = 1;
            if (y + s >= 0 && y + s < 8) by_rank[rank + 9 * s] = 1;
            if ((phase == 0 && rank == 71) || (phase == 1 && rank == 0)) {
                corner_checked++;
                by_rank[rank - s] = by_rank[rank - 9 * s] = 1;
            }
            to_nodes(&tr, by_rank, want);
            prng r;
            prng_seed(&r, 2, 8, (uint64_t)node);
            histogram(&tr, node, phase * 2000 + 17, 100, &r, counts);
            if (!same_set(counts, want, t.n_nodes) && wrong++ < 2)
                EXPECT(c, 0, "%s: node %d (rank %d) phase %d destinations", name, node, rank, phase);
        }
    EXPECT(c, wrong == 0 && corner_checked == 2, "%s: %d (node, phase) pairs off the wavefront", name, wrong);
    traffic_free(&tr);
}

/* lulesh on 6x4x3 (no wrap-around): the 26 neighbours weighted 8 (face) : 2 (edge) : 1 (corner),
 * 95 %, and 5 % to a recursive-doubling partner rank ^ 2^k < N. */
static void test_lulesh(test_ctx *c) {
    topo t;
    named(&t, "small");
    traffic tr;
    if (setup(c, &tr, &t, "lulesh(linear)", 4)) return;
    const grid g = {3, {6, 4, 3, 1, 1}};
    int wrong = 0;
    for (int node = 0; node < t.n_nodes; node++) {
        int x[5], y[5], counts[MAX_NODES], partners = 0;
        unsigned char kind[MAX_NODES]; /* 1..3: face / edge / corner neighbour; +4: a partner */
        to_coords(&g, node, x);
        for (int o = 0; o < t.n_nodes; o++) {
            to_coords(&g, o, y);
            int nz = 0, near = 1;
            for (int i = 0; i < 3; i++) {
                int dlt = y[i] - x[i];
                nz += dlt != 0;
                near &= dlt >= -1 && dlt <= 1;
            }
            kind[o] = (unsigned char)(near && nz ? nz : 0);
            for (int k = 0; (1 << k) < 2 * t.n_nodes; k++)
                if ((node ^ (1 << k)) == o && o < t.n_nodes) {
                    kind[o] |= 4;
                    partners++;
                }
        }
        prng r;
        prng_seed(&r, 4, 8, (uint64_t)node);
        const int draws = 20000;
        histogram(&tr, node, 0, draws, &r, counts);
        double share[4] = {0}, want[4] = {0}, wsum = 0;
        static const int w[4] = {0, 8, 2, 1};
        for (int o = 0; o < t.n_nodes; o++) wsum += w[kind[o] & 3];
        for (int o = 0; o < t.n_nodes; o++) {
            if (counts[o] && !kind[o]) wrong++;
            share[kind[o] & 3] += (double)counts[o] / draws;
            want[kind[o] & 3] += 0.95 * w[kind[o] & 3] / wsum + ((kind[o] & 4) ? 0.05 / partners : 0.0);
            if (kind[o] && !counts[o]) wrong++; /* every neighbour and partner is drawn */
        }
        for (int k = 0; k < 4; k++)
            if (share[k] < want[k] - 0.02 || share[k] > want[k] + 0.02) {
                if (wrong++ < 3)
                    EXPECT(c, 0, "lulesh node %d: share of class %d %.3f, want %.3f", node, k, share[k], want[k]);
            }
    }
    EXPECT(c, wrong == 0, "lulesh: %d nodes off their neighbour / partner set or weights", wrong);
    traffic_free(&tr);
    /* random placement: the same structure in rank space */
    if (setup(c, &tr, &t, "lulesh", 4)) return;
    EXPECT(c, placement_ok(&tr, 0), "lulesh: placement");
    int off = 0;
    for (int node = 0; node < t.n_nodes; node++) {
        prng r;
        prng_seed(&r, 4, 9, (uint64_t)node);
        int x[5], y[5], rank = tr.rank_of[node];
        to_coords(&g, rank, x);
        for (int i = 0; i < 200; i++) {
            int to = tr.rank_of[traffic_dest(&tr, node, &r, 0)], near = 1, partner = 0;
            to_coords(&g, to, y);
            for (int k = 0; k < 3; k++) near &= y[k] - x[k] >= -1 && y[k] - x[k] <= 1;
            for (int k = 0; (1 << k) < 2 * t.n_nodes; k++) partner |= (rank ^ (1 << k)) == to;
            off += !(near || partner) || to == rank;
        }
    }
    EXPECT(c, off == 0, "lulesh (random placement): %d destinations neither neighbour nor partner", off);
    traffic_free(&tr);
}

int main(void) {
    test_ctx c = {0, 0, "test_traffic"};
    test_names(&c);
    test_grid(&c);
    test_never_self(&c);
    test_mixed(&c);
    const grid g3 = {3, {6, 4, 3, 1, 1}}, g5 = {5, {3, 3, 2, 2, 2}}, tiny3 = {3, {3, 2, 1, 1, 1}},
               fig3 = {3, {4, 4, 4, 1, 1}};
    test_faces(&c, "small", "halo3d(linear)", &g3);
    test_faces(&c, "small", "halo3d", &g3);
    test_faces(&c, "tiny", "halo3d(linear)", &tiny3);
    test_faces(&c, "fig8", "halo3d", &fig3);
    test_faces(&c, "small", "stencil5d(linear)", &g5);
    test_faces(&c, "small", "stencil5d", &g5);
    test_dl(&c, "dl(linear)");
    test_dl(&c, "dl");
    test_fft3d(&c, "fft3d(linear,500)");
    test_fft3d(&c, "fft3d(500)");
    test_lu(&c, "lu(linear)");
    test_lu(&c, "lu");
    test_lulesh(&c);
    return test_finish(&c);
}
