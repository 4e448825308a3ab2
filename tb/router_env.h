/*
 * router_env — the world around one router under test: an upstream packet source per input
 * port (honouring the router's credits), a downstream sink per output port (returning credits
 * after random delays: back-pressure), side-band bitmaps from the group neighbours, and the
 * conservation ledger. Used by tests/test_router.c (C model alone) and tb/router_lockstep.cpp
 * (C model and RTL in lock-step). The env only sees the router's outputs, so the same env drives
 * either side.
 *
 * Checks: every unicast packet leaves exactly once, whole and in order, on a port the tables
 * allow, on the VC the VC rule gives; every multicast packet leaves exactly once on every port
 * of its set and nowhere else, all copies in the same cycles, on its own VC; the flits of a
 * packet are contiguous on every output; a header with a destination out of range is never
 * delivered; no packet stays in the router longer than `stuck_bound` cycles; no overflow but
 * from an overflow probe (protocol errors below), and no flit of a dropped probe delivered.
 *
 * Fault traffic (ctl_prob, ev_prob > 0; the router has its fault units): random FD/FR packets on
 * the network inputs between packets, within the control credits; random local events (link
 * down / peer down / up) on network ports; control flits on the outputs are checked (network
 * ports only, never inside a packet) and credited back. Every discard the router reports
 * (discard, discard_vc) is matched to the oldest packet of that input VC that has not left and
 * must be drained: a protocol error, or a unicast whose every option the expected valid mask
 * invalidates (the mask model below, read when its route-compute unit read its row). A discard
 * nothing explains fails, as does a masked packet that leaves or one that leaves through a port
 * whose option its mask invalidated.
 */
#ifndef DOAR_ROUTER_ENV_H
#define DOAR_ROUTER_ENV_H

#include "router.h"
#include "tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ENV_MAX_TAGS 65536
#define ENV_VCQ 64         /* packets per input VC not yet left (buffer depth bounds it) */
#define ENV_PROBE_WINDOW 8 /* cycles after an overflow probe within which its drop shows */
#define ENV_RECENT 8       /* heads remembered per input (ring by arrival cycle) */
/* a head arriving in cycle t has its mask row read at the start of t+1 (csim/rcu.h: stage 2's
 * synchronous read, used in t+2) */
#define ENV_MASK_AT 1

typedef struct {
    uint64_t s;
} env_rng;

typedef struct {
    uint8_t live, mcast, vc, expect_discard;
    uint8_t dest_group; /* in its destination group, from another: intra-group hops keep the VC */
    int in_port, len, got_flits_ports;
    long born, first_head;          /* cycle of the first head out (a multicast's copies leave together) */
    uint64_t expect_ports;          /* multicast: its set; unicast: the ports the tables allow */
    int entry;                      /* unicast: the fault units' entry (table A row) its route reads */
    uint8_t mask_known;             /* mask_at is the mask its route-compute unit read */
    uint64_t mask_at;               /* the mask model's valid mask for (in_port, entry) at that read */
    uint8_t dead_read;              /* that read gave no option only because the entry's router is
                                       known dead (fault_read_mask), the stored mask had some */
    uint64_t seen_ports;            /* ports whose copy completed */
    int next_seq[ROUTER_MAX_PORTS]; /* per output: flits of this packet seen so far */
} env_pkt;

