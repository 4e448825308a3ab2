/* The network simulator (csim/network.c): exact zero-load latency of single packets against a
 * derivation from the router's timing contract and the link latencies; conservation and zero
 * loss; low-load latency and throughput; determinism from the seed; MIN's analytic ADV+1 bound and
 * DOAR beating it; lost packets and stopped traffic are reported, not hidden. */
#include <stdlib.h>
#include <string.h>

#include "network.h"
#include "testutil.h"

/* csim/router.h contract: a head arriving in cycle t is on the output in cycle t+12. */
#define ROUTER_HEAD_DELAY 13 /* docs/architecture.md "Router v7": head in at t, out at t+13 */
#define TEST_PACKET_LEN 4
#define PER_PACKET_CYCLE_CAP 5000

typedef struct {
    int local_links, global_links;
} min_path;

/* The minimal path between two routers, from the wiring rules of the brief ("Topology"): one
 * global link joins every pair of groups; the routers owning its ends are reached by at most one
 * intra-group link on each side. */
static min_path minimal_path(const topo *t, int rs, int rd) {
    min_path m = {0, 0};
    int gs = topo_gid(t, rs), bs = topo_bid(t, rs), gd = topo_gid(t, rd), bd = topo_bid(t, rd);
    if (rs == rd) return m;
    if (gs == gd) {
        m.local_links = 1;
        return m;
    }
    int j_out = topo_gport_to_group(t, gs, gd), j_in = topo_gport_to_group(t, gd, gs);
    m.global_links = 1;
    m.local_links = (j_out / t->h != bs) + (j_in / t->h != bd);
    return m;
}

/* Creation to tail delivery of a packet alone in the network: terminal link in, every router's
 * head delay, every link, terminal link out, then the len-1 flits behind the head. */
static long zero_load_latency(const topo *t, const net_params *p, int src, int dst) {
    min_path m = minimal_path(t, src / t->p, dst / t->p);
    int routers = m.local_links + m.global_links + 1;
    return 2L * p->lat_terminal + (long)routers * ROUTER_HEAD_DELAY + (long)m.local_links * p->lat_local +
           (long)m.global_links * p->lat_global + (p->packet_len - 1);
}

static void params(const topo *t, net_params *p, double rate, long warmup, long sample, uint64_t seed) {
    net_default_params(t, p);
    p->rate = rate;
    p->warmup = warmup;
    p->sample = sample;
    p->seed = seed;
    p->drain_limit = 4000;
    p->watchdog = 2000;
}

/* One packet at a time, every destination from a few sources: exact latency and hop count. */
static void test_zero_load_exact(test_ctx *c, const char *name, int lat_t, int lat_l, int lat_g) {
    char err[DOAR_ERRLEN];
    topo t;
    net_params p;
    network n;
    topo_named(&t, name, err);
    params(&t, &p, 0.0, 0, 1000000000L, 1);
    p.lat_terminal = lat_t;
    p.lat_local = lat_l;
    p.lat_global = lat_g;
    if (p.watchdog < 2L * lat_g + 100) p.watchdog = 2L * lat_g + 100;
    EXPECT(c, net_init(&n, &t, &p, err) == 0, "%s", err);
    int sources[3] = {0, t.n_nodes / 2 + 1, t.n_nodes - 1};
    int packets = 0, wrong = 0;
    for (int si = 0; si < 3; si++)
        for (int dst = 0; dst < t.n_nodes; dst++) {
            int src = sources[si];
            if (dst == src) continue;
            double lat0 = n.sample_latency_sum, hops0 = n.sample_hops_sum;
            long delivered0 = n.delivered;
            EXPECT(c, net_send(&n, src, dst) == 0, "send");
            for (int k = 0; k < PER_PACKET_CYCLE_CAP && n.delivered == delivered0; k++) net_cycle(&n);
            long want = zero_load_latency(&t, &p, src, dst);
            min_path m = minimal_path(&t, src / t.p, dst / t.p);
            long got = (long)(n.sample_latency_sum - lat0);
            int hops = (int)(n.sample_hops_sum - hops0);
            packets++;
            if (n.delivered != delivered0 + 1 || got != want || hops != m.local_links + m.global_links) {
                if (wrong++ < 3)
                    EXPECT(c, 0, "%s: node %d -> %d: latency %ld hops %d, derived %ld hops %d", name, src, dst, got,
                           hops, want, m.local_links + m.global_links);
            }
        }
    EXPECT(c, wrong == 0, "%s: %d of %d single packets off the derived zero-load latency", name, wrong, packets);
    EXPECT(c, n.errors == 0, "%s: %s", name, n.first_error);
    printf("  %s latencies %d/%d/%d: %d single packets at the derived zero-load latency\n", name, lat_t, lat_l, lat_g,
           packets);
    net_free(&n);
}

