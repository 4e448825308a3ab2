/* Fault handling (seed 001 sec. 4): the cycle costs of sec. 4.2 measured on one unit, Aim(),
 * what a local fault does to a router's entries (checked against topology facts), roles, the
 * oracle on known cases, the options stored per port class and per private port, delivery after diagnosis (every route that is still allowed reaches its
 * destination), and campaigns that pass — and fail with the planted role bug. */
#include <stdlib.h>
#include <string.h>

#include "fault_campaign.h"
#include "fault_net.h"
#include "fault_oracle.h"
#include "testutil.h"

typedef struct {
    table_set ts;
    topo t;
} net;

static void make_net(net *n, const char *name) {
    char err[DOAR_ERRLEN];
    table_params prm;
    tables_default_params(&prm);
    if (topo_named(&n->t, name, err) || tables_generate(&n->ts, &n->t, &prm, err)) {
        fprintf(stderr, "setup: %s\n", err);
        exit(2);
    }
}

/* Cycles from handing the unit its work until it is idle again. */
static int run_to_idle(fault_unit *fu) {
    int cycles = 0;
    int p;
    fault_msg m;
    while (!fault_idle(fu) && cycles < 100000) {
        fault_tick(fu);
        while (fault_pop(fu, &p, &m)) {}
        cycles++;
    }
    return cycles;
}

