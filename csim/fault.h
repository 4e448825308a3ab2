/*
 * fault — the fault-handling hardware of one router (seed 001 sec. 4, Algorithms 2 and 3,
 * Fig. 8a): one global scheduler and, per port, a travel, a match and an action unit working
 * on that port's route-option valid masks. Mirrors rtl/fault.v (docs/architecture.md, sec. 7).
 *
 * Contract
 *   State  : per (input port C, entry et) a valid mask over router ports (bit j clear: the
 *            route option that leaves through port j is invalid) and two accessibility bits,
 *            one per role (FAULT_ROLE_SOURCE: the entry as used by packets still in their source
 *            group; FAULT_ROLE_TRANSIT: by every other packet). Entry et is row et of table A
 *            together with the same zone's row of table B ("et of Table A+B"): et_num = p+a+g.
 *            Tables A/B/C themselves are never written; the route-compute unit ANDs its
 *            options with the mask.
 *   Inputs : local events per port (link down, peer router down, link up); FD/FR messages
 *            delivered to an input port (fault_receive).
 *   Outputs: FD/FR messages to send out of a port (fault_pop), produced by a command and
 *            released in the command's last cycle. Both carry an address <g,b,n,prefix> and
 *            the roles concerned (docs/architecture.md sec. 7: FR is addressed, unlike
 *            Algorithm 3's port-wide FR, which can deadlock).
 *   Timing : the scheduler starts one command at a time (events before messages, messages in
 *            round-robin order over ports). A command started in cycle s occupies cycles
 *            s .. s+T-1, with T = t_ld = t1 + t2 + 2*et_num (local fault, Travel_FD),
 *            t_gd = t1 + t2 + 2 (FD or FR message: Match_FD / Match_FR on one entry),
 *            t_r = t1 + t2 + 3*et_num (local recovery, Travel_FR: a validate pass of 2 cycles
 *            per entry, then a check pass of 1 per entry that re-announces, by FD, the entries
 *            of the recovered port that are still inaccessible), where t1 = FAULT_T1 (fetch
 *            the message or latch the event) and t2 = FAULT_T2 (broadcast the command to every
 *            port's unit). Entry et is written in cycle s+t1+t2+2*et+1.
 *   Invariants: masks only lose bits under FD processing and only regain them under FR
 *            processing; an entry with no route option is never accessible and never
 *            reported; an FD leaves a port only when one of its entries there loses
 *            accessibility in some role (a 1 -> 0 flip), so every FD is caused by a change.
 */
#ifndef DOAR_FAULT_H
#define DOAR_FAULT_H

#include "flit.h"
#include "tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FAULT_T1 1         /* scheduler: fetch one FD/FR packet, or latch one event */
#define FAULT_T2 1         /* scheduler: broadcast the command to every port's unit */
#define FAULT_ACT_CYCLES 2 /* action unit, FD_act on one entry: read, modify-write */
#define FAULT_FR_CYCLES 3  /* FR_act on one entry: validate (read, write) + check (read) */

#define FAULT_ROLE_SOURCE 1u  /* upstream terminal inputs rely on it (packet in its source group) */
#define FAULT_ROLE_TRANSIT 2u /* upstream intra-group and global inputs rely on it */
#define FAULT_ROLES 3u
#define FAULT_EV_DEPTH 8   /* event FIFO of the RTL */
#define FAULT_CTL_DEPTH 4  /* FD/FR packets per input port (the RTL IN_DEPTH): control credits */
#define FAULT_OUT_DEPTH 64 /* FD/FR packets per output port (the RTL OUT_DEPTH) */

/* FD address prefix (Algorithm 2): 1 = group <g>, 2 = router <g,b>, 3 = node <g,b,n>. */
#define FAULT_PREFIX_GROUP 1
#define FAULT_PREFIX_ROUTER 2
#define FAULT_PREFIX_NODE 3

typedef enum { FMSG_FD = 1, FMSG_FR = 2 } fault_msg_kind;

typedef struct {
    uint8_t kind;   /* fault_msg_kind */
    uint8_t prefix; /* FD only */
    uint8_t role;   /* FD only: FAULT_ROLE_* bits that lost accessibility */
    uint16_t g;
    uint8_t b, n;
} fault_msg;

/* Local events. LINK_DOWN on a port whose peer was dead means the peer is back behind a
 * link that is still down (the same management signal that reported its death). */
