/*
 * network — a cycle-level dragonfly of the C router model (csim/router.h, the model lock-stepped
 * against the RTL), terminal nodes with packet sources and sinks, link delay queues, and the
 * measurement of seed 001 sec. 5 (docs/network.md).
 *
 * Contract
 *   Inputs : a topology, net_params (routing, traffic, offered load, packet length, link
 *            latencies, phase lengths, run seed).
 *   Outputs: net_result: offered and accepted load (flits/node/cycle), mean packet latency and
 *            hop count of the packets created in the sample window, created / delivered /
 *            lost packet counts, a hop histogram, a deadlock report when traffic stopped (or a livelock report).
 *   Routers: one `router` per dragonfly router, tables from tables_generate() loaded with rcu_load
 *            (the state the table-write port would write), reset with <gid,bid>, the group's wired
 *            global ports and a per-router seed drawn from the run seed. Routing "min" is the same
 *            router with every table B entry zero (no non-minimal option exists); "doar" uses the
 *            tables as generated.
 *   Links  : every wired router port is joined to its topo_peer() by a delay queue per direction
 *            carrying, per cycle, one flit, one credit return and one side-band bitmap. A value a
 *            router puts on its output registers in cycle t is on the peer's input in cycle t+L,
 *            L = lat_local (intra-group), lat_global (global) or lat_terminal (router <-> node).
 *            Unwired global ports (g < a*h+1) have no queue: inputs stay idle; a flit a router
 *            sends there is counted lost (the tables never route there).
 *   Nodes  : node <gid,bid,nid> sits on terminal port nid of router <gid,bid>. Its source creates
 *            a packet with probability rate/packet_len per cycle (Bernoulli; offered load `rate`
 *            in flits/node/cycle) into an unbounded FIFO source queue; a packet starts only on a
 *            terminal-input VC holding credits for all its flits (virtual cut-through, VCs tried
 *            round robin) and then sends one flit per cycle. Its sink takes one flit per cycle,
 *            always, and returns the credit at once.
 *   Timing : one net_cycle() = one clock of every router and node; every value crossing a link
 *            is written for cycle t+L >= t+1, so the order routers and nodes are visited in
 *            within a cycle does not matter.
 *   Packets: head tag bits [3:0] count inter-router links crossed (the queues increment them;
 *            the router never reads the tag); body and tail flits carry {src node [63:40],
 *            creation cycle [39:0]}. Latency = cycle the tail reaches the sink - creation cycle
 *            (source queueing included); hops = router-to-router links crossed, the convention of
 *            seed 001 Fig. 10 and `doar check` (minimal L-G-L = 3); router traversals = hops + 1.
 *   Group split (prm.comm, build/doar-mpi): each process runs a contiguous range of groups; a
 *            group's routers and nodes read only their own input queues, and the only queues
 *            another group writes are global-link queues, whose latency lat_global >= 1 is the
 *            lookahead: the processes exchange those writes at least every lat_global cycles and
 *            sum the totals in `network` between steps (net_part.h), so every decision is taken
 *            on the same figures in the same cycle and the results are those of one process.
 *            There is no global mutable state.
 *   Faults : with fault_links > 0 every router gets its fault units (router_enable_faults): FD/FR
 *            packets travel the links as control flits with their own credits. At cycle fault_at
 *            that many random network links fail in both directions; both ends get a link-down
 *            event (queued per router, taken when the router's event input is ready). A failed
 *            link drops whole packets: a packet whose head crossed before the fault still
 *            completes, every packet whose head arrives while it is down is dropped to its tail
 *            (counted lost "on a failed link"); credits, control credits and side-bands on it are
 *            dropped. At repair_at (if >= 0) the link comes up by a handshake: both ends take
 *            their link-up event in the same cycle t (the first cycle both event inputs are ready
 *            with nothing queued before it) and the link carries what they send from cycle t+2 on;
 *            what they switched onto it up to cycle t was counted against full credits (a down
 *            port's) and is dropped, so the credits are exact when it comes up. A router that
 *            drops a packet head with no valid option (router_out.discard) counts it lost
 *            "discarded". Diagnosis (recovery) ends at the first cycle after the
 *            fault (repair) at which every fault unit is idle, no event is queued and no FD/FR
 *            packet is on a link. Losses are also split by the cycle the lost packet was created
 *            in (created - delivered per creation cycle): a packet created after diagnosis ended
 *            must arrive unless its pair has no allowed path left (docs/network.md).
 *   Router faults (fault_routers > 0, with or without link faults, same cycles): at fault_at
 *            that many distinct random routers die. Every live neighbour gets a peer-down event on
 *            the port facing a dead router (also over a failed link), and every link of a dead
 *            router is down both ways. A dead router does not clock: what it holds or would send
 *            is gone, what arrives at it is dropped. Losses there count as lost "in dead routers"
 *            (lost_router): packet heads in its buffers or output registers, heads arriving at it
 *            or sent toward it, and packets it was forwarding when it died (their head is already
 *            downstream: the far link end completes it to its length with poisoned flits,
 *            NET_POISON, so every credit on its way comes back, and the sink counts it lost).
 *            The nodes of a dead router stop: their source queues are dropped
 *            (lost_dead_source) and they create nothing until the repair. Packets for a
 *            dead router's nodes are created as usual and lost wherever they die. At repair_at the
 *            dead routers restart as at network init (router_reset: the same tables, which nothing
 *            writes during a run, a fresh fault unit, full credits; every network port treated as
 *            down until its link-up is taken), their nodes resume, and both
 *            ends of every link of a revived router get a link-up event (the link handshake of the
 *            link repair); repair_at >= fault_at + NET_MIN_DEAD_CYCLES. A packet created after
 *            diagnosis and lost before the repair is one of an unreachable pair or one addressed
 *            to a dead router's node (each counted apart: created and lost); one still in flight
 *            at the repair may also be lost while the revived routers learn what is still broken.
 *   Invariants: every created packet is delivered exactly once or counted lost; every sink
 *            receives only packets addressed to it, whole and contiguous.
 */
