/* The router C model: conservation under random traffic with back-pressure and multicast, the
 * per-hop timing, and the Global Resource Bulletin's point: two multicasts with crossed port
 * sets deadlock without it and complete with it. */
#include <stdlib.h>
#include <string.h>

#include "router.h"
#include "router_env.h"
#include "testutil.h"

typedef struct {
    topo t;
    table_set ts;
    router_params prm;
    router r;
    router_env env;
    router_cfg_in cfg;
} bench;

static int setup(test_ctx *c, bench *b, const char *name, int router_id, int bulletin, uint64_t seed) {
    char err[DOAR_ERRLEN];
    table_params tp;
    tables_default_params(&tp);
    topo_named(&b->t, name, err);
    EXPECT(c, tables_generate(&b->ts, &b->t, &tp, err) == 0, "%s", err);
    router_default_params(&b->t, &b->prm);
    b->prm.bulletin = bulletin;
    EXPECT(c, router_init(&b->r, &b->t, &b->prm, &tp, err) == 0, "%s", err);
    EXPECT(c, env_init(&b->env, &b->t, &b->ts, &b->prm, router_id, seed) == 0, "env");
    b->cfg.gid = topo_gid(&b->t, router_id);
    b->cfg.bid = topo_bid(&b->t, router_id);
    b->cfg.wired = b->ts.rcfg[router_id].wired;
    b->cfg.seed = (uint32_t)seed;
    router_reset(&b->r, &b->cfg);
    router_in in;
    router_out out;
    for (long n = 0; env_setup(&b->env, n, &in); n++) router_cycle(&b->r, &in, &out);
    return 0;
}

static void teardown(bench *b) {
    env_free(&b->env);
    router_free(&b->r);
    tables_free(&b->ts);
}

/* Demand (router.h) recomputed from the route FIFOs: per port, the len of every stored entry that
 * is not a discard, leaving out the ports the front packet of its VC has already acquired (an entry
 * leaves its FIFO when its head is granted). */
static int demand_matches(const router *r, int *port, int *want, int *have) {
    int d[ROUTER_MAX_PORTS] = {0};
    for (int i = 0; i < r->t.k; i++) {
        const vcbuf *b = &r->in[i];
        for (int v = 0; v < b->nvcs; v++)
            for (int j = 0; j < b->rcount[v]; j++) {
                const route_entry *e = &b->route[v][(b->rhead[v] + j) % b->rcap[v]];
                if (e->discard) continue;
                uint64_t ports = e->ports;
                if (j == 0) ports &= ~b->held[v];
                for (; ports; ports &= ports - 1) d[__builtin_ctzll(ports)] += e->len;
            }
    }
    for (int o = 0; o < r->t.k; o++)
        if (d[o] != r->demand[o]) {
            *port = o;
            *want = d[o];
            *have = r->demand[o];
            return 0;
        }
    return 1;
}

/* A route FIFO whose storage starts at one entry behaves as one allocated at its full depth:
 * random pushes and pops on every VC, the same front entry after each, an overflow on a push onto
 * depth entries (dropped), and the storage never above the depth. */
static void test_route_fifo(test_ctx *c) {
    const int depth = 37, nvcs = 3;
    vcbuf grow, full;
    EXPECT(c, vcbuf_init(&grow, depth, nvcs, 1) == 0 && vcbuf_init(&full, depth, nvcs, depth) == 0, "vcbuf_init");
    uint64_t seq = 0x9e3779b97f4a7c15ull, tag = 0;
    int mismatches = 0, overflows = 0, max_count = 0;
    for (int step = 0; step < 200000; step++) {
        seq ^= seq << 13;
        seq ^= seq >> 7;
        seq ^= seq << 17;
        const int vc = (int)(seq % (uint64_t)nvcs);
        const int phase = (step / 5000) % 3; /* filling, emptying, balanced */
        const int push = (int)((seq >> 8) % 100) < (phase == 0 ? 70 : phase == 1 ? 30 : 50);
        if (push) {
            route_entry e;
            memset(&e, 0, sizeof e);
            e.ports = ++tag;
            e.hdr = ~tag;
            e.ovc = (uint8_t)(tag % 5);
            const int was_full = grow.rcount[vc] == depth;
            vcbuf_push_route(&grow, vc, &e);
            vcbuf_push_route(&full, vc, &e);
            if (was_full) {
                overflows += grow.overflow && full.overflow && grow.rcount[vc] == depth;
                grow.overflow = full.overflow = 0;
            }
        } else if (grow.rcount[vc]) {
            vcbuf_pop_route(&grow, vc);
            vcbuf_pop_route(&full, vc);
        }
        if (grow.rcount[vc] > max_count) max_count = grow.rcount[vc];
        for (int v = 0; v < nvcs; v++) {
            const route_entry *g = vcbuf_route(&grow, v), *f = vcbuf_route(&full, v);
            if (grow.rcount[v] != full.rcount[v] || (!g) != (!f) ||
                (g && (g->ports != f->ports || g->hdr != f->hdr || g->ovc != f->ovc)) || grow.rcap[v] > depth)
                mismatches++;
        }
    }
    EXPECT(c, mismatches == 0, "route FIFO grown from 1 entry: %d differences from one of full depth", mismatches);
    EXPECT(c, max_count == depth && overflows > 0, "the FIFO never filled (max %d of %d, %d overflows)", max_count,
           depth, overflows);
    EXPECT(c, grow.rcap[0] == depth, "storage after filling: %d entries, want %d", grow.rcap[0], depth);
    vcbuf_free(&grow);
    vcbuf_free(&full);
}

