/* Routing tables: seed 001 Fig. 4's candidate classes, Fig. 7(a)'s per-class configuration
 * stated through topology queries, encodings, a literal reading of Algorithm 1's candidate
 * sets, and the image writer/loader round trip. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "tables_image.h"
#include "testutil.h"

static int gset(const gport_bitmap *b, const int *want, int n, int ah) {
    gport_bitmap w;
    gbm_clear(&w);
    for (int i = 0; i < n; i++) gbm_set(&w, want[i]);
    for (int j = 0; j < ah; j++)
        if (gbm_test(&w, j) != gbm_test(b, j)) return 0;
    return 1;
}

/* Seed 001 Fig. 4 (p=2, a=3, h=2): group 1 node c to group 4 node e. Port 4 is the minimal path;
 * ports 2,3 are case 2 (G-L-GL); port 0 case 4 (LG-L-GL). With the destination router changed so
 * that R_d = R_s, port 2 (and 3) is cases 2+3 (G-L-G). The paper also counts port 5 (on the exit
 * router, which owns port 4) as case 3; following Fig. 7(a) the exit router is not a non-minimal
 * slot (docs/architecture.md), so port 5 is no candidate here. */
static void test_fig4_classes(test_ctx *c) {
    topo t;
    table_set ts;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    topo_init(&t, 2, 3, 2, 7, NULL, err);
    EXPECT(c, tables_generate(&ts, &t, &prm, err) == 0, "%s", err);
    int rs = topo_router(&t, 1, 1); /* ports 2,3 belong to R_s = 1 */
    const port_tables *pt = tables_port(&ts, rs, 0);
    int row_a = tables_row_a(&ts, ZONE_G, 4), row_b = tables_row_b(&ts, ZONE_G, 4);
    rta_classes cl;
    tables_rta_classes(&ts, rs, pt->a[row_a], pt->b[row_b], 2 /* R_d owns ports 4,5 */, &cl);
    int ga[] = {4}, gc[] = {2, 3}, gd[] = {0, 1};
    EXPECT(c, gset(&cl.ga, ga, 1, t.ah), "GA = {4}");
    EXPECT(c, gbm_empty(&cl.gb), "GB empty");
    EXPECT(c, gset(&cl.gc, gc, 2, t.ah), "GC = {2,3}");
    EXPECT(c, gset(&cl.gd, gd, 2, t.ah), "GD = {0,1}");
    tables_rta_classes(&ts, rs, pt->a[row_a], pt->b[row_b], 1 /* R_d = R_s */, &cl);
    int gb2[] = {2, 3}, gd2[] = {0, 1};
    EXPECT(c, gset(&cl.gb, gb2, 2, t.ah), "GB = {2,3} when R_d = R_s");
    EXPECT(c, gbm_empty(&cl.gc), "GC empty when R_d = R_s");
    EXPECT(c, gset(&cl.gd, gd2, 2, t.ah), "GD = {0,1} when R_d = R_s");
    /* Table C maps every class back to a router port: own ports 2,3 are the router's global
     * ports, port 4 (GA) is reached through router 2, ports 0,1 through router 0. */
    uint64_t ports = tables_rta_ports(&ts, pt, rs, &cl);
    uint64_t want = (1u << topo_global_port(&t, 2)) | (1u << topo_global_port(&t, 3)) |
                    (1u << topo_local_port(&t, 1, 0)) | (1u << topo_local_port(&t, 1, 2));
    EXPECT(c, ports == want, "RTA ports 0x%llx want 0x%llx", (unsigned long long)ports, (unsigned long long)want);
    tables_free(&ts);
}

/* The worked example of docs/architecture.md: small, router (2,1), destination group 4, R_d = 2. */
static void test_doc_example(test_ctx *c) {
    topo t;
    table_set ts;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    topo_named(&t, "small", err);
    tables_generate(&ts, &t, &prm, err);
    int r = topo_router(&t, 2, 1);
    const port_tables *pt = tables_port(&ts, r, 0);
    rta_classes cl;
    tables_rta_classes(&ts, r, pt->a[tables_row_a(&ts, ZONE_G, 4)], pt->b[tables_row_b(&ts, ZONE_G, 4)], 2, &cl);
    int ga[] = {4}, gc[] = {2, 3}, gd[] = {0, 1, 6, 7};
    EXPECT(c, gset(&cl.ga, ga, 1, t.ah) && gbm_empty(&cl.gb) && gset(&cl.gc, gc, 2, t.ah) && gset(&cl.gd, gd, 4, t.ah),
           "doc example classes");
    EXPECT(c, tables_rta_ports(&ts, pt, r, &cl) == 0x7c, "doc example ports 2..6");
    tables_free(&ts);
}