#ifndef DOAR_NETWORK_H
#define DOAR_NETWORK_H

#include <stdio.h>

#include "net_comm.h"
#include "router.h"
#include "tables.h"
#include "traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NET_HOP_BITS 4                        /* head tag [3:0]: inter-router links crossed */
#define NET_HOP_MAX ((1 << NET_HOP_BITS) - 1) /* saturates there */
/* Fault phases (a run with faults): before the fault, diagnosis, after it, recovery (from the
 * repair), after it. */
enum {
    NET_PHASE_BEFORE,
    NET_PHASE_DIAGNOSIS,
    NET_PHASE_AFTER_DIAGNOSIS,
    NET_PHASE_RECOVERY,
    NET_PHASE_AFTER_RECOVERY,
    NET_PHASES
};
#define NET_MAX_HOPS_HIST 8  /* histogram: hops 0..7, [8] = 8 or more */
#define NET_TIME_BITS 40     /* body flits: creation cycle [39:0] */
#define NET_MIN_PACKET_LEN 2 /* the creation cycle rides on a body flit */
/* Body flits: bit 63 marks a poisoned flit, one the network makes up to complete a packet a dead
 * router cut off; bit 62 marks a packet created after diagnosis for a pair left without a path.
 * The source node field [63:40] never reaches them (fewer than 2^22 nodes with faults). */
#define NET_POISON ((uint64_t)1 << 63)
#define NET_NO_PATH ((uint64_t)1 << 62)
/* Head flits: bit 63 (above the tag, read by no router) marks a sample packet's head, so the
 * network can count the sample heads that reached their destination router (net_run's drain in
 * blocks: a sample packet whose head has not is at least ROUTER_HEAD_CYCLES from delivery). */
