/*
 * network — the network simulator's engine (the interface and its contract: network.h): set-up
 * and release (the routers with their tables, the link rings and the arrival wheel, the nodes'
 * state), the step of one router in one cycle (what arrived on its input rings in, its outputs
 * onto its output rings, sent flits counted), and the block engine, net_block, which runs each
 * router several cycles before the next where that is exact, and net_cycle.
 *
 * Contract
 *   As network.h. The rest of the simulator is in files of its own, sharing net_internal.h:
 *   net_params.c (names, defaults and checks of net_params), net_faults.c (link and router
 *   faults), net_nodes.c (sources, sinks and their statistics) and net_run.c (the run loop, its
 *   reports and outputs).
 *   Errors are kept in simulated order (note_error), so blocks report the error cycle by cycle
 *   would.
 */
#include "net_internal.h"
#include "net_part.h"

#include <stdlib.h>
#include <string.h>

#define QUEUE_INITIAL 16

static int port_of_class_latency(const net_params *p, port_class c) {
    return c == PORT_TERMINAL ? p->lat_terminal : c == PORT_LOCAL ? p->lat_local : p->lat_global;
}

/* The report keeps the error that comes first in simulated order — cycle, then the step (cycle
 * start, nodes, routers, cycle end), then the router — so blocks, which visit cycles router by
 * router, report the same one as cycle by cycle. */
static void note_error(network *n, const char *msg) {
    const long long key = ((long long)n->cycle * 4 + n->step_phase) * (n->t.n_routers + 1) + (n->step_router + 1);
    if (!n->first_error[0] || key < n->first_error_key) {
        snprintf(n->first_error, sizeof n->first_error, "%s", msg);
        n->first_error_key = key;
    }
}

void net_fail(network *n, const char *msg) {
    n->errors++;
    note_error(n, msg);
}

long net_outstanding(const network *n) {
    return n->created - n->delivered - n->lost_link - n->lost_discard - n->lost_router - n->lost_dead_source;
}

int net_router_dead(const network *n, int r) { return n->routers_dead && n->router_failed[r]; }

/* net_block()'s block: the shortest router-to-router latency, at most NET_MAX_BLOCK or --block. */
static int ring_block(const net_params *p) {
    int block = p->lat_local < p->lat_global ? p->lat_local : p->lat_global;
    if (block > NET_MAX_BLOCK) block = NET_MAX_BLOCK;
    if (p->block > 0 && p->block < block) block = p->block;
    return block;
}

double net_ring_bytes(const topo *t, const net_params *p, double routers, int split) {
    const int b = ring_block(p);
    const double words = 2.0 * t->p * (p->lat_terminal + b) + (t->a - 1.0) * (p->lat_local + b) +
                         (split ? 2.0 : 1.0) * t->h * (p->lat_global + b);
    return routers * words * (double)sizeof(link_word);
}