static void test_random(test_ctx *c, const char *name, int router_id, long cycles, uint64_t seed) {
    bench b;
    setup(c, &b, name, router_id, 1, seed);
    router_in in;
    router_out out;
    long cycle = 0, max_buffered = 0, demand_bad = -1, max_demand = 0;
    int dport = 0, dwant = 0, dhave = 0;
    for (; cycle < cycles; cycle++) {
        if (cycle % 500 == 0) { /* phases: idle, light, saturated; back-pressure from none to heavy */
            int m = (int)(env_rand(&b.env) % 6);
            b.env.load = m == 0 ? 0.0 : m < 3 ? 0.2 : 1.0;
            b.env.drain_prob = (double)(1 + env_rand(&b.env) % 10) / 10.0;
            b.env.mcast_frac = (double)(env_rand(&b.env) % 4) / 10.0;
        }
        env_drive(&b.env, cycle, &in);
        router_cycle(&b.r, &in, &out);
        env_observe(&b.env, cycle, &in, &out);
        if (cycle % 1000 == 0) env_check_stuck(&b.env, cycle, 20000);
        int buf = router_buffered(&b.r);
        if (buf > max_buffered) max_buffered = buf;
        if (demand_bad < 0 && !demand_matches(&b.r, &dport, &dwant, &dhave)) demand_bad = cycle;
        for (int o = b.t.first_global; o < b.t.k; o++)
            if (b.r.demand[o] > max_demand) max_demand = b.r.demand[o];
    }
    /* Drain: no new packets, sinks always ready. */
    b.env.injecting = 0;
    b.env.drain_prob = 1.0;
    for (long n = 0; n < 20000 && (b.env.live_pkts || router_buffered(&b.r)); n++, cycle++) {
        env_drive(&b.env, cycle, &in);
        router_cycle(&b.r, &in, &out);
        env_observe(&b.env, cycle, &in, &out);
    }
    EXPECT(c, b.env.errors == 0, "%s: %ld errors, first: %s", name, b.env.errors, b.env.first_error);
    EXPECT(c, b.env.live_pkts == 0 && router_buffered(&b.r) == 0, "%s: %ld packets never left", name, b.env.live_pkts);
    EXPECT(c, b.env.injected_flits > cycles / 10 && b.env.stat_mcast > 100, "%s: too little traffic", name);
    EXPECT(c, max_buffered > b.t.k * 4, "%s: buffers never filled (%ld)", name, max_buffered);
    EXPECT(c, demand_bad < 0, "%s: cycle %ld: demand of port %d is %d, the route FIFOs say %d", name, demand_bad, dport,
           dhave, dwant);
    EXPECT(c, max_demand > b.prm.max_len, "%s: no queue ever formed for a global port (%ld)", name, max_demand);
    int grown = 0; /* route FIFOs that outgrew their first storage (short packets: vcbuf.h) */
    for (int i = 0; i < b.t.k; i++)
        for (int v = 0; v < b.r.in[i].nvcs; v++) grown += b.r.in[i].rcap[v] > b.r.in[i].depth / b.prm.max_len + 2;
    EXPECT(c, grown > 0, "%s: no route FIFO ever grew", name);
    for (int o = 0; o < b.t.k; o++)
        EXPECT(c, b.r.demand[o] == 0, "%s: port %d: demand %d after the drain", name, o, b.r.demand[o]);
    printf("  %s router %d: %ld cycles, %ld packets (%ld multicast), %ld flits in, %ld flits out\n", name, router_id,
           cycle, b.env.injected_pkts, b.env.stat_mcast, b.env.injected_flits, b.env.delivered_flits);
    printf("  %s router %d: %d route FIFOs grew beyond their first storage\n", name, router_id, grown);
    teardown(&b);
}

