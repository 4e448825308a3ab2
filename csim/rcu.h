/*
 * rcu — the DOAR route-compute unit of one input port (seed 001 sec. 3.2, Fig. 6,
 * Algorithm 1), cycle-accurate. rtl/rcu.v is the same unit; tb/rcu_lockstep.cpp compares them.
 *
 * Contract (cycle t = the cycle a header is presented; docs/architecture.md "RCU pipeline")
 *   Inputs each cycle: a header or a bubble; CongL (k bits, one per router port); CongG (a*h bits,
 *     one per group-level global port); at most one table write.
 *   Stage 1 (cycle t)  : zone decode (N/B/G), table A/B row addresses.
 *   Stage 2 (cycle t+1): table A and B rows read (synchronous RAM, old data on a same-cycle write).
 *   Stage 3 (cycle t+2): RTA: A1/A2 expand to a*h-bit requests, C1 maps each global port to its
 *                        local port's CongL through table C, N1/N2 drop CongG/CongL-congested
 *                        ports, B forms GA/GB/GC/GD. RTB: S1 = LE & ~CongL, S2 = F(LF) & ~CongL.
 *                        CongL and CongG are the values presented in cycle t+2. The fault
 *                        units' valid mask of the entry (csim/fault.h) arrives here too, as
 *                        opt_invalid: the caller reads row rcu_mask_row() in cycle t+1 from a
 *                        synchronous RAM and presents it in t+2. Options leaving through an
 *                        invalid port are removed before anything else (RTA: a global port whose
 *                        table-C port is invalid is no candidate at all, not even at random).
 *   Stage 4 (cycle t+3): P1 lowest-hop non-empty class, round robin inside it, M/P2 to a router
 *                        port via table C; P3 prefers S1; all congested: LFSR choice (lines 16/22).
 *   Output (cycle t+4) : registered decision: port, VC (VC rule), class, chosen global port.
 *   Table writes presented in cycle t take effect at the end of cycle t.
 *   Invariants: one header per cycle in, one decision per cycle out, latency exactly 4; the LFSR
 *     steps every cycle. A header with a destination field out of range (gid >= g, bid >= a,
 *     nid >= p) is decided RCU_NONE. Table rows with invalid encodings give a defined decision,
 *     the same in C and RTL (doar tables --load only accepts valid ones).
 */
#ifndef DOAR_RCU_H
#define DOAR_RCU_H

#include "tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RCU_LATENCY 4
#define RCU_NUM_VCS 4
#define RCU_LFSR_TAPS 0x80200003u /* x^32 + x^22 + x^2 + x + 1, Galois form, maximal length */
#define RCU_LFSR_ZERO_SEED 0x1u   /* an all-zero seed would lock the LFSR; it is replaced */

typedef enum {
    RCU_NONE = 0,     /* no candidate at all (empty entry) */
    RCU_GA = 1,       /* minimal global port, hops 3 */
    RCU_GB = 2,       /* cases 2 and 3: G-L-G, hops 3 */
    RCU_GC = 3,       /* case 2 or 3: hops 4 */
    RCU_GD = 4,       /* case 4: hops 5 */
    RCU_RTA_RAND = 5, /* Algorithm 1 line 16: every candidate congested */
    RCU_S1 = 6,       /* RTB, table A (minimal) */
    RCU_S2 = 7,       /* RTB, table B (refraction / non-minimal) */
    RCU_RTB_RAND = 8, /* Algorithm 1 line 22 */
    RCU_NUM_CLASSES = 9
} rcu_class;

typedef enum { RCU_TW_A = 0, RCU_TW_B = 1, RCU_TW_C = 2 } rcu_tw_table;

typedef struct {
    int valid;
    int dst_gid, dst_bid, dst_nid;
    int src_gid; /* filter F: source group when src_gid == the router's gid */
    int vc;      /* VC the header arrived on */
} rcu_header;

typedef struct {
    rcu_header hdr;
    uint64_t cong_local;      /* CongL: bit j = router port j congested */
    uint64_t opt_invalid;     /* bit j: route options through port j are invalid (fault masks),
                                 for the entry of rcu_mask_row() one cycle earlier; 0: none */
    gport_bitmap cong_global; /* CongG: bit g = group-level global port g congested */
    int tw_valid, tw_table, tw_addr;
    uint64_t tw_data;
} rcu_in;

typedef struct {
    int valid;
    int port;        /* chosen router output port (0 when class is RCU_NONE) */
    int vc;          /* output VC after the VC rule */
    int cls;         /* rcu_class */
    int gport_valid; /* RTA decisions name a group-level global port */
    int gport;
} rcu_out;

typedef struct {
    int gid, bid;       /* RouterID */
    port_class pc;      /* class of the input port this unit serves */
    gport_bitmap wired; /* the group's wired global ports */
    uint32_t lfsr_seed;
} rcu_cfg;

typedef struct {
    rcu_header hdr;
    int rta; /* terminal input, zone G */
    int bad; /* a destination field out of range: decided as RCU_NONE */
    int zone, row_a, row_b;
} rcu_s1;

typedef struct {
    rcu_s1 s1;
    uint64_t entry_a, entry_b;
} rcu_s2;