static int run(test_ctx *c, const topo *t, const net_params *p, net_result *r) {
    char err[DOAR_ERRLEN];
    network n;
    if (net_init(&n, t, p, err)) {
        EXPECT(c, 0, "net_init: %s", err);
        memset(r, 0, sizeof *r);
        return -1;
    }
    int rc = net_run(&n, r);
    net_free(&n);
    return rc;
}

/* Conservation, zero loss, low-load latency near the zero-load mean, accepted = offered. */
static void test_low_load(test_ctx *c) {
    char err[DOAR_ERRLEN];
    topo t;
    net_params p;
    net_result r;
    topo_named(&t, "small", err);
    params(&t, &p, 0.05, 1000, 5000, 7);
    int rc = run(c, &t, &p, &r);
    EXPECT(c, rc == 0, "low load: %s", r.report);
    EXPECT(c, r.lost == 0 && r.delivered == r.created && r.created > 0, "created %ld delivered %ld lost %ld", r.created,
           r.delivered, r.lost);
    EXPECT(c, r.sample_delivered == r.sample_created && r.sample_created > 1000, "sample %ld/%ld", r.sample_delivered,
           r.sample_created);
    EXPECT(c, r.errors == 0, "%s", r.report);
    /* the mean over every (src, dst != src) pair: UR picks those uniformly */
    double lat_sum = 0, hop_sum = 0;
    long pairs = 0;
    for (int s = 0; s < t.n_nodes; s++)
        for (int d = 0; d < t.n_nodes; d++) {
            if (s == d) continue;
            min_path m = minimal_path(&t, s / t.p, d / t.p);
            lat_sum += (double)zero_load_latency(&t, &p, s, d);
            hop_sum += m.local_links + m.global_links;
            pairs++;
        }
    double lat0 = lat_sum / (double)pairs, hop0 = hop_sum / (double)pairs;
    EXPECT(c, r.latency > lat0 * 0.97 && r.latency < lat0 * 1.08, "latency %.1f vs zero-load mean %.1f", r.latency,
           lat0);
    EXPECT(c, r.hops > hop0 * 0.97 && r.hops < hop0 * 1.03, "hops %.3f vs minimal mean %.3f", r.hops, hop0);
    EXPECT(c, r.accepted > p.rate - 0.01 && r.accepted < p.rate + 0.01, "accepted %.4f offered %.4f", r.accepted,
           p.rate);
    printf(
        "  small UR 0.05: latency %.1f (zero-load mean %.1f), hops %.3f (minimal %.3f), accepted %.4f, %ld packets\n",
        r.latency, lat0, r.hops, hop0, r.accepted, r.created);
}

static void test_determinism(test_ctx *c) {
    char err[DOAR_ERRLEN];
    topo t;
    net_params p;
    net_result a, b, d;
    topo_named(&t, "small", err);
    params(&t, &p, 0.4, 500, 1500, 11);
    p.lat_local = 3;
    p.lat_global = 20;
    run(c, &t, &p, &a);
    run(c, &t, &p, &b);
    p.seed = 12;
    run(c, &t, &p, &d);
    EXPECT(c, a.lost == 0 && b.lost == 0 && d.lost == 0, "lost %ld %ld %ld", a.lost, b.lost, d.lost);
    EXPECT(c,
           a.created == b.created && a.delivered == b.delivered && a.latency == b.latency && a.accepted == b.accepted &&
               memcmp(a.hops_hist, b.hops_hist, sizeof a.hops_hist) == 0 && a.cycles == b.cycles,
           "same seed, different runs: latency %.3f vs %.3f, delivered %ld vs %ld", a.latency, b.latency, a.delivered,
           b.delivered);
    EXPECT(c, a.created != d.created || a.latency != d.latency, "seeds 11 and 12 gave the same run");
    printf("  small UR 0.4 seed 11 twice: latency %.3f / %.3f; seed 12: %.3f\n", a.latency, b.latency, d.latency);
}

/* ADV+1: MIN sends a group's whole load over its one global link to the next group, so it cannot
 * accept more than 1/(a*p) flits/node/cycle; DOAR goes non-minimal and takes the offered 0.15. */
