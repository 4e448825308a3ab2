/*
 * net_nodes — the network simulator's terminal nodes (network.h "Nodes" and "Packets"): each
 * node's Bernoulli source and unbounded source queue, the start of a packet on a terminal-input VC
 * with credits for all of it, the sink, and the statistics they keep (the sample window's counts
 * and sums, the hop histogram, the time series bins, and with faults the packets created and
 * delivered per creation cycle).
 *
 * Contract
 *   net_nodes_step(n, r, c, ...) runs router r's p nodes in cycle c, each: a credit back from the
 *   router, the flit arriving for its sink (its credit returned at once), a new packet with
 *   probability rate/packet_len, the next flit of the packet it is sending. It reads only the
 *   rings into those nodes and writes only the rings into r's terminal ports, so the engine may
 *   run it in blocks (network.c net_block). net_send creates one packet besides the sources.
 *   Why a file: sources, sinks and statistics are BookSim2's traffic manager (issue 23,
 *   csim/network.c split by concern).
 */
#include "net_internal.h"
#include "rr.h"

#include <stdlib.h>
#include <string.h>

/* Per-creation-cycle counters (faults only): room for cycle c. */
static int cycle_slot(network *n, long c) {
    if (c < n->cap_cycles) return 0;
    long cap = n->cap_cycles ? n->cap_cycles : 65536;
    while (cap <= c) cap *= 2;
    int32_t *a = realloc(n->created_at, (size_t)cap * sizeof *a);
    if (a) n->created_at = a;
    int32_t *b = realloc(n->delivered_from, (size_t)cap * sizeof *b);
    if (b) n->delivered_from = b;
    if (!a || !b) {
        net_fail(n, "out of memory counting packets per cycle");
        return -1;
    }
    memset(n->created_at + n->cap_cycles, 0, (size_t)(cap - n->cap_cycles) * sizeof *a);
    memset(n->delivered_from + n->cap_cycles, 0, (size_t)(cap - n->cap_cycles) * sizeof *b);
    n->cap_cycles = cap;
    return 0;
}

static int enqueue_to(network *n, net_node *nd, int dst) {
    if (nd->q_count == nd->q_cap) {
        net_pkt *q = malloc((size_t)nd->q_cap * 2 * sizeof *q);
        if (!q) return -1;
        for (int i = 0; i < nd->q_count; i++) q[i] = nd->q[(nd->q_head + i) % nd->q_cap];
        free(nd->q);
        nd->q = q;
        nd->q_head = 0;
        nd->q_cap *= 2;
    }
    net_pkt *pk = &nd->q[(nd->q_head + nd->q_count) % nd->q_cap];
    pk->dst = dst;
    pk->created = n->cycle;
    pk->mark = 0;
    nd->q_count++;
    if (n->created == n->delivered && n->cycle > n->last_move)
        n->last_move = n->cycle; /* the watchdog counts from here */
    n->created++;
    settled(n, n->cycle);
    if (faults_on(&n->prm) && cycle_slot(n, n->cycle) == 0) {
        n->created_at[n->cycle]++;
        if (n->diag_end >= 0 && (n->prm.repair_at < 0 || n->cycle < n->prm.repair_at)) {
            if (net_router_dead(n, dst / n->t.p))
                n->created_to_dead++; /* lost unless it outlives the death */
            else if (!net_pair_reachable(n, (int)(nd - n->nodes), dst)) {
                n->created_unreachable++;
                pk->mark = NET_NO_PATH;
            }
        }
    }
    if (in_sample(n, n->cycle)) {
        n->sample_created++;
        n->sample_created_at_sum += (double)n->cycle;
        n->sample_flits_created += n->prm.packet_len;
        if (faults_on(&n->prm) && n->prm.repair_at < 0 && (pk->mark || net_router_dead(n, dst / n->t.p)))
            n->sample_flits_doomed += n->prm.packet_len;
    }
    return 0;
}

static int enqueue(network *n, net_node *nd, int node) {
    const int dst = traffic_dest(&n->tr, node, &nd->rng, n->cycle);
    if (n->prm.dead_dests && net_router_dead(n, dst / n->t.p)) return 0; /* left out of the job */
    return enqueue_to(n, nd, dst);
}

int net_send(network *n, int src, int dst) {
    if (src < 0 || src >= n->t.n_nodes || dst < 0 || dst >= n->t.n_nodes || src == dst) return -1;
    if (net_router_dead(n, src / n->t.p)) return -1;
    if (!owned(n, src / n->t.p)) return 0; /* a split run: the source's process creates it */
    return enqueue_to(n, &n->nodes[src], dst);
}

/* A packet leaves the source queue onto a terminal-input VC with room for all of it. */
static void start_packet(network *n, net_node *nd, int node) {
    const topo *t = &n->t;
    int len = n->prm.packet_len;
    const int vcs = n->prm.rprm.vcs;
    uint64_t room = 0; /* the VCs with credits for the whole packet */
    for (int i = 0; i < vcs; i++)
        if (nd->cred[i] >= len) room |= (uint64_t)1 << i;
    const int v = rr_pick(room, nd->rr_vc);
    if (v < 0) return;
    const net_pkt *pk = &nd->q[nd->q_head];
    int per_group = t->a * t->p;
    int src_gid = node / per_group;
    nd->cur_hdr = flit_header(pk->dst / per_group, (pk->dst / t->p) % t->a, pk->dst % t->p, src_gid, 0, 0, len, 0);
    if (in_sample(n, pk->created)) nd->cur_hdr |= NET_SAMPLE_HEAD;
    nd->cur_body =
        ((uint64_t)node << NET_TIME_BITS) | ((uint64_t)pk->created & ((1ull << NET_TIME_BITS) - 1)) | pk->mark;
    nd->cur_vc = v;
    nd->cur_len = len;
    nd->cur_left = len;
    nd->rr_vc = (v + 1) % vcs;
    nd->q_head = (nd->q_head + 1) % nd->q_cap;
    nd->q_count--;
}