typedef enum { FEV_LINK_DOWN = 1, FEV_PEER_DOWN = 2, FEV_UP = 3 } fault_event_kind;

typedef enum { FCMD_NONE = 0, FCMD_TRAVEL_FD, FCMD_MATCH_FD, FCMD_TRAVEL_FR, FCMD_MATCH_FR, FCMD_KINDS } fault_cmd_kind;

/* A FIFO of (port, message); events use kind = event and port. Grows on demand: the
 * model measures the deepest queue (fault_stats.max_queue) rather than dropping. */
typedef struct {
    int port;
    fault_msg m;
} fault_item;

typedef struct {
    fault_item *v;
    int head, n, cap;
} fault_fifo;

typedef struct {
    uint64_t commands[FCMD_KINDS]; /* by fault_cmd_kind */
    uint64_t fd_sent, fr_sent;     /* messages produced */
    uint64_t dropped_terminal;     /* flips on terminal inputs (no upstream router to tell) */
    uint64_t suppressed_dead;      /* flips for a dead router's own region (nobody needs it) */
    int max_queue;                 /* deepest input-port message queue seen */
    uint64_t releases, revivals;   /* entries withdrawn for a dead router / re-announced for a revived one */
    uint64_t group_fr;             /* group-level FRs (a router entry completed the group) */
    uint64_t busy_cycles;
} fault_stats;

typedef struct {
    const table_set *ts;
    int router, gid, bid, k, et_num;
    int first_b, a; /* entry of zone B's first row (router 0 of the group), routers per group */
    /* static route options of every (port, entry) per role, decoded from tables A/B/C. Stored
     * once per distinct (port tables, port class) of the router: the options depend on nothing
     * else, and generated tables have one set per class (on tianhe 3 rows of options instead of
     * 63: 0.54 MiB less per router). Read them through fault_opt(). */
    uint64_t *opt_src, *opt_int; /* [opt_sets * et_num] */
    int *opt_row;                /* [k]: where port c's options start in opt_src / opt_int */
    int opt_sets;
    /* dynamic state */
    uint64_t *mask;     /* [k * et_num] valid mask over router ports */
    uint8_t *acc;       /* [k * et_num] FAULT_ROLE_* bits: accessible in that role */
    uint64_t port_down; /* ports whose link is down (events) */
    uint64_t peer_dead; /* bids of this group known dead (peer-down events) */
    /* scheduler */
    fault_fifo ev;           /* local events (m.kind holds the fault_event_kind) */
    fault_fifo *inq;         /* [k] FD/FR packets waiting at each input port */
    int in_depth, out_depth; /* FIFO limits (0: unbounded); the RTL's FAULT_IN/OUT_DEPTH */
    int rr;                  /* next port the round robin looks at first */
    fault_cmd_kind cmd;
    int cmd_port, cmd_entry, cmd_phase, cmd_len, cmd_event;
    int cmd_newly_dead;  /* peer-down: bid that this command marks dead, else -1 */
    int cmd_newly_alive; /* link-down from a revived peer: its bid, else -1 */
    fault_msg cmd_msg;
    /* per output port: messages of the running command are written at once but become visible
     * (committed) only in its last cycle */
    fault_fifo *outq;      /* [k] */
    int *out_commit;       /* [k] visible messages at the head of outq[c] */
    uint64_t out_overflow; /* sticky per port: a message was lost to a full output FIFO */
    fault_stats st;
    int wr_entry; /* entry written in the last tick (all ports), -1: none */
    int in_taken; /* input port whose FIFO the last tick fetched from, -1: none */
} fault_unit;

int fault_init(fault_unit *fu, const table_set *ts, int router, char err[DOAR_ERRLEN]);
void fault_free(fault_unit *fu);
/* All options valid, no port down, queues empty, unit idle (power-on or a repaired router). */
void fault_reset(fault_unit *fu);

/*
 * Cycle order (the RTL's): the outputs of cycle t are the heads of the committed output FIFOs
 * before fault_tick(t) (fault_out_head / fault_out_take); inputs given after fault_tick(t)
 * (fault_event, fault_receive) are seen by the scheduler from cycle t+1, like a FIFO written at
 * the clock edge. Whether an input can be taken is decided before the tick (fault_*_ready).
 */
