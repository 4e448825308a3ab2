/*
 * router — the whole DOAR router, structural: router_cycle_ref calls the units router_input,
 * router_alloc, router_bulletin, router_xbar, router_output (one C file each, router_*.c), cong and
 * the multicast table, in the order rtl/router.v's units compute. Mirrors rtl/router.v module for
 * module (docs/architecture.md "Unit map"). The state stays in one struct, grouped by unit.
 *
 * Contract (docs/architecture.md, "Router")
 *   Per port and cycle, inputs: one flit; one credit return for an output VC; a side-band
 *   bitmap (intra-group ports). Outputs (registers, visible the cycle after they are computed):
 *   one flit per output port; one credit return per input port (the VC a flit left); the
 *   side-band bitmap for every intra-group link; a sticky overflow flag per input port.
 *   Timing: a head flit arriving in cycle t is routed by cycle t+4 (its route entry is written at
 *   the end of t+4), proposes in t+5 (into the proposal register, router v7), is picked by stage 1
 *   in t+6, wins in stage 2 in t+7, is checked in t+8, granted in t+9, crosses into the crossbar's
 *   register in t+10 (the grant stage), is stored into its output queue in t+11 (router v6:
 *   router_xbar), is taken by the link stage in t+12 and is on the output in t+13;
 *   a body flit can follow one per cycle. A flit that leaves its input VC in cycle s frees its
 *   buffer slot at the end of s and the credit is on the credit output in s+1 at the earliest.
 *   Invariants: output ports are held per packet; a multicast leaves on all its ports in the same
 *   cycles (no splitting); with the bulletin on, a multicast never holds some of its ports while
 *   waiting for others.
 */
#ifndef DOAR_ROUTER_H
#define DOAR_ROUTER_H

#include "alloc.h"
#include "cong.h"
#include "fault.h"
#include "flit.h"
#include "mcast.h"
#include "oq.h"
#include "policy.h"
#include "rcu.h"
#include "vcbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The planes and the VCs per port that the router's cycle (router_cycle.c and the unit files
 * router_*.c) reads: r->np and r->prm.vcs, or constants where csim/router_fixed.c compiles that
 * cycle a second time (ROUTER_FIXED_COPY) for the default router, S = 2 with 4 VCs. Speed only:
 * the loops over planes and the VC indices become constants; router_cycle_ref runs that copy,
 * router_cycle_ref_fixed, for a router that has them (the same code, so the same results). */
#define ROUTER_FIXED_NP 2
#define ROUTER_FIXED_VCS 4
#ifdef ROUTER_FIXED_COPY
#define ROUTER_NP(r) ROUTER_FIXED_NP
#define ROUTER_VCS(r) ROUTER_FIXED_VCS
#else
#define ROUTER_NP(r) ((r)->np)
#define ROUTER_VCS(r) ((r)->prm.vcs)
#endif

/* The router's cycle behaviour, named in every sweep's settings line so that `doar sweep --resume`
 * and `make reproduce` never mix loads of two routers (v3: the allocator in three stages; v4: v3
 * with the credit plane; v5: v4 with the check and the grant in two cycles; v6: v5 with the
 * crossbar's writes registered; v7: v6 with stage 1 picking among the proposals of the last
 * cycle, docs/architecture.md). */
#define ROUTER_VERSION "v7"
#define ROUTER_MAX_PORTS 64
#define ROUTER_MAX_PLANES ALLOC_MAX_PLANES

#define ROUTER_MAX_CONG_RTT 4096 /* cycles: a 2,000-cycle link each way */
/* The timing contract's t+13 (above): a head arriving in cycle t is on an output in t + 13 at the
 * earliest (the network's drain in blocks relies on it; tests/test_router.c test_latency checks it) */
#define ROUTER_HEAD_CYCLES 13