static int net_init_here(network *n, const topo *t, const net_params *p, char err[DOAR_ERRLEN]) {
    memset(n, 0, sizeof *n);
    n->t = *t;
    n->prm = *p;
    n->r_lo = 0;
    n->r_hi = t->n_routers;
    n->g_lo = 0;
    n->g_hi = t->g;
    if (p->rprm.vcs < policy_vcs(p->routing)) n->prm.rprm.vcs = policy_vcs(p->routing);
    n->prm.rprm.pol.kind = p->routing;
    if (net_check_params(t, &n->prm, err)) return -1;
    if (p->comm && net_part_range(n, err)) return -1;
    const int k = t->k;
    if (tables_generate(&n->ts, t, &p->tprm, err)) return -1;
    if (traffic_init(&n->tr, t, &p->traffic, p->seed, err)) goto fail;
    /* the route policy follows the routing name; its windows follow the link latencies */
    router_params *rp = &n->prm.rprm;
    rp->pol.kind = p->routing;
    if (rp->vcs < policy_vcs(p->routing)) rp->vcs = policy_vcs(p->routing);
    rp->pol.bias = NET_UGAL_BIAS_PACKETS * p->packet_len;
    rp->pol.rtt[PORT_TERMINAL] = 2 * p->lat_terminal + NET_ROUTER_PIPELINE + p->packet_len;
    rp->pol.rtt[PORT_LOCAL] = 2 * p->lat_local + NET_ROUTER_PIPELINE + p->packet_len;
    rp->pol.rtt[PORT_GLOBAL] = 2 * p->lat_global + NET_ROUTER_PIPELINE + p->packet_len;
    if (p->routing != NET_ROUTING_DOAR && faults_on(p)) {
        snprintf(err, DOAR_ERRLEN,
                 "faults need --routing doar: routing %s has no fault handling (fault units "
                 "mask the DOAR tables)",
                 policy_name(p->routing));
        goto fail;
    }
    if (p->routing == POLICY_UGAL_G) {
        n->group_occ = calloc((size_t)t->g * (size_t)t->ah, sizeof *n->group_occ);
        if (!n->group_occ) goto oom;
    }

    n->routers = calloc((size_t)t->n_routers, sizeof *n->routers);
    n->in_ring = calloc((size_t)t->n_routers * (size_t)k, sizeof *n->in_ring);
    n->out_ring = calloc((size_t)t->n_routers * (size_t)k, sizeof *n->out_ring);
    n->node_ring = calloc((size_t)t->n_nodes, sizeof *n->node_ring);
    n->nodes = calloc((size_t)t->n_nodes, sizeof *n->nodes);
    if (!n->routers || !n->in_ring || !n->out_ring || !n->node_ring || !n->nodes) goto oom;

    n->routers_ready = n->r_lo;
    const size_t mem_before = net_part_allocated();
    for (int r = n->r_lo; r < n->r_hi; r++) {
        /* the first router tells what all of them need: refuse what cannot fit (net_part.h) */
        if (r == n->r_lo + 1 && net_part_memory_check(n, mem_before, err)) goto fail;
        router *R = &n->routers[r];
        if (router_init(R, t, rp, &p->tprm, err)) goto fail;
        n->routers_ready = r + 1;
        if (faults_on(p) && router_enable_faults(R, &n->ts, r, err)) goto fail;
        for (int port = 0; port < k; port++) {
            const port_tables *pt = tables_port(&n->ts, r, port);
            if (!pt) {
                snprintf(err, DOAR_ERRLEN, "router %d port %d has no tables", r, port);
                goto fail;
            }
            rcu_share(&R->rcus[port], pt); /* n->ts is never written after tables_generate */
        }
        prng rs;
        prng_seed(&rs, p->seed, ROUTER_STREAM, (uint64_t)r);
        router_cfg_in cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gid = topo_gid(t, r);
        cfg.bid = topo_bid(t, r);
        cfg.wired = n->ts.rcfg[r].wired;
        cfg.seed = (uint32_t)prng_next(&rs);
        router_reset(R, &cfg);
    }

    /* the link queues: one ring per wired router input port and per node */
    /* net_block() runs up to `block` cycles of one router before the next: no router-to-router
     * link is shorter, and a ring holds lat + block words so that no word is overwritten before
     * its reader's block has read it */
    n->block = ring_block(p);
    for (int c = 0; c < 3; c++) {
        n->lat[c] = port_of_class_latency(p, (port_class)c);
        n->ring_len[c] = n->lat[c] + n->block;
    }
    for (int o = t->first_local; o < t->first_global; o++) n->local_ports |= (uint64_t)1 << o;
    for (int o = 0; o < t->k; o++) n->pclass[o] = (uint8_t)topo_port_class(t, o);
    /* a split run: the rings into its routers and the rings its routers write into another
     * process's (sent from there, net_part) */
    const int node_lo = n->r_lo * t->p, node_hi = n->r_hi * t->p;
    size_t words = (size_t)(node_hi - node_lo) * (size_t)n->ring_len[PORT_TERMINAL];
    for (int r = 0; r < t->n_routers; r++)
        for (int port = 0; port < k; port++) {
            int pr, pp;
            if (topo_peer(t, r, port, &pr, &pp) == 0 && (!p->comm || net_part_needs_ring(n, r, port)))
                words += (size_t)n->ring_len[topo_port_class(t, port)];
        }
    /* cache-line aligned: a 32-byte link word then never straddles two lines */
    size_t pool_bytes = (words * sizeof *n->ring_pool + 63) / 64 * 64;
    n->ring_pool = aligned_alloc(64, pool_bytes);
    if (!n->ring_pool) goto oom;
    memset(n->ring_pool, 0, pool_bytes);
    link_word *next = n->ring_pool;
    for (int r = 0; r < t->n_routers; r++)
        for (int port = 0; port < k; port++) {
            int pr, pp;
            if (topo_peer(t, r, port, &pr, &pp) || (p->comm && !net_part_needs_ring(n, r, port))) continue;
            n->in_ring[r * k + port] = next;
            next += n->ring_len[topo_port_class(t, port)];
        }
    for (int node = node_lo; node < node_hi; node++) {
        n->node_ring[node] = next;
        next += n->ring_len[PORT_TERMINAL];
    }
    int wheel = 1;
    for (int c = 0; c < 3; c++)
        while (wheel < n->ring_len[c] + 1) wheel *= 2;
    n->wheel_mask = wheel - 1;
    n->wheel_shift = __builtin_ctz((unsigned)wheel);
    n->arrive = calloc((size_t)wheel * (size_t)t->n_routers, sizeof *n->arrive);
    n->arrive_node = calloc((size_t)wheel * (size_t)t->n_routers, sizeof *n->arrive_node);
    n->out_peer = malloc((size_t)t->n_routers * (size_t)k * sizeof *n->out_peer);
    if (!n->arrive || !n->arrive_node || !n->out_peer) goto oom;
    for (int r = 0; r < t->n_routers; r++)
        for (int port = 0; port < k; port++) {
            int pr, pp;
            n->out_peer[r * k + port] = -1;
            if (topo_peer(t, r, port, &pr, &pp) || !owned(n, r)) continue;
            n->out_ring[r * k + port] = pr < 0 ? n->node_ring[pp] : n->in_ring[pr * k + pp];
            if (pr >= 0) n->out_peer[r * k + port] = pr * ROUTER_MAX_PORTS + pp;
        }

    for (int node = node_lo; node < node_hi; node++) {
        net_node *nd = &n->nodes[node];
        prng_seed(&nd->rng, p->seed, NODE_STREAM, (uint64_t)node);
        nd->q = malloc(QUEUE_INITIAL * sizeof *nd->q);
        if (!nd->q) goto oom;
        nd->q_cap = QUEUE_INITIAL;
        for (int v = 0; v < rp->vcs; v++) nd->cred[v] = rp->depth[PORT_TERMINAL];
    }
    n->diag_end = n->recov_end = -1;
    n->channel_flits = calloc((size_t)t->n_routers * (size_t)k, sizeof *n->channel_flits);
    if (!n->channel_flits) goto oom;
    if (p->series_bin > 0) { /* bins up to the end of the sample and a drain limit beyond it */
        n->n_bins = (p->warmup + p->sample + p->drain_limit) / p->series_bin + 1;
        n->bin_flits = calloc((size_t)n->n_bins, sizeof *n->bin_flits);
        n->bin_pkts = calloc((size_t)n->n_bins, sizeof *n->bin_pkts);
        n->bin_latency = calloc((size_t)n->n_bins, sizeof *n->bin_latency);
        if (!n->bin_flits || !n->bin_pkts || !n->bin_latency) goto oom;
        if (p->cong_series) {
            n->bin_cong = calloc((size_t)n->n_bins * NET_CONG_COLS, sizeof *n->bin_cong);
            if (!n->bin_cong) goto oom;
        }
    }
    if (faults_on(p)) {
        size_t ports = (size_t)t->n_routers * (size_t)k;
        n->link_down = calloc(ports, 1);
        n->dropping = calloc(ports, 1);
        n->ups = malloc(((size_t)p->fault_links + (size_t)p->fault_routers * (size_t)k + 1) * sizeof *n->ups);
        n->ev_up = malloc((size_t)t->n_routers * sizeof *n->ev_up);
        n->evq = calloc((size_t)t->n_routers, sizeof *n->evq);
        n->evq_head = calloc((size_t)t->n_routers, sizeof *n->evq_head);
        n->evq_n = calloc((size_t)t->n_routers, sizeof *n->evq_n);
        n->unwired_ctl_cr = calloc((size_t)t->n_routers, sizeof *n->unwired_ctl_cr);
        if (!n->link_down || !n->dropping || !n->ups || !n->ev_up || !n->evq || !n->evq_head || !n->evq_n ||
            !n->unwired_ctl_cr || net_choose_links(n))
            goto oom;
        for (int r = 0; r < t->n_routers; r++) n->ev_up[r] = -1;
    }
    if (p->fault_routers > 0) {
        n->router_failed = calloc((size_t)t->n_routers, 1);
        n->open_vc = calloc((size_t)t->n_routers * (size_t)k, 1);
        n->open_left = calloc((size_t)t->n_routers * (size_t)k, 1);
        if (!n->router_failed || !n->open_vc || !n->open_left || net_choose_routers(n)) goto oom;
    }
    if (p->comm && net_part_init(n, err)) goto fail;
    n->inject_threshold = prng_threshold(p->rate / p->packet_len);
    n->injecting = 1;
    return 0;
oom:
    snprintf(err, DOAR_ERRLEN, "out of memory");
fail:
    net_free(n);
    return -1;
}