#define NET_SAMPLE_HEAD ((uint64_t)1 << 63)
#define NET_MAX_NODES (1 << 22)
#define NET_MAX_BLOCK 16 /* net_run: cycles one router runs ahead at most */
/* net_run: packets outstanding and none created, delivered or lost for this many watchdog periods
 * while flits still move is a livelock (a correct network never gets there: a broken model would) */
#define NET_LIVELOCK_WATCHDOGS 10

/* Routing: DOAR (the route-compute units) or a route policy of csim/policy.h. */
typedef route_policy net_routing;
#define NET_ROUTING_DOAR POLICY_DOAR
#define NET_ROUTING_MIN POLICY_MIN
/* cycles from a flit's arrival to its credit leaving a router (head: route 4, stage 1, stage 2, the
 * grant stage's move, credit out): the history window of a port is 2 * latency + this + the packet
 * length (the tail's credit comes back last) */
#define NET_ROUTER_PIPELINE 8
#define NET_UGAL_BIAS_PACKETS 2       /* UGAL bias b, packets toward minimal */
#define NET_THRESHOLD_UTIL_DEFAULT 80 /* percent (docs/network.md, "Congestion thresholds") */
/* Output queue depth, packets: seed 001's BookSim router buffers its speed-up in unbounded output
 * queues; ours are bounded, and 8 packets is where MIN's UR throughput stops rising (measured,
 * docs/network.md "Output queues"; the router's own default, 2 packets, is the RTL's) */
#define NET_OQ_PKTS 8
#define NET_OQ_PKTS_MAX 64
/* The congestion state per bin (net_write_cong): sums over the live routers at a bin's last cycle.
 * Global / intra-group ports: the wired ones whose link is up and whose peer is alive. */
enum {
    NET_CONG_GPORTS, /* such global ports */
    NET_CONG_CONGG,  /* of them, CongG set */
    NET_CONG_GOCC,   /* their credit occupancy, flits */
    NET_CONG_GDEM,   /* their demand: flits routed to them and waiting in their router */
    NET_CONG_LPORTS, /* such intra-group ports */
    NET_CONG_CONGL,  /* of them, CongL set */
    NET_CONG_LOCC,   /* their credit occupancy, flits */
    NET_CONG_NODES,  /* nodes of live routers */
    NET_CONG_SRCQ,   /* packets in their source queues */
    NET_CONG_HOPS,   /* hops of the packets delivered in the bin */
    NET_CONG_COLS
};

