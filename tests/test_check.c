/* Static checker: it passes on the generated tables, its route counts agree with a brute-force
 * enumeration, and it names each planted problem: a loop, a dead end, a misdelivery, a VC-rule
 * violation, a path that is too long, a forbidden shape, a dependency cycle. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testutil.h"

static int code_of(const char *shape) {
    int len = 0, bits = 0;
    for (const char *s = shape; *s; s++) {
        if (*s == '-') continue;
        if (*s == 'G') bits |= 1 << len;
        len++;
    }
    return (1 << len) | bits;
}

static void test_shapes(test_ctx *c) {
    /* Seed 001 sec. 2.1 / 3.1 and Fig. 7(c): the paths DOAR may take. */
    /* ... and, since issue 20, the destination-group refraction a global input takes when its
     * direct link has failed: a last segment of two L hops (L-G-L-L, LG-LL-GLL). */
    const char *inter_ok[] = {"L-G-L",   "G-L-GL",   "LG-L-G",  "G-L-G", "LG-L-GL",  "G-LL-GL",
                              "LG-LL-G", "LG-LL-GL", "G-LL-G",  "G",     "L-G",      "G-L",
                              "LG-GL",   "G-G",      "L-G-L-L", "G-LL",  "LG-LL-GLL"};
    const char *inter_bad[] = {"L-L-G-L", "L-G-L-L-L", "LG-LLL-GL", "LG-L-G-G", "LG-LL-GLLL", "LL-G-L", "L"};
    for (size_t i = 0; i < sizeof inter_ok / sizeof *inter_ok; i++)
        EXPECT(c, check_shape_allowed(code_of(inter_ok[i]), 0), "%s must be allowed", inter_ok[i]);
    for (size_t i = 0; i < sizeof inter_bad / sizeof *inter_bad; i++)
        EXPECT(c, !check_shape_allowed(code_of(inter_bad[i]), 0), "%s must be rejected", inter_bad[i]);
    EXPECT(c, check_shape_allowed(code_of("L-L"), 1) && check_shape_allowed(code_of("L"), 1), "intra L, L-L");
    EXPECT(c, !check_shape_allowed(code_of("L-L-L"), 1) && !check_shape_allowed(code_of("G-G"), 1), "intra limits");
    char name[32];
    check_shape_name(code_of("LGLLGL"), name, sizeof name);
    EXPECT(c, !strcmp(name, "LG-LL-GL"), "name %s", name);
    check_shape_name(code_of("LGL"), name, sizeof name);
    EXPECT(c, !strcmp(name, "L-G-L"), "name %s", name);
}

typedef struct {
    table_set ts;
    topo t;
} net;

static void make_net(net *n, const char *name) {
    char err[DOAR_ERRLEN];
    table_params prm;
    tables_default_params(&prm);
    topo_named(&n->t, name, err);
    tables_generate(&n->ts, &n->t, &prm, err);
}

static int run(const net *n, vc_rule_kind rule, check_result *res) {
    check_opts o;
    char err[DOAR_ERRLEN];
    check_default_opts(&o);
    o.vc_rule = rule;
    return check_run(&n->ts, &o, res, err);
}

/* Brute force: every route by explicit recursion, no memo; shape judged from group ids. */
typedef struct {
    const table_set *ts;
    int dest;
    uint64_t routes;
    int bad;
    int groups[8], ng;
} brute;

static void walk(brute *b, int r, int in_port, int hops, int src_group) {
    const topo *t = &b->ts->t;
    if (r == b->dest) {
        b->routes++;
        return;
    }
    if (hops > 7) {
        b->bad++;
        return;
    }
    int gid = topo_gid(t, r), index;
    table_zone z = tables_zone(gid, topo_bid(t, r), topo_gid(t, b->dest), topo_bid(t, b->dest), 0, &index);
    const port_tables *pt = tables_port(b->ts, r, in_port);
    uint64_t ea = pt->a[tables_row_a(b->ts, z, index)], eb = pt->b[tables_row_b(b->ts, z, index)], cand;
    if (topo_port_class(t, in_port) == PORT_TERMINAL && z == ZONE_G) {
        rta_classes cl;
        tables_rta_classes(b->ts, r, ea, eb, topo_bid(t, b->dest), &cl);
        cand = tables_rta_ports(b->ts, pt, r, &cl);
    } else {
        cand = tables_rtb_ports(&b->ts->t, z, ea, eb, gid == src_group, NULL, NULL);
    }
    for (; cand; cand &= cand - 1) {
        int o = __builtin_ctzll(cand), pr, pp;
        if (topo_peer(t, r, o, &pr, &pp) || pr < 0) {
            b->bad++;
            continue;
        }
        walk(b, pr, pp, hops + 1, src_group);
    }
}