/* Group reached when leaving router r through port `port` (or -1). */
static int group_via(const topo *t, int r, int port) {
    int pr, pp;
    if (topo_port_class(t, port) != PORT_GLOBAL || topo_peer(t, r, port, &pr, &pp)) return -1;
    return topo_gid(t, pr);
}

/* Router bid reached through an intra-group port. */
static int bid_via(const topo *t, int r, int port) { return topo_local_peer(t, topo_bid(t, r), port); }

/* Does router bid x of group gid own a global port to group dg? */
static int connected(const topo *t, int gid, int x, int dg) {
    int r = topo_router(t, gid, x);
    for (int port = t->first_global; port < t->k; port++)
        if (group_via(t, r, port) == dg) return 1;
    return 0;
}

/* The tables of a named configuration, default parameters but dest_refraction. */
static void make_tables(topo *t, table_set *ts, const char *name, int dest_refraction) {
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    prm.dest_refraction = dest_refraction;
    topo_named(t, name, err);
    tables_generate(ts, t, &prm, err);
}

/* Fig. 7(a), stated through the topology rather than through the generator. */
static void test_fig7a(test_ctx *c, const char *name) {
    topo t;
    table_set ts;
    make_tables(&t, &ts, name, 1);
    uint64_t locals = topo_local_mask(&t), globals = topo_global_mask(&t);
    for (int r = 0; r < t.n_routers; r++) {
        int gid = topo_gid(&t, r), bid = topo_bid(&t, r);
        for (int port = 0; port < t.k; port++) {
            const port_tables *pt = tables_port(&ts, r, port);
            port_class pc = topo_port_class(&t, port);
            /* Zone N points at the internal node, table A only. */
            for (int n = 0; n < t.p; n++)
                EXPECT(c, pt->a[tables_row_a(&ts, ZONE_N, n)] == (uint64_t)1 << n, "%s N zone", name);
            /* Zone B: table A points at the destination router. */
            for (int d = 0; d < t.a; d++) {
                if (d == bid) continue;
                uint64_t ea = pt->a[tables_row_a(&ts, ZONE_B, d)], eb = pt->b[tables_row_b(&ts, ZONE_B, d)];
                EXPECT(c, __builtin_popcountll(ea) == 1 && (ea & locals) && bid_via(&t, r, __builtin_ctzll(ea)) == d,
                       "%s B zone table A of router %d port %d toward %d", name, r, port, d);
                if (pc == PORT_TERMINAL) {
                    /* ... and table B refracts through the other routers of the group. */
                    EXPECT(c, (eb & ~locals) == 0 && __builtin_popcountll(eb) == t.a - 2 && !(eb & ea),
                           "%s B zone table B of internal port", name);
                } else if (pc == PORT_LOCAL) {
                    EXPECT(c, eb == 0, "%s B zone table B must be empty on intra-group ports", name);
                } else {
                    /* Global input: the paper's Fig. 7(a) has table A only; issue 20 adds the
                     * destination-group refraction for faults: other routers of the group, never
                     * the direct port, at least one when a >= 4 (acyclicity: test_dest_refraction). */
                    EXPECT(c, (eb & ~locals) == 0 && !(eb & ea) && (t.a < 4 || eb != 0),
                           "%s B zone table B of global port %d of router %d toward %d: %llx", name, port, r, d,
                           (unsigned long long)eb);
                }
            }
            for (int dg = 0; dg < t.g; dg++) {
                if (dg == gid) continue;
                uint64_t ea = pt->a[tables_row_a(&ts, ZONE_G, dg)], eb = pt->b[tables_row_b(&ts, ZONE_G, dg)];
                int direct = connected(&t, gid, bid, dg);
                if (pc == PORT_TERMINAL) {
                    /* Global configuration: lpc0 names the router connected to dg, GP its port. */
                    unsigned lpc0 = tables_byte(ea, 0);
                    int x = (int)(lpc0 & LPC_BID_MASK);
                    EXPECT(c, (lpc0 & LPC_VALID) && connected(&t, gid, x, dg), "%s lpc0 not connected", name);
                    /* Table B names the router itself (case 2 needs its own ports) and never the
                     * exit router of another router's minimal path. */
                    int own = 0, names_exit = 0;
                    for (int s = 0; s < ts.prm.nm_slots; s++) {
                        unsigned lpc = tables_byte(eb, s);
                        if (!(lpc & LPC_VALID)) continue;
                        if ((int)(lpc & LPC_BID_MASK) == bid)
                            own = 1;
                        else if ((int)(lpc & LPC_BID_MASK) == x)
                            names_exit = 1;
                    }
                    EXPECT(c, own, "%s table B of internal port lacks the own router", name);
                    EXPECT(c, !names_exit, "%s table B of internal port names the exit router", name);
                    continue;
                }
                /* Intra-group and global ports: "entries for directly connected groups configure
                 * only table A, others only table B" (intra-group) — never both. */
                if (direct) {
                    EXPECT(c, ea && !eb && !(ea & ~globals), "%s direct group: A only, global ports", name);
                    for (uint64_t m = ea; m; m &= m - 1)
                        EXPECT(c, group_via(&t, r, __builtin_ctzll(m)) == dg, "%s A leads to the wrong group", name);
                } else if (pc == PORT_LOCAL) {
                    EXPECT(c, !ea && eb, "%s indirect group on intra-group port: B only", name);
                    /* B: intra-group ports toward routers connected to dg, plus own global ports. */
                    for (uint64_t m = eb & locals; m; m &= m - 1)
                        EXPECT(c, connected(&t, gid, bid_via(&t, r, __builtin_ctzll(m)), dg), "%s B local not exit",
                               name);
                    EXPECT(c, (eb & globals) != 0, "%s B lacks own global ports", name);
                } else {
                    /* Global port = intermediate group: A to the exit router, B refracts elsewhere. */
                    EXPECT(c, ea && !(ea & ~locals), "%s global port G zone A", name);
                    for (uint64_t m = ea; m; m &= m - 1)
                        EXPECT(c, connected(&t, gid, bid_via(&t, r, __builtin_ctzll(m)), dg), "%s A not exit", name);
                    for (uint64_t m = eb; m; m &= m - 1)
                        EXPECT(c, (eb & ~locals) == 0 && !connected(&t, gid, bid_via(&t, r, __builtin_ctzll(m)), dg),
                               "%s B refraction goes to exit", name);
                }
            }
        }
    }
    tables_free(&ts);
}