/* A head arriving in cycle t leaves in t+13 through an idle router (docs/architecture.md "Router
 * v7": route entry at the end of t+4, its VC proposes in t+5 into the proposal register, stage 1
 * picks it in t+6, stage 2 arbitrates it in t+7, the check decides in t+8, the decision is granted
 * in t+9, the grant stage moves the head into the crossbar's register in t+10, its output queue
 * stores it in t+11, the link stage in t+12). */
static void test_latency(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 9, 1, 3);
    router_in in;
    router_out out;
    int seen = -1;
    for (int cyc = 0; cyc < 20; cyc++) {
        memset(&in, 0, sizeof in);
        if (cyc == 0) { /* node 0 -> node 1 of the same router (zone N): port 1 */
            in.in[0].valid = 1;
            in.in[0].head = in.in[0].tail = 1;
            in.in[0].data = flit_header(b.cfg.gid, b.cfg.bid, 1, b.cfg.gid, 0, 0, 1, 7);
        }
        router_cycle(&b.r, &in, &out);
        if (out.out[1].valid && seen < 0) seen = cyc;
    }
    EXPECT(c, seen == 13, "head of cycle 0 left in cycle %d, want 13", seen);
    EXPECT(c, seen >= ROUTER_HEAD_CYCLES, "head of cycle 0 left in cycle %d, before ROUTER_HEAD_CYCLES %d", seen,
           ROUTER_HEAD_CYCLES);
    teardown(&b);
}

/* Back to back: two 4-flit packets arrive on one VC of input 0 in cycles 0..7, the first for port 1
 * (node 1), the second for port 2 (an intra-group link). The first head crosses in cycle 10 (its
 * bodies 11..13; each is in its output queue a cycle later) and leaves port 1 in 13..16. The second
 * head is granted in the cycle the first packet's tail crosses (13: the input plane is free when
 * the grant moves), so it crosses right behind it (14) and leaves port 2 in 17..20: its VC proposes
 * it in 9, when the first packet's decision is granted (router v7's look-past one packet deeper:
 * the route FIFO's second entry, its head behind the first packet's four flits), stage 1 picks it
 * in 10, stage 2 requests it in 11, when the stream has three flits left, and the check passes it
 * in 12, when two are left (the look-ahead: the plane is free when the decision moves). Then the
 * same with both packets for port 1: the proposal counts the slot the first packet's decision
 * takes as free (its four flits cross by the time a pick of the next cycle would move), the check
 * when it has two left (12), so the second head is again granted in 13 and port 1 carries the two
 * packets with no idle cycle between them, 13..20 (router v2 left one idle cycle). */
static void test_back_to_back(test_ctx *c) {
    for (int same = 0; same < 2; same++) {
        bench b;
        setup(c, &b, "small", 9, 1, 3);
        router_in in;
        router_out out;
        int first[2] = {-1, -1}, last[2] = {-1, -1}, n[2] = {0, 0};
        const int port2 = same ? 1 : 2;
        int dst_bid = b.cfg.bid, dst_nid = 1;
        if (!same) {                      /* the router at the other end of port 2 */
            int lj = 2 - b.t.first_local; /* intra-group port j leads to bid j, or j+1 from our bid on */
            dst_bid = lj >= b.cfg.bid ? lj + 1 : lj;
            dst_nid = 0;
        }
        for (int cyc = 0; cyc < 30; cyc++) {
            memset(&in, 0, sizeof in);
            if (cyc < 8) {
                in.in[0].valid = 1;
                in.in[0].head = cyc % 4 == 0;
                in.in[0].tail = cyc % 4 == 3;
                in.in[0].data = cyc == 0   ? flit_header(b.cfg.gid, b.cfg.bid, 1, b.cfg.gid, 0, 0, 4, 8)
                                : cyc == 4 ? flit_header(b.cfg.gid, dst_bid, dst_nid, b.cfg.gid, 0, 0, 4, 9)
                                           : (uint64_t)cyc;
            }
            router_cycle(&b.r, &in, &out);
            for (int pk = 0; pk < 2; pk++) {
                const int o = pk ? port2 : 1;
                if (!out.out[o].valid || (same && (cyc < 17) != (pk == 0))) continue; /* same: by time */
                if (first[pk] < 0) first[pk] = cyc;
                n[pk]++;
                last[pk] = cyc;
            }
        }
        EXPECT(c, first[0] == 13 && last[0] == 16 && n[0] == 4 && first[1] == 17 && last[1] == 20 && n[1] == 4,
               "%s output: first packet in cycles %d..%d (%d flits), second %d..%d (%d flits), want 13..16, 17..20",
               same ? "same" : "another", first[0], last[0], n[0], first[1], last[1], n[1]);
        teardown(&b);
    }
}