static void test_adversarial(test_ctx *c) {
    char err[DOAR_ERRLEN];
    topo t;
    net_params p;
    net_result rmin, rdoar;
    topo_named(&t, "small", err);
    params(&t, &p, 0.15, 1000, 2000, 3);
    EXPECT(c, traffic_parse("adv+1", &t, &p.traffic, err) == 0, "%s", err);
    p.drain_limit = 20000; /* MIN's backlog needs a while to drain */
    p.routing = NET_ROUTING_MIN;
    run(c, &t, &p, &rmin);
    p.routing = NET_ROUTING_DOAR;
    run(c, &t, &p, &rdoar);
    double bound = 1.0 / (t.a * t.p);
    EXPECT(c, rmin.accepted <= bound + 0.005 && rmin.accepted > bound * 0.7, "MIN ADV+1 accepted %.4f, bound %.4f",
           rmin.accepted, bound);
    long longer = 0;
    for (int h = 4; h <= NET_MAX_HOPS_HIST; h++) longer += rmin.hops_hist[h];
    EXPECT(c, longer == 0, "MIN took %ld paths longer than 3 hops", longer);
    EXPECT(c, rdoar.accepted > 0.9 * p.rate, "DOAR ADV+1 accepted %.4f of %.2f", rdoar.accepted, p.rate);
    longer = 0;
    for (int h = 4; h <= NET_MAX_HOPS_HIST; h++) longer += rdoar.hops_hist[h];
    EXPECT(c, longer > 0, "DOAR never went non-minimal on ADV+1");
    EXPECT(c, rmin.lost == 0 && rdoar.lost == 0 && rmin.errors == 0 && rdoar.errors == 0, "lost %ld %ld: %s %s",
           rmin.lost, rdoar.lost, rmin.report, rdoar.report);
    printf("  small ADV+1 %.2f: MIN accepted %.4f (bound %.4f), DOAR accepted %.4f hops %.3f\n", p.rate, rmin.accepted,
           bound, rdoar.accepted, rdoar.hops);
}

/* net_run's blocks (net_params.block: a router runs several cycles before the next) change the
 * speed only: every figure of a run, the channel loads and the early stop come out the same as
 * cycle by cycle, for every routing, several patterns and loads up to saturation, and with short
 * links (block 3) and a chosen block. */
static int same_result(const net_result *a, const net_result *b) {
    return a->cycles == b->cycles && a->created == b->created && a->delivered == b->delivered && a->lost == b->lost &&
           a->accepted == b->accepted && a->generated == b->generated && a->latency == b->latency &&
           a->hops == b->hops && memcmp(a->hops_hist, b->hops_hist, sizeof a->hops_hist) == 0 &&
           a->sample_created == b->sample_created && a->sample_delivered == b->sample_delivered &&
           a->channel_min == b->channel_min && a->channel_max == b->channel_max && a->channel_mean == b->channel_mean &&
           a->stopped == b->stopped && a->deadlock == b->deadlock && a->livelock == b->livelock &&
           a->errors == b->errors && a->decisions == b->decisions && a->nonminimal == b->nonminimal;
}

