/* The route-compute unit model (csim/rcu.c) against Algorithm 1 of seed 001 read from the paper's
 * text, not from the model: lines 1-16 and 18-22 give, for every state, a class and the SET of
 * outputs the paper allows ("for (g in GA)" names no order inside a class; "route with {l} ...
 * randomly" names no generator), and the model's decision must be in that set, with the port that
 * table C gives (Lport) and the VC of the VC rule (sec. 3.3). What the paper leaves open -- the
 * order inside a class and the random source -- is the design's (docs/architecture.md "RCU
 * pipeline": round robin, LFSR); it is tested for the properties those words promise (round robin
 * serves every member of a constant set once per |set| decisions; the random pick reaches every
 * member), not by re-running the model's pointer and LFSR arithmetic. Plus the pipeline's timing
 * contract (latency 4, one decision per cycle, when writes and congestion take effect). */
#include <stdlib.h>
#include <string.h>

#include "rcu.h"
#include "fault.h"
#include "testutil.h"

typedef struct {
    uint64_t s;
} prng;
static uint64_t rnd(prng *p) {
    p->s ^= p->s << 13;
    p->s ^= p->s >> 7;
    p->s ^= p->s << 17;
    return p->s;
}
static int below(prng *p, int n) { return (int)(rnd(p) % (uint64_t)n); }

/* ---------------- Algorithm 1, read from the paper ---------------- */

typedef struct {
    const topo *t;
    int c_ways, nm_slots;
    int gid, bid; /* current router C_i */
    port_class pc;
    const char *wired;       /* [a*h] */
    uint64_t row_a, row_b;   /* the rows the destination selects */
    const uint64_t *table_c; /* [a] */
    rcu_header hdr;
    const char *cong_l; /* [k]  CongL */
    const char *cong_g; /* [a*h] CongG */
} alg1_state;

/* What the paper allows: the class of the line that routes, and the outputs it may take: group-
 * level global ports g (RTA, lines 8-16) or router ports l (RTB, lines 20-22). */
typedef struct {
    int cls;
    char gport[DOAR_MAX_GROUP_PORTS];
    char port[64];
} alg1_allowed;

/* Lport(tableC, g) (sec. 3.2: table C maps the router that owns g to a local port; a "self" item
 * means this router owns it: its own global port g mod h); -1 if the row has no item. */
static int lport(const alg1_state *s, int g) {
    int x = g / s->t->h;
    for (int w = 0; w < s->c_ways; w++) {
        int item = (int)((s->table_c[x] >> (8 * w)) & 0xff);
        if (!(item & 0x80)) continue;
        if (item & 0x40) return s->t->p + s->t->a - 1 + g % s->t->h;
        return item & 0x3f;
    }
    return -1;
}

/* Sec. 3.3: local ports rank below global ones; when the output's level is equal to or above the
 * input's, the VC number rises by one (4 VCs). Injection starts on VC 0 and ejection keeps the VC
 * (the brief's rule for terminal ports). */
static int vc_rule(const alg1_state *s, int port) {
    const topo *t = s->t;
    if (s->pc == PORT_TERMINAL) return 0;
    int out_level = port < t->p ? 0 : port < t->p + t->a - 1 ? 1 : 2;
    int in_level = s->pc == PORT_LOCAL ? 1 : 2;
    if (out_level == 0) return s->hdr.vc;
    /* Issue 20's decision (docs/architecture.md "Destination-group refraction"): in the
     * destination group, reached from another group, a hop to an intra-group port stays on its VC. */
    int in_dest_group = s->hdr.dst_gid == s->gid && s->hdr.src_gid != s->gid;
    if (in_dest_group && out_level == 1) return s->hdr.vc;
    int vc = s->hdr.vc + (out_level >= in_level);
    return vc > 3 ? 3 : vc;
}