/* The alternate plane: input 0 and input 2 both hold VC 0, whose home plane is 0 for both
 * ((i + v) mod 2), and each receives a 4-flit packet for port 1 in cycles 0..3. Both propose on
 * plane 0 in 5 and are picked in 6; input 0 wins slot (1,0) in stage 2 in 7, is checked in 8,
 * granted in 9 and crosses in 10..13. Input 2 loses; its proposal of 7 (made before the win was
 * known) names plane 0 again and stage 1 drops it in 8 (the slot is taken by a win checked then);
 * its proposal of 8 sees the slot taken (a slot won counts as held) and names plane 1: picked in 9,
 * wins in 10, checked in 11, granted in 12, crosses in 13..16. So plane 0 and plane 1 write port
 * 1's two queues in the same cycle (13: input 0's tail, input 2's head), and input 2's credits go
 * back upstream by cycle 17. Without the alternate plane input 2 would propose only in 9, on its
 * credit plane (plane 1: input 0's decision took 4 of port 1's 8 credits of VC 0), and cross in
 * 14..17, its last credit in 18 (measured so with the alternate plane switched off). The link
 * sends one packet after the other, in the order the heads entered the queues: 8 flits in cycles
 * 13..20. */
static void test_alt_plane(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 9, 1, 3);
    router_in in;
    router_out out;
    int last_cr = -1, n_cr = 0, n_out = 0, first_out = -1, last_out = -1, order_ok = 1;
    unsigned planes2 = 0; /* the planes input 2 streamed on */
    const uint64_t before = b.r.multi_plane_cycles;
    for (int cyc = 0; cyc < 30; cyc++) {
        memset(&in, 0, sizeof in);
        if (cyc < 4)
            for (int i = 0; i < 3; i += 2) {
                in.in[i].valid = 1;
                in.in[i].head = cyc == 0;
                in.in[i].tail = cyc == 3;
                in.in[i].data = cyc == 0 ? flit_header(b.cfg.gid, b.cfg.bid, 1, b.cfg.gid, 0, 0, 4, 20 + i)
                                         : (uint64_t)(100 * i + cyc);
            }
        router_cycle(&b.r, &in, &out);
        for (int q = 0; q < b.r.np; q++)
            if ((b.r.in_busy[q] >> 2) & 1) planes2 |= 1u << q;
        if (out.cr_valid[2]) {
            n_cr++;
            last_cr = cyc;
        }
        if (out.out[1].valid) {
            if (first_out < 0) first_out = cyc;
            last_out = cyc;
            /* input 0's packet first (plane 0), then input 2's */
            const int from = n_out < 4 ? 0 : 2, pos = n_out % 4;
            if (pos > 0 && out.out[1].data != (uint64_t)(100 * from + pos)) order_ok = 0;
            n_out++;
        }
    }
    EXPECT(c, n_out == 8 && first_out == 13 && last_out == 20 && order_ok,
           "port 1: %d flits in cycles %d..%d (order %s), want 8 in 13..20, input 0's packet first", n_out, first_out,
           last_out, order_ok ? "kept" : "broken");
    EXPECT(c, planes2 == 2u, "input 2 streamed on planes 0x%x, want plane 1 only", planes2);
    EXPECT(c, b.r.multi_plane_cycles - before >= 1, "port 1 written by both planes in %llu cycles, want 1 or more",
           (unsigned long long)(b.r.multi_plane_cycles - before));
    EXPECT(c, n_cr == 4 && last_cr <= 17, "input 2: %d credits back, the last in cycle %d, want 4 by cycle 17", n_cr,
           last_cr);
    teardown(&b);
}

