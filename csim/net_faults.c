/*
 * net_faults — link and router faults in the network simulator (network.h "Faults" and "Router
 * faults"): the links and routers that fail (streams of the run seed of their own), the failure
 * and the repair at their cycles with the events they give the routers, the link-up handshake,
 * a dead router's cycles (what reaches it dropped, the packets it was sending closed poisoned),
 * the packets lost on down links, and the ends of diagnosis and recovery.
 *
 * Contract
 *   net_cycle_start and net_cycle_end open and close every cycle (network.c net_block); they act
 *   only with faults, and are where faults couple routers within a cycle: net_faults_quiet tells
 *   the engine when that cannot happen, so blocks stay exact. net_drain_dead_router replaces a
 *   dead router's step; net_track_open and net_down_link_loss keep router_step's accounts of the
 *   flits it puts on links. A split run (net_part.h) touches a router's state only in the process
 *   that runs it (owned) and agrees on the rest (net_part_max, net_part_sync, net_part_all).
 *   Why a file: fault injection is a concern of its own, as in BookSim2 (issue 23, csim/network.c
 *   split by concern).
 */
#include "net_internal.h"
#include "net_part.h"

#include <stdlib.h>

static void queue_event(network *n, int r, int kind, int port) {
    if (n->evq_n[r] == NET_EVQ) {
        net_fail(n, "event queue of a router full");
        return;
    }
    n->evq[r][(n->evq_head[r] + n->evq_n[r]++) % NET_EVQ] = kind << 8 | port;
    n->events_queued++;
}

/* Link (r, port) comes up by the handshake (pair_link_ups); one event waits at each end. */
static void link_up_later(network *n, int r, int port) {
    int pr, pp;
    topo_peer(&n->t, r, port, &pr, &pp);
    n->ups[n->n_ups].r = r;
    n->ups[n->n_ups].port = port;
    n->ups[n->n_ups].taken = -1;
    n->n_ups++;
    n->events_queued += owned(n, r) + owned(n, pr); /* each end's process counts its event */
}

/* Router r could take a link-up event at the start of this cycle (nothing queued or handed over). */
static int end_ready(const network *n, int r) {
    return n->ev_up[r] < 0 && !n->evq_n[r] && router_event_ready(&n->routers[r]);
}

/* Start of cycle c: links whose ends took their link-up two cycles ago carry traffic again; then
 * each waiting link whose two ends have nothing queued and a ready event input hands both their
 * link-up event this cycle (one event per router and cycle; links in the order they were queued).
 * Taking it in the same cycle, both stop holding full credits for the port from the same cycle on,
 * and what they switched before is dropped with the link still down: the credits are exact. */
static void pair_link_ups(network *n) {
    const int k = n->t.k;
    int keep = 0;
    /* the ends' readiness at the start of the cycle, from their owners when the run is split (a
     * global link's ends may run in two processes); within the loop an end handed a link-up by
     * an earlier entry is no longer ready (ev_up, set below on every process) */
    long rdy_local[2 * 8], *rdy = n->n_ups <= 8 ? rdy_local : malloc((size_t)n->n_ups * 2 * sizeof *rdy);
    if (!rdy) {
        net_fail(n, "out of memory pairing link-ups");
        return;
    }
    for (int i = 0; i < n->n_ups; i++) {
        int pr, pp;
        topo_peer(&n->t, n->ups[i].r, n->ups[i].port, &pr, &pp);
        rdy[2 * i] = n->ups[i].taken < 0 && owned(n, n->ups[i].r) && end_ready(n, n->ups[i].r);
        rdy[2 * i + 1] = n->ups[i].taken < 0 && owned(n, pr) && end_ready(n, pr);
    }
    if (n->part) net_part_max(n, rdy, 2 * n->n_ups);
    for (int i = 0; i < n->n_ups; i++) {
        net_link_up *u = &n->ups[i];
        int pr, pp;
        topo_peer(&n->t, u->r, u->port, &pr, &pp);
        if (u->taken >= 0) {
            if (n->cycle >= u->taken + 2) {
                n->link_down[u->r * k + u->port] = n->link_down[pr * k + pp] = 0;
                continue;
            }
        } else if (rdy[2 * i] && rdy[2 * i + 1] && n->ev_up[u->r] < 0 && n->ev_up[pr] < 0) {
            n->ev_up[u->r] = u->port;
            n->ev_up[pr] = pp;
            u->taken = n->cycle;
        }
        n->ups[keep++] = *u;
    }
    n->n_ups = keep;
    if (rdy != rdy_local) free(rdy);
    if (n->part) /* another process's router takes its event there */
        for (int r = 0; r < n->t.n_routers; r++)
            if (!owned(n, r)) n->ev_up[r] = -1;
}