static alg1_allowed alg1(const alg1_state *s) {
    const topo *t = s->t;
    const int AH = t->ah, K = t->k;
    alg1_allowed o;
    memset(&o, 0, sizeof o);
    o.cls = RCU_NONE;
    if (s->pc == PORT_TERMINAL && s->hdr.dst_gid != s->gid) { /* line 1 */
        char GA[DOAR_MAX_GROUP_PORTS] = {0}, NM[DOAR_MAX_GROUP_PORTS] = {0};
        char G2[DOAR_MAX_GROUP_PORTS] = {0}, G3[DOAR_MAX_GROUP_PORTS] = {0};
        char GB[DOAR_MAX_GROUP_PORTS] = {0}, GC[DOAR_MAX_GROUP_PORTS] = {0}, GD[DOAR_MAX_GROUP_PORTS] = {0};
        /* line 2: Sel_min(tableA): lpc0's router, GP's ports */
        int lpc0 = (int)(s->row_a & 0xff);
        if ((lpc0 & 0x80) && (lpc0 & 0x3f) < t->a)
            for (int i = 0; i < t->h; i++)
                if ((s->row_a >> (8 + i)) & 1) GA[(lpc0 & 0x3f) * t->h + i] = 1;
        /* Sel_nm(tableB): every wired port of every slot's router (GA's ports excluded) */
        for (int k = 0; k < s->nm_slots; k++) {
            int lpc = (int)((s->row_b >> (8 * k)) & 0xff);
            if (!(lpc & 0x80) || (lpc & 0x3f) >= t->a) continue;
            for (int i = 0; i < t->h; i++) {
                int g = (lpc & 0x3f) * t->h + i;
                if (s->wired[g] && !GA[g]) NM[g] = 1;
            }
        }
        for (int g = 0; g < AH; g++) {
            G2[g] = NM[g] && g / t->h == s->bid;         /* line 3: {hR_s .. hR_s+h-1} */
            G3[g] = NM[g] && g / t->h == s->hdr.dst_bid; /* line 4: {hR_d .. hR_d+h-1} */
        }
        for (int g = 0; g < AH; g++) {
            GB[g] = G2[g] && G3[g];             /* line 5 */
            GC[g] = (G2[g] || G3[g]) && !GB[g]; /* line 6 */
            GD[g] = NM[g] && !(G2[g] || G3[g]); /* line 7 */
        }
        /* lines 8-15: the first class with a g free of CongG whose Lport is free of CongL routes;
         * any such g of that class may be the one */
        const char *cls[4] = {GA, GB, GC, GD};
        for (int c = 0; c < 4 && o.cls == RCU_NONE; c++)
            for (int g = 0; g < AH; g++) {
                int l = cls[c][g] ? lport(s, g) : -1;
                if (l >= 0 && !s->cong_g[g] && !s->cong_l[l]) {
                    o.cls = RCU_GA + c;
                    o.gport[g] = 1;
                }
            }
        if (o.cls != RCU_NONE) return o;
        /* line 16, as decided (docs/architecture.md "Fallback set"): any g of the fewest-hop class
         * that has a mapped port, randomly */
        int fb = -1;
        for (int c = 0; c < 4 && fb < 0; c++)
            for (int g = 0; g < AH && fb < 0; g++)
                if (cls[c][g] && lport(s, g) >= 0) fb = c;
        for (int g = 0; g < AH && fb >= 0; g++)
            if (cls[fb][g] && lport(s, g) >= 0) {
                o.cls = RCU_RTA_RAND;
                o.gport[g] = 1;
            }
        return o;
    }
    /* lines 18-22 */
    int zone_g = s->hdr.dst_gid != s->gid, zone_n = !zone_g && s->hdr.dst_bid == s->bid;
    char LE[64] = {0}, LF[64] = {0};
    for (int l = 0; l < K; l++) {
        LE[l] = (s->row_a >> l) & 1;
        LF[l] = !zone_n && ((s->row_b >> l) & 1);
        if (zone_g && LF[l]) { /* filter F (Fig. 6) */
            int is_local = l >= t->p && l < t->p + t->a - 1, is_global = l >= t->p + t->a - 1;
            if (s->hdr.src_gid == s->gid && is_local) LF[l] = 0;  /* source group: leave by a global port */
            if (s->hdr.src_gid != s->gid && is_global) LF[l] = 0; /* intermediate group: refract */
        }
    }
    /* Issue 20's decision: a global input's table B in zone B (the destination-group refraction)
     * is for faults: it counts only while table A offers nothing. */
    if (s->pc == PORT_GLOBAL && !zone_g && !zone_n) {
        int le_any0 = 0;
        for (int l = 0; l < K; l++) le_any0 |= LE[l];
        if (le_any0) memset(LF, 0, sizeof LF);
    }
    const char *sets[2] = {LE, LF};
    for (int c = 0; c < 2 && o.cls == RCU_NONE; c++) /* lines 20, 21 */
        for (int l = 0; l < K; l++)
            if (sets[c][l] && !s->cong_l[l]) {
                o.cls = RCU_S1 + c;
                o.port[l] = 1;
            }
    if (o.cls != RCU_NONE) return o;
    int le_any = 0; /* line 22, as decided: any l of LE, or of LF when LE is empty, randomly */
    for (int l = 0; l < K; l++) le_any |= LE[l];
    for (int l = 0; l < K; l++)
        if (le_any ? LE[l] : LF[l]) {
            o.cls = RCU_RTB_RAND;
            o.port[l] = 1;
        }
    return o;
}