/* Algorithm 1 read literally: sets as arrays of flags, straight from lines 2-7 and 18-19, and
 * table C read item by item. Compared with tables_rta_ports / tables_rtb_ports everywhere. */
static uint64_t literal_options(const table_set *ts, int r, int port, int dg, int db, int source_group) {
    const topo *t = &ts->t;
    int gid = topo_gid(t, r), bid = topo_bid(t, r), index;
    table_zone z = tables_zone(gid, bid, dg, db, 0, &index);
    const port_tables *pt = tables_port(ts, r, port);
    uint64_t ea = pt->a[tables_row_a(ts, z, index)], eb = pt->b[tables_row_b(ts, z, index)];
    if (topo_port_class(t, port) == PORT_TERMINAL && z == ZONE_G) {
        char GA[DOAR_MAX_GROUP_PORTS] = {0}, NM[DOAR_MAX_GROUP_PORTS] = {0};
        if (ea & 0x80)
            for (int i = 0; i < t->h; i++)
                if ((ea >> (8 + i)) & 1) GA[(ea & 0x3f) * t->h + i] = 1;
        for (int s = 0; s < ts->prm.nm_slots; s++) {
            unsigned lpc = (unsigned)(eb >> (8 * s)) & 0xff;
            if (!(lpc & 0x80)) continue;
            for (int i = 0; i < t->h; i++) {
                int g = (int)(lpc & 0x3f) * t->h + i;
                if (topo_gport_target(t, gid, g) >= 0 && !GA[g]) NM[g] = 1;
            }
        }
        uint64_t out = 0;
        for (int g = 0; g < t->ah; g++) {
            int in_g2 = NM[g] && g / t->h == bid, in_g3 = NM[g] && g / t->h == db;
            int GB = in_g2 && in_g3, GC = (in_g2 || in_g3) && !GB, GD = NM[g] && !in_g2 && !in_g3;
            if (!(GA[g] || GB || GC || GD)) continue;
            uint64_t ce = pt->c[g / t->h];
            for (int w = 0; w < ts->prm.c_ways; w++) {
                unsigned item = (unsigned)(ce >> (8 * w)) & 0xff;
                if (!(item & 0x80)) continue;
                out |= (uint64_t)1 << ((item & 0x40) ? t->first_global + g % t->h : (int)(item & 0x3f));
                break; /* the first valid item is the one M/P2 use */
            }
        }
        return out;
    }
    uint64_t out = ea;
    for (int o = 0; o < t->k; o++) {
        if (!((eb >> o) & 1)) continue;
        port_class oc = topo_port_class(t, o);
        if (z == ZONE_G && source_group && oc == PORT_LOCAL) continue;   /* F: source group */
        if (z == ZONE_G && !source_group && oc == PORT_GLOBAL) continue; /* F: refraction */
        out |= (uint64_t)1 << o;
    }
    return out;
}