static void test_block_exact(test_ctx *c) {
    static const char *const routings[] = {"min", "val", "ugal_l", "ugal_g", "par", "par_ph", "ugal_le", "tpr", "doar"};
    static const char *const traffics[] = {"ur", "adv+1", "rp", "fft3d"};
    static const double rates[] = {0.25, 0.6};
    char err[DOAR_ERRLEN];
    topo t;
    net_params p;
    net_result one, blocked;
    topo_named(&t, "small", err);
    int runs = 0, same = 0;
    for (size_t ri = 0; ri < sizeof routings / sizeof routings[0]; ri++)
        for (size_t ti = 0; ti < sizeof traffics / sizeof traffics[0]; ti++)
            for (size_t li = 0; li < sizeof rates / sizeof rates[0]; li++)
                for (int variant = 0; variant < 2; variant++) {
                    params(&t, &p, rates[li], 600, 900, 5 + ri);
                    p.stop_latency = 500.0; /* a saturated load stops early: at the same cycle */
                    p.stop_share = 0.95;
                    if (variant) { /* short links: blocks of 3, and of 2 when chosen */
                        p.lat_local = 3;
                        p.lat_global = 9;
                    }
                    EXPECT(c, net_parse_routing(routings[ri], &p.routing, err) == 0, "%s", err);
                    EXPECT(c, traffic_parse(traffics[ti], &t, &p.traffic, err) == 0, "%s", err);
                    p.block = 1;
                    run(c, &t, &p, &one);
                    p.block = variant && ri % 2 ? 2 : 0;
                    run(c, &t, &p, &blocked);
                    runs++;
                    /* (ugal_g reads its group's estimates of the same cycle: groups run in blocks) */
                    EXPECT(c, one.block_cycles == 0 && blocked.block_cycles >= 600 - 10,
                           "%s: %ld cycles in blocks (cycle by cycle: %ld)", routings[ri], blocked.block_cycles,
                           one.block_cycles);
                    /* a run that ends by draining runs its final drain in blocks too (net_run.c
                     * final_drain): more cycles in blocks than up to the sample's end */
                    if (!one.stopped && !one.deadlock && !one.livelock)
                        EXPECT(c, blocked.block_cycles - blocked.drain_blocked > p.warmup + p.sample,
                               "%s %s %.2f: %ld cycles in blocks of %ld, none in the final drain", routings[ri],
                               traffics[ti], rates[li], blocked.block_cycles, blocked.cycles);
                    /* and the drain while the sources still inject, up to the last sample heads'
                     * arrival at their routers (net_run.c drain_injecting) */
                    EXPECT(c, one.drain_blocked == 0 && (one.stopped || blocked.drain_blocked > 0),
                           "%s %s %.2f: %ld cycles in blocks of %ld, none in the drain", routings[ri], traffics[ti],
                           rates[li], blocked.block_cycles, blocked.cycles);
                    int ok = same_result(&one, &blocked);
                    same += ok;
                    EXPECT(
                        c, ok,
                        "%s %s %.2f lat %d,%d block %d: cycles %ld/%ld delivered %ld/%ld latency %.3f/%.3f channel max "
                        "%.4f/%.4f",
                        routings[ri], traffics[ti], rates[li], p.lat_local, p.lat_global, p.block, one.cycles,
                        blocked.cycles, one.delivered, blocked.delivered, one.latency, blocked.latency, one.channel_max,
                        blocked.channel_max);
                }
    /* the early stop firing in the drain while the sources still inject: with a latency limit just
     * under a run's mean latency the bound (the mean when the last sample packet arrives) crosses it
     * there, and no block may run past that cycle (net_run.c drain_injecting) */
    int sruns = 0, ssame = 0;
    for (int si = 0; si < 4; si++) {
        params(&t, &p, 0.2 + 0.1 * si, 600, 900, 41 + si);
        EXPECT(c, net_parse_routing(si % 2 ? "doar" : "min", &p.routing, err) == 0, "%s", err);
        p.block = 1;
        run(c, &t, &p, &one);
        p.stop_latency = 0.98 * one.latency;
        p.stop_share = 0.0;
        run(c, &t, &p, &one);
        p.block = 0;
        run(c, &t, &p, &blocked);
        EXPECT(c, one.stopped && one.cycles > p.warmup + p.sample + 10 && blocked.drain_blocked > 0,
               "stop in the drain (rate %.1f): stopped %d at cycle %ld, %ld drain cycles in blocks: not exercised",
               p.rate, one.stopped, one.cycles, blocked.drain_blocked);
        int ok = same_result(&one, &blocked);
        sruns++;
        ssame += ok;
        EXPECT(c, ok, "stop in the drain (rate %.1f, limit %.1f): stopped %d/%d at cycle %ld/%ld latency %.3f/%.3f",
               p.rate, p.stop_latency, one.stopped, blocked.stopped, one.cycles, blocked.cycles, one.latency,
               blocked.latency);
    }
    /* the drain limit ending the injection inside the drain (37 cycles: not a multiple of a block) */
    for (int si = 0; si < 2; si++) {
        params(&t, &p, 0.3, 600, 900, 51 + si);
        p.drain_limit = 37;
        EXPECT(c, net_parse_routing(si ? "doar" : "min", &p.routing, err) == 0, "%s", err);
        p.block = 1;
        run(c, &t, &p, &one);
        p.block = 0;
        run(c, &t, &p, &blocked);
        EXPECT(c, blocked.drain_blocked > 0 && blocked.drain_blocked < p.drain_limit,
               "drain limit %ld: %ld drain cycles in blocks: not exercised", p.drain_limit, blocked.drain_blocked);
        int ok = same_result(&one, &blocked);
        sruns++;
        ssame += ok;
        EXPECT(c, ok, "drain limit %ld: cycles %ld/%ld created %ld/%ld delivered %ld/%ld", p.drain_limit, one.cycles,
               blocked.cycles, one.created, blocked.created, one.delivered, blocked.delivered);
    }
    printf("  blocks against cycle by cycle, the drain's early stop and limit: %d of %d runs the same\n", ssame, sruns);
    /* faults: blocks only where no fault activity couples the routers (network.c faults_quiet);
     * every field of the result must agree, the loss split and the diagnosis / recovery times too */
    static const struct {
        int links, routers;
        long at, repair;
        double rate;
        const char *traffic;
    } faulty[] = {
        {4, 0, 0, -1, 0.3, "ur"}, /* a sweep's faults: from cycle 0, never repaired */
        {0, 1, 0, -1, 0.3, "adv+1"},
        {3, 1, 700, 1500, 0.35, "ur"}, /* fail, diagnose, repair, recover within the run */
        {2, 0, 650, -1, 0.5, "rp"},
    };
    int fruns = 0, fsame = 0;
    for (size_t fi = 0; fi < sizeof faulty / sizeof faulty[0]; fi++) {
        params(&t, &p, faulty[fi].rate, 600, 1800, 21 + fi);
        p.fault_links = faulty[fi].links;
        p.fault_routers = faulty[fi].routers;
        p.fault_at = faulty[fi].at;
        p.repair_at = faulty[fi].repair;
        EXPECT(c, traffic_parse(faulty[fi].traffic, &t, &p.traffic, err) == 0, "%s", err);
        p.block = 1;
        run(c, &t, &p, &one);
        p.block = 0;
        run(c, &t, &p, &blocked);
        EXPECT(
            c, one.block_cycles == 0 && blocked.block_cycles > (p.warmup + p.sample) / 2,
            "faults: %ld of %ld cycles in blocks (want more than half of the %ld up to the sample's end; cycle by cycle: %ld)",
            blocked.block_cycles, blocked.cycles, p.warmup + p.sample, one.block_cycles);
        one.seconds = blocked.seconds = 0.0;
        one.block_cycles = blocked.block_cycles = 0;
        one.drain_blocked = blocked.drain_blocked = 0;
        int ok = memcmp(&one, &blocked, sizeof one) == 0;
        fruns++;
        fsame += ok;
        EXPECT(
            c, ok,
            "faults %d links %d routers at %ld repair %ld: delivered %ld/%ld lost %ld/%ld diagnosis %ld/%ld recovery %ld/%ld",
            p.fault_links, p.fault_routers, p.fault_at, p.repair_at, one.delivered, blocked.delivered, one.lost,
            blocked.lost, one.diagnosis_cycles, blocked.diagnosis_cycles, one.recovery_cycles, blocked.recovery_cycles);
        EXPECT(c, one.diagnosis_cycles > 0 && one.lost > 0,
               "faults: no diagnosis (%ld) or no loss (%ld): not exercised", one.diagnosis_cycles, one.lost);
    }
    printf("  blocks with faults against cycle by cycle: %d of %d runs the same (links, routers, repaired or not)\n",
           fsame, fruns);
    char msg[DOAR_ERRLEN];
    params(&t, &p, 0.1, 100, 100, 1);
    p.block = 11;
    EXPECT(c, net_check_params(&t, &p, msg) != 0, "block 11 with 10-cycle links accepted");
    p.block = NET_MAX_BLOCK + 1;
    p.lat_local = p.lat_global = 100;
    EXPECT(c, net_check_params(&t, &p, msg) != 0, "block above NET_MAX_BLOCK accepted");
    printf("  blocks against cycle by cycle: %d of %d runs the same (9 routings, 4 patterns, 2 loads, 2 link sets)\n",
           same, runs);
}