int fault_event_ready(const fault_unit *fu);
int fault_receive_ready(const fault_unit *fu, int port);
/* A local event on a port. Returns -1 (and drops it) when the event FIFO is full. */
int fault_event(fault_unit *fu, fault_event_kind ev, int port);
/* An FD/FR packet that arrived on input port `port`; -1 when that port's FIFO is full. */
int fault_receive(fault_unit *fu, int port, const fault_msg *m);
/* One clock cycle. */
void fault_tick(fault_unit *fu);
/* The committed message at the head of output port `port`'s FIFO: 1 and *m, or 0. */
int fault_out_head(const fault_unit *fu, int port, fault_msg *m);
void fault_out_take(fault_unit *fu, int port);
/* Any committed message (lowest port first): returns 1 and fills port/msg, or 0. */
int fault_pop(fault_unit *fu, int *port, fault_msg *m);
/* Nothing running, nothing waiting, nothing to send. */
int fault_idle(const fault_unit *fu);

/*
 * FD/FR packets on the data network (docs/architecture.md sec. 7, "In the router"): one flit,
 * head and tail, data bit 63 set (a data header has it clear); the address sits where a
 * header's destination does: [5:0] n  [11:6] b  [22:12] g  [24:23] role  [26:25] prefix
 * [28:27] kind.
 */
/* (the integer defines here are also rtl/flit_fields.vh's: scripts/gen_flit_fields.py) */
#define FAULT_CTL_FLAG_BIT 63
#define FAULT_CTL_FLAG ((uint64_t)1 << FAULT_CTL_FLAG_BIT)
#define FAULT_CTL_ROLE_SHIFT 23
#define FAULT_CTL_PREFIX_SHIFT 25
#define FAULT_CTL_KIND_SHIFT 27
#define FAULT_CTL_FIELD_BITS 2 /* role, prefix and kind */
/* (& rather than &&: no branch per field, for speed) */
static inline int fault_is_ctl(const flit *f) {
    return (f->head != 0) & (f->tail != 0) & ((f->data & FAULT_CTL_FLAG) != 0);
}
uint64_t fault_msg_pack(const fault_msg *m);
void fault_msg_unpack(uint64_t d, fault_msg *m);

/* Cycles a command takes (the paper's t_ld, t_gd, t_r). */
int fault_cmd_cycles(const fault_unit *fu, fault_cmd_kind kind);

/* Entry index (0..et_num-1) of the row of table A for <zone,index>, and back. */
int fault_entry_of(const table_set *ts, table_zone z, int index);
/* Algorithm 2's Aim(): the one entry covering an FD address at router <gid,bid>. */
int fault_aim(const table_set *ts, int gid, int bid, const fault_msg *m);
/* Route options of (router, port, entry) for a role, decoded from the tables. */
uint64_t fault_entry_options(const table_set *ts, int router, int port, int entry, unsigned role);

/* The static options of (port, entry) for role FAULT_ROLE_SOURCE or FAULT_ROLE_TRANSIT. */
static inline uint64_t fault_opt(const fault_unit *fu, unsigned role, int port, int entry) {
    return (role == FAULT_ROLE_SOURCE ? fu->opt_src : fu->opt_int)[fu->opt_row[port] + entry];
}
static inline uint64_t fault_mask(const fault_unit *fu, int port, int entry) {
    return fu->mask[port * fu->et_num + entry];
}
/* The route-compute units' read of an entry's mask (csim/router_cycle.c fault_start; rtl/fault_port.v
 * rd_mask): the stored mask, except that an entry whose region is a router of this group known
 * dead (zone B, its bid in peer_dead) reads every option invalid. A packet for a dead router is
 * then discarded where it is, rather than sent on through another router of the group (table B:
 * the destination-group refraction, or a source's L-L refraction) that discards it one hop later;
 * those extra hops cost live traffic throughput (docs/architecture.md, "Dead routers"). The
 * stored mask is unchanged, so nothing is to undo when the router comes back. */
static inline uint64_t fault_read_mask(const fault_unit *fu, int port, int entry) {
    const int b = entry - fu->first_b; /* zone B rows are contiguous (tables_row_a) */
    if (b >= 0 && b < fu->a && ((fu->peer_dead >> b) & 1)) return 0;
    return fu->mask[port * fu->et_num + entry];
}
static inline unsigned fault_acc(const fault_unit *fu, int port, int entry) {
    return fu->acc[port * fu->et_num + entry];
}

#ifdef __cplusplus
}
#endif

#endif