typedef struct {
    int depth[3];      /* input VC buffer depth (flits) by port class: terminal, local, global */
    int ds_depth[3];   /* downstream VC depth by output port class: the credits after reset */
    int max_len;       /* longest packet (flits); also the side-band interval */
    int mgroups;       /* multicast groups per input port */
    int tl, tg;        /* local / global congestion thresholds (flits per port) */
    int hw;            /* history window of CongG */
    int tps;           /* side-band latency t_ps */
    int bulletin;      /* Global Resource Bulletin on (1) or off (0, deadlock demonstration) */
    int vcs;           /* VCs per port: 4 (the hardware, DOAR); route policies 2..5 (policy_vcs) */
    policy_params pol; /* route policy: POLICY_DOAR (the route-compute units) or one of csim/policy.h,
                          which the C model alone has (the RTL refuses nothing: it has no policy) */
    int cong_demand;   /* the congestion of an intra-group or global port counts, besides its
                          credit occupancy, the flits routed to it and still waiting here (1, the
                          RTL's CONG_DEMAND default); 0: credit occupancy only */
    int cong_rtt;      /* CongG's in-flight window: a global port's estimate leaves out the data
                          flits it sent in the last cong_rtt cycles (its credit round trip); 0: no
                          window (rtl/router.v CONG_RTT; 0..ROUTER_MAX_CONG_RTT) */
    int ctl_depth;     /* FD/FR packets the fault unit's input FIFO holds per port: the control
                          credits of every link (the RTL's IN_DEPTH) */
    int speedup;       /* internal speed-up S = crossbar planes: 1, 2 (default, seed 001 Table 1) or 4 */
    int oq_depth;      /* flits per output queue (one queue per output port and plane; >= max_len) */
} router_params;

typedef struct {
    flit in[ROUTER_MAX_PORTS];
    uint8_t cr_valid[ROUTER_MAX_PORTS], cr_vc[ROUTER_MAX_PORTS]; /* credit for output VC */
    uint8_t sb_valid[ROUTER_MAX_PORTS];
    uint64_t sb_bits[ROUTER_MAX_PORTS];
    int tw_valid, tw_port, tw_table, tw_addr;
    uint64_t tw_data;
    int mw_valid, mw_port, mw_group;
    uint64_t mw_set;
    /* with fault units (router_enable_faults): a local event (fault_event_kind) on port ev_port,
     * taken only when router_event_ready() said so before the cycle; control-credit returns */
    int ev_valid, ev_kind, ev_port;
    uint8_t ctl_cr_valid[ROUTER_MAX_PORTS];
    /* the fault units' static route options of (port, entry) per role, written with the tables
     * (fault_entry_options()); the RTL stores them, the C unit computed the same values from the
     * table set in router_enable_faults, so the C model ignores these writes */
    int fw_valid, fw_port, fw_entry;
    uint64_t fw_src, fw_int;
    /* UGAL_G only: the history-window estimate of every group-level global port of the group
     * (router_gport_estimate of the owning routers, start of this cycle); NULL: none */
    const int *group_occ;
} router_in;

/* The ports whose in[o].valid, cr_valid[o], sb_valid[o], ctl_cr_valid[o] are set in a router_in
 * (router_cycle_ref: the entries of other ports are then not read and may hold anything). */
typedef struct {
    uint64_t in, cr, sb, ctl_cr;
} router_in_ports;

typedef struct {
    flit out[ROUTER_MAX_PORTS];
    uint8_t cr_valid[ROUTER_MAX_PORTS], cr_vc[ROUTER_MAX_PORTS]; /* credit for input VC */
    uint8_t sb_valid;
    uint64_t sb_bits;
    uint64_t overflow;
    uint8_t ctl_cr_valid[ROUTER_MAX_PORTS]; /* an FD/FR packet left the fault unit's input FIFO */
    uint64_t discard;                       /* input ports that dropped a packet head this cycle (no route) */
    uint8_t discard_vcs[ROUTER_MAX_PORTS];  /* per input port: the VCs they were in (one per plane) */
    /* of those heads, how many carry data bit 63 set: no field of the router's (flit.h), a mark a
     * network may give its packets and the router passes on untouched; the simulator marks its
     * sample packets so that it can count their losses (C model only: a statistic, not compared) */
    uint8_t discard_marked;
    /* the ports of the array entries above that are not all zero (out[o].valid, cr_valid[o],
     * ctl_cr_valid[o]): a reader may visit just these */
    uint64_t out_ports, cr_ports, ctl_cr_ports;
} router_out;