/* Fails (down = 1) or repairs the chosen links: both directions, events at both ends. */
static void set_links(network *n, int down) {
    const int k = n->t.k;
    for (int f = 0; f < n->n_failed; f++) {
        int r = n->failed[2 * f], port = n->failed[2 * f + 1], pr, pp;
        topo_peer(&n->t, r, port, &pr, &pp);
        if (!down) { /* up by the handshake; a dead router's links come up with it (revive_routers) */
            if (!net_router_dead(n, r) && !net_router_dead(n, pr)) link_up_later(n, r, port);
            continue;
        }
        n->link_down[r * k + port] = n->link_down[pr * k + pp] = 1;
        if (owned(n, r)) queue_event(n, r, FEV_LINK_DOWN, port);
        if (owned(n, pr)) queue_event(n, pr, FEV_LINK_DOWN, pp);
    }
}

/* fault_links distinct random network links (each counted from its lower (router, port) end). */
int net_choose_links(network *n) {
    const topo *t = &n->t;
    const int k = t->k;
    long total = 0;
    for (int r = 0; r < t->n_routers; r++)
        for (int port = t->first_local; port < k; port++) {
            int pr, pp;
            if (topo_peer(t, r, port, &pr, &pp) == 0 && (pr > r || (pr == r && pp > port))) total++;
        }
    int *ends = malloc((size_t)total * 2 * sizeof *ends);
    n->failed = malloc((size_t)(n->prm.fault_links > 0 ? n->prm.fault_links : 1) * 2 * sizeof *n->failed);
    if (!ends || !n->failed) {
        free(ends);
        return -1;
    }
    long m = 0;
    for (int r = 0; r < t->n_routers; r++)
        for (int port = t->first_local; port < k; port++) {
            int pr, pp;
            if (topo_peer(t, r, port, &pr, &pp) == 0 && (pr > r || (pr == r && pp > port))) {
                ends[2 * m] = r;
                ends[2 * m + 1] = port;
                m++;
            }
        }
    prng rng;
    prng_seed(&rng, n->prm.seed, FAULT_STREAM, 0);
    for (int f = 0; f < n->prm.fault_links && f < total; f++) { /* a partial Fisher-Yates shuffle */
        long j = f + (long)(prng_next(&rng) % (uint64_t)(total - f));
        int r = ends[2 * j], port = ends[2 * j + 1];
        ends[2 * j] = ends[2 * f];
        ends[2 * j + 1] = ends[2 * f + 1];
        ends[2 * f] = r;
        ends[2 * f + 1] = port;
        n->failed[2 * f] = r;
        n->failed[2 * f + 1] = port;
        n->n_failed++;
    }
    free(ends);
    return 0;
}

/* ---- router faults (fault_routers > 0) ---- */

/* fault_routers distinct random routers, from a stream of their own (adding router faults does not
 * change which links fail). */
int net_choose_routers(network *n) {
    const int nr = n->t.n_routers;
    int *ids = malloc((size_t)nr * sizeof *ids);
    if (!ids) return -1;
    for (int r = 0; r < nr; r++) ids[r] = r;
    prng rng;
    prng_seed(&rng, n->prm.seed, ROUTER_FAULT_STREAM, 0);
    for (int f = 0; f < n->prm.fault_routers; f++) { /* a partial Fisher-Yates shuffle */
        int j = f + (int)prng_below(&rng, (uint32_t)(nr - f));
        int r = ids[j];
        ids[j] = ids[f];
        ids[f] = r;
        n->router_failed[r] = 1;
    }
    free(ids);
    return 0;
}