/* The credit plane (router v4, docs/architecture.md): a unicast head whose output VC has fewer
 * than S * max_len credits proposes on plane (o + v) mod S only. small's terminal outputs have 8
 * credits a VC and S * max_len = 2 * 4 = 8. Input 0 sends a 4-flit packet to port 1 on VC 0 (home
 * plane (0 + 0) mod 2 = 0, 8 credits): it crosses on plane 0 and takes 4 credits, which come back
 * only in the second round. Then input 2 (VC 0, home plane (2 + 0) mod 2 = 0) sends one to port 1:
 * 4 credits are enough for it but fewer than 8, so it crosses on the credit plane of port 1's
 * VC 0, (1 + 0) mod 2 = 1. With the 4 credits back first it crosses on its home plane 0. */
static void test_credit_plane(test_ctx *c) {
    for (int back = 0; back < 2; back++) {
        bench b;
        setup(c, &b, "small", 9, 1, 3);
        router_in in;
        router_out out;
        unsigned planes[3] = {0, 0, 0}; /* per input: the planes it streamed a packet on */
        int n_out = 0;
        for (int cyc = 0; cyc < 60; cyc++) {
            memset(&in, 0, sizeof in);
            const int src = cyc < 4 ? 0 : (cyc >= 32 && cyc < 36) ? 2 : -1, pos = cyc % 4;
            if (src >= 0) {
                in.in[src].valid = 1;
                in.in[src].head = pos == 0;
                in.in[src].tail = pos == 3;
                in.in[src].data =
                    pos == 0 ? flit_header(b.cfg.gid, b.cfg.bid, 1, b.cfg.gid, 0, 0, 4, 30 + src) : (uint64_t)pos;
            }
            if (back && cyc >= 20 && cyc < 24) { /* port 1's four credits of VC 0 come back */
                in.cr_valid[1] = 1;
                in.cr_vc[1] = 0;
            }
            router_cycle(&b.r, &in, &out);
            for (int q = 0; q < b.r.np; q++)
                for (int i = 0; i < 3; i += 2)
                    if ((b.r.in_busy[q] >> i) & 1) planes[i] |= 1u << q;
            n_out += out.out[1].valid;
        }
        EXPECT(c, b.r.np == 2 && planes[0] == 1u, "input 0 streamed on planes 0x%x, want plane 0 only", planes[0]);
        EXPECT(c, planes[2] == (back ? 1u : 2u), "credits %s: input 2 streamed on planes 0x%x, want plane %d only",
               back ? "back" : "short", planes[2], back ? 0 : 1);
        EXPECT(c, n_out == 8 && b.r.cred[1][0] == (back ? 4 : 0), "port 1: %d flits out, VC 0 credits %d; want 8, %d",
               n_out, b.r.cred[1][0], back ? 4 : 0);
        teardown(&b);
    }
}

/* One-flit packets back to back: eight arrive on one VC of input 0 in cycles 0..7, all for port 1.
 * The first leaves in cycle 13 (test_latency's t+13). A proposal is made on the state at the start
 * of a cycle and picked in the next (router v7), so in the cycle stage 2 lets a packet win (c) its
 * VC proposes that same packet again (its route entry leaves the FIFO only at the grant's edge);
 * in c+1 stage 1 drops that proposal (its VC's win is checked then) and the VC proposes nothing; in
 * c+2 its decision is granted and it proposes the next packet (the look-past one packet deeper),
 * which stage 1 picks in c+3 and which wins in c+4. So a VC sends one-flit packets one every four
 * cycles: port 1 carries them in cycles 13, 17, ..., 41 (router v4: every third cycle; v2 every
 * other; before registered requests one a cycle). Packets of two flits or more lose nothing: an
 * input plane moving or streaming a packet is busy until its last flit crosses. */
static void test_one_flit_stream(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 9, 1, 3);
    router_in in;
    router_out out;
    int n = 0, at_expected = 0;
    for (int cyc = 0; cyc < 46; cyc++) {
        memset(&in, 0, sizeof in);
        if (cyc < 8) {
            in.in[0].valid = 1;
            in.in[0].head = in.in[0].tail = 1;
            in.in[0].data = flit_header(b.cfg.gid, b.cfg.bid, 1, b.cfg.gid, 0, 0, 1, 20 + cyc);
        }
        router_cycle(&b.r, &in, &out);
        if (out.out[1].valid) {
            if (cyc == 13 + 4 * n) at_expected++;
            n++;
        }
    }
    EXPECT(c, n == 8 && at_expected == 8,
           "one-flit packets: %d out, %d of them in cycles 13, 17, ..., 41 (want 8 and 8)", n, at_expected);
    teardown(&b);
}