int net_init(network *n, const topo *t, const net_params *p, char err[DOAR_ERRLEN]) {
    int rc = net_init_here(n, t, p, err);
    if (!p->comm) return rc;
    /* a split run fails on every process or on none (no process is left waiting for the others) */
    if (net_part_agree(p->comm, rc == 0, err)) return 0;
    if (rc == 0) net_free(n);
    return -1;
}

void net_free(network *n) {
    free(n->link_down);
    free(n->dropping);
    free(n->ups);
    free(n->ev_up);
    free(n->unwired_ctl_cr);
    free(n->evq);
    free(n->evq_head);
    free(n->evq_n);
    free(n->failed);
    free(n->router_failed);
    free(n->open_vc);
    free(n->open_left);
    free(n->channel_flits);
    free(n->group_occ);
    free(n->bin_flits);
    free(n->bin_pkts);
    free(n->bin_latency);
    free(n->bin_cong);
    free(n->created_at);
    free(n->delivered_from);
    for (int r = n->r_lo; n->routers && r < n->routers_ready; r++) router_free(&n->routers[r]);
    net_part_free(n);
    for (int node = 0; n->nodes && node < n->t.n_nodes; node++) free(n->nodes[node].q);
    free(n->routers);
    free(n->in_ring);
    free(n->out_ring);
    free(n->arrive);
    free(n->arrive_node);
    free(n->out_peer);
    free(n->node_ring);
    free(n->ring_pool);
    free(n->nodes);
    traffic_free(&n->tr);
    tables_free(&n->ts);
    memset(n, 0, sizeof *n);
}