void net_router_fault_links(const network *n, long *live, long *wired, int *fewest) {
    const topo *t = &n->t;
    *live = *wired = 0;
    *fewest = t->ah;
    for (int g = 0; g < t->g; g++) {
        int here = 0;
        for (int r = g * t->a; r < (g + 1) * t->a; r++)
            for (int o = t->first_global; o < t->k; o++) {
                int pr, pp;
                if (topo_peer(t, r, o, &pr, &pp) || pr < 0) continue; /* unwired */
                (*wired)++;
                if (n->router_failed && (n->router_failed[r] || n->router_failed[pr])) continue;
                (*live)++;
                here++;
            }
        if (here < *fewest) *fewest = here;
    }
}

/* Packet heads router r holds: in its input buffers, the crossbar's register, its output queues and
 * on its output registers (a head that left a queue is on the registers until the next cycle puts
 * it on the link). */
static long heads_held(const router *R, int k, long *sample) {
    long heads = 0;
    *sample = 0;
    for (int port = 0; port < k; port++) {
        const vcbuf *b = &R->in[port];
        for (int v = 0; v < VCBUF_NUM_VCS; v++)
            for (int i = 0; i < b->count[v]; i++) {
                const flit *f = &b->fifo[v * b->depth + (b->head[v] + i) % b->depth];
                if (f->head && !fault_is_ctl(f)) {
                    heads++;
                    *sample += sample_head(f);
                }
            }
        const flit *o = &R->regs[R->cur].out[port];
        if (o->valid && o->head && !fault_is_ctl(o)) {
            heads++;
            *sample += sample_head(o);
        }
        for (int q = 0; q < R->np; q++) { /* heads granted, crossing (router v6) or waiting in the output queues */
            const flit *x = &R->xw_flit[port * R->np + q];
            if (((R->xw_valid[q] >> port) & 1) && x->head) {
                heads++;
                *sample += sample_head(x);
            }
            const oq *u = &R->oqs[port * R->np + q];
            for (int i = 0; i < u->count; i++) {
                const flit *f = &u->ring[(u->head + i) % u->depth];
                if (f->head) {
                    heads++;
                    *sample += sample_head(f);
                }
            }
        }
    }
    return heads;
}

/* Cycle fault_at, after the link faults: the chosen routers die. */
static void kill_routers(network *n) {
    const topo *t = &n->t;
    const int k = t->k;
    n->routers_dead = 1;
    for (int r = 0; r < t->n_routers; r++) {
        if (!n->router_failed[r]) continue;
        const int mine = owned(n, r); /* split run: its own state only where it runs */
        if (mine) {
            long held_sample;
            const long held = heads_held(&n->routers[r], k, &held_sample);
            for (long h = 0; h < held; h++) lose_pkt(n, &n->lost_router, h < held_sample);
            lose_discards(n, &n->routers[r].regs[n->routers[r].cur]); /* discards decided before */
            n->events_queued -= n->evq_n[r];                          /* its queued events die with it */
            n->evq_n[r] = 0;
        }
        settled(n, n->cycle);
        for (int port = 0; port < k; port++) {
            int pr, pp;
            if (topo_peer(t, r, port, &pr, &pp)) continue;
            n->dropping[r * k + port] = 0;
            if (pr < 0) continue; /* a terminal port */
            n->link_down[r * k + port] = n->link_down[pr * k + pp] = 1;
            if (!n->router_failed[pr] && owned(n, pr))
                queue_event(n, pr, FEV_PEER_DOWN, pp); /* also over a failed link */
        }
        for (int nid = 0; nid < t->p && mine; nid++) { /* its nodes stop: their source queues are lost */
            net_node *nd = &n->nodes[r * t->p + nid];
            n->lost_dead_source += nd->q_count;
            for (int i = 0; i < nd->q_count; i++)
                n->sample_lost += in_sample(n, nd->q[(nd->q_head + i) % nd->q_cap].created);
            settled(n, n->cycle);
            nd->q_count = 0;
            nd->q_head = 0;
            nd->cur_left = 0; /* the head of a packet it was sending is in the router or on the link */
        }
    }
}

