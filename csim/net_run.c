/*
 * net_run — the network simulator's run loop (network.h net_run): warm-up, sample, drain and
 * final drain; the watchdog's deadlock report, the livelock end and the early stop of a saturated
 * run; blocks of cycles where none of those can fire; the results; and the outputs written after
 * a run (the time series, the global channels' loads).
 *
 * Contract
 *   net_run advances the network only through net_block (network.c) and decides only between
 *   blocks, on figures that blocks give as cycle by cycle would (may_block), so the results do not
 *   depend on the block. A split run decides on the whole network's totals (net_part_sync) and
 *   ends with every process's (net_part_finish).
 *   Why a file: the run's control, apart from the engine it drives (issue 23, csim/network.c
 *   split by concern).
 */
#define _POSIX_C_SOURCE 200809L
#include "net_internal.h"
#include "net_part.h"

#include <string.h>
#include <time.h>

#define PROGRESS_CHECK_MASK 1023 /* look at the clock every 1024 cycles */
#define PROGRESS_SECONDS 2.0

int net_write_series(const network *n, FILE *f) {
    if (fprintf(f, "cycle,accepted,latency,packets\n") < 0) return -1;
    long last = n->cycle / (n->prm.series_bin > 0 ? n->prm.series_bin : 1);
    for (long b = 0; b < n->n_bins && b <= last; b++) {
        double acc = (double)n->bin_flits[b] / ((double)n->t.n_nodes * (double)n->prm.series_bin);
        double lat = n->bin_pkts[b] ? n->bin_latency[b] / (double)n->bin_pkts[b] : 0.0;
        if (fprintf(f, "%ld,%.4f,%.1f,%ld\n", b * n->prm.series_bin, acc, lat, n->bin_pkts[b]) < 0) return -1;
    }
    return 0;
}

static double ratio(long a, long b) { return b ? (double)a / (double)b : 0.0; }

int net_write_cong(const network *n, FILE *f) {
    if (fprintf(f, "cycle,accepted,hops,congg,congl,global_occ,global_demand,local_occ,source_queue\n") < 0) return -1;
    const long bin = n->prm.series_bin;
    for (long b = 0; n->bin_cong && b < n->n_bins && (b + 1) * bin <= n->cycle; b++) {
        const long *s = &n->bin_cong[b * NET_CONG_COLS];
        double acc = (double)n->bin_flits[b] / ((double)n->t.n_nodes * (double)bin);
        if (fprintf(f, "%ld,%.4f,%.3f,%.4f,%.4f,%.1f,%.1f,%.1f,%.2f\n", b * bin, acc,
                    ratio(s[NET_CONG_HOPS], n->bin_pkts[b]), ratio(s[NET_CONG_CONGG], s[NET_CONG_GPORTS]),
                    ratio(s[NET_CONG_CONGL], s[NET_CONG_LPORTS]), ratio(s[NET_CONG_GOCC], s[NET_CONG_GPORTS]),
                    ratio(s[NET_CONG_GDEM], s[NET_CONG_GPORTS]), ratio(s[NET_CONG_LOCC], s[NET_CONG_LPORTS]),
                    ratio(s[NET_CONG_SRCQ], s[NET_CONG_NODES])) < 0)
            return -1;
    }
    return 0;
}