/* This cycle's ring slots by port class: rd is read in cycle c, wr receives what arrives lat later. */
static void ring_slots(const network *n, long c, int rd[3], int wr[3]) {
    for (int cl = 0; cl < 3; cl++) {
        rd[cl] = (int)(c % n->ring_len[cl]);
        wr[cl] = (int)((c + n->lat[cl]) % n->ring_len[cl]);
    }
}

/* UGAL_G: the view of group g's routers of their group's global ports at the start of the cycle
 * (this couples the routers of a group within a cycle: net_block runs such groups in blocks,
 * never single routers). Routers r = g * a + bid. */
static void group_estimates(network *n, int g) {
    const topo *t = &n->t;
    for (int r = g * t->a; r < (g + 1) * t->a; r++)
        for (int i = 0; i < t->h; i++)
            n->group_occ[g * t->ah + topo_bid(t, r) * t->h + i] =
                router_gport_estimate(&n->routers[r], t->first_global + i);
}

/* --cong-csv: router r's congestion state and its nodes' source queues after cycle c, the last of
 * bin c / series_bin, added to that bin. Router r and its nodes are read, all of them already
 * through cycle c, and which links are down and routers dead, which change only at fault events,
 * never inside a block: so blocks of cycles give what cycle by cycle does. */
static void cong_sample(network *n, int r, long c) {
    const topo *t = &n->t;
    const router *rt = &n->routers[r];
    long *s = &n->bin_cong[(c / n->prm.series_bin) * NET_CONG_COLS];
    for (int o = t->first_local; o < t->k; o++) {
        int pr, pp;
        if (!n->out_ring[r * t->k + o] || topo_peer(t, r, o, &pr, &pp)) continue; /* unwired */
        if ((n->link_down && n->link_down[r * t->k + o]) || net_router_dead(n, pr)) continue;
        if (topo_port_class(t, o) == PORT_GLOBAL) {
            s[NET_CONG_GPORTS]++;
            s[NET_CONG_CONGG] += (long)((rt->cg.congg >> (o - t->first_global)) & 1);
            s[NET_CONG_GOCC] += rt->occ[o];
            s[NET_CONG_GDEM] += rt->demand[o];
        } else {
            s[NET_CONG_LPORTS]++;
            s[NET_CONG_CONGL] += (long)((rt->cg.cong_local >> o) & 1);
            s[NET_CONG_LOCC] += rt->occ[o];
        }
    }
    for (int node = r * t->p; node < (r + 1) * t->p; node++) {
        s[NET_CONG_NODES]++;
        s[NET_CONG_SRCQ] += n->nodes[node].q_count;
    }
}