/* The model's decision is one the paper allows: its class, an output of the allowed set, the port
 * table C gives for an RTA decision's g, and the VC rule's VC. */
static int alg1_accepts(const alg1_state *s, const alg1_allowed *w, const rcu_out *o) {
    if (!o->valid || o->cls != w->cls) return 0;
    if (w->cls == RCU_NONE) return o->port == 0 && !o->gport_valid;
    if (w->cls <= RCU_RTA_RAND) {
        if (!o->gport_valid || o->gport < 0 || o->gport >= s->t->ah || !w->gport[o->gport]) return 0;
        if (o->port != lport(s, o->gport)) return 0;
    } else if (o->gport_valid || o->port < 0 || o->port >= s->t->k || !w->port[o->port]) {
        return 0;
    }
    return o->vc == vc_rule(s, o->port);
}

/* ---------------- random states through the pipeline ---------------- */

static uint64_t random_row(prng *pr, const topo *t, int global_cfg, int is_a, int nm_slots) {
    if (below(pr, 10) == 0) return 0;
    if (global_cfg) {
        if (is_a) return tables_global_a(below(pr, t->a + 1), rnd(pr) & ((1ull << t->h) - 1)); /* a: no router */
        int bids[8], n = 1 + below(pr, nm_slots);
        for (int s = 0; s < n; s++) bids[s] = below(pr, t->a);
        return tables_global_b(bids, n);
    }
    uint64_t m = rnd(pr) & rnd(pr);
    return t->k >= 64 ? m : m & ((1ull << t->k) - 1);
}