typedef struct {
    net_routing routing;
    traffic_spec traffic;
    double rate;                             /* offered load, flits/node/cycle, 0..1 */
    int packet_len;                          /* flits, NET_MIN_PACKET_LEN..FLIT_MAX_LEN */
    int lat_local, lat_global, lat_terminal; /* link latencies, cycles >= 1 */
    uint64_t seed;
    long warmup, sample;      /* cycles */
    long drain_limit;         /* after the sample, injection stays on until the sample's packets
                                 are delivered or for this many cycles; then injection stops and
                                 the network drains completely (only the watchdog ends that) */
    long watchdog;            /* cycles without any flit moving while packets are outstanding */
    int fault_links;          /* links that fail at fault_at (0: no faults, no fault units) */
    int fault_routers;        /* routers that die at fault_at (fault units with either count > 0) */
    int dead_dests;           /* packets for a dead router's nodes, while it is dead: 0 created (the
                                 sources cannot know; default), 1 not created (the job leaves those
                                 nodes out): docs/network.md "Router faults" */
    long fault_at, repair_at; /* cycles; repair_at < 0: never repaired */
    long series_bin;          /* cycles per bin of the time series (0: no series) */
    int cong_series;          /* with series_bin: also the congestion state at the end of every bin
                                 (net_write_cong; doar sim --cong-csv) */
    int tl_pkts, tg_pkts;     /* DOAR congestion thresholds TL / TG, packets (seed 001: 10 / 30) */
    int threshold_util;       /* percent: a threshold is at least what a port sending this share of
                                 the cycles keeps on its link (credit-based occupancy counts flits in
                                 flight: share x round trip, 2 * latency + NET_ROUTER_PIPELINE +
                                 packet length); 0: the paper's figures alone (docs/network.md) */
    int cong_demand;          /* 1 (default, the RTL's): an intra-group or global port's congestion
                                 also counts the flits routed to it and waiting in its router;
                                 0: credits only */
    int speedup;              /* the routers' internal speed-up S (crossbar planes): 1, 2 (default,
                                 seed 001 Table 1) or 4 */
    int cong_window;          /* 1 (default): DOAR's CongG leaves out the flits in flight on a global
                                 link (docs/architecture.md "Congestion", in-flight window: round
                                 trip 2 * global latency + NET_ROUTER_PIPELINE; TG is then the
                                 paper's alone); 0: occupancy, TG raised by threshold_util */
    int oq_pkts;              /* output queue depth, packets, per output port and plane (default
                                 NET_OQ_PKTS; docs/network.md "Output queues") */
    /* Stopping a saturated run early (doar sweep): 0 = run to the end. Once every sample packet
     * exists (the end of the sample window) the run stops as soon as the mean sample latency
     * must exceed stop_latency whatever happens next (the latencies so far plus the ages of the
     * packets still out are a lower bound; left out with faults, where packets may be lost), or
     * the window accepted less than stop_share of what it generated that could arrive (packets
     * for a dead router's node or a pair without a path left out). */
    double stop_latency, stop_share;
    /* Simulation speed only, the results are the same: net_run() runs up to `block` cycles of one
     * router (and its nodes) before the next router, while nothing couples routers within the
     * block (net_block() in network.c). 0: the shortest router-to-router link latency, at most
     * NET_MAX_BLOCK; 1: cycle by cycle; else 1..that latency. */
    int block;
    router_params rprm; /* filled by net_default_params(); callers may change it */
    table_params tprm;
    FILE *progress; /* progress lines (NULL: none) */
    /* The processes this run is split over by groups (net_part.h, docs/network.md "Beyond one
     * machine"); NULL: the whole network in this process. The results are the same either way. */
    const net_comm *comm;
} net_params;

typedef struct {
    double offered;                        /* = rate */
    double generated;                      /* flits created per node per cycle in the sample window */
    double deliverable;                    /* generated less the sample_flits_doomed: what could arrive */
    double accepted;                       /* flits delivered per node per cycle in the sample window */
    double latency;                        /* mean, packets created in the sample window */
    double hops;                           /* mean hops (router-to-router links crossed), same packets */
    long hops_hist[NET_MAX_HOPS_HIST + 1]; /* [n]: sample packets with n hops */
    long created, delivered, lost;
    long sample_created, sample_delivered, sample_lost;
    /* global channels (seed 001 Fig. 12): load = flits per cycle of the sample on each wired
     * global link direction */
    double channel_min, channel_mean, channel_max;
    long channels;
    /* faults: losses by cause; by when the lost packet was created (before the fault, during
     * diagnosis, after it, during recovery, after it); phase lengths (cycles; -1: did not end) */
    long lost_link, lost_discard;
    long lost_before_fault, lost_diagnosis, lost_after_diagnosis, lost_recovery, lost_after_recovery;
    /* the same losses on links, discarded and in dead routers, by the phase of the cycle they
     * were lost in ([NET_PHASE_*]) */
    long lost_when[NET_PHASES];
    long diagnosis_cycles, recovery_cycles;
    long fd_fr_packets;         /* control flits sent on links */
    long ctl_unwired;           /* control flits sent into unwired global ports (g < a*h+1): dropped */
    long unreachable_pairs;     /* (source, destination) node pairs whose source entry is inaccessible
                                   once diagnosis ended: no allowed path is left */
    long created_unreachable;   /* packets created after diagnosis (before the repair) for such pairs:
                                   exactly these may be lost after diagnosis */
    long nonminimal, decisions; /* route policies: source decisions, and how many went non-minimally */
    /* router faults: packets lost in dead routers (held, arriving, sent toward them, cut off);
     * packets left in the source queues of dead routers' nodes; packets created after diagnosis
     * (before the repair) for a dead router's node, and how many of those were lost */
    long lost_router, lost_dead_source;
    long created_to_dead, lost_to_dead_after_diagnosis;
    long lost_unreachable; /* of created_unreachable: lost (one created just before the repair may
                              still arrive) */
    long cycles;           /* simulated */
    long block_cycles;     /* of them, run in blocks of several cycles (speed only) */
    long drain_blocked;    /* of those, in the drain while the sources still inject */
    double seconds;        /* wall time of the cycles */
    int deadlock;          /* the watchdog fired */
    int livelock;          /* packets outstanding, but none created, delivered or lost for
                              NET_LIVELOCK_WATCHDOGS watchdog periods (flits kept moving) */
    int stopped;           /* ended early, saturated for certain (stop_latency / stop_share):
                              latency is then the lower bound it had reached */
    long errors;           /* misdelivered packets, overflows, flits into unwired ports */
    char report[512];      /* deadlock / drain / first error description, "" when none */
} net_result;

