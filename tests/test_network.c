/* The network simulator (csim/network.c): exact zero-load latency of single packets against a
 * derivation from the router's timing contract and the link latencies; conservation and zero
 * loss; low-load latency and throughput; determinism from the seed; MIN's analytic ADV+1 bound and
 * DOAR beating it; lost packets and stopped traffic are reported, not hidden. */
#include <stdlib.h>
#include <string.h>

#include "network.h"
#include "testutil.h"

/* csim/router.h contract: a head arriving in cycle t is on the output in cycle t+6. */
#define ROUTER_HEAD_DELAY 6
#define TEST_PACKET_LEN 4
#define PER_PACKET_CYCLE_CAP 5000

typedef struct { int local_links, global_links; } min_path;

/* The minimal path between two routers, from the wiring rules of the brief ("Topology"): one
 * global link joins every pair of groups; the routers owning its ends are reached by at most one
 * intra-group link on each side. */
static min_path minimal_path(const topo *t, int rs, int rd) {
    min_path m = {0, 0};
    int gs = topo_gid(t, rs), bs = topo_bid(t, rs), gd = topo_gid(t, rd), bd = topo_bid(t, rd);
    if (rs == rd) return m;
    if (gs == gd) { m.local_links = 1; return m; }
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
                    EXPECT(c, 0, "%s: node %d -> %d: latency %ld hops %d, derived %ld hops %d", name, src, dst, got, hops,
                           want, m.local_links + m.global_links);
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
    EXPECT(c, r.latency > lat0 * 0.97 && r.latency < lat0 * 1.08, "latency %.1f vs zero-load mean %.1f", r.latency, lat0);
    EXPECT(c, r.hops > hop0 * 0.97 && r.hops < hop0 * 1.03, "hops %.3f vs minimal mean %.3f", r.hops, hop0);
    EXPECT(c, r.accepted > p.rate - 0.01 && r.accepted < p.rate + 0.01, "accepted %.4f offered %.4f", r.accepted, p.rate);
    printf("  small UR 0.05: latency %.1f (zero-load mean %.1f), hops %.3f (minimal %.3f), accepted %.4f, %ld packets\n",
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
    EXPECT(c, a.created == b.created && a.delivered == b.delivered && a.latency == b.latency && a.accepted == b.accepted &&
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
    p.drain_limit = 20000;   /* MIN's backlog needs a while to drain */
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
    printf("  small ADV+1 %.2f: MIN accepted %.4f (bound %.4f), DOAR accepted %.4f hops %.3f\n", p.rate, rmin.accepted, bound,
           rdoar.accepted, rdoar.hops);
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
    EXPECT(c, traffic_parse("adv+0", &t, &s, err) != 0 && traffic_parse("adv", &t, &s, err) != 0 &&
                  traffic_parse("xx", &t, &s, err) != 0, "bad names accepted");
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

int main(void) {
    test_ctx c = {0, 0, "test_network"};
    test_traffic(&c);
    test_zero_load_exact(&c, "tiny", 1, 10, 100);
    test_zero_load_exact(&c, "small", 1, 10, 100);
    test_zero_load_exact(&c, "small", 2, 3, 7);
    test_low_load(&c);
    test_determinism(&c);
    test_adversarial(&c);
    test_accounting(&c);
    return test_finish(&c);
}