static void compare_config(test_ctx *c, int p, int a, int h, int g, int trials, uint64_t seed) {
    topo t;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    EXPECT(c, topo_init(&t, p, a, h, g, NULL, err) == 0, "%s", err);
    rcu r;
    EXPECT(c, rcu_init(&r, &t, &prm, err) == 0, "%s", err);
    prng pr = {seed};
    int bad = 0, seen[RCU_NUM_CLASSES] = {0};
    char wired[DOAR_MAX_GROUP_PORTS], cong_l[64], cong_g[DOAR_MAX_GROUP_PORTS];
    for (int n = 0; n < trials; n++) {
        rcu_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gid = below(&pr, g);
        cfg.bid = below(&pr, a);
        int port = below(&pr, t.k);
        cfg.pc = topo_port_class(&t, port);
        topo_wired(&t, cfg.gid, &cfg.wired);
        for (int j = 0; j < t.ah; j++) wired[j] = (char)gbm_test(&cfg.wired, j);
        cfg.lfsr_seed = (uint32_t)rnd(&pr);
        rcu_reset(&r, &cfg);
        memset(r.a, 0, (size_t)r.depth_a * 8);
        memset(r.b, 0, (size_t)r.depth_b * 8);
        /* table C: random items, self sometimes */
        for (int x = 0; x < a; x++) {
            uint8_t items[8] = {0};
            for (int w = 0; w < prm.c_ways; w++)
                if (below(&pr, 3))
                    items[w] = below(&pr, 4) == 0 || a < 2
                                   ? CITEM_VALID | CITEM_SELF
                                   : (uint8_t)(CITEM_VALID | (t.first_local + below(&pr, a - 1)));
            r.c[x] = tables_c_entry(items, prm.c_ways);
        }
        rcu_header hdr = {1, below(&pr, g), below(&pr, a), below(&pr, p), 0, 0};
        int zs = below(&pr, 4);
        if (zs == 0) {
            hdr.dst_gid = cfg.gid;
            hdr.dst_bid = cfg.bid;
        }
        if (zs == 1) hdr.dst_gid = cfg.gid;
        hdr.src_gid = below(&pr, 2) ? cfg.gid : below(&pr, g);
        hdr.vc = cfg.pc == PORT_TERMINAL ? 0 : below(&pr, 4);
        int index;
        table_zone z = tables_zone(cfg.gid, cfg.bid, hdr.dst_gid, hdr.dst_bid, hdr.dst_nid, &index);
        int row_a = tables_row_a(&(table_set){.nz = p, .bz = a}, z, index);
        int row_b = z == ZONE_N ? 0 : tables_row_b(&(table_set){.nz = p, .bz = a}, z, index);
        int gcfg = cfg.pc == PORT_TERMINAL && z == ZONE_G;
        r.a[row_a] = random_row(&pr, &t, gcfg, 1, prm.nm_slots);
        if (z != ZONE_N) r.b[row_b] = random_row(&pr, &t, gcfg, 0, prm.nm_slots);
        r.ptr_rta = below(&pr, t.ah);
        r.ptr_rtb = below(&pr, t.k);
        r.lfsr = (uint32_t)rnd(&pr) | 1; /* any pointer and LFSR state: the paper allows any member */
        double dl = (double)below(&pr, 5) / 4, dg = (double)below(&pr, 5) / 4;
        rcu_in in[5];
        memset(in, 0, sizeof in);
        in[0].hdr = hdr;
        for (int cyc = 0; cyc < 5; cyc++) { /* noise at every cycle; stage 3 (cycle 2) must use cycle 2's */
            for (int j = 0; j < t.k; j++)
                if ((double)(rnd(&pr) % 1000) / 1000 < dl) in[cyc].cong_local |= 1ull << j;
            for (int j = 0; j < t.ah; j++)
                if ((double)(rnd(&pr) % 1000) / 1000 < dg) gbm_set(&in[cyc].cong_global, j);
        }
        for (int j = 0; j < t.k; j++) cong_l[j] = (char)((in[2].cong_local >> j) & 1);
        for (int j = 0; j < t.ah; j++) cong_g[j] = (char)gbm_test(&in[2].cong_global, j);
        alg1_state st = {
            &t,  prm.c_ways, prm.nm_slots, cfg.gid, cfg.bid, cfg.pc, wired, r.a[row_a], z == ZONE_N ? 0 : r.b[row_b],
            r.c, hdr,        cong_l,       cong_g};
        alg1_allowed want = alg1(&st);
        rcu_out got;
        for (int cyc = 0; cyc < 5; cyc++) rcu_cycle(&r, &in[cyc], &got);
        if (!alg1_accepts(&st, &want, &got)) {
            if (bad++ < 3)
                fprintf(
                    stderr,
                    "dfly(%d,%d,%d,%d) trial %d: the paper allows class %s; model port %d class %s gport %d vc %d\n", p,
                    a, h, g, n, rcu_class_name(want.cls), got.port, rcu_class_name(got.cls), got.gport, got.vc);
        }
        seen[want.cls]++;
    }
    EXPECT(c, bad == 0, "dfly(%d,%d,%d,%d): %d of %d decisions outside what Algorithm 1 allows", p, a, h, g, bad,
           trials);
    for (int k = 0; k < RCU_NUM_CLASSES; k++)
        EXPECT(c, seen[k] > 0, "dfly(%d,%d,%d,%d): class %s never exercised", p, a, h, g, rcu_class_name(k));
    rcu_free(&r);
}

