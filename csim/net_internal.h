/*
 * net_internal — what the network simulator's own files share: csim/network.c (the engine),
 * net_params.c (parameters), net_faults.c (link and router faults), net_nodes.c (sources and
 * sinks) and net_run.c (the run loop).
 * Included by those files only, never by a caller: csim/network.h stays the interface.
 *
 * Contract
 *   The PRNG streams of the run seed, the small helpers several files use (static inline, as they
 *   were in the one file) and the functions one file calls in another (named net_*, no global
 *   mutable state: each works on the `network` it is given). Whatever a file does in a cycle
 *   keeps the stamps blocks rely on: errors noted in simulated order (net_fail), packets settled
 *   and flits moved stamped with the cycle they happen in (settled, moved), so a run in blocks
 *   gives the results of cycle by cycle (network.c net_block).
 *   Why: network.c held all of this in 1,431 lines; split by concern, as BookSim2 splits its
 *   simulator (channels, traffic manager, the run), each file needs this much of the others
 *   (issue 23).
 */
#ifndef DOAR_NET_INTERNAL_H
#define DOAR_NET_INTERNAL_H

#include "network.h"

#define NODE_STREAM 1u /* PRNG streams of the run seed */
#define ROUTER_STREAM 2u
#define FAULT_STREAM 3u
#define ROUTER_FAULT_STREAM 4u

/* Fault units run (link or router faults). */
static inline int faults_on(const net_params *p) { return p->fault_links > 0 || p->fault_routers > 0; }

/* Router r runs in this process (net_part: a split run runs a range of groups). */
static inline int owned(const network *n, int r) { return r >= n->r_lo && r < n->r_hi; }

/* A packet was created, delivered or lost in cycle c (stamped where it happens, so the same in blocks). */
static inline void settled(network *n, long c) {
    if (c > n->last_settle) n->last_settle = c;
}

/* A flit moved in cycle c (the watchdog's clock; blocks visit cycles out of order, so only rises). */
static inline void moved(network *n, long c) {
    if (c > n->last_move) n->last_move = c;
}

/* The fault phase (NET_PHASE_*) of cycle c as known at the end of the run: diag_end is known from
 * the cycle after it, recov_end is the first quiet cycle after the repair. Losses are split by it
 * twice: by the cycle a lost packet was created (net_run.c) and by the cycle it was lost (lose). */
static inline int net_phase(const network *n, long c) {
    const net_params *p = &n->prm;
    if (c < p->fault_at) return NET_PHASE_BEFORE;
    if (p->repair_at >= 0 && c >= p->repair_at)
        return n->recov_end >= 0 && c >= n->recov_end ? NET_PHASE_AFTER_RECOVERY : NET_PHASE_RECOVERY;
    return n->diag_end >= 0 && c > n->diag_end ? NET_PHASE_AFTER_DIAGNOSIS : NET_PHASE_DIAGNOSIS;
}

/* A packet lost now, counted by cause and by the phase of the cycle it is lost in (what is known
 * of the phases in that cycle is all the end of the run knows of it: an end is set at the end of
 * its cycle). Under overload a packet may wait in a source queue for thousands of cycles, so the
 * phase it was created in says little about the tables it met. */
static inline void lose(network *n, long *counter) {
    (*counter)++;
    n->lost_when[net_phase(n, n->cycle)]++;
    settled(n, n->cycle);
}

/* A packet lost (counter as lose) that was a sample packet when sample is set: the drain ends when
 * every sample packet is delivered or lost (net_sample_done). */
static inline void lose_pkt(network *n, long *counter, int sample) {
    lose(n, counter);
    n->sample_lost += sample != 0;
}

/* The packet heads router output ro discarded (no route): one per VC, the planes discard in
 * parallel; those of sample packets (discard_marked) count among the sample's losses. */
static inline void lose_discards(network *n, const router_out *ro) {
    for (uint64_t m = ro->discard; m; m &= m - 1)
        for (unsigned v = ro->discard_vcs[__builtin_ctzll(m)]; v; v &= v - 1) lose(n, &n->lost_discard);
    n->sample_lost += ro->discard_marked;
}

/* Every sample packet is delivered or lost. */
static inline int net_sample_done(const network *n) {
    return n->sample_delivered + n->sample_lost == n->sample_created;
}

/* Head flit f is a sample packet's (the source set NET_SAMPLE_HEAD; the routers pass it on). */
static inline int sample_head(const flit *f) { return (f->data & NET_SAMPLE_HEAD) != 0; }

/* Router r's word of the arrival wheel for cycle c: a router's slots are contiguous, so a block
 * (net_block) reads one line of them for its cycles. */
static inline size_t wheel_at(const network *n, int r, long c) {
    return ((size_t)r << n->wheel_shift) | (size_t)(c & n->wheel_mask);
}

/* Something was written in cycle c on router r's output o, arriving after latency lat. */
static inline void mark_arrival(network *n, int r, int o, long c, int lat) {
    int peer = n->out_peer[r * n->t.k + o];
    if (peer >= 0)
        n->arrive[wheel_at(n, peer / ROUTER_MAX_PORTS, c + lat)] |= (uint64_t)1 << (peer % ROUTER_MAX_PORTS);
    else if (o < n->t.p)
        n->arrive_node[wheel_at(n, r, c + lat)] |= (uint64_t)1 << o; /* into a node */
}

static inline int in_sample(const network *n, long cycle) {
    return cycle >= n->prm.warmup && cycle < n->prm.warmup + n->prm.sample;
}

/* ---- network.c: the engine ---- */

/* An error: counted, and the first in simulated order kept for the report (note_error). */
void net_fail(network *n, const char *msg);
/* Cycles [n->cycle, n->cycle + b) router by router; b <= 1: one cycle of every node and router. */
void net_block(network *n, int b);

/* ---- net_nodes.c: sources and sinks ---- */

/* The p nodes of router r in cycle c (rd / wr: the cycle's ring slots by port class). */
void net_nodes_step(network *n, int r, long c, const int rd[3], const int wr[3]);

/* ---- net_faults.c: link and router faults ---- */

/* net_init: the links (fault_links) and routers (fault_routers) that fail. 0, or -1: memory. */
int net_choose_links(network *n);
int net_choose_routers(network *n);
/* The source entry of (src node, dst node) is accessible: some allowed path is left. */
int net_pair_reachable(const network *n, int src, int dst);
/* The start and the end of cycle c (net_block): failures, repairs, link-ups; diagnosis and
 * recovery over. */
void net_cycle_start(network *n, long c);
void net_cycle_end(network *n, long c);
/* Cycles [c, c + b) may run in a block: no fault activity couples the routers. */
int net_faults_quiet(const network *n, long c, int b);
/* A dead router r's cycle, instead of its router step. */
void net_drain_dead_router(network *n, int r, const int rd[3], const int wr[3]);
/* Router faults: link direction idx carried flit f (the packets open on it). */
void net_track_open(network *n, int idx, const flit *f);
/* The loss counter of a packet head dropped on router r's down link `port`. */
long *net_down_link_loss(network *n, int r, int port);

#endif