typedef struct {
    int gid, bid;
    gport_bitmap wired;
    uint32_t seed;
} router_cfg_in;

/* The packet an input plane streams, from its grant to its tail: bodies cross without arbitration. */
typedef struct {
    uint8_t vc;                  /* input VC */
    uint8_t ovc, mcast, discard; /* from its route entry; discard: drained, sent nowhere */
    uint8_t rem;                 /* flits of the packet not yet crossed (len - 1 after the head, one
                                    less per crossing, at least 1): the allocator's look-ahead */
    uint64_t ports;              /* output ports (slots (o,q) it holds until the tail) */
} router_stream;

typedef struct {
    uint8_t valid, vc, mcast, grp, len;
    uint64_t data; /* the header (route policies decide on it at the end of the pipeline) */
} side_stage;

typedef struct {
    topo t;
    router_params prm;
    table_params tprm;
    router_cfg_in cfg;
    rcu *rcus;                       /* [k] */
    vcbuf *in;                       /* [k] */
    side_stage (*side)[RCU_LATENCY]; /* [k][4]: header facts travelling beside the RCU */
    mcast_table mc;
    cong cg;
    int (*cred)[VCBUF_MAX_VCS]; /* [k][vcs used] */
    int np;                     /* planes (prm.speedup) */
    /* router_input: the packet each input plane streams (i*np+q), the stage-1 picks (registers) */
    router_stream *strm;                 /* [k*np]: defined where in_busy says */
    uint64_t in_busy[ROUTER_MAX_PLANES]; /* per plane: inputs streaming a packet on it */
    int8_t *pick;                        /* [k*np]: stage-1 pick (VC) of input i on plane q, -1 none */
    uint64_t pick_inputs;                /* inputs with a pick on some plane (the others' entries are -1) */
    uint8_t *rr_in;                      /* [k*np] */
    alloc_req *pk_req;                   /* [k*np]: the pick's proposal in stage 1 (registered with it) */
    /* the proposal register (router v7, docs/architecture.md "Router v7"): every VC's proposal of
     * the last cycle, which stage 1 picks among in this one */
    alloc_req *pr_req;   /* [k*vcs]: input i, VC v at i*vcs+v; defined where pr_pl_vcs says */
    uint32_t *pr_pl_vcs; /* [k]: byte q: the VCs that proposed on plane q; defined where pr_inputs says */
    uint64_t pr_inputs;  /* inputs with a proposal */
    /* (speed only: the proposals of this cycle are written into a second pair of arrays, which
     * the edge swaps with pr_req / pr_pl_vcs instead of copying them) */
    alloc_req *pr_nx_req;
    uint32_t *pr_nx_pl_vcs;
    /* router_alloc: stage 2's wins of the last cycle, committed (or cancelled) in this one (registers) */
    uint64_t won_go[ROUTER_MAX_PLANES];    /* per plane: inputs with a win */
    int8_t *won_vc;                        /* [k*np]: its input VC; defined where won_go says */
    alloc_req *won_req;                    /* [k*np]: what it won (kind, ports granted) */
    uint8_t *won_vcs;                      /* [k]: bit v: VC v of input i has a win (won_go/won_vc summarised) */
    uint64_t won_slots[ROUTER_MAX_PLANES]; /* per plane: the slots the wins took (not DISCARD's) */
    /* the grant stage: stage 2's grants of the last cycle, which move in this one (registers) */
    uint64_t g_go[ROUTER_MAX_PLANES]; /* per plane: inputs whose granted head moves now */
    int8_t *g_vc;                     /* [k*np]: its input VC; defined where g_go says */
    uint8_t *g_kind;                  /* [k*np]: REQ_DISCARD, REQ_HEAD, REQ_MCAST or REQ_ACQ (complete) */
    route_entry *g_e;                 /* [k*np]: its route entry (it left the route FIFO at the grant) */
    uint64_t g_rh[ROUTER_MAX_PLANES]; /* per plane: a DISCARD of a packet head (not a stray body) */
    uint8_t *pend_vcs;                /* [k]: bit v: VC v of input i moves a granted head now (g_go/g_vc
                                         summarised: the RTL derives it from the same registers) */
    /* router_alloc: the check's decisions of the last cycle, granted in this one (registers; router
     * v5, docs/architecture.md "Router v5: the check and the grant") */
    uint64_t dc_go[ROUTER_MAX_PLANES];    /* per plane: inputs with a decision */
    uint64_t *dc_ports;                   /* [k*np]: the ports granted; defined where dc_go says */
    uint8_t *dc_kind;                     /* [k*np]: REQ_DISCARD, REQ_HEAD, REQ_MCAST or REQ_ACQ */
    int8_t *dc_vc;                        /* [k*np]: its input VC */
    uint8_t *dc_vcs;                      /* [k]: bit v: VC v of input i has a decision (summarised) */
    uint64_t dc_slots[ROUTER_MAX_PLANES]; /* per plane: the slots the decisions take (not DISCARD's) */
    /* the ghost: what the wins checked in the last cycle would have taken and did not (cancelled
     * wins, an ACQ's ports not granted): the credits and room that proposals and the check read
     * in this cycle leave it out as well (the RTL shifts its compares by the take of every win
     * checked, a register with no decision on its path) */
    int (*gh_cred)[VCBUF_MAX_VCS]; /* [k] */
    int16_t *gh_room;              /* [k*np] */
    uint64_t gh_ports;             /* outputs with a ghost (the others' entries are 0) */
    /* router_alloc: output slots and the bulletin, per plane a mask over output ports */
    uint64_t locked[ROUTER_MAX_PLANES];   /* slots (o,q) held by a packet writing through them */
    uint64_t grb_free[ROUTER_MAX_PLANES]; /* the bulletin: slots no multicast holds */
    int res_valid, res_in, res_vc;        /* a waiting multicast that has reserved its slots */
    uint8_t *rr_out;                      /* [k*np] */
    int rr_mc;
    /* router_xbar: the crossbar's write register (router v6, rtl/router_xbar.v): per plane the
     * output queues written in the last cycle, which of them take a packet's first flit, and the
     * flit per slot (o*np+q); they store in this cycle (router_xbar_store) */
    uint64_t xw_valid[ROUTER_MAX_PLANES], xw_start[ROUTER_MAX_PLANES];
    flit *xw_flit; /* [k*np] */
    /* router_output: the output queues (o*np+q), the link stage, credit returns upstream */
    oq *oqs; /* [k*np] */
    flit *oq_store;
    uint64_t oq_busy; /* outputs with a flit in some queue */
    uint64_t lk_lock; /* outputs sending a packet (until its tail) */
    uint8_t *lk_q;    /* [k]: the queue it sends from */
    /* per output the planes of the heads written into its queues, in the order they were written
     * (several in a cycle: lowest plane first); the link stage sends packets in that order */
    uint8_t *ord;                   /* [k * ord_depth] rings */
    uint16_t *ord_head, *ord_n;     /* [k] */
    int ord_depth;                  /* np * oq_depth: every head holds a flit of some queue */
    uint16_t (*crp)[VCBUF_MAX_VCS]; /* [k]: credits owed upstream per input VC, one leaves a cycle */
    uint8_t *rr_cr;                 /* [k] */
    uint64_t crp_ports;             /* inputs with a credit owed */
    /* kept with the state they summarise (simulation speed only): */
    uint8_t *crp_vcs;   /* [k]: the VCs with crp > 0 */
    uint16_t *oq_total; /* [k]: flits in all output queues of the port */
    /* Output registers, two sets: regs[cur] is on the outputs this cycle, the other is built for
     * the next one (all zero at the start of a cycle but for the ports its masks name, which
     * router_cycle clears first) */
    router_out regs[2];
    int cur;
    int side_pos; /* side[i] is a ring: stage s of port i at side[i][(side_pos - s) mod 4] */
    /* kept with the state they summarise (simulation speed only): */
    int occ[ROUTER_MAX_PORTS];        /* per output port: sum over its VCs of ds_depth - cred */
    int demand[ROUTER_MAX_PORTS];     /* per output port: flits of the packets routed to it that wait
                                         here (route entry stored, head not yet granted) */
    uint64_t busy;                    /* input ports whose VC buffers hold a flit (in[i].nonempty != 0) */
    int mc_routes;                    /* route entries in the route FIFOs with mcast set and discard clear */
    uint64_t side_valid[RCU_LATENCY]; /* bit i: side[i][s].valid, per ring slot s (a slot not
                                         valid is all zero) */
    uint64_t ovf_ports;               /* input ports whose vcbuf overflow flag is set */
    /* Parked route-compute units: rcu_idle() and not run; the LFSR of unit i is behind by
     * now - parked_at[i] steps, which it takes (rcu_idle_cycles) before it runs again. */
    uint64_t parked;
    uint64_t now; /* cycles since the reset */
    uint64_t parked_at[ROUTER_MAX_PORTS];
    /* fault handling (NULL: none): the unit, control credits per output port, and per input
     * port the inverted valid mask read for the RCU one cycle earlier (its opt_invalid) */
    fault_unit *fu;
    int ctl_cred[ROUTER_MAX_PORTS];
    uint64_t inv_q[ROUTER_MAX_PORTS];
    policy_state *pol; /* a route policy other than DOAR (NULL: the RCUs decide) */
    int vc_mask;       /* input VC field bits: 3 (2 bits, the RTL's) or 7 with more than 4 VCs */
    uint64_t link_dn;  /* ports whose last event taken was link down / peer down */
    uint64_t discarded_heads, ctl_dropped, events_dropped;
    uint64_t multi_plane_cycles; /* output-cycles in which two or more planes wrote one output
                                    (statistic, for the lock-step's coverage) */
} router;