/* Latency 4, one decision per cycle, and write/read timing at the RAM. */
static void test_timing(test_ctx *c) {
    topo t;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    topo_named(&t, "small", err);
    rcu r;
    rcu_init(&r, &t, &prm, err);
    rcu_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gid = 1;
    cfg.bid = 2;
    cfg.pc = PORT_LOCAL;
    cfg.lfsr_seed = 5;
    rcu_reset(&r, &cfg);
    /* zone N rows: node n -> terminal port n */
    r.a[0] = 1;
    r.a[1] = 2;
    rcu_in in;
    rcu_out o;
    int outs[12];
    for (int cyc = 0; cyc < 12; cyc++) {
        memset(&in, 0, sizeof in);
        in.hdr = (rcu_header){cyc < 6, 1, 2, cyc & 1, 1, 0};
        rcu_cycle(&r, &in, &o);
        outs[cyc] = o.valid ? o.port : -1;
    }
    for (int cyc = 0; cyc < 12; cyc++) {
        int want = cyc >= RCU_LATENCY && cyc < RCU_LATENCY + 6 ? ((cyc - RCU_LATENCY) & 1) : -1;
        EXPECT(c, outs[cyc] == want, "cycle %d: out %d want %d", cyc, outs[cyc], want);
    }
    /* A write in the cycle the row is read (cycle 1 for a header of cycle 0) is not seen; a write
     * one cycle earlier is. */
    for (int early = 0; early < 2; early++) {
        r.a[0] = 1;
        rcu_reset(&r, &cfg);
        for (int cyc = 0; cyc < 5; cyc++) {
            memset(&in, 0, sizeof in);
            if (cyc == 0) in.hdr = (rcu_header){1, 1, 2, 0, 1, 0};
            if (cyc == (early ? 0 : 1)) {
                in.tw_valid = 1;
                in.tw_table = RCU_TW_A;
                in.tw_addr = 0;
                in.tw_data = 2;
            }
            rcu_cycle(&r, &in, &o);
        }
        EXPECT(c, o.valid && o.port == (early ? 1 : 0), "write %s the read: port %d", early ? "before" : "during",
               o.port);
    }
    rcu_free(&r);
}

/* Fault masks (csim/fault.h): an option through an invalid port is never chosen, not even at
 * random; when every option of the entry is invalid the decision is "none". Real tables. */