static void test_literal(test_ctx *c, int p, int a, int h, int g, int nm_slots) {
    topo t;
    table_set ts;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    prm.nm_slots = nm_slots;
    EXPECT(c, topo_init(&t, p, a, h, g, NULL, err) == 0, "%s", err);
    EXPECT(c, tables_generate(&ts, &t, &prm, err) == 0, "%s", err);
    int mismatches = 0;
    for (int r = 0; r < t.n_routers; r++)
        for (int port = 0; port < t.k; port++)
            for (int dr = 0; dr < t.n_routers; dr++) {
                if (dr == r) continue;
                int dg = topo_gid(&t, dr), db = topo_bid(&t, dr), gid = topo_gid(&t, r), index;
                table_zone z = tables_zone(gid, topo_bid(&t, r), dg, db, 0, &index);
                const port_tables *pt = tables_port(&ts, r, port);
                uint64_t ea = pt->a[tables_row_a(&ts, z, index)], eb = pt->b[tables_row_b(&ts, z, index)];
                for (int sg = 0; sg < 2; sg++) {
                    uint64_t got;
                    if (topo_port_class(&t, port) == PORT_TERMINAL && z == ZONE_G) {
                        rta_classes cl;
                        tables_rta_classes(&ts, r, ea, eb, db, &cl);
                        got = tables_rta_ports(&ts, pt, r, &cl);
                    } else {
                        got = tables_rtb_ports(&ts.t, z, ea, eb, sg, NULL, NULL);
                    }
                    if (got != literal_options(&ts, r, port, dg, db, sg)) mismatches++;
                }
            }
    EXPECT(c, mismatches == 0, "dfly(%d,%d,%d,%d) nm_slots=%d: %d option sets differ", p, a, h, g, nm_slots,
           mismatches);
    tables_free(&ts);
}

static void test_encodings(test_ctx *c) {
    int bids[3] = {5, 0, 63};
    uint64_t b = tables_global_b(bids, 3);
    EXPECT(c, b == 0xbf8085ull, "global B encoding 0x%llx", (unsigned long long)b);
    uint64_t a = tables_global_a(3, 0x5);
    EXPECT(c, a == 0x583ull, "global A encoding 0x%llx", (unsigned long long)a);
    uint8_t items[2] = {CITEM_VALID | CITEM_SELF, CITEM_VALID | 4};
    EXPECT(c, tables_c_entry(items, 2) == 0x84c0ull, "table C encoding");
    table_zone z;
    int idx;
    z = tables_zone(3, 1, 3, 1, 0, &idx);
    EXPECT(c, z == ZONE_N && idx == 0, "zone N");
    z = tables_zone(3, 1, 3, 2, 1, &idx);
    EXPECT(c, z == ZONE_B && idx == 2, "zone B");
    z = tables_zone(3, 1, 4, 1, 1, &idx);
    EXPECT(c, z == ZONE_G && idx == 4, "zone G");
    topo t;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    topo_init(&t, 1, 2, 60, 3, NULL, err);
    EXPECT(c, tables_check_params(&t, &prm, err) != 0 && strstr(err, "h=60"), "h=60 fits: %s", err);
    prm.nm_slots = 9;
    topo_named(&t, "small", err);
    EXPECT(c, tables_check_params(&t, &prm, err) != 0, "nm_slots=9 accepted");
}