/*
 * The wires between the units in one cycle (router_cycle_ref builds them unit by unit, in the
 * order rtl/router.v's units compute them; the same names as there where there is one). Scratch:
 * nothing survives the cycle, and only the entries the masks name are defined.
 */
typedef struct {
    router_in_ports pm;             /* the input entries set this cycle */
    const router_out *regs;         /* the output registers during this cycle */
    router_out *nx;                 /* the registers after the edge */
    uint64_t kmask;                 /* the k ports */
    int occ[ROUTER_MAX_PORTS];      /* credit occupancy per output at the start of the cycle */
    int cong_occ[ROUTER_MAX_PORTS]; /* occ, plus the demand at the start with prm.cong_demand (cong's input) */
    /* fault unit, start of the cycle */
    uint64_t ctl_wait;  /* outputs whose unit has an FD/FR message and a control credit */
    uint64_t ctl_ports; /* outputs that send it this cycle (router_output) */
    uint64_t port_down; /* outputs whose link is down (full credits) */
    fault_msg ctl_msg[ROUTER_MAX_PORTS];
    uint64_t inv_next[ROUTER_MAX_PORTS]; /* the valid masks read for the RCUs */
    int ev_ready, ctl_ready[ROUTER_MAX_PORTS];
    /* router_output's link stage: per output the plane whose queue gave a flit */
    int room_back[ROUTER_MAX_PORTS];
    uint64_t room_ports;
    /* router_input: per plane the input planes whose wins the check cancels (plane_void: still
     * sending a packet two cycles on, when a decision of now would move) */
    uint64_t plane_void[ROUTER_MAX_PLANES];
    /* router_input's proposals of this cycle (the proposal register's next value; the arrays are
     * the router's pr_nx_req / pr_nx_pl_vcs) */
    alloc_req *reqs;      /* [k*vcs]: input i, VC v at i*vcs+v, where req_pl_vcs says */
    uint32_t *req_pl_vcs; /* [k]: byte q: the VCs proposing on plane q (alloc.h); defined where req_inputs says */
    uint64_t req_inputs;
    /* stage 1's requests: the proposal register less the VCs and slots taken since (router_input_requests) */
    uint32_t pk_pl_vcs[ROUTER_MAX_PORTS];
    uint64_t pk_inputs;
    /* per plane, at the start of the cycle (speed only: what every proposal of the plane reads):
     * the slots not held (locked, unless freed now), and of them those a unicast head may take
     * (the bulletin's free slots, not reserved) */
    uint64_t prop_unl[ROUTER_MAX_PLANES], prop_uc[ROUTER_MAX_PLANES];
    /* the look-ahead for stage 2 (router_input_propose; docs/architecture.md "Router v5"): per
     * plane the input planes still sending three cycles on, when a win of now would move (stage
     * 1's own look-ahead, the slots whose packet's last flit crosses within three cycles, stays
     * inside router_input_propose) */
    uint64_t busy_next[ROUTER_MAX_PLANES];
    /* router_alloc: the check's decisions with their proposals now and VCs,
     * stage 2's requests and wins, stage 1's picks */
    alloc_req req2[ROUTER_MAX_PORTS * ROUTER_MAX_PLANES];
    alloc_grants g;
    int8_t gvc[ROUTER_MAX_PORTS * ROUTER_MAX_PLANES]; /* (i,q): the VC granted; defined where g.go says */
    alloc_req arb_req[ROUTER_MAX_PORTS * ROUTER_MAX_PLANES];
    alloc_grants wins;
    int8_t pick_next[ROUTER_MAX_PORTS * ROUTER_MAX_PLANES];
    /* router_bulletin: the reservation after the edge */
    int n_res_valid, n_res_in, n_res_vc;
    /* router_input + router_xbar: what moved */
    uint8_t taken[ROUTER_MAX_PORTS];   /* credits each output took (route policies' history) */
    uint8_t popped[ROUTER_MAX_PORTS];  /* per input: VCs a flit left */
    uint8_t rpopped[ROUTER_MAX_PORTS]; /* per input: VCs whose route entry left at a grant */
    uint64_t popped_ports;
    uint64_t written[ROUTER_MAX_PLANES]; /* per plane: output queues written */
} router_wires;