/* One link direction: a ring of lat+block words; slot t % (lat+block) is read in cycle t. */
typedef struct {
    flit f;
    uint8_t cr_valid, cr_vc, sb_valid, ctl_cr_valid;
    uint64_t sb_bits;
} link_word;

#define NET_EVQ 64                             /* local events waiting for a router's event input */
#define NET_MIN_DEAD_CYCLES (FLIT_MAX_LEN + 1) /* a dead router's links close its packets first */

/* A repaired link (or a link of a revived router) coming up: both ends take their link-up event
 * in the same cycle `taken`; the link carries what they send from cycle taken + 2 on. */
typedef struct {
    int r, port; /* one end */
    long taken;  /* -1: not yet */
} net_link_up;

typedef struct {
    int dst;
    long created;
    uint64_t mark; /* NET_NO_PATH or 0: or'ed into its body flits */
} net_pkt;

typedef struct {
    prng rng;
    /* source */
    net_pkt *q;
    int q_head, q_count, q_cap;
    int cur_left, cur_len, cur_vc;
    uint64_t cur_hdr, cur_body;
    int cred[VCBUF_MAX_VCS];
    int rr_vc;
    /* sink */
    int sink_busy; /* a packet's head has arrived, its tail not yet */
    int sink_hops;
    int sink_sample; /* that packet is a sample packet */
} net_node;