/* Writer and loader agree on every entry, and the loader rejects what it must. */
static void test_images(test_ctx *c) {
    topo t;
    table_set gen, got;
    table_params prm;
    char err[DOAR_ERRLEN], dir[] = "/tmp/doar_test_tables_XXXXXX";
    tables_default_params(&prm);
    topo_named(&t, "fig8", err);
    tables_generate(&gen, &t, &prm, err);
    EXPECT(c, mkdtemp(dir) != NULL, "mkdtemp");
    EXPECT(c, tables_write_images(&gen, dir, NULL, err) == 0, "%s", err);
    EXPECT(c, tables_load_images(&got, dir, err) == 0, "%s", err);
    int diff = 0;
    for (int r = 0; r < t.n_routers; r++)
        for (int port = 0; port < t.k; port++) {
            const port_tables *x = tables_port(&gen, r, port), *y = tables_port(&got, r, port);
            diff += memcmp(x->a, y->a, (size_t)gen.depth_a * 8) != 0;
            diff += memcmp(x->b, y->b, (size_t)gen.depth_b * 8) != 0;
            diff += memcmp(x->c, y->c, (size_t)gen.depth_c * 8) != 0;
        }
    EXPECT(c, diff == 0, "%d tables differ after the round trip", diff);
    EXPECT(c, got.routers_present == t.n_routers && got.pool_n == 3 * t.n_routers,
           "loaded set shares identical port tables (%d)", got.pool_n);
    tables_free(&got);
    /* Truncate one file: the loader names it. */
    char path[512], cmd[1200];
    snprintf(path, sizeof path, "%s/g0003b02/p04.b.hex", dir);
    snprintf(cmd, sizeof cmd, "head -n 5 %s > %s.t && mv %s.t %s", path, path, path, path);
    EXPECT(c, system(cmd) == 0, "truncate");
    EXPECT(c, tables_load_images(&got, dir, err) != 0 && strstr(err, "p04.b.hex") && strstr(err, "truncated"),
           "truncation not reported: %s", err);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    EXPECT(c, system(cmd) == 0, "cleanup");
    tables_free(&gen);
}

/* The destination-group refraction keeps the VC on both hops, so the waits it creates between
 * the intra-group channels of one group, (x -> y) then (y -> d) for every middle router y the
 * tables offer x toward d, must form no cycle; found here by a depth-first search over the channels,
 * not by the generator's ranks. And --dest-refraction 0 gives the paper's empty rows. */
static int dref_cycle_from(const uint64_t *next, int a, int ch, uint8_t *state) {
    if (state[ch] == 1) return 1;
    if (state[ch] == 2) return 0;
    state[ch] = 1;
    int y = ch % a;
    for (int d = 0; d < a; d++)
        if ((next[ch] >> d) & 1 && dref_cycle_from(next, a, y * a + d, state)) return 1;
    state[ch] = 2;
    return 0;
}

static void test_dest_refraction(test_ctx *c, const char *name) {
    topo t;
    table_set ts;
    make_tables(&t, &ts, name, 1);
    int a = t.a, offered = 0;
    uint64_t *next = calloc((size_t)a * a, sizeof *next); /* channel x*a+y: the d it may wait on */
    uint8_t *state = calloc((size_t)a * a, 1);
    for (int x = 0; x < a; x++) {
        int r = topo_router(&t, 0, x);
        const port_tables *pt = tables_port(&ts, r, t.first_global);
        for (int d = 0; d < a; d++) {
            if (d == x) continue;
            for (uint64_t m = pt->b[tables_row_b(&ts, ZONE_B, d)]; m; m &= m - 1) {
                int y = bid_via(&t, r, __builtin_ctzll(m));
                next[x * a + y] |= (uint64_t)1 << d;
                offered++;
            }
        }
    }
    int cyc = 0;
    for (int ch = 0; ch < a * a && !cyc; ch++) cyc = dref_cycle_from(next, a, ch, state);
    EXPECT(c, !cyc && (a < 4 || offered > 0), "%s: destination refraction waits: cycle %d, %d offered", name, cyc,
           offered);
    free(next);
    free(state);
    tables_free(&ts);
    make_tables(&t, &ts, name, 0);
    int any = 0;
    for (int r = 0; r < t.n_routers; r++)
        for (int d = 0; d < a; d++)
            if (d != topo_bid(&t, r)) any |= tables_port(&ts, r, t.first_global)->b[tables_row_b(&ts, ZONE_B, d)] != 0;
    EXPECT(c, !any, "%s: dest_refraction 0 leaves global inputs' zone B of table B empty", name);
    tables_free(&ts);
}

int main(void) {
    test_ctx c = {0, 0, "test_tables"};
    test_dest_refraction(&c, "small");
    test_dest_refraction(&c, "mid");
    test_dest_refraction(&c, "paper");
    test_encodings(&c);
    test_fig4_classes(&c);
    test_doc_example(&c);
    const char *names[] = {"tiny", "small", "fig8", "mid"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) test_fig7a(&c, names[i]);
    test_literal(&c, 2, 4, 2, 9, 8);
    test_literal(&c, 2, 4, 2, 8, 8);
    test_literal(&c, 1, 10, 2, 21, 8); /* a > nm_slots: table B names 8 of 10 routers */
    test_literal(&c, 1, 6, 2, 13, 3);
    test_images(&c);
    return test_finish(&c);
}