/* Router r in cycle c: what arrived on its input rings in, its outputs onto its output rings. */
static void router_step(network *n, int r, long c, const int rd[3], const int wr[3]) {
    const topo *t = &n->t;
    const int k = t->k;
    router_in *in = &n->rin;
    uint64_t *const arrived_at = &n->arrive[wheel_at(n, r, c)];
    const uint64_t arrived = *arrived_at;
    *arrived_at = 0;
    n->step_phase = 2;
    if (net_router_dead(n, r)) {
        net_drain_dead_router(n, r, rd, wr);
        return;
    }
    link_word **ir = &n->in_ring[r * k];
    in->group_occ = n->group_occ ? &n->group_occ[topo_gid(t, r) * t->ah] : NULL;
    /* only the entries of ports with something on them are written (router_in_ports), and
     * only the rings something was written into are read (arrive) */
    router_in_ports pm = {0, 0, 0, 0};
    /* speed only: the ring words are in other routers' memory, mostly not cached; asking for all of
     * them first lets the misses overlap */
    for (uint64_t ma = arrived; ma; ma &= ma - 1) {
        const int i = __builtin_ctzll(ma);
        __builtin_prefetch(ir[i] + rd[n->pclass[i]], 1);
    }
    const int has_fu = n->routers[r].fu != NULL;
    for (uint64_t ma = arrived; ma; ma &= ma - 1) {
        const int i = __builtin_ctzll(ma);
        link_word *w = ir[i] + rd[n->pclass[i]];
        const uint64_t bit = (uint64_t)1 << i;
        if (w->f.valid) {
            in->in[i] = w->f;
            pm.in |= bit;
            if (w->f.head && (w->f.data & NET_SAMPLE_HEAD) &&
                topo_router(t, flit_dst_gid(w->f.data), flit_dst_bid(w->f.data)) == r)
                n->sample_near++; /* (a sample head is unicast and not FD/FR) */
            if (has_fu && fault_is_ctl(&w->f)) n->ctl_in_flight--;
            w->f.valid = 0;
        }
        if (w->cr_valid) {
            in->cr_valid[i] = 1;
            in->cr_vc[i] = w->cr_vc;
            pm.cr |= bit;
            w->cr_valid = 0;
        }
        if (w->sb_valid) {
            in->sb_valid[i] = 1;
            in->sb_bits[i] = w->sb_bits;
            pm.sb |= bit;
            w->sb_valid = 0;
        }
        if (w->ctl_cr_valid) {
            in->ctl_cr_valid[i] = 1;
            pm.ctl_cr |= bit;
            w->ctl_cr_valid = 0;
        }
    }
    if (n->unwired_ctl_cr && n->unwired_ctl_cr[r]) { /* control credits of unwired ports (below) */
        for (uint64_t m = n->unwired_ctl_cr[r]; m; m &= m - 1) in->ctl_cr_valid[__builtin_ctzll(m)] = 1;
        pm.ctl_cr |= n->unwired_ctl_cr[r];
        n->unwired_ctl_cr[r] = 0;
    }
    in->ev_valid = 0;
    if (n->evq_n && n->evq_n[r] && router_event_ready(&n->routers[r])) {
        int e = n->evq[r][n->evq_head[r]];
        n->evq_head[r] = (n->evq_head[r] + 1) % NET_EVQ;
        n->evq_n[r]--;
        n->events_queued--;
        in->ev_valid = 1;
        in->ev_kind = e >> 8;
        in->ev_port = e & 0xff;
    } else if (n->ev_up && n->ev_up[r] >= 0) { /* a link-up, paired with the far end's */
        in->ev_valid = 1;
        in->ev_kind = FEV_UP;
        in->ev_port = n->ev_up[r];
        n->ev_up[r] = -1;
        n->events_queued--;
    }
    const router_out *out = router_cycle_ref(&n->routers[r], in, &pm);
    if (n->bin_cong && (c + 1) % n->prm.series_bin == 0 && c / n->prm.series_bin < n->n_bins) cong_sample(n, r, c);
    lose_discards(n, out);
    if (out->discard && !faults_on(&n->prm)) { /* without faults every packet has a route */
        char msg[160];
        snprintf(msg, sizeof msg, "cycle %ld: router %d discarded a packet (input ports 0x%llx): no route", c, r,
                 (unsigned long long)out->discard);
        net_fail(n, msg);
    }
    link_word **orr = &n->out_ring[r * k];
    /* ports with nothing on their outputs write nothing (router_out's masks) */
    uint64_t sent = out->out_ports | out->cr_ports | out->ctl_cr_ports | (out->sb_valid ? n->local_ports : 0);
    for (uint64_t m = sent; m; m &= m - 1) { /* speed only, as for the inputs above */
        const int o = __builtin_ctzll(m);
        if (!orr[o]) continue;
        const port_class pc = (port_class)n->pclass[o];
        __builtin_prefetch(orr[o] + wr[pc], 1);
        /* the peer reads the ring in cycle c + lat (here, in a loop that stores nothing else, the
         * wheel's fields stay in registers) */
        mark_arrival(n, r, o, c, n->lat[pc]);
    }
    /* speed only: these stay in registers across the stores below */
    const uint8_t *const down_at = n->link_down ? &n->link_down[(size_t)r * k] : NULL;
    uint8_t *const dropping = n->dropping ? &n->dropping[(size_t)r * k] : NULL;
    for (; sent; sent &= sent - 1) {
        const int o = __builtin_ctzll(sent);
        port_class pc = (port_class)n->pclass[o];
        link_word *w = orr[o];
        if (!w) { /* an unwired global port (g < a*h+1) */
            if (out->out[o].valid && fault_is_ctl(&out->out[o]) && n->unwired_ctl_cr) {
                /* the fault units address FDs/FRs upstream of every input port, unwired ones too:
                 * nobody is there, the port takes them as a sink (as in doar faults, where they are
                 * lost) and returns the control credit the next cycle, so the unit never waits */
                n->unwired_ctl_cr[r] |= (uint64_t)1 << o;
                n->ctl_unwired++;
            } else if (out->out[o].valid) {
                char msg[160];
                snprintf(msg, sizeof msg, "cycle %ld: router %d sent a flit into unwired port %d", c, r, o);
                net_fail(n, msg);
            }
            continue;
        }
        w += wr[pc];
        const int down = down_at && down_at[o];
        if (out->out[o].valid) {
            const flit *f = &out->out[o];
            int ctl = fault_is_ctl(f);
            int drop = dropping && dropping[o];
            if (f->head && down) { /* a failed link drops whole packets */
                drop = 1;
                if (!ctl) lose_pkt(n, net_down_link_loss(n, r, o), sample_head(f));
            }
            if (drop) {
                dropping[o] = !f->tail;
            } else {
                w->f = *f;
                if (n->open_vc) net_track_open(n, r * k + o, f);
                if (pc == PORT_GLOBAL && in_sample(n, c)) n->channel_flits[r * k + o]++;
                if (ctl) {
                    n->ctl_in_flight++;
                    n->fd_fr_packets++;
                } else if (w->f.head && pc != PORT_TERMINAL && (flit_tag(w->f.data) & NET_HOP_MAX) < NET_HOP_MAX)
                    w->f.data += (uint64_t)1 << FLIT_TAG_SHIFT; /* one more link crossed */
            }
            moved(n, c);
        }
        if (down) continue; /* credits and side-bands are lost on a failed link */
        if (out->ctl_cr_valid[o]) w->ctl_cr_valid = 1;
        if (out->cr_valid[o]) {
            w->cr_valid = 1;
            w->cr_vc = out->cr_vc[o];
        }
        if (pc == PORT_LOCAL && out->sb_valid) {
            w->sb_valid = 1;
            w->sb_bits = out->sb_bits;
        }
    }
    if (out->overflow) { /* sticky in the router: counted once, the first in simulated order reported */
        char msg[160];
        snprintf(msg, sizeof msg, "cycle %ld: router %d: input buffer overflow on ports 0x%llx", c, r,
                 (unsigned long long)out->overflow);
        if (!n->overflow_seen)
            net_fail(n, msg);
        else
            note_error(n, msg);
        n->overflow_seen = 1;
    }
}