typedef struct {
    topo t;
    net_params prm;
    table_set ts;
    traffic tr;
    router *routers;       /* [n_routers] */
    int routers_ready;     /* routers initialised (for net_free) */
    link_word **in_ring;   /* [n_routers * k]: queue into (router, port); NULL: unwired */
    link_word **out_ring;  /* [n_routers * k]: queue (router, port) writes (the peer's input) */
    link_word **node_ring; /* [n_nodes]: queue from the node's router into the node */
    link_word *ring_pool;
    /* Arrivals (simulation speed only): bit o of arrive[(r << wheel_shift) | (t & wheel_mask)] is set
     * when something was written into router r's input ring o that it reads in cycle t, so a
     * router visits only those ports; out_peer[r * k + o] names the input (r', o') router r's output
     * o feeds as r' * ROUTER_MAX_PORTS + o' (-1: a node or unwired). The wheel is a power of two
     * above the longest ring (latency + block). */
    uint64_t *arrive;
    uint64_t *arrive_node;       /* the same for the rings into the nodes: bit o = the node on port o */
    int wheel_mask, wheel_shift; /* arrival wheel: [router][cycle & wheel_mask] */
    int *out_peer;
    net_node *nodes; /* [n_nodes] */
    int lat[3];      /* link latency by port class */
    int block;       /* net_block(): cycles one router may run ahead, <= NET_MAX_BLOCK */
    int ring_len[3]; /* by port class: lat + block */
    /* speed only: topo_port_class of every port, a load instead of two compares */
    uint8_t pclass[ROUTER_MAX_PORTS];
    router_in rin;        /* scratch */
    uint64_t local_ports; /* the intra-group ports of a router (side-band outputs) */
    uint64_t inject_threshold;
    int injecting;
    long cycle;
    long last_move;              /* last cycle a flit moved anywhere */
    long last_settle;            /* last cycle a packet was created, delivered or lost (livelock) */
    int step_phase, step_router; /* what runs now (cycle_start 0, nodes 1, router 2, cycle_end 3;
                                    router -1: none): orders errors as cycle by cycle would */
    long long first_error_key;
    /* totals */
    long created, delivered, flits_delivered;
    long sample_created, sample_delivered, sample_flits, sample_flits_created;
    /* sample flits that can never arrive, with faults and no repair scheduled: for a dead router's
     * node, or for a pair that diagnosis left without a path (the saturation tests leave them out) */
    long sample_flits_doomed;
    double sample_latency_sum, sample_hops_sum;
    double sample_created_at_sum, sample_delivered_created_sum; /* creation cycles (early stop) */
    long sample_lost; /* sample packets lost (every loss site tells; net_run checks the sum at the end) */
    long sample_near; /* sample heads that entered their destination router (a head counted twice
                         only makes net_run's drain blocks rarer; one process only) */
    long hops_hist[NET_MAX_HOPS_HIST + 1];
    long errors;
    int overflow_seen;
    char first_error[256];
    /* faults */
    uint8_t *link_down; /* [n_routers * k]: the link router r's port o writes is down */
    uint8_t *dropping;  /* [n_routers * k]: dropping a packet to its tail */
    net_link_up *ups;   /* links waiting to come up (link-up handshake, net_cycle) */
    int n_ups;
    int *ev_up;          /* [n_routers]: port of the link-up event handed over this cycle, -1 */
    int (*evq)[NET_EVQ]; /* [n_routers]: queued events, kind << 8 | port */
    int *evq_head, *evq_n;
    int *failed; /* [fault_links * 2]: (router, port) of one end of each failed link */
    int n_failed;
    long ctl_in_flight, events_queued;
    long lost_link, lost_discard, fd_fr_packets, ctl_unwired;
    long lost_when[NET_PHASES]; /* losses by the fault phase they happen in (net_internal.h lose) */
    uint64_t *unwired_ctl_cr;   /* [n_routers] (faults): control credits an unwired port returns next cycle */
    /* with faults, per creation cycle: packets created / delivered (losses by creation window) */
    int32_t *created_at, *delivered_from;
    long cap_cycles;
    long *channel_flits; /* [n_routers * k]: flits router r sent on global port o in the sample */
    /* time series (seed 001 Fig. 17), bins of prm.series_bin cycles: flits delivered, packets
     * delivered and the sum of their latencies, per bin */
    long *bin_flits, *bin_pkts;
    double *bin_latency;
    long n_bins;
    /* with prm.cong_series: [bin * NET_CONG_COLS + NET_CONG_*], sums over the live routers at the
     * bin's last cycle (and the hops of the packets delivered in the bin) */
    long *bin_cong;
    int *group_occ;           /* UGAL_G: [g * a*h] global port estimates, refreshed every cycle */
    long diag_end, recov_end; /* first quiet cycle after the fault / the repair, -1: not yet */
    long unreachable_pairs, created_unreachable;
    /* router faults (NULL / 0 without): the chosen routers, dead from fault_at until repair_at;
     * per link direction (router, port) the VC + 1 of a packet whose head was written on it and
     * whose tail was not yet (0: none) */
    uint8_t *router_failed; /* [n_routers] */
    int routers_dead;       /* 1 while the chosen routers are dead */
    uint8_t *open_vc;       /* [n_routers * k] */
    uint8_t *open_left;     /* [n_routers * k]: flits of that packet not yet on the link */
    long lost_router, lost_dead_source, created_to_dead, delivered_to_dead, delivered_unreachable;
    /* The routers (and their nodes) this process runs: [r_lo, r_hi), whole groups [g_lo, g_hi);
     * everything without prm.comm. The state of the others is not allocated. */
    int r_lo, r_hi, g_lo, g_hi;
    struct net_part *part; /* with prm.comm: the exchange across processes (net_part.h) */
} network;