/* Packets the network drops must show up as lost, and stopped traffic as a watchdog report. */
static void test_accounting(test_ctx *c) {
    char err[DOAR_ERRLEN];
    topo t;
    net_params p;
    network n;
    net_result r;
    topo_named(&t, "small", err);
    params(&t, &p, 0.05, 200, 800, 5);
    /* 1: node 0's terminal input has empty tables A and B: every packet it sends is discarded */
    EXPECT(c, net_init(&n, &t, &p, err) == 0, "%s", err);
    rcu *in0 = &n.routers[0].rcus[0];
    memset(in0->a, 0, (size_t)in0->depth_a * sizeof(uint64_t));
    memset(in0->b, 0, (size_t)in0->depth_b * sizeof(uint64_t));
    int rc = net_run(&n, &r);
    EXPECT(c, rc == 1 && r.lost > 0 && r.delivered + r.lost == r.created, "discards: rc %d lost %ld created %ld", rc,
           r.lost, r.created);
    EXPECT(c, !r.deadlock && strstr(r.report, "discarded a packet") != NULL, "discards: report '%s'", r.report);
    net_free(&n);
    /* 2: a global port whose credits never come back: MIN packets for it stop there */
    p.routing = NET_ROUTING_MIN;
    EXPECT(c, net_init(&n, &t, &p, err) == 0, "%s", err);
    for (int v = 0; v < VCBUF_NUM_VCS; v++) n.routers[0].cred[t.first_global][v] = 0;
    rc = net_run(&n, &r);
    EXPECT(c, rc == 1 && r.deadlock && r.lost > 0, "stuck port: rc %d deadlock %d lost %ld", rc, r.deadlock, r.lost);
    EXPECT(c, strstr(r.report, "router (0,0)") != NULL, "stuck port: report '%s'", r.report);
    printf("  stuck global port: %s\n", r.report);
    net_free(&n);
}