static void test_counts_match_bruteforce(test_ctx *c, const char *name) {
    net n;
    make_net(&n, name);
    check_result res;
    EXPECT(c, run(&n, VC_RULE_DOAR, &res) == 0 && res.ok, "%s: %s", name, res.fail);
    uint64_t total = 0;
    int bad = 0;
    for (int d = 0; d < n.t.n_routers; d++)
        for (int s = 0; s < n.t.n_routers; s++) {
            brute b = {&n.ts, d, 0, 0, {0}, 0};
            for (int ip = 0; ip < n.t.p; ip++) walk(&b, s, ip, 0, topo_gid(&n.t, s));
            total += b.routes * (uint64_t)n.t.p; /* every destination node of the router */
            bad += b.bad;
        }
    EXPECT(c, bad == 0, "%s: brute force found %d bad steps", name, bad);
    EXPECT(c, total == res.routes, "%s: brute force %llu routes, checker %llu", name, (unsigned long long)total,
           (unsigned long long)res.routes);
    EXPECT(c, res.pairs == (uint64_t)n.t.n_routers * n.t.n_nodes, "%s pairs", name);
    /* LG-LL-GL needs three routers in the intermediate group; with a = 2 the longest is LG-L-GL.
     * With a >= 4 every global input has a destination-group refraction for every router pair
     * (docs/architecture.md), the fault fallback that makes it LG-LL-GLL, still on VC 3. */
    int want_hops = n.t.a >= 4 ? 7 : n.t.a >= 3 ? 6 : 5, want_vc = n.t.a >= 3 ? 3 : 2;
    EXPECT(c, res.max_hops == want_hops && res.max_vc == want_vc && res.cdg_acyclic, "%s: hops %d vc %d", name,
           res.max_hops, res.max_vc);
    tables_free(&n.ts);
}

/* Entry of (router <g,b>, port) in zone z, table A or B, made private first. */
static uint64_t *entry(net *n, int g, int b, int port, table_id tab, table_zone z, int index) {
    int r = topo_router(&n->t, g, b);
    tables_unshare(&n->ts, r, port);
    port_tables *pt = tables_port(&n->ts, r, port);
    return tab == TABLE_A ? &pt->a[tables_row_a(&n->ts, z, index)] : &pt->b[tables_row_b(&n->ts, z, index)];
}

static uint64_t bit(int port) { return (uint64_t)1 << port; }

static void expect_only(test_ctx *c, const check_result *res, check_error_kind want, const char *what) {
    EXPECT(c, !res->ok, "%s: checker passed", what);
    EXPECT(c, res->errors[want] > 0, "%s: no '%s' error (fail: %s)", what, check_kind_name(want), res->fail);
}

/* Rows 0 and 2 of table C swapped at router (4,1)'s terminal input 0: still loop-free routes, but
 * the source's classes lie (an RTA error). */
static void swap_c_rows(net *n) {
    int rr = topo_router(&n->t, 4, 1);
    tables_unshare(&n->ts, rr, 0);
    uint64_t *cc = tables_port(&n->ts, rr, 0)->c, tmp = cc[0];
    cc[0] = cc[2];
    cc[2] = tmp;
}