/* A dead router's cycle: whatever arrives is dropped; a data packet head counts lost. A packet it
 * was sending when it died has its head downstream: the far end of the link completes it, one
 * poisoned flit per cycle up to its length (so every router on its way gets its credits back);
 * the sink counts it lost. rd / wr: this cycle's read and write slots. */
void net_drain_dead_router(network *n, int r, const int rd[3], const int wr[3]) {
    const int k = n->t.k;
    for (int port = 0; port < k; port++) {
        int left = n->open_left[r * k + port];
        if (left) {
            link_word *o = &n->out_ring[r * k + port][wr[topo_port_class(&n->t, port)]];
            o->f.valid = 1;
            o->f.head = 0;
            o->f.tail = left == 1;
            o->f.vc = (uint8_t)(n->open_vc[r * k + port] - 1);
            o->f.data = NET_POISON;
            mark_arrival(n, r, port, n->cycle, n->lat[topo_port_class(&n->t, port)]);
            n->open_left[r * k + port] = (uint8_t)(left - 1);
            moved(n, n->cycle);
        }
    }
    for (int port = 0; port < k; port++) {
        link_word *w = n->in_ring[r * k + port];
        if (!w) continue;
        w += rd[topo_port_class(&n->t, port)];
        if (w->f.valid) {
            if (fault_is_ctl(&w->f))
                n->ctl_in_flight--;
            else if (w->f.head)
                lose_pkt(n, &n->lost_router, sample_head(&w->f));
            w->f.valid = 0;
        }
        w->cr_valid = 0;
        w->sb_valid = 0;
        w->ctl_cr_valid = 0;
    }
}

/* Cycle repair_at, after the link repairs: the dead routers restart as at network init (the same
 * configuration and tables, a fresh fault unit, full credits), their nodes resume with full
 * credits (the router's input buffers are empty), and each of their links comes up by the
 * handshake (pair_link_ups). */
static void revive_routers(network *n) {
    const topo *t = &n->t;
    const int k = t->k;
    for (int r = 0; r < t->n_routers; r++) {
        if (!n->router_failed[r]) continue;
        router *R = &n->routers[r];
        if (owned(n, r)) {
            router_cfg_in cfg = R->cfg;
            router_reset(R, &cfg);
            /* its links are not up yet: it treats them as down (full credits) until it takes each
             * link-up event, as a neighbour does (router_reset clears what the events said) */
            for (int port = t->first_local; port < k; port++) R->link_dn |= (uint64_t)1 << port;
        }
        for (int nid = 0; nid < t->p && owned(n, r); nid++) {
            net_node *nd = &n->nodes[r * t->p + nid];
            for (int v = 0; v < VCBUF_NUM_VCS; v++) nd->cred[v] = n->prm.rprm.depth[PORT_TERMINAL];
        }
        for (int port = t->first_local; port < k; port++) {
            int pr, pp;
            if (topo_peer(t, r, port, &pr, &pp)) continue;
            if (!n->router_failed[pr] || r < pr) link_up_later(n, r, port); /* once per link */
        }
    }
    n->routers_dead = 0;
}

/* Link direction idx carried flit f: a packet is open on it from its head to its tail. */
void net_track_open(network *n, int idx, const flit *f) {
    if (f->head) {
        n->open_vc[idx] = (uint8_t)(f->vc + 1);
        n->open_left[idx] = f->tail ? 0 : (uint8_t)(flit_len(f->data) - 1);
    } else if (n->open_left[idx]) {
        n->open_left[idx] = f->tail ? 0 : (uint8_t)(n->open_left[idx] - 1);
    }
}