/* Parses a routing name (policy_parse); unknown names get a reason listing them. */
int net_parse_routing(const char *name, net_routing *out, char err[DOAR_ERRLEN]);
const char *net_routing_name(net_routing r);

/* Defaults: seed 001 sec. 5 (latencies 10/100, warm-up 30,000, sample 10,000, 4-flit packets,
 * UR, port buffers 32 / 256 packets, thresholds 10 / 30 packets); terminal latency 1. */
void net_default_params(const topo *t, net_params *p);
/* Re-derives the router's buffers and thresholds after packet_len changed (as the defaults do). */
void net_size_router(const topo *t, net_params *p);
/* Bytes of the link rings of `routers` routers as net_init allocates them: each router's input
 * rings and its nodes' (latency + block words each); with `split` (a process of a split run) also
 * the rings its global ports write into another process's routers, at most one per global port. */
double net_ring_bytes(const topo *t, const net_params *p, double routers, int split);
/* Checks ranges (rate 0..1, latencies >= 1, packet length, ...). Returns 0 or -1 with a reason. */
int net_check_params(const topo *t, const net_params *p, char err[DOAR_ERRLEN]);

int net_init(network *n, const topo *t, const net_params *p, char err[DOAR_ERRLEN]);
void net_free(network *n);
/* One clock cycle of every node and router. */
void net_cycle(network *n);
/* Warm-up, sample, drain, final drain (docs/network.md). Fills *res; returns 0, or 1 when the
 * watchdog fired or an error was seen (res->report says which). */
int net_run(network *n, net_result *res);
/* Creates one packet from node src to node dst now (besides the Bernoulli sources; tests and,
 * later, application traces). Returns 0, or -1 on a bad node id, a source on a dead router or
 * memory. */
int net_send(network *n, int src, int dst);
/* Writes "router,gid,bid,port,peer_gid,load" per wired global link direction (load: flits per
 * cycle of the sample window). Returns 0, or -1 on a write error. */
int net_write_channels(const network *n, FILE *f);
/* Writes "cycle,accepted,latency,packets" per bin of series_bin cycles (accepted: flits/node/cycle
 * delivered in the bin; latency: mean of the packets delivered in it). Returns 0, or -1. */
int net_write_series(const network *n, FILE *f);
/* Writes "cycle,accepted,hops,congg,congl,global_occ,global_demand,local_occ,source_queue" per bin
 * of series_bin cycles that the run completed (prm.cong_series): hops of the packets delivered in
 * the bin; the rest at the bin's last cycle over the live routers — the share of their live global
 * ports with CongG set and of their live intra-group ports with CongL set, the mean credit
 * occupancy and demand of those global ports and the occupancy of those intra-group ports
 * (flits), and the mean packets waiting in a live node's source queue (docs/network.md
 * "Congestion over time"). Returns 0, or -1 on a write error. */
int net_write_cong(const network *n, FILE *f);
/* Packets created but not yet delivered (source queues included). */
long net_outstanding(const network *n);
/* Router r is dead now (router faults). */
int net_router_dead(const network *n, int r);
/* The global link directions the chosen dead routers leave (router faults; every wired one
 * without): *live of *wired have both ends alive, and *fewest is the least any group keeps of its
 * a*h (the ADV+i bottleneck, docs/RESULTS.md). Depends only on the fault draw. */
void net_router_fault_links(const network *n, long *live, long *wired, int *fewest);

#ifdef __cplusplus
}
#endif

#endif