static void test_planted(test_ctx *c) {
    check_result res;
    net n;
    /* Loop: router (0,1), arriving from (0,0), is told to send packets for router (0,2) back. */
    make_net(&n, "small");
    int from0 = topo_local_port(&n.t, 1, 0);
    *entry(&n, 0, 1, from0, TABLE_A, ZONE_B, 2) = bit(from0);
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_LOOP, "loop");
    EXPECT(c, strstr(res.fail, "loop") != NULL, "fail line names the loop: %s", res.fail);
    tables_free(&n.ts);

    /* Dead end: the same entry emptied. */
    make_net(&n, "small");
    *entry(&n, 0, 1, from0, TABLE_A, ZONE_B, 2) = 0;
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_DEAD_END, "dead end");
    EXPECT(c, res.errors[CHK_LOOP] == 0 && res.errors[CHK_SHAPE] == 0, "dead end only");
    tables_free(&n.ts);

    /* Misdelivery: zone N of an internal port sends node 0's packets to terminal port 1. */
    make_net(&n, "small");
    *entry(&n, 2, 3, 0, TABLE_A, ZONE_N, 0) = bit(1);
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_MISDELIVERY, "misdelivery");
    tables_free(&n.ts);

    /* VC rule: at the entry router of the destination group (router (5,0), arriving on a global
     * port) packets for router (5,2) leave again through the other global port: after
     * LG-LL-G that second global hop in a row would need VC 4. */
    make_net(&n, "small");
    int g0 = n.t.first_global, g1 = n.t.first_global + 1;
    *entry(&n, 5, 0, g0, TABLE_A, ZONE_B, 2) = bit(g1);
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_VC, "vc rule");
    tables_free(&n.ts);

    /* Too long: the same entry router hands the packet to router (5,1) instead of (5,2), and
     * (5,1) to (5,3), which then delivers: LG-LL-GL plus two hops is 8 hops (and the minimal
     * path becomes L-G-L-L-L). */
    make_net(&n, "small");
    *entry(&n, 5, 0, g0, TABLE_A, ZONE_B, 2) = bit(topo_local_port(&n.t, 0, 1));
    *entry(&n, 5, 1, topo_local_port(&n.t, 1, 0), TABLE_A, ZONE_B, 2) = bit(topo_local_port(&n.t, 1, 3));
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_TOO_LONG, "too long");
    EXPECT(c, res.errors[CHK_SHAPE] > 0, "too long: the 5-hop L-G-L-L-L is a forbidden shape too");
    tables_free(&n.ts);

    /* Deadlock through the destination-group refraction: both of its hops keep the VC, so its
     * middle routers must be chosen so that no chain of waits closes (docs/architecture.md).
     * Offering every other router instead closes one: (0,1) -> (1,2) -> (2,0) -> (0,1). */
    make_net(&n, "small");
    for (int rr = 0; rr < n.t.n_routers; rr++) {
        int b = topo_bid(&n.t, rr);
        port_tables *pt = tables_port(&n.ts, rr, n.t.first_global); /* shared by its global inputs */
        for (int d = 0; d < n.t.a; d++) {
            if (d == b) continue;
            uint64_t all = 0;
            for (int y = 0; y < n.t.a; y++)
                if (y != b && y != d) all |= bit(topo_local_port(&n.t, b, y));
            pt->b[tables_row_b(&n.ts, ZONE_B, d)] = all;
        }
    }
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_CDG, "destination refraction through every router");
    EXPECT(c, res.errors[CHK_LOOP] + res.errors[CHK_DEAD_END] + res.errors[CHK_SHAPE] + res.errors[CHK_VC] == 0,
           "destination refraction through every router: only the cycle is wrong");
    tables_free(&n.ts);

    /* Shape only: an intra-group refraction that crosses a third router (L-L-L). Router (0,1),
     * reached from (0,0) with destination (0,2), forwards to (0,3) instead of (0,2). */
    make_net(&n, "small");
    *entry(&n, 0, 1, from0, TABLE_A, ZONE_B, 2) = bit(topo_local_port(&n.t, 1, 3));
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_SHAPE, "shape");
    tables_free(&n.ts);

    /* Deadlock: with every packet on VC 0 the routes stay valid but the dependency graph of
     * the dragonfly has cycles, which the checker must find. */
    make_net(&n, "small");
    run(&n, VC_RULE_NONE, &res);
    expect_only(c, &res, CHK_CDG, "cdg");
    EXPECT(c, res.errors[CHK_LOOP] + res.errors[CHK_DEAD_END] + res.errors[CHK_SHAPE] + res.errors[CHK_VC] == 0,
           "vc-rule none: only the cycle is wrong");
    tables_free(&n.ts);

    /* RTA meaning: lpc0 of a terminal port names the wrong router, so "GA" is not minimal; and
     * two rows of table C swapped. Both still give loop-free routes, which is why they need
     * their own check. */
    make_net(&n, "small");
    *entry(&n, 4, 1, 0, TABLE_A, ZONE_G, 6) = tables_global_a(0, 1);
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_RTA, "lpc0 names a router without the minimal port");
    tables_free(&n.ts);
    make_net(&n, "small");
    swap_c_rows(&n);
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_RTA, "table C rows swapped");
    tables_free(&n.ts);

    /* Table C of one internal port emptied: the source router cannot map any global port to a
     * router port (a table C that points elsewhere may still give valid routes, so that case
     * is not an error). */
    make_net(&n, "small");
    int r = topo_router(&n.t, 4, 1);
    tables_unshare(&n.ts, r, 0);
    memset(tables_port(&n.ts, r, 0)->c, 0, (size_t)n.ts.depth_c * sizeof(uint64_t));
    run(&n, VC_RULE_DOAR, &res);
    expect_only(c, &res, CHK_DEAD_END, "table C emptied");
    tables_free(&n.ts);
}