/*
 * Cycles [n->cycle, n->cycle + b), router by router: router r (and its nodes) runs all b cycles
 * before router r+1 starts. Exact when b <= the shortest router-to-router link latency (nothing
 * one router does in the block reaches another within it; the rings hold lat + n->block words, so
 * what a router writes in the block never overwrites a word its peer has still to read) and no
 * state is shared between routers within a cycle: no fault activity (net_faults_quiet; net_run
 * chooses b). With UGAL_G's group view, shared by a group's routers, whole groups run in blocks
 * instead. The point is the cache: a router's state stays hot for b cycles instead of being
 * fetched again every cycle (docs/network.md "Speed").
 */
void net_block(network *n, int b) {
    const topo *t = &n->t;
    const long c0 = n->cycle;
    int rd[3], wr[3];
    if (b <= 1) { /* one cycle: every node, then every router, as the hardware's one clock edge */
        net_cycle_start(n, c0);
        ring_slots(n, c0, rd, wr);
        for (int r = n->r_lo; r < n->r_hi; r++) net_nodes_step(n, r, c0, rd, wr);
        if (n->group_occ)
            for (int g = n->g_lo; g < n->g_hi; g++) group_estimates(n, g);
        for (int r = n->r_lo; r < n->r_hi; r++) router_step(n, r, c0, rd, wr);
        net_cycle_end(n, c0);
        n->cycle = c0 + 1;
        return;
    }
    int rdb[NET_MAX_BLOCK][3], wrb[NET_MAX_BLOCK][3];
    for (int i = 0; i < b; i++) ring_slots(n, c0 + i, rdb[i], wrb[i]);
    if (n->group_occ) { /* UGAL_G: a group runs b cycles, its routers cycle by cycle; only global
                           * links (latency >= b) join groups */
        for (int g = n->g_lo; g < n->g_hi; g++)
            for (int i = 0; i < b; i++) {
                for (int r = g * t->a; r < (g + 1) * t->a; r++) net_nodes_step(n, r, c0 + i, rdb[i], wrb[i]);
                group_estimates(n, g);
                for (int r = g * t->a; r < (g + 1) * t->a; r++) router_step(n, r, c0 + i, rdb[i], wrb[i]);
            }
        n->cycle = c0 + b;
        return;
    }
    for (int r = n->r_lo; r < n->r_hi; r++)
        for (int i = 0; i < b; i++) {
            net_nodes_step(n, r, c0 + i, rdb[i], wrb[i]);
            router_step(n, r, c0 + i, rdb[i], wrb[i]);
        }
    n->cycle = c0 + b;
}

void net_cycle(network *n) {
    if (n->part) net_part_exchange(n, n->cycle, 1);
    net_block(n, 1);
}