static void test_cycle_costs(test_ctx *c, const char *cfg) {
    net n;
    make_net(&n, cfg);
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    fault_unit fu;
    int r = topo_router(t, 1, 1);
    if (fault_init(&fu, &n.ts, r, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    const int et_num = t->p + t->a + t->g; /* one A+B entry per zone row */
    const int t1 = FAULT_T1, t2 = FAULT_T2;
    EXPECT(c, fu.et_num == et_num, "%s: et_num %d", cfg, fu.et_num);
    fault_event(&fu, FEV_LINK_DOWN, t->first_global);
    int tld = run_to_idle(&fu);
    EXPECT(c, tld == t1 + t2 + 2 * et_num, "%s: t_ld measured %d, formula %d", cfg, tld, t1 + t2 + 2 * et_num);
    fault_msg fd = {FMSG_FD, FAULT_PREFIX_GROUP, FAULT_ROLES, 5, 0, 0};
    fault_receive(&fu, t->first_local, &fd);
    int tgd = run_to_idle(&fu);
    EXPECT(c, tgd == t1 + t2 + 2, "%s: t_gd measured %d, formula %d", cfg, tgd, t1 + t2 + 2);
    fault_event(&fu, FEV_UP, t->first_global);
    int tr = run_to_idle(&fu);
    EXPECT(c, tr == t1 + t2 + 3 * et_num, "%s: t_r measured %d, formula %d", cfg, tr, t1 + t2 + 3 * et_num);
    fault_msg fr = {FMSG_FR, FAULT_PREFIX_GROUP, FAULT_ROLES, 5, 0, 0};
    fault_receive(&fu, t->first_local, &fr);
    int tfr = run_to_idle(&fu);
    EXPECT(c, tfr == t1 + t2 + 2, "%s: FR message measured %d, formula %d", cfg, tfr, t1 + t2 + 2);
    /* two events back to back: the scheduler runs one command at a time */
    fault_event(&fu, FEV_LINK_DOWN, t->first_global);
    fault_event(&fu, FEV_LINK_DOWN, t->first_local);
    int two = run_to_idle(&fu);
    EXPECT(c, two == 2 * (t1 + t2 + 2 * et_num), "%s: two local faults took %d", cfg, two);
    fault_free(&fu);
    tables_free(&n.ts);
}

static void test_aim(test_ctx *c) {
    net n;
    make_net(&n, "small");
    const table_set *ts = &n.ts;
    /* router <3,2>: seed 001 Algorithm 2 lines 17-26 */
    fault_msg m = {FMSG_FD, FAULT_PREFIX_GROUP, 3, 5, 1, 0};
    EXPECT(c, fault_aim(ts, 3, 2, &m) == tables_row_a(ts, ZONE_G, 5), "prefix 1 -> G zone");
    m.prefix = FAULT_PREFIX_ROUTER;
    EXPECT(c, fault_aim(ts, 3, 2, &m) == tables_row_a(ts, ZONE_G, 5), "prefix 2, other group -> G zone");
    m.g = 3;
    EXPECT(c, fault_aim(ts, 3, 2, &m) == tables_row_a(ts, ZONE_B, 1), "prefix 2, own group -> B zone");
    m.prefix = FAULT_PREFIX_NODE;
    EXPECT(c, fault_aim(ts, 3, 2, &m) == tables_row_a(ts, ZONE_B, 1), "prefix 3, other router -> B zone");
    m.b = 2;
    m.n = 1;
    EXPECT(c, fault_aim(ts, 3, 2, &m) == tables_row_a(ts, ZONE_N, 1), "prefix 3, own router -> N zone");
    tables_free(&n.ts);
}

/* Fig. 8(b) at G0s1 of fig8: its global port to G2 fails. */
static void test_local_fault_effect(test_ctx *c) {
    net n;
    make_net(&n, "fig8");
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    int j = topo_gport_to_group(t, 0, 2), r = topo_router(t, 0, j / t->h), gp = topo_global_port(t, j);
    EXPECT(c, j / t->h == 1, "G0s1 owns the link to G2");
    fault_unit fu;
    if (fault_init(&fu, &n.ts, r, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    fault_event(&fu, FEV_LINK_DOWN, gp);
    int sent_to[DOAR_MAX_RADIX] = {0}, p;
    fault_msg m;
    int cycles = 0;
    while (!fault_idle(&fu) && cycles++ < 10000) {
        fault_tick(&fu);
        while (fault_pop(&fu, &p, &m)) {
            EXPECT(c, m.kind == FMSG_FD, "only FDs after a fault");
            if (m.prefix == FAULT_PREFIX_GROUP && m.g == 2) sent_to[p]++;
        }
    }
    int e = fault_entry_of(&n.ts, ZONE_G, 2);
    for (int port = 0; port < t->k; port++) {
        port_class pc = topo_port_class(t, port);
        uint64_t mask = fault_mask(&fu, port, e);
        EXPECT(c, !((mask >> gp) & 1) || pc == PORT_GLOBAL, "port %d: option through the failed port is invalid", port);
        if (pc == PORT_LOCAL) {
            /* G0s1 is G0's exit to G2: its intra-group inputs had only that port (Fig. 7a) */
            EXPECT(c, fault_acc(&fu, port, e) == 0, "local input %d: G[2] inaccessible", port);
            EXPECT(c, sent_to[port] == 1, "local input %d: one FD for G2 to the neighbour (got %d)", port,
                   sent_to[port]);
        }
        if (pc == PORT_TERMINAL) {
            EXPECT(c, fault_acc(&fu, port, e) == FAULT_ROLES, "terminal %d keeps non-minimal options to G2", port);
            EXPECT(c, sent_to[port] == 0, "no FD to a node");
        }
    }
    /* (what goes to the failed port itself is lost on the dead link; the network counts it) */
    /* recovery restores every bit */
    fault_event(&fu, FEV_UP, gp);
    while (!fault_idle(&fu)) {
        fault_tick(&fu);
        while (fault_pop(&fu, &p, &m)) {}
    }
    int restored = 1;
    for (int i = 0; i < t->k * fu.et_num; i++) restored &= fu.mask[i] == ~(uint64_t)0;
    EXPECT(c, restored, "all options valid again after the link is up");
    fault_free(&fu);
    tables_free(&n.ts);
}

/* An FD that concerns only packets in their source group touches only terminal inputs. */
static void test_roles(test_ctx *c) {
    net n;
    make_net(&n, "small");
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    int r = topo_router(t, 0, 0), toward = topo_local_port(t, 0, 1);
    fault_unit fu;
    if (fault_init(&fu, &n.ts, r, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    int D = 5, e = fault_entry_of(&n.ts, ZONE_G, D);
    fault_msg fd = {FMSG_FD, FAULT_PREFIX_GROUP, FAULT_ROLE_SOURCE, (uint16_t)D, 0, 0};
    fault_receive(&fu, toward, &fd);
    run_to_idle(&fu);
    for (int port = 0; port < t->k; port++) {
        uint64_t opts = fault_opt(&fu, FAULT_ROLE_SOURCE, port, e) | fault_opt(&fu, FAULT_ROLE_TRANSIT, port, e);
        if (!((opts >> toward) & 1)) continue;
        int cleared = !((fault_mask(&fu, port, e) >> toward) & 1);
        EXPECT(c, cleared == (topo_port_class(t, port) == PORT_TERMINAL), "port %d (class %d): cleared=%d", port,
               (int)topo_port_class(t, port), cleared);
    }
    fault_free(&fu);
    tables_free(&n.ts);
}

static void test_oracle_known(test_ctx *c) {
    net n;
    make_net(&n, "small");
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    uint8_t *rd = calloc((size_t)t->n_routers, 1), *pd = calloc((size_t)t->n_routers * t->k, 1);
    fault_oracle o;
    EXPECT(c, fault_oracle_run(&o, &n.ts, rd, pd, err) == 0, "%s", err);
    int all = 1;
    for (size_t i = 0; i < (size_t)t->n_routers * t->k * o.et_num; i++) all &= o.mask[i] == ~(uint64_t)0;
    EXPECT(c, all && o.unreachable_pairs == 0, "no fault: everything valid");
    fault_oracle_free(&o);
    /* the intra-group link (0,0)-(0,2): at (0,0)'s terminal input the direct option to (0,2) goes,
     * the refractions through (0,1) and (0,3) stay (Fig. 9g's "loses the minimal path") */
    int a = topo_router(t, 0, 0), pa = topo_local_port(t, 0, 2), b = topo_router(t, 0, 2),
        pb = topo_local_port(t, 2, 0);
    pd[(size_t)a * t->k + pa] = pd[(size_t)b * t->k + pb] = 1;
    EXPECT(c, fault_oracle_run(&o, &n.ts, rd, pd, err) == 0, "%s", err);
    size_t i = ((size_t)a * t->k + 0) * o.et_num + tables_row_a(&n.ts, ZONE_B, 2);
    uint64_t via1 = (uint64_t)1 << topo_local_port(t, 0, 1), via3 = (uint64_t)1 << topo_local_port(t, 0, 3);
    EXPECT(c, !((o.mask[i] >> pa) & 1) && (o.mask[i] & via1) && (o.mask[i] & via3), "mask %016llx",
           (unsigned long long)o.mask[i]);
    EXPECT(c, o.unreachable_pairs == 0, "one link fault leaves every pair reachable (%llu)",
           (unsigned long long)o.unreachable_pairs);
    fault_oracle_free(&o);
    free(rd);
    free(pd);
    tables_free(&n.ts);
}

/* Walk every route a source may still choose; count the ones that do not arrive. */
static long walk(const fault_net *nt, int r, int in_port, int src_gid, int d, int hops, long *arrived) {
    const topo *t = nt->t;
    if (r == d) {
        (*arrived)++;
        return 0;
    }
    if (hops >= 7) return 1; /* LG-LL-GLL: the longest, with a destination-group refraction */
    const fault_unit *fu = &nt->fu[r];
    int index;
    table_zone z = tables_zone(topo_gid(t, r), topo_bid(t, r), topo_gid(t, d), topo_bid(t, d), 0, &index);
    int e = fault_entry_of(nt->ts, z, index);
    int source = topo_port_class(t, in_port) == PORT_LOCAL && topo_gid(t, r) == src_gid;
    uint64_t opts =
        fault_opt(fu, source ? FAULT_ROLE_SOURCE : FAULT_ROLE_TRANSIT, in_port, e) & fault_mask(fu, in_port, e);
    if (!opts) return 1;
    long bad = 0;
    for (uint64_t m = opts; m; m &= m - 1) {
        int p = __builtin_ctzll(m), q, qp;
        if (topo_peer(t, r, p, &q, &qp) || nt->router_dead[q] || nt->port_dead[(size_t)r * t->k + p]) {
            bad++;
            continue;
        }
        bad += walk(nt, q, qp, src_gid, d, hops + 1, arrived);
    }
    return bad;
}

static void test_delivery_after_diagnosis(test_ctx *c) {
    net n;
    make_net(&n, "small");
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    uint64_t rng = 12345;
    for (int campaign = 0; campaign < 20; campaign++) {
        fault_net nt;
        if (fault_net_init(&nt, &n.ts, 10, 100, err)) {
            EXPECT(c, 0, "%s", err);
            return;
        }
        for (int f = 0; f < 1 + campaign % 8; f++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            int r = (int)((rng >> 33) % (uint64_t)t->n_routers),
                p = t->p + (int)((rng >> 20) % (uint64_t)(t->k - t->p));
            if (f % 4 == 3)
                fault_net_fail_router(&nt, r);
            else
                fault_net_fail_link(&nt, r, p);
        }
        EXPECT(c, fault_net_run(&nt, 1000000) >= 0, "diagnosis settles");
        long bad = 0, arrived = 0, pairs = 0;
        for (int s = 0; s < t->n_routers; s++) {
            if (nt.router_dead[s]) continue;
            for (int d = 0; d < t->n_routers; d++) {
                if (d == s || nt.router_dead[d]) continue;
                int index;
                table_zone z = tables_zone(topo_gid(t, s), topo_bid(t, s), topo_gid(t, d), topo_bid(t, d), 0, &index);
                if (!(fault_acc(&nt.fu[s], 0, fault_entry_of(&n.ts, z, index)) & FAULT_ROLE_SOURCE)) continue;
                pairs++;
                bad += walk(&nt, s, 0, topo_gid(t, s), d, 0, &arrived);
            }
        }
        EXPECT(c, bad == 0, "campaign %d: %ld routes end at a dead end or a dead link (of %ld arriving, %ld pairs)",
               campaign, bad, arrived, pairs);
        EXPECT(c, arrived >= pairs, "every reachable pair has a route");
        fault_net_free(&nt);
    }
    tables_free(&n.ts);
}

static void test_campaigns(test_ctx *c) {
    net n;
    make_net(&n, "fig8");
    char err[DOAR_ERRLEN];
    fault_campaign_opts o;
    fault_campaign_default_opts(&o);
    o.campaigns = 40;
    o.max_faults = 12;
    o.seed = 9;
    fault_campaign_result r;
    EXPECT(c, fault_campaign_run(&n.ts, &o, &r, err) == 0, "%s", err);
    EXPECT(c, r.oracle_mismatches == 0 && r.restored == r.campaigns, "mismatches %llu restored %d: %s",
           (unsigned long long)r.oracle_mismatches, r.restored, r.first_mismatch);
    /* that the campaign can fail (role-blind units disagree with the oracle) is the mutant
     * csim-fault-roles-ignored of tests/mutants/mutants.txt (tests/faults_test.sh runs it) */
    tables_free(&n.ts);
}

/* Issue 20 item 5: one failed intra-group link must not make any destination unreachable from
 * any live router's global inputs (seed 001's Fig. 7(a) tables close every global channel into
 * the group: the far end applies "router R2 unreachable" to its whole zone-G row). Every
 * intra-group link of group 0, one at a time, diagnosed to quiescence; then every entry that has
 * options at a global input must still be accessible in the transit role. With the refraction
 * switched off (dest_refraction 0, the paper's tables) some entry must close: the check sees it. */
static long closed_at_global_inputs(const char *name, int dest_refraction, int *links, char err[DOAR_ERRLEN]) {
    topo t;
    table_set ts;
    table_params prm;
    tables_default_params(&prm);
    prm.dest_refraction = dest_refraction;
    if (topo_named(&t, name, err) || tables_generate(&ts, &t, &prm, err)) return -1;
    long closed = 0;
    *links = 0;
    for (int x = 0; x < t.a; x++)
        for (int y = x + 1; y < t.a; y++) {
            fault_net nt;
            if (fault_net_init(&nt, &ts, 10, 100, err)) {
                tables_free(&ts);
                return -1;
            }
            fault_net_fail_link(&nt, topo_router(&t, 0, x), topo_local_port(&t, x, y));
            if (fault_net_run(&nt, 1000000) < 0) closed += 1000000; /* did not settle */
            for (int r = 0; r < t.n_routers; r++) {
                const fault_unit *fu = &nt.fu[r];
                for (int port = t.first_global; port < t.k; port++)
                    for (int e = 0; e < fu->et_num; e++)
                        if (fault_opt(fu, FAULT_ROLE_TRANSIT, port, e) &&
                            !(fault_acc(fu, port, e) & FAULT_ROLE_TRANSIT))
                            closed++;
            }
            fault_net_free(&nt);
            ++*links;
        }
    tables_free(&ts);
    return closed;
}

static void test_one_local_link_closes_nothing(test_ctx *c, const char *name) {
    char err[DOAR_ERRLEN];
    int links = 0, links0 = 0;
    long with = closed_at_global_inputs(name, 1, &links, err);
    EXPECT(c, with == 0, "%s: %ld global-input entries closed over %d single intra-group link faults (%s)", name, with,
           links, with < 0 ? err : "");
    long without = closed_at_global_inputs(name, 0, &links0, err);
    EXPECT(c, without > 0, "%s: without the refraction the paper's tables close entries (%ld) ", name, without);
}

/* A router of the group known dead (peer-down): the route-compute units read its zone-B entry
 * with no option on every input, although the stored mask keeps the options through the live
 * routers (the refraction at a global input); the other routers' entries read as stored; when it
 * comes back (up) its entry reads as stored again (issue 20: a packet for a dead router is
 * discarded where it is, not sent on to a middle router that discards it). */
static void test_dead_entry_read(test_ctx *c, const char *name) {
    net n;
    make_net(&n, name);
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    const int dead = 3, r = topo_router(t, 0, 0), lp = topo_local_port(t, 0, dead);
    fault_unit fu;
    if (fault_init(&fu, &n.ts, r, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    fault_event(&fu, FEV_PEER_DOWN, lp);
    run_to_idle(&fu);
    const int e = fault_entry_of(&n.ts, ZONE_B, dead);
    long stored_open = 0, other_differs = 0;
    for (int port = 0; port < t->k; port++) {
        EXPECT(c, fault_read_mask(&fu, port, e) == 0, "%s: input %d reads the dead router's entry with an option", name,
               port);
        if (topo_port_class(t, port) == PORT_GLOBAL &&
            (fault_mask(&fu, port, e) & ~((uint64_t)1 << lp) &
             (fault_opt(&fu, FAULT_ROLE_SOURCE, port, e) | fault_opt(&fu, FAULT_ROLE_TRANSIT, port, e))))
            stored_open++;
        for (int d = 0; d < t->a; d++) {
            int ed = fault_entry_of(&n.ts, ZONE_B, d);
            if (d != dead && fault_read_mask(&fu, port, ed) != fault_mask(&fu, port, ed)) other_differs++;
        }
    }
    EXPECT(c, stored_open > 0,
           "%s: the stored masks keep refraction options at global inputs (the read alone closes them)", name);
    EXPECT(c, other_differs == 0, "%s: %ld reads of live routers' entries differ from the stored mask", name,
           other_differs);
    fault_event(&fu, FEV_UP, lp);
    run_to_idle(&fu);
    long differs = 0;
    for (int port = 0; port < t->k; port++) differs += fault_read_mask(&fu, port, e) != fault_mask(&fu, port, e);
    EXPECT(c, differs == 0, "%s: back up, %ld inputs still read its entry closed", name, differs);
    fault_free(&fu);
    tables_free(&n.ts);
}

/* The static options are stored once per distinct (port tables, port class) of a router, in the
 * unit and in the oracle: a port given private tables (tables_unshare) with an emptied entry must
 * read its own options, every other port those of its class; both must equal the decoding of
 * fault_entry_options() port by port. */
static void test_options_per_port(test_ctx *c) {
    net n;
    make_net(&n, "small");
    const topo *t = &n.t;
    char err[DOAR_ERRLEN];
    const int r = topo_router(t, 1, 2), p = 1, d = 0, e = tables_row_a(&n.ts, ZONE_B, d);
    EXPECT(c, tables_unshare(&n.ts, r, p) == 0, "unshare");
    port_tables *pt = tables_port(&n.ts, r, p);
    pt->a[e] = 0;
    pt->b[tables_row_b(&n.ts, ZONE_B, d)] = 0;
    fault_unit fu;
    if (fault_init(&fu, &n.ts, r, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    EXPECT(c, fu.opt_sets == 4, "3 port classes and one private port: %d option sets", fu.opt_sets);
    EXPECT(c, fault_opt(&fu, FAULT_ROLE_SOURCE, p, e) == 0 && fault_opt(&fu, FAULT_ROLE_SOURCE, 0, e) != 0,
           "the private port's emptied entry reads empty, its neighbour's does not");
    long differ = 0;
    for (int port = 0; port < t->k; port++)
        for (int en = 0; en < fu.et_num; en++)
            for (unsigned role = FAULT_ROLE_SOURCE; role <= FAULT_ROLE_TRANSIT; role++)
                differ += fault_opt(&fu, role, port, en) != fault_entry_options(&n.ts, r, port, en, role);
    EXPECT(c, differ == 0, "unit: %ld (port, entry, role) options differ from their decoding", differ);
    EXPECT(c, fault_acc(&fu, p, e) == 0 && fault_acc(&fu, 0, e) == FAULT_ROLES, "accessibility: %u and %u",
           fault_acc(&fu, p, e), fault_acc(&fu, 0, e));
    fault_free(&fu);
    uint8_t *rd = calloc((size_t)t->n_routers, 1), *pd = calloc((size_t)t->n_routers * t->k, 1);
    fault_oracle o;
    EXPECT(c, fault_oracle_run(&o, &n.ts, rd, pd, err) == 0, "%s", err);
    differ = 0;
    for (int port = 0; port < t->k; port++)
        for (int en = 0; en < o.et_num; en++) {
            const size_t oi = o.opt_row[(size_t)r * t->k + port] + en;
            differ += o.opt[0][oi] != fault_entry_options(&n.ts, r, port, en, FAULT_ROLE_SOURCE);
            differ += o.opt[1][oi] != fault_entry_options(&n.ts, r, port, en, FAULT_ROLE_TRANSIT);
        }
    EXPECT(c, differ == 0, "oracle: %ld (port, entry, role) options differ from the unit's decoding", differ);
    const size_t i = ((size_t)r * t->k + p) * o.et_num + e;
    EXPECT(c, o.acc[i] == 0 && o.acc[i - (size_t)p * o.et_num] == 3, "oracle accessibility: %u and %u", o.acc[i],
           o.acc[i - (size_t)p * o.et_num]);
    fault_oracle_free(&o);
    free(rd);
    free(pd);
    tables_free(&n.ts);
}

int main(void) {
    test_ctx c = {0, 0, "test_fault"};
    test_one_local_link_closes_nothing(&c, "small");
    test_one_local_link_closes_nothing(&c, "mid");
    test_cycle_costs(&c, "small");
    test_cycle_costs(&c, "fig8");
    test_cycle_costs(&c, "mid");
    test_aim(&c);
    test_local_fault_effect(&c);
    test_dead_entry_read(&c, "small");
    test_dead_entry_read(&c, "mid");
    test_roles(&c);
    test_oracle_known(&c);
    test_options_per_port(&c);
    test_delivery_after_diagnosis(&c);
    test_campaigns(&c);
    return test_finish(&c);
}