/* The check compares the kind a win's VC proposes now with the kind won (docs/architecture.md
 * "Router v3"). Under the protocol a won VC keeps its front flit and route entry until its grant,
 * but after an upstream's protocol error (flits of a packet lost, a drain running on into the next
 * one) a VC can win a drain and be empty by its check: it proposes nothing (no ports), the drain
 * won had no ports either, and only the kinds tell them apart. White-box: the win is written into
 * the stage-2 registers of an idle router, its VC empty; the check must not pass it (a decision
 * would be granted and move a flit that is not there). */
static void test_drain_win_on_empty_vc(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 9, 1, 5);
    router *r = &b.r;
    const int i = 2, v = 1, np = r->np, q = alloc_plane(i, v, np), n = i * np + q;
    EXPECT(c, r->in[i].count[v] == 0 && !r->won_go[q], "the bench is not idle");
    r->won_go[q] |= (uint64_t)1 << i;
    r->won_vc[n] = (int8_t)v;
    r->won_req[n].kind = REQ_DISCARD;
    r->won_req[n].ports = 0;
    r->won_vcs[i] |= (uint8_t)(1u << v);
    router_in in;
    router_out out;
    memset(&in, 0, sizeof in);
    router_cycle(r, &in, &out);
    EXPECT(c, !((r->dc_go[q] >> i) & 1), "a drain won by VC %d of input %d, empty at its check, was passed", v, i);
    router_cycle(r, &in, &out);
    EXPECT(c, !((r->g_go[q] >> i) & 1), "a drain won by VC %d of input %d, empty at its check, was granted", v, i);
    for (int cyc = 0; cyc < 20; cyc++) router_cycle(r, &in, &out); /* and the router stays sound */
    EXPECT(c, r->in[i].count[v] == 0, "VC %d of input %d holds %d flits from nowhere", v, i, r->in[i].count[v]);
    teardown(&b);
}

/* Two multicasts, inputs 0 and 1, both to ports {2,3}. The output arbiters of ports 2 and 3 are
 * primed (by two unicast packets) to prefer different inputs. Without the bulletin each takes one
 * port and waits for the other forever; with it one takes both, then the other. */
static long crossed_multicast(test_ctx *c, int bulletin, long *delivered) {
    bench b;
    setup(c, &b, "small", 9, bulletin, 5);
    router_in in;
    router_out out;
    const topo *t = &b.t;
    int bid = b.cfg.bid, gid = b.cfg.gid;
    /* ports 2 and 3 lead to routers with bid 0 and 2 (router bid 1) */
    int to2 = topo_local_peer(t, bid, 2), to3 = topo_local_peer(t, bid, 3);
    /* multicast group 0 of inputs 0 and 1: ports {2,3}; input 1 sends on the VC that shares input
     * 0's VC 0 plane (with S planes, input i's VC v is on plane (i+v) mod S): both want the same
     * output slots */
    const int v1 = (b.prm.speedup - 1) % b.prm.speedup;
    for (int port = 0; port < 2; port++) {
        memset(&in, 0, sizeof in);
        in.mw_valid = 1;
        in.mw_port = port;
        in.mw_group = 0;
        in.mw_set = (1u << 2) | (1u << 3);
        router_cycle(&b.r, &in, &out);
    }
    long last_progress = 0, cyc;
    *delivered = 0;
    for (cyc = 0; cyc < 3000; cyc++) {
        memset(&in, 0, sizeof in);
        if (cyc == 0) { /* prime: input 1 -> port 2, input 0 -> port 3 */
            in.in[1] = (flit){1, 1, 1, (uint8_t)v1, flit_header(gid, to2, 0, gid, 0, 0, 1, 1)};
            in.in[0] = (flit){1, 1, 1, 0, flit_header(gid, to3, 0, gid, 0, 0, 1, 2)};
        }
        if (cyc == 20) { /* the two multicasts, 2 flits each, arrive together */
            in.in[0] = (flit){1, 1, 0, 0, flit_header(gid, bid, 0, gid, 1, 0, 2, 3)};
            in.in[1] = (flit){1, 1, 0, (uint8_t)v1, flit_header(gid, bid, 0, gid, 1, 0, 2, 4)};
        }
        if (cyc == 21) {
            in.in[0] = (flit){1, 0, 1, 0, 1};
            in.in[1] = (flit){1, 0, 1, (uint8_t)v1, 1};
        }
        for (int o = 0; o < t->k; o++) { in.cr_valid[o] = 0; }
        router_cycle(&b.r, &in, &out);
        for (int o = 0; o < t->k; o++)
            if (out.out[o].valid) {
                last_progress = cyc;
                if (out.out[o].tail && cyc > 20) (*delivered)++;
                in.cr_valid[o] = 1; /* sinks return credits immediately (next cycle is enough) */
            }
    }
    long stuck = router_buffered(&b.r);
    (void)last_progress;
    teardown(&b);
    return stuck;
}