static void test_masks(test_ctx *c, const char *cfgname, int trials) {
    topo t;
    table_params prm;
    table_set ts;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    if (topo_named(&t, cfgname, err) || tables_generate(&ts, &t, &prm, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    rcu r;
    rcu_init(&r, &t, &prm, err);
    prng pr = {77};
    int none_ok = 0, chosen = 0, bad = 0;
    for (int n = 0; n < trials; n++) {
        int router = below(&pr, t.n_routers), port = below(&pr, t.k);
        rcu_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gid = topo_gid(&t, router);
        cfg.bid = topo_bid(&t, router);
        cfg.pc = topo_port_class(&t, port);
        cfg.wired = ts.rcfg[router].wired;
        cfg.lfsr_seed = (uint32_t)rnd(&pr) | 1;
        rcu_reset(&r, &cfg);
        rcu_load(&r, tables_port(&ts, router, port));
        rcu_header hdr = {1, below(&pr, t.g), below(&pr, t.a), below(&pr, t.p), below(&pr, t.g), 0};
        if (below(&pr, 3) == 0) hdr.dst_gid = cfg.gid;
        if (cfg.pc == PORT_TERMINAL || below(&pr, 2)) hdr.src_gid = cfg.gid;
        /* legal traffic: a packet that arrives over a global link has left its source group */
        if (cfg.pc == PORT_GLOBAL && hdr.src_gid == cfg.gid) hdr.src_gid = (cfg.gid + 1) % t.g;
        int index;
        table_zone z = tables_zone(cfg.gid, cfg.bid, hdr.dst_gid, hdr.dst_bid, hdr.dst_nid, &index);
        int entry = tables_row_a(&ts, z, index);
        unsigned role = cfg.pc == PORT_LOCAL && hdr.src_gid == cfg.gid ? FAULT_ROLE_SOURCE : FAULT_ROLE_TRANSIT;
        uint64_t opts = fault_entry_options(&ts, router, port, entry, role);
        if (!opts) continue;
        uint64_t inv = 0;
        int all = below(&pr, 4) == 0;
        for (int j = 0; j < t.k; j++)
            if (all ? (opts >> j) & 1 : below(&pr, 3) == 0) inv |= 1ull << j;
        rcu_in in[5];
        memset(in, 0, sizeof in);
        in[0].hdr = hdr;
        in[2].opt_invalid = inv; /* stage 3 of the header */
        for (int cyc = 0; cyc < 5; cyc++)
            for (int j = 0; j < t.k; j++)
                if (below(&pr, 2)) in[cyc].cong_local |= 1ull << j;
        rcu_out o;
        int row_seen = -1;
        for (int cyc = 0; cyc < 5; cyc++) {
            if (cyc == 1) row_seen = rcu_mask_row(&r);
            rcu_cycle(&r, &in[cyc], &o);
        }
        if (row_seen != entry) bad++;
        if ((opts & ~inv) == 0) {
            if (o.valid && o.cls == RCU_NONE)
                none_ok++;
            else
                bad++;
        } else if (!o.valid || o.cls == RCU_NONE || ((inv >> o.port) & 1) || !((opts >> o.port) & 1)) {
            if (bad++ < 3)
                fprintf(stderr, "%s: router %d port %d entry %d opts %llx invalid %llx: decided port %d class %s\n",
                        cfgname, router, port, entry, (unsigned long long)opts, (unsigned long long)inv, o.port,
                        rcu_class_name(o.cls));
        } else {
            chosen++;
        }
    }
    EXPECT(c, bad == 0, "%s: %d decisions ignored the fault masks", cfgname, bad);
    EXPECT(c, none_ok > 0 && chosen > 0, "%s: both cases exercised (%d none, %d chosen)", cfgname, none_ok, chosen);
    rcu_free(&r);
    tables_free(&ts);
}

/* rcu_share reads a table set's tables without a copy: the same decisions as rcu_load, cycle by
 * cycle, over random headers, congestion and table writes; a write changes the unit's tables (a
 * copy), never the set's; rcu_load after sharing copies again. */
static void test_share(test_ctx *c, const char *cfgname, int cycles) {
    topo t;
    table_params prm;
    table_set ts;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    if (topo_named(&t, cfgname, err) || tables_generate(&ts, &t, &prm, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    prng pr = {4242};
    const int router = below(&pr, t.n_routers), port = 0; /* a terminal port: both RTA and RTB */
    port_tables *pt = tables_port(&ts, router, port);
    const size_t na = (size_t)ts.depth_a, nb = (size_t)ts.depth_b, nc = (size_t)ts.depth_c;
    uint64_t *a0 = malloc(na * 8), *b0 = malloc(nb * 8), *c0 = malloc(nc * 8);
    rcu ld, sh;
    if (!a0 || !b0 || !c0 || rcu_init(&ld, &t, &prm, err) || rcu_init(&sh, &t, &prm, err)) {
        EXPECT(c, 0, "set-up: %s", err);
        free(a0);
        free(b0);
        free(c0);
        tables_free(&ts);
        return;
    }
    memcpy(a0, pt->a, na * 8);
    memcpy(b0, pt->b, nb * 8);
    memcpy(c0, pt->c, nc * 8);
    rcu_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gid = topo_gid(&t, router);
    cfg.bid = topo_bid(&t, router);
    cfg.pc = topo_port_class(&t, port);
    cfg.wired = ts.rcfg[router].wired;
    cfg.lfsr_seed = 99;
    rcu_reset(&ld, &cfg);
    rcu_reset(&sh, &cfg);
    rcu_load(&ld, pt);
    rcu_share(&sh, pt);
    EXPECT(c, sh.shared && sh.a == pt->a && sh.b == pt->b && sh.c == pt->c, "%s: rcu_share copied the tables", cfgname);
    int differ = 0, writes = 0, copied_at = -1;
    for (int cyc = 0; cyc < cycles; cyc++) {
        rcu_in in;
        memset(&in, 0, sizeof in);
        if (below(&pr, 2))
            in.hdr = (rcu_header){1, below(&pr, t.g), below(&pr, t.a), below(&pr, t.p), below(&pr, t.g), below(&pr, 4)};
        for (int j = 0; j < t.k; j++)
            if (below(&pr, 4) == 0) in.cong_local |= 1ull << j;
        for (int j = 0; j < t.ah; j++)
            if (below(&pr, 4) == 0) gbm_set(&in.cong_global, j);
        if (cyc >= cycles / 2 && below(&pr, 50) == 0) { /* table writes in the second half only */
            in.tw_valid = 1;
            in.tw_table = below(&pr, 3);
            const int depth = in.tw_table == RCU_TW_A ? ts.depth_a : in.tw_table == RCU_TW_B ? ts.depth_b : ts.depth_c;
            in.tw_addr = below(&pr, depth);
            in.tw_data = in.tw_table == RCU_TW_A   ? ld.a[below(&pr, ts.depth_a)] /* another valid row */
                         : in.tw_table == RCU_TW_B ? ld.b[below(&pr, ts.depth_b)]
                                                   : ld.c[below(&pr, ts.depth_c)];
            writes++;
        }
        rcu_out ol, os;
        rcu_cycle(&ld, &in, &ol);
        rcu_cycle(&sh, &in, &os);
        if (memcmp(&ol, &os, sizeof ol) && differ++ < 3)
            fprintf(stderr, "%s: cycle %d: shared unit decided port %d class %d, loaded one port %d class %d\n",
                    cfgname, cyc, os.port, os.cls, ol.port, ol.cls);
        if (copied_at < 0 && !sh.shared) copied_at = cyc;
    }
    EXPECT(c, differ == 0, "%s: %d cycles where the shared unit's output differed", cfgname, differ);
    EXPECT(c, writes > 0 && copied_at >= cycles / 2, "%s: the first write copied the tables (%d writes, copy at %d)",
           cfgname, writes, copied_at);
    EXPECT(c, !memcmp(a0, pt->a, na * 8) && !memcmp(b0, pt->b, nb * 8) && !memcmp(c0, pt->c, nc * 8),
           "%s: a table write through a shared unit changed the table set", cfgname);
    EXPECT(c, !memcmp(ld.a, sh.a, na * 8) && !memcmp(ld.b, sh.b, nb * 8) && !memcmp(ld.c, sh.c, nc * 8),
           "%s: the unit's copy missed a write", cfgname);
    rcu_share(&sh, pt); /* and back: rcu_load of a sharing unit copies into storage of its own */
    rcu_load(&sh, pt);
    EXPECT(c, !sh.shared && sh.a != pt->a && !memcmp(sh.a, pt->a, na * 8), "%s: rcu_load after rcu_share", cfgname);
    rcu_free(&ld);
    rcu_free(&sh);
    free(a0);
    free(b0);
    free(c0);
    tables_free(&ts);
}

/* rcu_lfsr_advance (parked units catch up at once) is rcu_lfsr_next n times, short and long. */
static void test_lfsr_advance(test_ctx *c) {
    prng pr = {0x5eed1234abcdull};
    const uint64_t ns[] = {0, 1, 2, 31, 255, 256, 257, 1000, 4097, 65536, 100003};
    for (int trial = 0; trial < 8; trial++) {
        uint32_t s0 = (uint32_t)rnd(&pr) | 1u;
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
            uint32_t want = s0;
            for (uint64_t n = 0; n < ns[j]; n++) want = rcu_lfsr_next(want);
            uint32_t got = rcu_lfsr_advance(s0, ns[j]);
            EXPECT(c, got == want, "advance(0x%08x, %llu) = 0x%08x, stepping gives 0x%08x", s0,
                   (unsigned long long)ns[j], got, want);
        }
        uint32_t want = s0; /* every short gap: the four-step table and the single steps after it */
        for (uint64_t n = 0; n <= 300; n++) {
            uint32_t got = rcu_lfsr_advance(s0, n);
            EXPECT(c, got == want, "advance(0x%08x, %llu) = 0x%08x, stepping gives 0x%08x", s0, (unsigned long long)n,
                   got, want);
            want = rcu_lfsr_next(want);
        }
    }
}

/* What the paper leaves to the design, checked by the words the design uses for it
 * (docs/architecture.md): "round robin" inside a class -- with the same uncongested set every
 * cycle, every |set| consecutive decisions name every member once -- and "random" for lines 16 and
 * 22 -- with every option congested, the decisions stay in the set and reach every member. Both
 * for RTA (global ports of GA) and RTB (router ports of LE), on mid (h = 4, k = 15). */
static void test_round_robin(test_ctx *c) {
    topo t;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    if (topo_named(&t, "mid", err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    rcu r;
    if (rcu_init(&r, &t, &prm, err)) {
        EXPECT(c, 0, "%s", err);
        return;
    }
    for (int rta = 0; rta < 2; rta++)
        for (int congested = 0; congested < 2; congested++) {
            rcu_cfg cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.gid = 1;
            cfg.bid = 2;
            cfg.pc = rta ? PORT_TERMINAL : PORT_LOCAL;
            topo_wired(&t, cfg.gid, &cfg.wired);
            cfg.lfsr_seed = 12345;
            rcu_reset(&r, &cfg);
            memset(r.a, 0, (size_t)r.depth_a * 8);
            memset(r.b, 0, (size_t)r.depth_b * 8);
            for (int x = 0; x < t.a; x++) { /* table C: every router reached through local port first_local */
                uint8_t items[8] = {(uint8_t)(CITEM_VALID | t.first_local)};
                r.c[x] = tables_c_entry(items, prm.c_ways);
            }
            rcu_header hdr = {1, rta ? 5 : cfg.gid, rta ? 0 : 6, 0, cfg.gid, rta ? 0 : 1};
            int index;
            table_zone z = tables_zone(cfg.gid, cfg.bid, hdr.dst_gid, hdr.dst_bid, hdr.dst_nid, &index);
            int row_a = tables_row_a(&(table_set){.nz = t.p, .bz = t.a}, z, index);
            char member[64] = {0};
            int n_members = 0;
            if (rta) { /* GA: router 3's global ports 12..15 (gp bits 0..3) */
                r.a[row_a] = tables_global_a(3, 0xf);
                for (int i = 0; i < t.h; i++) member[3 * t.h + i] = 1;
                n_members = t.h;
            } else { /* LE: five router ports of all classes */
                const int ports[5] = {1, 4, 7, 9, 12};
                for (int i = 0; i < 5; i++) {
                    r.a[row_a] |= 1ull << ports[i];
                    member[ports[i]] = 1;
                }
                n_members = 5;
            }
            rcu_in in;
            memset(&in, 0, sizeof in);
            in.hdr = hdr;
            if (congested) {
                for (int j = 0; j < t.k; j++) in.cong_local |= 1ull << j;
                for (int j = 0; j < t.ah; j++) gbm_set(&in.cong_global, j);
            }
            const int n = 400;
            int got[400], m = 0, outside = 0;
            for (int cyc = 0; cyc < n + RCU_LATENCY; cyc++) {
                rcu_out o;
                rcu_cycle(&r, &in, &o);
                if (cyc < RCU_LATENCY) continue;
                int want_cls = rta ? (congested ? RCU_RTA_RAND : RCU_GA) : (congested ? RCU_RTB_RAND : RCU_S1);
                int pick = rta ? o.gport : o.port;
                if (!o.valid || o.cls != want_cls || pick < 0 || pick >= 64 || !member[pick])
                    outside++;
                else
                    got[m++] = pick;
            }
            const char *what = rta ? (congested ? "line 16 (RTA random)" : "GA round robin")
                                   : (congested ? "line 22 (RTB random)" : "S1 round robin");
            EXPECT(c, outside == 0, "%s: %d of %d decisions outside the set", what, outside, n);
            int seen[64] = {0};
            for (int i = 0; i < m; i++) seen[got[i]]++;
            int reached = 0;
            for (int j = 0; j < 64; j++) reached += member[j] && seen[j] > 0;
            EXPECT(c, reached == n_members, "%s: %d of %d members ever chosen", what, reached, n_members);
            if (!congested) { /* every window of n_members consecutive decisions: each member once */
                int unfair = 0;
                for (int i = 0; i + n_members <= m; i++) {
                    int w[64] = {0};
                    for (int j = i; j < i + n_members; j++) unfair += w[got[j]]++ > 0;
                }
                EXPECT(c, unfair == 0, "%s: a member served twice within %d consecutive decisions (%d times)", what,
                       n_members, unfair);
            }
        }
    rcu_free(&r);
}

int main(void) {
    test_ctx c = {0, 0, "test_rcu"};
    test_lfsr_advance(&c);
    test_timing(&c);
    test_round_robin(&c);
    test_masks(&c, "small", 20000);
    test_masks(&c, "mid", 10000);
    test_share(&c, "small", 20000);
    test_share(&c, "paper", 20000);
    compare_config(&c, 1, 2, 1, 3, 100000, 11);     /* tiny */
    compare_config(&c, 2, 4, 2, 9, 200000, 12);     /* small */
    compare_config(&c, 2, 4, 2, 8, 100000, 13);     /* fig8 */
    compare_config(&c, 6, 12, 6, 73, 100000, 14);   /* paper: a > nm_slots */
    compare_config(&c, 16, 32, 16, 513, 20000, 15); /* tianhe */
    return test_finish(&c);
}