typedef struct {
    const topo *t;
    const table_set *ts;
    const router_params *prm;
    int router_id, gid, bid;
    env_rng rng;
    /* stimulus knobs, changed by phases */
    double load, mcast_frac, drain_prob, sb_prob;
    double short_frac;                   /* share of one-flit packets on top of the uniform 1..max_len lengths */
    double hot_frac;                     /* share of unicasts sent to router hot_bid of this group (0: none, no draw) */
    int hot_bid;                         /*   its bid (not this router's): every input into one intra-group output */
    double drain_port[ROUTER_MAX_PORTS]; /* per output port drain probability; < 0: drain_prob */
    int injecting;
    /* upstream, per input port */
    int up_cred[ROUTER_MAX_PORTS][4];
    int cur_tag[ROUTER_MAX_PORTS], cur_left[ROUTER_MAX_PORTS], cur_vc[ROUTER_MAX_PORTS], cur_len[ROUTER_MAX_PORTS];
    uint64_t cur_hdr[ROUTER_MAX_PORTS];
    /* downstream, per output port: flits not yet credited per VC */
    int ds_held[ROUTER_MAX_PORTS][4];
    uint64_t mcast_sets[ROUTER_MAX_PORTS][256];
    int mgroups;
    /* ledger */
    env_pkt *pkts; /* [ENV_MAX_TAGS] */
    int next_tag;
    long injected_pkts, injected_flits, delivered_flits, delivered_copies, live_pkts, discarded_pkts;
    int port_pkt[ROUTER_MAX_PORTS]; /* per output: tag of the packet in progress (-1: none) */
    double bad_header_frac;         /* unicast headers with a destination out of range */
    /* per input VC: tags of the packets whose head has not left, oldest first */
    int vcq[ROUTER_MAX_PORTS][4][ENV_VCQ];
    int vcq_head[ROUTER_MAX_PORTS][4], vcq_n[ROUTER_MAX_PORTS][4];
    /* fault traffic */
    double ctl_prob, ev_prob;
    int up_ctl[ROUTER_MAX_PORTS];  /* control credits toward the router's inputs */
    int ctl_ret[ROUTER_MAX_PORTS]; /* control flits received, credit not yet returned */
    uint8_t link_down[ROUTER_MAX_PORTS];
    uint64_t faulted_ports; /* ports that saw an event: their data credits are not checked */
    long ctl_in, ctl_out, events, mask_discards, dead_discards, bad_discards, mcast_copies;
    long errors;
    char first_error[512];
    long stat_mcast, stat_unicast;
    long mcast_six, mcast_all; /* multicasts delivered to 6 ports / to every port but their input */
    /* protocol errors (issue 21 item 2c; docs/architecture.md "Protocol errors"), all 0 by default:
     * proto_prob: a new packet's header len is 0 or above max_len (drained); ovf_prob: per port
     * and cycle, a one-flit packet sent without a credit on a VC whose credits are spent (dropped
     * with overflow if the VC is full, else an ordinary packet); tablec_prob: per epoch, one
     * terminal port's table C rows are written with one item naming a port >= k (its zone-G
     * unicasts are drained). */
    double proto_prob, ovf_prob, tablec_prob;
    uint64_t c_bad_ports;            /* terminal inputs whose table C names ports >= k */
    uint64_t ovf_seen;               /* ports whose sticky overflow flag is set */
    int probe_tag[ROUTER_MAX_PORTS]; /* per port: the overflow probe not yet resolved (-1: none) */
    long probe_at[ROUTER_MAX_PORTS];
    long proto_len, proto_tablec, ovf_probes, ovf_drops, ovf_accepted;
    /* The expected valid masks (issue 21 item 2b): a fault unit of the env's own for this router
     * (csim/fault.c: the unit the fault lock-step checks against rtl/fault.v and the campaigns
     * against the oracle), fed with exactly the events and FD/FR packets the env injects, in the
     * router's calling order (inputs of cycle c taken after the tick at its end; an event only
     * when the unit's event FIFO is ready, a packet only when its input FIFO is). Its messages out
     * are never taken (their FIFO drops when full; the masks do not depend on them). */
    fault_unit *fu;
    int pend_ev, pend_ev_kind, pend_ev_port;
    uint64_t pend_ctl;
    fault_msg pend_msg[ROUTER_MAX_PORTS];
    int recent[ROUTER_MAX_PORTS]
              [ENV_RECENT]; /* per input: tag of the head that arrived in cycle c at c mod ENV_RECENT */
} router_env;

int env_init(router_env *e, const topo *t, const table_set *ts, const router_params *prm, int router_id, uint64_t seed);
void env_free(router_env *e);
uint64_t env_rand(router_env *e);
/* Fills *in for this cycle from the env's state (sources, credit returns, side-bands). */
void env_drive(router_env *e, long cycle, router_in *in);
/* Consumes the router's outputs of this cycle: deliveries, credits for the sources, checks. */
void env_observe(router_env *e, long cycle, const router_in *in, const router_out *out);
/* Ages the live packets; reports the ones older than bound. */
void env_check_stuck(router_env *e, long cycle, long bound);
/* Set-up writes, one per cycle: every port's tables A, B, C through the table-write port, the
 * fault units' options of every (port, entry), then every multicast table entry (group 0: every
 * port but the input; group 1: six random ports where k > 6; the others random non-empty sets). Fills in->tw_* / fw_* / mw_* for step n; returns 0 once n is past the last write. */
int env_setup(router_env *e, long n, router_in *in);
/* A random non-empty multicast set for an input port (excludes the port itself). */
uint64_t env_random_mset(router_env *e, int in_port);

#ifdef __cplusplus
}
#endif

#endif