static void test_bulletin(test_ctx *c) {
    long delivered;
    long stuck = crossed_multicast(c, 0, &delivered);
    EXPECT(c, stuck > 0 && delivered == 0, "without the bulletin: %ld flits stuck, %ld copies out (want a deadlock)",
           stuck, delivered);
    stuck = crossed_multicast(c, 1, &delivered);
    EXPECT(c, stuck == 0 && delivered == 4, "with the bulletin: %ld flits stuck, %ld copies out (want 0, 4)", stuck,
           delivered);
}

/* Starvation: two back-to-back unicast streams keep ports 2 and 3 busy, one cycle out of phase,
 * so the two are never free together; a multicast to {2,3} must still get through (the bulletin
 * reservation) — without it, it waits forever. */
static void test_no_starvation(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 9, 1, 7);
    const topo *t = &b.t;
    router_in in;
    router_out out;
    int gid = b.cfg.gid, bid = b.cfg.bid;
    int to2 = topo_local_peer(t, bid, 2), to3 = topo_local_peer(t, bid, 3);
    memset(&in, 0, sizeof in);
    in.mw_valid = 1;
    in.mw_port = 0;
    in.mw_group = 0;
    in.mw_set = (1u << 2) | (1u << 3);
    router_cycle(&b.r, &in, &out);
    int up[ROUTER_MAX_PORTS] = {0}, seq4 = 0, seq5 = 0, mc_copies = 0;
    uint8_t cr[ROUTER_MAX_PORTS] = {0}, crvc[ROUTER_MAX_PORTS] = {0};
    for (int i = 0; i < t->k; i++) up[i] = b.prm.depth[topo_port_class(t, i)];
    /* both streams on the plane of the multicast (input 0, VC 0: plane 0) */
    const int sp = b.prm.speedup, vc4 = (sp - 4 % sp) % sp, vc5 = (sp - 5 % sp) % sp;
    for (int cyc = 0; cyc < 3000; cyc++) {
        memset(&in, 0, sizeof in);
        for (int o = 0; o < t->k; o++) {
            in.cr_valid[o] = cr[o];
            in.cr_vc[o] = crvc[o];
            cr[o] = 0;
        }
        /* inputs 4 and 5 (intra-group ports) stream 2-flit packets on VC 1 */
        if (up[4] > 0 && cyc >= 1) {
            in.in[4] = (flit){1, seq4 % 2 == 0, seq4 % 2 == 1, (uint8_t)vc4,
                              seq4 % 2 == 0 ? flit_header(gid, to2, 0, gid, 0, 0, 2, 100) : 1};
            seq4++;
            up[4]--;
        }
        if (up[5] > 0) {
            in.in[5] = (flit){1, seq5 % 2 == 0, seq5 % 2 == 1, (uint8_t)vc5,
                              seq5 % 2 == 0 ? flit_header(gid, to3, 0, gid, 0, 0, 2, 101) : 1};
            seq5++;
            up[5]--;
        }
        if (cyc == 10) in.in[0] = (flit){1, 1, 1, 0, flit_header(gid, bid, 0, gid, 1, 0, 1, 99)};
        router_cycle(&b.r, &in, &out);
        for (int i = 0; i < t->k; i++)
            if (out.cr_valid[i]) up[i]++;
        for (int o = 0; o < t->k; o++)
            if (out.out[o].valid) {
                cr[o] = 1;
                crvc[o] = out.out[o].vc;
                if (out.out[o].head && flit_tag(out.out[o].data) == 99) mc_copies++;
            }
    }
    EXPECT(c, mc_copies == 2, "multicast starved: %d of 2 copies left in 3000 cycles", mc_copies);
    EXPECT(c, seq4 > 1000 && seq5 > 1000, "the unicast streams stalled (%d, %d flits)", seq4, seq5);
    teardown(&b);
}