static void test_traffic(test_ctx *c) {
    char err[DOAR_ERRLEN];
    topo t;
    traffic_spec s;
    traffic tr;
    topo_named(&t, "small", err);
    EXPECT(c, traffic_parse("adv+9", &t, &s, err) != 0, "adv+9 on g=9 accepted");
    EXPECT(c,
           traffic_parse("adv+0", &t, &s, err) != 0 && traffic_parse("adv", &t, &s, err) != 0 &&
               traffic_parse("xx", &t, &s, err) != 0,
           "bad names accepted");
    EXPECT(c, traffic_parse("rp", &t, &s, err) == 0, "%s", err);
    EXPECT(c, traffic_init(&tr, &t, &s, 42, err) == 0, "%s", err);
    int *seen = calloc((size_t)t.n_nodes, sizeof *seen);
    int fixed = 0;
    for (int n = 0; n < t.n_nodes; n++) {
        int d = traffic_dest(&tr, n, NULL, 0);
        if (d == n) fixed++;
        if (d >= 0 && d < t.n_nodes) seen[d]++;
    }
    int perm = 1;
    for (int n = 0; n < t.n_nodes; n++) perm &= seen[n] == 1;
    EXPECT(c, perm && fixed == 0, "rp: not a permutation without fixed points");
    free(seen);
    traffic_free(&tr);
    EXPECT(c, traffic_parse("adv+2", &t, &s, err) == 0, "%s", err);
    EXPECT(c, traffic_init(&tr, &t, &s, 1, err) == 0, "%s", err);
    prng rng;
    prng_seed(&rng, 1, 9, 9);
    int bad = 0, per_group = t.a * t.p;
    for (int i = 0; i < 1000; i++) {
        int src = (int)prng_below(&rng, (uint32_t)t.n_nodes);
        int d = traffic_dest(&tr, src, &rng, 0);
        if (d / per_group != (src / per_group + 2) % t.g) bad++;
    }
    EXPECT(c, bad == 0, "adv+2: %d destinations outside group G+2", bad);
    traffic_free(&tr);
    EXPECT(c, traffic_parse("ur", &t, &s, err) == 0, "%s", err);
    EXPECT(c, traffic_init(&tr, &t, &s, 1, err) == 0, "%s", err);
    long hits[2] = {0, 0};
    int self = 0;
    for (int i = 0; i < 72000; i++) {
        int d = traffic_dest(&tr, 5, &rng, 0);
        if (d == 5) self++;
        if (d == 0 || d == 71) hits[d == 71]++;
    }
    /* 72000 draws over 71 nodes: about 1014 each */
    EXPECT(c, self == 0 && hits[0] > 850 && hits[0] < 1180 && hits[1] > 850 && hits[1] < 1180,
           "ur: self %d, node 0 %ld, node 71 %ld", self, hits[0], hits[1]);
    traffic_free(&tr);
}

/* After a drained run every credit is home: each router holds its downstream depth on every wired
 * port (data and control credits), buffers nothing, treats no port as down; every link is up and
 * every node holds its terminal depth. Returns the mismatches; *first describes the first. */
static long credit_mismatches(const network *n, char *first, size_t len) {
    const topo *t = &n->t;
    long bad = 0;
    first[0] = 0;
#define MISMATCH(...)                                                                                                  \
    do {                                                                                                               \
        if (bad++ == 0) snprintf(first, len, __VA_ARGS__);                                                             \
    } while (0)
    for (int r = 0; r < t->n_routers; r++) {
        const router *R = &n->routers[r];
        if (router_buffered(R)) MISMATCH("router %d buffers %d flits", r, router_buffered(R));
        if (R->link_dn) MISMATCH("router %d treats ports 0x%llx as down", r, (unsigned long long)R->link_dn);
        if (R->fu && !fault_idle(R->fu)) MISMATCH("router %d: fault unit busy", r);
        for (int o = 0; o < t->k; o++) {
            int pr, pp;
            if (topo_peer(t, r, o, &pr, &pp)) continue;
            int want = n->prm.rprm.ds_depth[topo_port_class(t, o)];
            for (int v = 0; v < VCBUF_NUM_VCS; v++)
                if (R->cred[o][v] != want)
                    MISMATCH("router %d port %d VC %d: %d credits, depth %d", r, o, v, R->cred[o][v], want);
            if (R->fu && R->ctl_cred[o] != n->prm.rprm.ctl_depth)
                MISMATCH("router %d port %d: %d control credits of %d", r, o, R->ctl_cred[o], n->prm.rprm.ctl_depth);
            if (n->link_down && n->link_down[r * t->k + o]) MISMATCH("link of router %d port %d still down", r, o);
        }
    }
    for (int node = 0; node < t->n_nodes; node++)
        for (int v = 0; v < VCBUF_NUM_VCS; v++)
            if (n->nodes[node].cred[v] != n->prm.rprm.depth[PORT_TERMINAL])
                MISMATCH("node %d VC %d: %d credits of %d", node, v, n->nodes[node].cred[v],
                         n->prm.rprm.depth[PORT_TERMINAL]);
#undef MISMATCH
    return bad;
}