void router_default_params(const topo *t, router_params *p);
int router_check_params(const topo *t, const router_params *p, char err[DOAR_ERRLEN]);
int router_init(router *r, const topo *t, const router_params *p, const table_params *tp, char err[DOAR_ERRLEN]);
void router_free(router *r);
/* Applies cfg; everything but the tables and the multicast table is cleared. A synchronous reset
 * cycle is router_cycle() followed by router_reset() (table writes of that cycle still apply). */
void router_reset(router *r, const router_cfg_in *cfg);
/* One clock cycle: *out receives the output registers during this cycle, then the edge. */
void router_cycle(router *r, const router_in *in, router_out *out);
/* The same without the copy: returns the output registers during this cycle, valid until the
 * next router_cycle / router_cycle_ref / router_reset of this router. ports: which input entries
 * are set (NULL: the router looks at every port's). */
const router_out *router_cycle_ref(router *r, const router_in *in, const router_in_ports *ports);
/* router_cycle_ref compiled for ROUTER_FIXED_NP planes and ROUTER_FIXED_VCS VCs (csim/router_fixed.c):
 * only for a router that has them. */
const router_out *router_cycle_ref_fixed(router *r, const router_in *in, const router_in_ports *ports);
/*
 * Puts the fault-handling hardware (csim/fault.h) into the router: FD/FR packets arriving on an
 * input go to the unit's input FIFO instead of the VC buffers and are credited on ctl_cr_valid;
 * the unit's output FIFOs send FD/FR packets on output ports that no packet holds, before any new
 * head (a port with a control packet waiting grants no head that cycle); every route-compute unit
 * reads its port's valid mask (rcu opt_invalid); an output port whose last event taken was link
 * down or peer down keeps full credits from the next cycle until a link-up event is taken (its
 * flits are lost on the link, nothing can block behind it; after link-up the far buffer is empty
 * and the credits are exact again). Call after
 * router_init, before router_reset. docs/architecture.md sec. 7, "In the router".
 */
int router_enable_faults(router *r, const table_set *ts, int router_id, char err[DOAR_ERRLEN]);
/* The event input can take an event this cycle. */
int router_event_ready(const router *r);
/* After router_cycle: an FD/FR packet the fault unit has handed over is in the output register,
 * to leave next cycle (the unit is idle, the link does not carry it yet). */
int router_ctl_out_pending(const router *r);
/* Output port o's outstanding flits minus those sent within its round trip (route policies with
 * a history window; the plain credit occupancy otherwise). */
int router_gport_estimate(const router *r, int o);
/* Flits buffered in the router (all input VCs and output queues). */
int router_buffered(const router *r);

#ifdef __cplusplus
}
#endif

#endif