/* The ledger must notice a lost flit and a duplicated packet (else conservation proves nothing). */
static void test_env_can_fail(test_ctx *c) {
    for (int mode = 0; mode < 2; mode++) {
        bench b;
        setup(c, &b, "small", 9, 1, 31);
        router_in in;
        router_out out, dup;
        int tampered = 0;
        memset(&dup, 0, sizeof dup);
        for (long cycle = 0; cycle < 20000; cycle++) {
            env_drive(&b.env, cycle, &in);
            router_cycle(&b.r, &in, &out);
            if (!tampered && cycle > 2000)
                for (int o = 0; o < b.t.k && !tampered; o++) {
                    if (!out.out[o].valid) continue;
                    if (mode == 0)
                        out.out[o].valid = 0, tampered = 1; /* lose a flit */
                    else if (out.out[o].tail && out.out[o].head)
                        dup = out, tampered = 2; /* remember a packet */
                }
            env_observe(&b.env, cycle, &in, &out);
            if (tampered == 2) {
                env_observe(&b.env, cycle, &in, &dup);
                tampered = 3;
            } /* ... and deliver it again */
        }
        b.env.injecting = 0;
        b.env.drain_prob = 1.0;
        for (long cycle = 20000; cycle < 40000; cycle++) {
            env_drive(&b.env, cycle, &in);
            router_cycle(&b.r, &in, &out);
            env_observe(&b.env, cycle, &in, &out);
        }
        EXPECT(c, tampered && (b.env.errors > 0 || b.env.live_pkts > 0), "%s not noticed",
               mode == 0 ? "a lost flit" : "a duplicated packet");
        teardown(&b);
    }
}

/* Without the bulletin a multicast acquires its ports one by one (REQ_ACQ) and crossed multicasts
 * may deadlock, so no conservation is asked here: only that demand follows the route FIFOs every
 * cycle while ports are partly held, including global ones. */
static void test_demand_no_bulletin(test_ctx *c, const char *name, int router_id, long cycles, uint64_t seed) {
    bench b;
    setup(c, &b, name, router_id, 0, seed);
    router_in in;
    router_out out;
    long demand_bad = -1, partly_held = 0, global_demand = 0;
    int dport = 0, dwant = 0, dhave = 0;
    for (long cycle = 0; cycle < cycles; cycle++) {
        if (cycle % 500 == 0) {
            b.env.load = (env_rand(&b.env) % 3) ? 0.6 : 0.1;
            b.env.drain_prob = (double)(3 + env_rand(&b.env) % 8) / 10.0;
            b.env.mcast_frac = (double)(1 + env_rand(&b.env) % 3) / 10.0;
        }
        env_drive(&b.env, cycle, &in);
        router_cycle(&b.r, &in, &out);
        env_observe(&b.env, cycle, &in, &out);
        if (demand_bad < 0 && !demand_matches(&b.r, &dport, &dwant, &dhave)) demand_bad = cycle;
        for (int i = 0; i < b.t.k; i++)
            for (int v = 0; v < b.r.in[i].nvcs; v++)
                if (b.r.in[i].held[v] && !b.r.in[i].active[v]) partly_held++;
        for (int o = b.t.first_global; o < b.t.k; o++) global_demand += b.r.demand[o] > 0;
    }
    EXPECT(c, demand_bad < 0, "%s, no bulletin: cycle %ld: demand of port %d is %d, the route FIFOs say %d", name,
           demand_bad, dport, dhave, dwant);
    EXPECT(c, partly_held > 100, "%s, no bulletin: multicasts never held part of their ports (%ld)", name, partly_held);
    EXPECT(c, global_demand > 100, "%s, no bulletin: no demand on global ports (%ld)", name, global_demand);
    printf("  %s router %d, no bulletin: %ld cycles, demand exact; %ld VC-cycles with ports partly held\n", name,
           router_id, cycles, partly_held);
    teardown(&b);
}

int main(void) {
    test_ctx c = {0, 0, "test_router"};
    test_route_fifo(&c);
    test_latency(&c);
    test_back_to_back(&c);
    test_one_flit_stream(&c);
    test_alt_plane(&c);
    test_credit_plane(&c);
    test_drain_win_on_empty_vc(&c);
    test_bulletin(&c);
    test_env_can_fail(&c);
    test_no_starvation(&c);
    test_random(&c, "small", 9, 300000, 21);
    test_random(&c, "small", 0, 200000, 22);
    test_random(&c, "mid", 100, 200000, 23);
    test_random(&c, "paper", 400, 100000, 24);
    test_demand_no_bulletin(&c, "small", 9, 100000, 25);
    test_demand_no_bulletin(&c, "mid", 100, 100000, 26);
    return test_finish(&c);
}