/* The lane DP (a group's destination routers at once, the default) against the reference order
 * (one destination router at a time, one_dest): the whole result, byte for byte — routes, pairs,
 * shapes, hops, VCs, states, the dependency graph, and on planted errors the reports (the lane DP
 * hands a failing check to the reference order). */
static void expect_lanes_match(test_ctx *c, const net *n, int dests, const char *what) {
    check_opts o;
    char err[DOAR_ERRLEN];
    check_result lanes, ref;
    check_default_opts(&o);
    o.dest_sample = dests;
    int rc1 = check_run(&n->ts, &o, &lanes, err);
    o.one_dest = 1;
    int rc2 = check_run(&n->ts, &o, &ref, err);
    EXPECT(c, rc1 == 0 && rc2 == 0, "%s: %s", what, err);
    /* the lane DP hands only a failing check to the reference order */
    EXPECT(c, lanes.reran == !ref.ok && !ref.reran, "%s: reran %d, ok %d", what, lanes.reran, ref.ok);
    lanes.reran = 0;
    EXPECT(c, !memcmp(&lanes, &ref, sizeof lanes),
           "%s: lanes routes=%llu states=%llu edges=%llu ok=%d, one at a time %llu %llu %llu %d", what,
           (unsigned long long)lanes.routes, (unsigned long long)lanes.states, (unsigned long long)lanes.cdg_edges,
           lanes.ok, (unsigned long long)ref.routes, (unsigned long long)ref.states, (unsigned long long)ref.cdg_edges,
           ref.ok);
    EXPECT(c, ref.dests_checked > 0 && ref.states > 0, "%s: nothing checked", what);
}

static void test_lanes(test_ctx *c) {
    const char *names[] = {"tiny", "small", "fig8", "mid"};
    net n;
    for (int i = 0; i < 4; i++) {
        make_net(&n, names[i]);
        expect_lanes_match(c, &n, 0, names[i]);
        tables_free(&n.ts);
    }
    make_net(&n, "mid");
    expect_lanes_match(c, &n, 7, "mid, 7 destination routers sampled");
    expect_lanes_match(c, &n, 40, "mid, 40 destination routers sampled");
    tables_free(&n.ts);
    /* other tables: fewer non-minimal slots and table C ways, no destination-group refraction */
    {
        char err[DOAR_ERRLEN];
        table_params prm;
        tables_default_params(&prm);
        prm.nm_slots = 2;
        prm.c_ways = 2;
        prm.dest_refraction = 0;
        topo_named(&n.t, "small", err);
        tables_generate(&n.ts, &n.t, &prm, err);
        expect_lanes_match(c, &n, 0, "small, nm_slots 2, c_ways 2, no refraction");
        tables_free(&n.ts);
    }
    /* planted errors: a loop inside the destination group, and a source's classes (table C rows
     * swapped at router (4,1)'s terminal input) */
    make_net(&n, "small");
    int from0 = topo_local_port(&n.t, 1, 0);
    *entry(&n, 0, 1, from0, TABLE_A, ZONE_B, 2) = bit(from0);
    expect_lanes_match(c, &n, 0, "small, a planted loop");
    tables_free(&n.ts);
    make_net(&n, "small");
    swap_c_rows(&n);
    expect_lanes_match(c, &n, 0, "small, table C rows swapped");
    tables_free(&n.ts);
}

int main(void) {
    test_ctx c = {0, 0, "test_check"};
    test_shapes(&c);
    test_counts_match_bruteforce(&c, "tiny");
    test_counts_match_bruteforce(&c, "small");
    test_counts_match_bruteforce(&c, "fig8");
    test_planted(&c);
    test_lanes(&c);
    return test_finish(&c);
}