static void sink(network *n, net_node *nd, int node, const flit *f) {
    const topo *t = &n->t;
    char msg[200];
    if (!f->head && (f->data & NET_POISON) && nd->sink_busy) { /* cut off by a dead router */
        if (f->tail) {
            nd->sink_busy = 0;
            lose_pkt(n, &n->lost_router, nd->sink_sample);
        }
        return;
    }
    n->flits_delivered++;
    long bin = n->prm.series_bin > 0 ? n->cycle / n->prm.series_bin : -1;
    if (bin >= 0 && bin < n->n_bins) n->bin_flits[bin]++;
    if (in_sample(n, n->cycle)) n->sample_flits++;
    if (f->head) {
        int want = topo_node(t, flit_dst_gid(f->data), flit_dst_bid(f->data), flit_dst_nid(f->data));
        if (nd->sink_busy || want != node || f->tail) {
            snprintf(msg, sizeof msg, "cycle %ld: node %d got a head for node %d%s", n->cycle, node, want,
                     nd->sink_busy ? " inside another packet"
                     : f->tail     ? " without a body"
                                   : "");
            net_fail(n, msg);
        }
        nd->sink_busy = 1;
        nd->sink_hops = flit_tag(f->data) & NET_HOP_MAX;
        nd->sink_sample = sample_head(f);
        return;
    }
    if (!nd->sink_busy) {
        snprintf(msg, sizeof msg, "cycle %ld: node %d got a body flit outside a packet", n->cycle, node);
        net_fail(n, msg);
        return;
    }
    if (!f->tail) return;
    nd->sink_busy = 0;
    n->delivered++;
    settled(n, n->cycle);
    if (bin >= 0 && bin < n->n_bins) {
        n->bin_pkts[bin]++;
        if (n->bin_cong) n->bin_cong[bin * NET_CONG_COLS + NET_CONG_HOPS] += nd->sink_hops;
        n->bin_latency[bin] += (double)(n->cycle - (long)(f->data & ((1ull << NET_TIME_BITS) - 1)));
    }
    long created = (long)(f->data & ((1ull << NET_TIME_BITS) - 1));
    if (faults_on(&n->prm) && created < n->cap_cycles) n->delivered_from[created]++;
    if (n->router_failed && n->router_failed[node / t->p] && n->diag_end >= 0 && created > n->diag_end &&
        (n->prm.repair_at < 0 || created < n->prm.repair_at))
        n->delivered_to_dead++; /* created for a dead router's node after diagnosis, yet arrived */
    if (f->data & NET_NO_PATH) n->delivered_unreachable++; /* created without a path, yet arrived */
    if (in_sample(n, created)) {
        n->sample_delivered++;
        n->sample_latency_sum += (double)(n->cycle - created);
        n->sample_delivered_created_sum += (double)created;
        n->sample_hops_sum += nd->sink_hops;
        n->hops_hist[nd->sink_hops < NET_MAX_HOPS_HIST ? nd->sink_hops : NET_MAX_HOPS_HIST]++;
    }
}

/* The p nodes of router r in cycle c: sinks, credits, sources. */
void net_nodes_step(network *n, int r, long c, const int rd[3], const int wr[3]) {
    const topo *t = &n->t;
    const int k = t->k;
    const int lat_node = n->lat[PORT_TERMINAL];
    uint64_t *const arrive_at = &n->arrive[wheel_at(n, r, c + lat_node)];
    uint64_t *const arrived_node = &n->arrive_node[wheel_at(n, r, c)];
    const uint64_t arrived = *arrived_node;
    *arrived_node = 0;
    const int alive = !net_router_dead(n, r); /* a dead router's nodes stop */
    n->cycle = c;                             /* enqueue() and sink() stamp packets with it */
    n->step_phase = 1;
    n->step_router = r;
    for (int port = 0; port < t->p; port++) {
        const int node = r * t->p + port;
        net_node *nd = &n->nodes[node];
        link_word *w = &n->node_ring[node][rd[PORT_TERMINAL]];
        link_word *o = &n->in_ring[r * k + port][wr[PORT_TERMINAL]];
        const uint64_t node_bit = (uint64_t)1 << port;
        const int got = (arrived & node_bit) != 0; /* else the ring word is empty: not read */
        if (got && w->cr_valid) {
            nd->cred[w->cr_vc % n->prm.rprm.vcs]++;
            w->cr_valid = 0;
        }
        if (got && w->f.valid) {
            sink(n, nd, node, &w->f);
            o->cr_valid = 1;
            o->cr_vc = w->f.vc;
            *arrive_at |= node_bit;
            w->f.valid = 0;
        }
        if (n->injecting && alive && prng_chance(&nd->rng, n->inject_threshold) && enqueue(n, nd, node)) {
            net_fail(n, "out of memory in a source queue");
            n->injecting = 0;
        }
        if (!nd->cur_left && nd->q_count && alive) start_packet(n, nd, node);
        if (nd->cur_left) {
            int seq = nd->cur_len - nd->cur_left;
            o->f.valid = 1;
            o->f.head = seq == 0;
            o->f.tail = nd->cur_left == 1;
            o->f.vc = (uint8_t)nd->cur_vc;
            o->f.data = seq == 0 ? nd->cur_hdr : nd->cur_body;
            *arrive_at |= node_bit;
            nd->cred[nd->cur_vc]--;
            nd->cur_left--;
            moved(n, c);
        }
    }
}