typedef struct {
    rcu_header hdr;
    int rta, bad;
    /* Fields below are defined only for a valid, good header: RTA ones when rta, else RTB ones
     * (stage 4 reads nothing else). */
    uint64_t s1_ok, s2_ok, le_lf;     /* RTB; le_lf: the line-22 fallback set, LE, or LF when LE is empty */
    int keep_vc;                      /* RTB: zone N or B in a group that is not the packet's source group
                                         (destination-group refraction): a hop to an intra-group port
                                         keeps the VC (docs/architecture.md) */
    uint8_t row[DOAR_MAX_RADIX];      /* RTA: table C rows [0, a) as C1 saw them (M/P2 map with the
                                         same rows): RCU_ROW_SELF, or the port of the first valid item */
    uint64_t cand[DOAR_GBM_WORDS][5]; /* RTA, word w of a*h-bit sets (words [0, gbm_words()) only):
                                         [w][0..3] GA, GB, GC, GD candidates that are not congested,
                                         [w][4] the line-16 fallback set: the first of GA, GB, GC, GD
                                         with a local port (docs/architecture.md "Fallback set") */
} rcu_s3;
#define RCU_ROW_SELF 0x40

enum { RCU_EMPTY_S1 = 1, RCU_EMPTY_S2 = 2, RCU_EMPTY_S3 = 4, RCU_EMPTY_OUT = 8, RCU_EMPTY_ALL = 15 };

typedef struct {
    /* pipeline registers and state, hot ones first; the stages update them in place, stage 4 first */
    int idle; /* consecutive cycles with an all-zero header and no table write (capped):
                 after RCU_LATENCY of them no stage holds a header and the output
                 register is zero; a further such cycle only steps the LFSR
                 (simulation speed only) */
    uint32_t lfsr;
    int empty;   /* bit RCU_EMPTY_S1 / _S2 / _S3 / _OUT: that register holds no header (the
                    header all zero, and what a stage reads of the register zero: the state
                    a reset leaves); a stage whose input and output registers are both
                    empty leaves them so and is not run (simulation speed only) */
    int ptr_rta; /* round-robin start over a*h global ports */
    int ptr_rtb; /* round-robin start over k router ports */
    rcu_out out;
    rcu_s1 s1;
    rcu_s2 s2;
    topo t;
    rcu_cfg cfg;
    table_params prm;
    int depth_a, depth_b, depth_c;
    uint64_t *a, *b, *c; /* this port's tables: its own, or a table set's (rcu_share) */
    int shared;          /* a, b, c are a table set's: a table write copies them first */
    int nw;              /* gbm_words(&t) */
    rcu_s3 s3;
} rcu;

int rcu_init(rcu *r, const topo *t, const table_params *prm, char err[DOAR_ERRLEN]);
void rcu_free(rcu *r);
/* Synchronous reset: pipeline empty, pointers 0, LFSR = seed; tables are kept. */
void rcu_reset(rcu *r, const rcu_cfg *cfg);
/* Copies one port's tables from a table set (loading without the write port). */
void rcu_load(rcu *r, const port_tables *pt);
/* The same without a copy (memory only, the same behaviour): the unit reads pt's tables, which
 * must stay unchanged while it does, and outlive it or the next rcu_load/rcu_share. A table
 * write (rcu_in.tw_valid) first copies them into the unit's own; without the memory for that
 * copy the process ends (a message on stderr). */
void rcu_share(rcu *r, const port_tables *pt);
/*
 * One clock cycle: *out receives the output registers as they are during this cycle (the
 * decision for the header of cycle-4), then the clock edge updates every register.
 */
void rcu_cycle(rcu *r, const rcu_in *in, rcu_out *out);
/* The same with CongG by reference (in->cong_global is not read; saves copying it). */
void rcu_cycle_cg(rcu *r, const rcu_in *in, const gport_bitmap *cong_global, rcu_out *out);
/* rcu_cycle() of a cycle with an all-zero header and no table write would only step the LFSR
 * (and its output would be all zero). */
static inline int rcu_idle(const rcu *r) { return r->idle >= RCU_LATENCY; }
/* n such cycles at once: the LFSR steps n times. */
void rcu_idle_cycles(rcu *r, uint64_t n);

/* Shared helpers (also used by the literal Algorithm 1 and the harness). */
uint32_t rcu_lfsr_next(uint32_t s);
uint32_t rcu_lfsr_advance(uint32_t s, uint64_t n); /* rcu_lfsr_next applied n times */
int rcu_clog2(int n);                              /* bits to index n items, at least 1 */
int rcu_lfsr_start(uint32_t lfsr, int width);
/* First set bit at or after `start`, wrapping; -1 if none: rr_pick (csim/rr.h, the round robin
 * of every arbiter) of req's low `width` bits; _gbm: the same contract over a gport_bitmap,
 * which may be wider than rr_pick's 64 bits (a*h global ports). */
int rcu_first_from64(uint64_t req, int start, int width);
int rcu_first_from_gbm(const gport_bitmap *req, int start, int width);
const char *rcu_class_name(int cls);

/* Row of table A (= fault entry) stage 2 reads in the current cycle: the address of the
 * caller's synchronous read of the valid masks. */
static inline int rcu_mask_row(const rcu *r) { return r->s1.row_a; }

#ifdef __cplusplus
}
#endif

#endif
