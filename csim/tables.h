/*
 * tables — the hierarchical routing tables A, B and C of seed 001 (secs. 2.3, 3.2, Fig. 7a),
 * one set per input port of every router, and the route options they allow.
 *
 * Contract
 *   Zones  : a destination <gid,bid,nid> is looked up in zone G (index gid) when gid differs
 *            from the router's, else in zone B (index bid) when bid differs, else zone N
 *            (index nid). Table A holds zones N,B,G; table B holds zones B,G; table C has
 *            one entry per router of the group (index bid).
 *   Entries: 64-bit. Default format "LP": bit j allows router port j.
 *            Internal (terminal) input ports use the "global configuration" in zone G:
 *              table A: [7:0] lpc0, [8+h-1:8] GP (h-bit bitmap of lpc0's global ports)
 *              table B: byte s (s < nm_slots) is lpc_{s+1}
 *            An lpc byte is {valid[7], 0[6], bid[5:0]}: it names the router of the group
 *            whose global ports are meant (docs/architecture.md, "lpc holds a bid").
 *            Table C entries: c_ways bytes {valid[7], self[6], port[5:0]}; self means
 *            "the global port itself" (the router's own global ports).
 *   Timing : tables are static between writes; the route-compute unit (csim/rcu) reads them.
 *   Invariants: entries of the router's own zone index (B zone [own bid], G zone [own gid])
 *            are zero; LP bitmaps name only ports < k; reserved bits are zero.
 *
 * The route options here are the *sets* Algorithm 1 chooses from (every choice a
 * congestion pattern can produce); the static checker follows all of them.
 */
#ifndef DOAR_TABLES_H
#define DOAR_TABLES_H

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TABLES_PAPER_NM_SLOTS 8 /* lpc1..lpc8 of seed 001 sec. 3.2 */
#define TABLES_PAPER_C_WAYS 6   /* six route items per table C entry */
#define TABLES_MAX_NM_SLOTS 8   /* eight 8-bit slots fill a 64-bit entry */
#define TABLES_MAX_C_WAYS 8

/* Entry layouts, the single definition for both languages: scripts/gen_flit_fields.py turns every
 * `#define LPC_* / CITEM_* / GLOBAL_A_* integer` below into a Verilog define (rtl/flit_fields.vh).
 * Table A / B: 8-bit router slots lpc0.. {valid, reserved, bid[5:0]}; table A's global configuration
 * also has the GP bits (which of the router's h global ports) from bit 8. Table C: 8-bit route
 * items {valid, self, port[5:0]}. */
#define LPC_BITS 8
#define LPC_VALID_BIT 7
#define LPC_BID_BITS 6
#define CITEM_BITS 8
#define CITEM_VALID_BIT 7
#define CITEM_SELF_BIT 6
#define CITEM_PORT_BITS 6
#define GLOBAL_A_GP_SHIFT 8
#define LPC_VALID (1u << LPC_VALID_BIT)
#define LPC_BID_MASK ((1u << LPC_BID_BITS) - 1u)
#define LPC_RESERVED (1u << (LPC_VALID_BIT - 1))
#define CITEM_VALID (1u << CITEM_VALID_BIT)
#define CITEM_SELF (1u << CITEM_SELF_BIT)
#define CITEM_PORT_MASK ((1u << CITEM_PORT_BITS) - 1u)

typedef enum { ZONE_N = 0, ZONE_B = 1, ZONE_G = 2 } table_zone;
typedef enum { TABLE_A = 0, TABLE_B = 1, TABLE_C = 2 } table_id;

typedef struct {
    int nm_slots;        /* table B non-minimal router slots for internal ports (paper: 8) */
    int c_ways;          /* route items per table C entry (paper: 6) */
    int dest_refraction; /* 1 (default): global inputs' zone B rows of table B hold the
                          * destination-group refraction options, taken only when every table A
                          * option is invalid (faults); 0: none, seed 001 Fig. 7(a) literally
                          * (docs/architecture.md "Destination-group refraction") */
} table_params;

typedef struct {
    uint64_t *a; /* depth_a = nz + bz + gz */
    uint64_t *b; /* depth_b = bz + gz */
    uint64_t *c; /* depth_c = a */
} port_tables;

typedef struct {
    gport_bitmap wired; /* group-level global ports of this router's group that are wired */
} router_cfg;

/*
 * All tables of a network. Ports with identical contents may share one port_tables
 * (generated tables share one set per port class and router); writers must call
 * tables_unshare() before modifying a port in place.
 */
typedef struct {
    topo t;
    table_params prm;
    int nz, bz, gz; /* zone depths: p, a, g */
    int depth_a, depth_b, depth_c;
    router_cfg *rcfg; /* [n_routers] */
    int32_t *port_ix; /* [n_routers * k] -> index into pool, -1 absent */
    port_tables *pool;
    int pool_n, pool_cap;
    int routers_present; /* routers with tables (a loaded set may be partial) */
    uint8_t *present;    /* [n_routers] */
} table_set;