/* Enough idle cycles for every credit and control packet in flight to arrive. */
static void settle(network *n) {
    for (int i = 0; i < 4 * n->prm.lat_global + 200; i++) net_cycle(n);
}

static int first_dead(const network *n) {
    for (int r = 0; r < n->t.n_routers; r++)
        if (n->router_failed[r]) return r;
    return -1;
}

/* A node on a router other than r, in r's group (one local link away). */
static int node_beside(const topo *t, int r) {
    int other = topo_bid(t, r) == 0 ? r + 1 : r - 1;
    return other * t->p;
}

/* Router faults, directed (one packet at a time, so every count follows from the timing contract):
 * 1. a node of the router that dies holds 10 packets the cycle before: the first is on the terminal
 *    link when the router dies (lost in the router), the other 9 wait in its source queue;
 * 2. the router dies while forwarding a 4-flit packet whose head and first body flit are already
 *    on the link: the sink gets those two and two poisoned flits, and counts the packet lost;
 * both: nothing is delivered twice, a dead node sends nothing, and after the repair the router's
 * nodes send and receive again with every credit exact. */
static void test_router_fault_directed(test_ctx *c) {
    char err[DOAR_ERRLEN], first[200];
    topo t;
    net_params p;
    network n;
    net_result r;
    topo_named(&t, "small", err);
    for (int scenario = 1; scenario <= 2; scenario++) {
        params(&t, &p, 0.0, 0, 3000, 9);
        p.fault_routers = 1;
        /* 2: sent at 100, the head reaches the router at 101 and its link at 107, body 1 at 108: dead at 109 */
        p.fault_at = scenario == 1 ? 100 : 100 + p.lat_terminal + ROUTER_HEAD_DELAY + 2;
        p.repair_at = 1500;
        EXPECT(c, net_init(&n, &t, &p, err) == 0, "%s", err);
        int rd = first_dead(&n), src = rd * t.p, dst = node_beside(&t, rd);
        EXPECT(c, rd >= 0 && !net_router_dead(&n, rd), "router %d alive before the fault", rd);
        while (n.cycle < (scenario == 1 ? p.fault_at - 1 : 100)) net_cycle(&n);
        for (int i = 0; i < (scenario == 1 ? 10 : 1); i++) EXPECT(c, net_send(&n, src, dst) == 0, "send");
        while (n.cycle < 1000) net_cycle(&n);
        EXPECT(c, net_router_dead(&n, rd) && net_send(&n, src, dst) != 0, "a dead router's node sent a packet");
        if (scenario == 1)
            EXPECT(c, n.lost_router == 1 && n.lost_dead_source == 9,
                   "source queue: lost in router %ld (want 1), in the "
                   "dead source %ld (want 9)",
                   n.lost_router, n.lost_dead_source);
        else
            EXPECT(c, n.lost_router == 1 && n.lost_dead_source == 0 && n.flits_delivered == 2 && n.delivered == 0,
                   "cut off: lost in router %ld (want 1), flits at the sink %ld (want 2), delivered %ld (want 0)",
                   n.lost_router, n.flits_delivered, n.delivered);
        EXPECT(c, n.created == n.delivered + n.lost_router + n.lost_dead_source && n.errors == 0, "%s", n.first_error);
        while (n.cycle < 2000) net_cycle(&n); /* repaired at 1500 */
        long delivered = n.delivered;
        EXPECT(c, !net_router_dead(&n, rd) && net_send(&n, src, dst) == 0 && net_send(&n, dst, src) == 0,
               "after repair");
        int rc = net_run(&n, &r);
        EXPECT(c, rc == 0 && n.delivered == delivered + 2 && r.lost == n.lost_router + n.lost_dead_source,
               "after the repair: rc %d, delivered %ld more (want 2), lost %ld: %s", rc, n.delivered - delivered,
               r.lost, r.report);
        settle(&n);
        EXPECT(c, credit_mismatches(&n, first, sizeof first) == 0, "scenario %d: %s", scenario, first);
        printf("  small, router %d dies at %ld (%s): lost in the router %ld, in its source queue %ld; after the repair "
               "2 of 2 delivered, credits exact\n",
               rd, p.fault_at, scenario == 1 ? "10 packets at its node" : "mid-packet", n.lost_router,
               n.lost_dead_source);
        net_free(&n);
    }
}