int net_write_channels(const network *n, FILE *f) {
    const topo *t = &n->t;
    if (fprintf(f, "router,gid,bid,port,peer_gid,load\n") < 0) return -1;
    for (int r = 0; r < t->n_routers; r++)
        for (int o = t->first_global; o < t->k; o++) {
            int pr, pp;
            if (topo_peer(t, r, o, &pr, &pp)) continue;
            if (fprintf(f, "%d,%d,%d,%d,%d,%.4f\n", r, topo_gid(t, r), topo_bid(t, r), o, topo_gid(t, pr),
                        (double)n->channel_flits[r * t->k + o] / (double)n->prm.sample) < 0)
                return -1;
        }
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Where traffic stopped: the first input VC holding flits, and how many routers hold some. */
static void deadlock_report(const network *n, char *buf, size_t len) {
    const topo *t = &n->t;
    int holding = 0, fr = -1, fp = -1, fv = -1;
    long flits = 0;
    for (int r = n->r_lo; r < n->r_hi; r++) {
        int b = router_buffered(&n->routers[r]);
        if (!b) continue;
        holding++;
        flits += b;
        for (int i = 0; i < t->k && fr < 0; i++)
            for (int v = 0; v < n->prm.rprm.vcs && fr < 0; v++)
                if (n->routers[r].in[i].count[v]) {
                    fr = r;
                    fp = i;
                    fv = v;
                }
    }
    char first[320] = "";
    if (fr >= 0) { /* this process's first router holding flits */
        const vcbuf *b = &n->routers[fr].in[fp];
        const flit *f = vcbuf_front(b, fv);
        const route_entry *e = vcbuf_route(b, fv);
        char route[64];
        if (!f->head)
            snprintf(route, sizeof route, "a body flit");
        else if (!e)
            snprintf(route, sizeof route, "a head not yet routed");
        else if (e->discard)
            snprintf(route, sizeof route, "a head without a route");
        else
            snprintf(route, sizeof route, "a head for output port %d VC %d", __builtin_ctzll(e->ports), e->ovc);
        snprintf(first, sizeof first,
                 "; first: router (%d,%d) input port %d VC %d holds %d flits, front %s to <%d,%d,%d>", topo_gid(t, fr),
                 topo_bid(t, fr), fp, fv, b->count[fv], route, flit_dst_gid(f->data), flit_dst_bid(f->data),
                 flit_dst_nid(f->data));
    }
    if (n->part) net_part_deadlock(n, &holding, &flits, &fr, first, sizeof first); /* every process's */
    snprintf(buf, len, "no flit moved for %ld cycles (cycle %ld): %d routers hold %ld flits, %ld packets outstanding%s",
             n->cycle - n->last_move, n->cycle, holding, flits, net_outstanding(n), first);
}

/* The mean latency the sample packets must at least reach: each one still out is at least as old
 * as it is now (every sample packet exists from cycle sample_end on). */
static double sample_latency_bound(const network *n, long c) {
    if (!n->sample_created) return 0.0;
    double out = (double)(n->sample_created - n->sample_delivered);
    double ages = out * (double)c - (n->sample_created_at_sum - n->sample_delivered_created_sum);
    return (n->sample_latency_sum + ages) / (double)n->sample_created;
}

/* At cycle c >= sample_end: the run cannot end unsaturated (net_params.stop_latency). */
static int saturated_for_certain(const network *n, long c) {
    const net_params *p = &n->prm;
    if (p->stop_latency <= 0.0) return 0;
    if ((double)n->sample_flits < p->stop_share * (double)(n->sample_flits_created - n->sample_flits_doomed)) return 1;
    return !faults_on(p) && sample_latency_bound(n, c) > p->stop_latency;
}

/* The final drain in cycle c: no injection, every sample packet delivered, one process. Nothing
 * decided between cycles can change there but the end — the first cycle with nothing outstanding,
 * the one after the last delivery or loss (settled stamps it) — which net_run puts back when a
 * block ran past it: the network is empty then, so the cycles past it change no figure of the
 * result. (With sample packets outstanding after the drain limit stopped the injection, the early
 * stop could fire inside a block; a split run decides its end on every process's totals: both go
 * cycle by cycle.) */
static int final_drain(const network *n, long c, long sample_end) {
    return c >= sample_end && !n->injecting && net_sample_done(n) && !n->part;
}

/* The drain in cycles [c, c + len) while the sources still inject (one process): what net_run
 * decides between cycles there cannot fire inside. The injection stops at the start of the cycle
 * after the last sample packet's delivery, or at the drain limit; a sample packet whose head has
 * not entered its destination router (sample_near counts those that have) is delivered ROUTER_HEAD_CYCLES
 * + the terminal link + its body after the block's start at the earliest, past the block's last
 * decision (c + len - 1) when len is at most that. The early stop's latency bound only grows
 * between deliveries and a delivery lowers it, so it is checked at the block's last cycle on the
 * figures of its first; its other figures are fixed once the sample has ended. With faults a sample
 * packet may be lost in any cycle (a discard, a down link, a dead router), which ends the drain too:
 * those runs drain cycle by cycle. */
static int drain_injecting(const network *n, long c, long len, long sample_end) {
    const net_params *p = &n->prm;
    return c >= sample_end && n->injecting && !n->part && !faults_on(p) && n->sample_near < n->sample_created &&
           len <= ROUTER_HEAD_CYCLES + p->lat_terminal + p->packet_len - 1 &&
           c + len - 1 - sample_end < p->drain_limit && !saturated_for_certain(n, c + len - 1);
}

/* Cycles [c, c + len) may run without looking between them (net_run's decisions cannot fire
 * inside): before the sample ends (no stop, no drain), in the final drain or in the drain while
 * the sources inject (above), with the watchdog and the livelock end unable to fire (last_move
 * and last_settle only rise) and no fault activity (net_faults_quiet). */
static int may_block(const network *n, long c, long len, long sample_end, long livelock_after) {
    return (c + len <= sample_end || final_drain(n, c, sample_end) || drain_injecting(n, c, len, sample_end)) &&
           net_faults_quiet(n, c, (int)len) &&
           (net_outstanding(n) == 0 ||
            (c + len - 1 - n->last_move <= n->prm.watchdog && c + len - 1 - n->last_settle <= livelock_after));
}

int net_run(network *n, net_result *res) {
    const net_params *p = &n->prm;
    const long sample_end = p->warmup + p->sample;
    double t0 = now_s(), last_print = t0;
    memset(res, 0, sizeof *res);
    const long livelock_after = NET_LIVELOCK_WATCHDOGS * p->watchdog;
    int drain_blocks = 0; /* the final drain ran in blocks (final_drain) */
    for (;;) {
        const long c = n->cycle;
        if (n->part) net_part_sync(n); /* a split run decides on the whole network's figures */
        if (c >= sample_end) {
            if (n->injecting && (net_sample_done(n) || c - sample_end >= p->drain_limit)) n->injecting = 0;
            if (!n->injecting && net_outstanding(n) == 0) {
                /* every packet is delivered or lost: so is every sample packet, each loss site told
                 * whether it lost one */
                if (!net_sample_done(n)) {
                    char msg[200];
                    snprintf(
                        msg, sizeof msg,
                        "cycle %ld: the network is empty but %ld sample packets delivered and %ld lost of %ld created",
                        c, n->sample_delivered, n->sample_lost, n->sample_created);
                    net_fail(n, msg);
                }
                if (n->cycle > n->last_settle + 1 && drain_blocks) { /* a block ran past the end */
                    res->block_cycles -= n->cycle - (n->last_settle + 1);
                    n->cycle = n->last_settle + 1;
                }
                break;
            }
            /* the final drain has no limit: without injection the network empties unless the
             * watchdog sees traffic stop */
            if (saturated_for_certain(n, c)) {
                res->stopped = 1;
                break;
            }
        }
        if (net_outstanding(n) > 0 && c - n->last_move > p->watchdog) {
            res->deadlock = 1;
            deadlock_report(n, res->report, sizeof res->report);
            break;
        }
        if (net_outstanding(n) > 0 && c - n->last_settle > livelock_after) {
            res->livelock = 1;
            snprintf(
                res->report, sizeof res->report,
                "livelock: flits move but no packet was created, delivered or lost for %ld cycles (cycle %ld, %ld packets outstanding)",
                c - n->last_settle, c, net_outstanding(n));
            break;
        }
        /* a block of cycles router by router where nothing above could happen inside it
         * (may_block); else one cycle */
        int b = 1;
        if (n->block > 1 && may_block(n, c, n->block, sample_end, livelock_after)) b = n->block;
        /* a split run looks (sums its counters) only between windows of several blocks, up to the
         * global latency (the lookahead): the same cycles could have run without looking */
        long span = b;
        if (n->part && b > 1)
            while (span + b <= n->lat[PORT_GLOBAL] && may_block(n, c, span + b, sample_end, livelock_after)) span += b;
        for (long done = 0; done < span; done += b) {
            if (n->part) net_part_exchange(n, c + done, b);
            net_block(n, b);
        }
        if (b > 1) res->block_cycles += span;
        if (b > 1 && c >= sample_end && n->injecting) res->drain_blocked += span;
        if (b > 1 && c >= sample_end) drain_blocks = 1;
        if (p->progress && ((c + span) & ~(long)PROGRESS_CHECK_MASK) != (c & ~(long)PROGRESS_CHECK_MASK)) {
            double now = now_s();
            if (now - last_print >= PROGRESS_SECONDS) {
                last_print = now;
                const char *phase = c < p->warmup    ? "warm-up"
                                    : c < sample_end ? "sample"
                                    : n->injecting   ? "drain"
                                                     : "final drain";
                fprintf(p->progress,
                        "sim: cycle %ld (%s, sample ends at %ld) outstanding=%ld delivered=%ld %.0f router-cycles/s\n",
                        c, phase, sample_end, net_outstanding(n), n->delivered,
                        (double)c * n->t.n_routers / (now - t0));
                fflush(p->progress);
            }
        }
    }
    res->seconds = now_s() - t0;
    res->cycles = n->cycle;
    for (int r = n->r_lo; r < n->r_hi && n->routers; r++)
        if (n->routers[r].pol) {
            res->decisions += n->routers[r].pol->decisions;
            res->nonminimal += n->routers[r].pol->nonminimal;
        }
    if (n->part) net_part_finish(n, res); /* the arrays and the first error of every process */
    const double node_cycles = (double)n->t.n_nodes * (double)p->sample;
    res->offered = p->rate;
    res->generated = (double)n->sample_flits_created / node_cycles;
    res->deliverable = (double)(n->sample_flits_created - n->sample_flits_doomed) / node_cycles;
    res->accepted = (double)n->sample_flits / node_cycles;
    res->latency = n->sample_delivered ? n->sample_latency_sum / (double)n->sample_delivered : 0.0;
    if (res->stopped && !faults_on(p)) res->latency = sample_latency_bound(n, n->cycle);
    res->hops = n->sample_delivered ? n->sample_hops_sum / (double)n->sample_delivered : 0.0;
    memcpy(res->hops_hist, n->hops_hist, sizeof res->hops_hist);
    res->created = n->created;
    res->delivered = n->delivered;
    res->lost = n->lost_link + n->lost_discard + n->lost_router + n->lost_dead_source + net_outstanding(n);
    res->channel_min = -1.0;
    for (int r = 0; r < n->t.n_routers; r++)
        for (int o = n->t.first_global; o < n->t.k; o++) {
            int pr, pp;
            if (topo_peer(&n->t, r, o, &pr, &pp)) continue; /* unwired */
            double load = (double)n->channel_flits[r * n->t.k + o] / (double)p->sample;
            res->channels++;
            res->channel_mean += load;
            if (res->channel_min < 0 || load < res->channel_min) res->channel_min = load;
            if (load > res->channel_max) res->channel_max = load;
        }
    if (res->channels)
        res->channel_mean /= (double)res->channels;
    else
        res->channel_min = 0.0;
    res->lost_link = n->lost_link;
    res->lost_discard = n->lost_discard;
    memcpy(res->lost_when, n->lost_when, sizeof res->lost_when);
    res->lost_router = n->lost_router;
    res->lost_dead_source = n->lost_dead_source;
    res->created_to_dead = n->created_to_dead;
    res->lost_to_dead_after_diagnosis = n->created_to_dead - n->delivered_to_dead;
    res->lost_unreachable = n->created_unreachable - n->delivered_unreachable;
    res->fd_fr_packets = n->fd_fr_packets;
    res->ctl_unwired = n->ctl_unwired;
    res->unreachable_pairs = n->unreachable_pairs;
    res->created_unreachable = n->created_unreachable;
    res->diagnosis_cycles = n->diag_end >= 0 ? n->diag_end - p->fault_at : -1;
    res->recovery_cycles = n->recov_end >= 0 ? n->recov_end - p->repair_at : -1;
    long *by_phase[NET_PHASES] = {&res->lost_before_fault, &res->lost_diagnosis, &res->lost_after_diagnosis,
                                  &res->lost_recovery, &res->lost_after_recovery};
    for (long cc = 0; cc < n->cap_cycles && cc < n->cycle; cc++)
        *by_phase[net_phase(n, cc)] += (long)n->created_at[cc] - (long)n->delivered_from[cc];
    res->sample_created = n->sample_created;
    res->sample_delivered = n->sample_delivered;
    res->sample_lost = n->sample_lost;
    res->errors = n->errors;
    if (n->errors && !res->report[0]) snprintf(res->report, sizeof res->report, "%s", n->first_error);
    return res->deadlock || res->livelock || n->errors ? 1 : 0;
}