void tables_default_params(table_params *prm);
/* Checks parameters against the topology (e.g. 8 + h <= 64 for the table A global entry). */
int tables_check_params(const topo *t, const table_params *prm, char err[DOAR_ERRLEN]);

/* Empty set (all routers absent). Returns -1 on bad parameters or memory. */
int tables_init(table_set *ts, const topo *t, const table_params *prm, char err[DOAR_ERRLEN]);
/* Fills every port of every router as seed 001 Fig. 7(a) prescribes. */
int tables_generate(table_set *ts, const topo *t, const table_params *prm, char err[DOAR_ERRLEN]);
void tables_free(table_set *ts);

/* New zeroed port_tables in the pool; returns its index or -1. */
int tables_pool_new(table_set *ts);
/* Gives (router, port) a private copy of its tables. Returns 0 or -1 (memory). */
int tables_unshare(table_set *ts, int router, int port);

static inline port_tables *tables_port(const table_set *ts, int router, int port) {
    int32_t ix = ts->port_ix[router * ts->t.k + port];
    return ix < 0 ? NULL : &ts->pool[ix];
}

/* Zone and zone index of destination <dgid,dbid,dnid> at router <gid,bid>. */
table_zone tables_zone(int gid, int bid, int dgid, int dbid, int dnid, int *index);
/* Row of table A / table B for a zone index (-1: table B has no zone N). */
int tables_row_a(const table_set *ts, table_zone z, int index);
int tables_row_b(const table_set *ts, table_zone z, int index);
/* Zone of a row. */
table_zone tables_zone_of_row(const table_set *ts, table_id tab, int row, int *index);

/* True when (port class, zone) uses the global configuration instead of an LP bitmap. */
static inline int tables_is_global_config(port_class pc, table_zone z) { return pc == PORT_TERMINAL && z == ZONE_G; }

/* Encoders / decoders of the global configuration and table C items. */
uint64_t tables_global_a(int lpc0_bid, uint64_t gp);
uint64_t tables_global_b(const int *bids, int n);
uint64_t tables_c_entry(const uint8_t *items, int n);
/* Table B of a global input, zone B row d, at router bid: the intra-group ports of the middle
 * routers of destination-group refraction (docs/architecture.md "Destination-group refraction"). */
uint64_t tables_dest_refraction(const topo *t, int bid, int d);
static inline unsigned tables_byte(uint64_t e, int i) { return (unsigned)(e >> (8 * i)) & 0xffu; }

/* Algorithm 1 lines 2-7 at the source router: GA, and GB/GC/GD from Sel_nm(table B). */
typedef struct {
    gport_bitmap ga, gb, gc, gd;
} rta_classes;
void tables_rta_classes(const table_set *ts, int router, uint64_t entry_a, uint64_t entry_b, int dest_bid,
                        rta_classes *out);
/* The same from the router's parameters alone (used by the route-compute unit). */
void tables_rta_classes_raw(const topo *t, const table_params *prm, const gport_bitmap *wired, int own_bid,
                            uint64_t entry_a, uint64_t entry_b, int dest_bid, rta_classes *out);
/* The same, defining only the gbm_words(t) words that hold a*h bits (the rest is left as it
 * was: every class is empty there). Used by the route-compute unit every cycle. */
void tables_rta_classes_words(const topo *t, const table_params *prm, const gport_bitmap *wired, int own_bid,
                              uint64_t entry_a, uint64_t entry_b, int dest_bid, rta_classes *out);
/* Lport(table C, g): the router port of the first valid item of row g/h (0: none). */
uint64_t tables_lport(const table_set *ts, const port_tables *pt, int router, int g);
/* Every output port RTA may choose (congestion can make any candidate the winner). */
uint64_t tables_rta_ports(const table_set *ts, const port_tables *pt, int router, const rta_classes *c);
/*
 * Every output port RTB may choose: LE = table A LP, LF = table B LP; in zone G filter F
 * drops intra-group ports in the source group and global ports elsewhere (intermediate
 * group refraction). in_source_group: the packet's source gid equals the router's.
 */
uint64_t tables_rtb_ports(const topo *t, table_zone z, uint64_t entry_a, uint64_t entry_b, int in_source_group,
                          uint64_t *le, uint64_t *lf);

/*
 * Encoding check of one entry (ranges, reserved bits, unused rows zero). Returns 0, or -1
 * with a reason (without file name) in err.
 */
int tables_validate_entry(const table_set *ts, int router, int port, table_id tab, int row, uint64_t e,
                          char err[DOAR_ERRLEN]);

/* Readable one-line decoding of an entry into buf. */
void tables_describe(const table_set *ts, int router, int port, table_id tab, int row, uint64_t e, char *buf,
                     size_t len);

#ifdef __cplusplus
}
#endif

#endif