/* Router (and link) faults under load: every packet is delivered or lost by a named cause and the
 * run ends. Repaired: nothing created after recovery is lost, and once the network drained every
 * credit is exact (a dead router's link partners kept theirs full, the revived router starts full,
 * the link-up handshake drops what was counted against full credits). Never repaired: a packet
 * created after diagnosis is lost exactly when its pair has no path left or its destination's
 * router is dead (with a repair, one still in flight then may also be lost while the revived
 * routers learn what is still broken: not asserted). */
static void test_router_faults_load(test_ctx *c) {
    char err[DOAR_ERRLEN], first[200];
    topo t;
    net_params p;
    network n;
    net_result r;
    topo_named(&t, "small", err);
    for (int run = 1; run <= 3; run++) {
        params(&t, &p, 0.3, 1000, 5000, (uint64_t)run);
        p.fault_routers = 3;
        p.fault_links = run == 1 ? 0 : 4;
        p.fault_at = 2000;
        p.repair_at = run == 3 ? -1 : 4500;
        EXPECT(c, net_init(&n, &t, &p, err) == 0, "%s", err);
        int dead = 0;
        for (int i = 0; i < t.n_routers; i++) dead += n.router_failed[i];
        int rc = net_run(&n, &r);
        EXPECT(c, rc == 0 && dead == 3, "run %d: rc %d (%s), %d routers chosen", run, rc, r.report, dead);
        EXPECT(c,
               r.created == r.delivered + r.lost &&
                   r.lost == r.lost_link + r.lost_discard + r.lost_router + r.lost_dead_source,
               "run %d: created %ld delivered %ld lost %ld = link %ld + discard %ld + router %ld + source %ld", run,
               r.created, r.delivered, r.lost, r.lost_link, r.lost_discard, r.lost_router, r.lost_dead_source);
        EXPECT(c, r.lost_router > 0 && r.diagnosis_cycles > 0 && r.lost_after_recovery == 0,
               "run %d: lost in routers %ld, diagnosis %ld, after recovery %ld", run, r.lost_router, r.diagnosis_cycles,
               r.lost_after_recovery);
        long explained = r.lost_unreachable + r.lost_to_dead_after_diagnosis;
        EXPECT(c,
               r.lost_unreachable <= r.created_unreachable && r.lost_to_dead_after_diagnosis <= r.created_to_dead &&
                   (p.repair_at < 0 ? r.lost_after_diagnosis == explained : r.lost_after_diagnosis >= explained),
               "run %d: lost after diagnosis %ld, unreachable %ld (of %ld) + to dead nodes %ld (of %ld)", run,
               r.lost_after_diagnosis, r.lost_unreachable, r.created_unreachable, r.lost_to_dead_after_diagnosis,
               r.created_to_dead);
        if (p.repair_at >= 0) {
            EXPECT(c, r.recovery_cycles > 0, "run %d: recovery did not end", run);
            settle(&n);
            EXPECT(c, credit_mismatches(&n, first, sizeof first) == 0, "run %d: %s", run, first);
        }
        printf("  small UR 0.3, 3 routers%s die at 2000, %s: lost in routers %ld, dead sources %ld, links %ld, "
               "discarded %ld; after diagnosis %ld (unreachable %ld, to dead nodes %ld); diagnosis %ld, recovery %ld "
               "cycles%s\n",
               p.fault_links ? " and 4 links" : "", p.repair_at < 0 ? "never repaired" : "back at 4500", r.lost_router,
               r.lost_dead_source, r.lost_link, r.lost_discard, r.lost_after_diagnosis, r.lost_unreachable,
               r.lost_to_dead_after_diagnosis, r.diagnosis_cycles, r.recovery_cycles,
               p.repair_at < 0 ? "" : "; credits exact");
        net_free(&n);
    }
}

/* `test_network block`: only the blocks against cycle by cycle (make plant-block runs it on the
 * mutant net-short-ring of tests/mutants/mutants.txt and requires it to fail). */
int main(int argc, char **argv) {
    test_ctx c = {0, 0, "test_network"};
    if (argc == 2 && !strcmp(argv[1], "block")) {
        test_block_exact(&c);
        return test_finish(&c);
    }
    if (argc != 1) {
        fprintf(stderr, "usage: test_network [block]\n");
        return 2;
    }
    test_traffic(&c);
    test_zero_load_exact(&c, "tiny", 1, 10, 100);
    test_zero_load_exact(&c, "small", 1, 10, 100);
    test_zero_load_exact(&c, "small", 2, 3, 7);
    test_low_load(&c);
    test_determinism(&c);
    test_block_exact(&c);
    test_adversarial(&c);
    test_accounting(&c);
    test_router_fault_directed(&c);
    test_router_faults_load(&c);
    return test_finish(&c);
}