/* A packet head dropped on a down link: lost in a dead router when the far end is one. */
long *net_down_link_loss(network *n, int r, int port) {
    int pr, pp;
    if (n->routers_dead && topo_peer(&n->t, r, port, &pr, &pp) == 0 && pr >= 0 && n->router_failed[pr])
        return &n->lost_router;
    return &n->lost_link;
}

/* The source entry of (src node, dst node) is accessible: some allowed path is left. */
int net_pair_reachable(const network *n, int src, int dst) {
    const topo *t = &n->t;
    int sr = src / t->p, dr = dst / t->p, index;
    table_zone z = tables_zone(topo_gid(t, sr), topo_bid(t, sr), topo_gid(t, dr), topo_bid(t, dr), dst % t->p, &index);
    int entry = tables_row_a(&n->ts, z, index);
    return (fault_acc(n->routers[sr].fu, src % t->p, entry) & FAULT_ROLE_SOURCE) != 0;
}

/* Faults failing and coming back: the start of cycle c (with faults, blocks are one cycle). */
void net_cycle_start(network *n, long c) {
    n->step_phase = 0;
    n->step_router = -1;
    if (faults_on(&n->prm)) {
        if (c == n->prm.fault_at) {
            set_links(n, 1);
            if (n->router_failed) kill_routers(n);
        }
        if (c == n->prm.repair_at) {
            set_links(n, 0);
            if (n->router_failed) revive_routers(n);
        }
        if (n->n_ups) pair_link_ups(n);
    }
}

/* The end of cycle c: diagnosis or recovery over (faults only). */
void net_cycle_end(network *n, long c) {
    const topo *t = &n->t;
    n->step_phase = 3;
    n->step_router = -1;
    const int diagnosing = n->diag_end < 0 && (n->prm.repair_at < 0 || c < n->prm.repair_at);
    const int recovering = n->recov_end < 0 && n->prm.repair_at >= 0 && c >= n->prm.repair_at;
    if (faults_on(&n->prm) && c >= n->prm.fault_at &&
        (diagnosing || recovering)) { /* the end of diagnosis / recovery */
        /* quiet: no event waiting, no FD/FR on a link, in an output register or in a unit; a split
         * run sums the counters first and asks every process about its routers */
        if (n->part) net_part_sync(n);
        int quiet = n->ctl_in_flight == 0 && n->events_queued == 0;
        for (int r = n->r_lo; r < n->r_hi && quiet; r++)
            quiet = net_router_dead(n, r) || (fault_idle(n->routers[r].fu) && !router_ctl_out_pending(&n->routers[r]));
        if (n->part) quiet = net_part_all(n, quiet);
        if (quiet && diagnosing) {
            n->diag_end = c;
            for (int s = n->r_lo * t->p; s < n->r_hi * t->p; s++) /* each process its sources */
                for (int d = 0; d < t->n_nodes; d++)              /* pairs of live nodes; dead ones are apart */
                    if (d != s && !net_router_dead(n, s / t->p) && !net_router_dead(n, d / t->p) &&
                        !net_pair_reachable(n, s, d))
                        n->unreachable_pairs++;
        }
        if (quiet && recovering) n->recov_end = c;
    }
}

/*
 * Faults couple routers within a cycle only while something happens: the failure and repair
 * cycles (net_cycle_start), the link-up handshake, and between the failure and the end of diagnosis
 * or recovery, net_cycle_end's look at every unit. Outside those spans a router's fault unit is
 * reached only through its links, as every other state, so [c, c + b) may run in a block.
 */
int net_faults_quiet(const network *n, long c, int b) {
    const net_params *p = &n->prm;
    if (!faults_on(p)) return 1;
    if (c + b <= p->fault_at) return 1; /* before the failure */
    if (n->events_queued || n->n_ups) return 0;
    if (n->diag_end >= 0 && (p->repair_at < 0 || c + b <= p->repair_at)) return 1; /* diagnosed */
    return n->recov_end >= 0;                                                      /* recovered */
}
