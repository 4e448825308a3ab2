#include "rcu.h"
#include "rr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rcu_class_name(int cls) {
    static const char *n[RCU_NUM_CLASSES] = {"none", "GA", "GB", "GC", "GD", "rta-random", "S1", "S2", "rtb-random"};
    return cls >= 0 && cls < RCU_NUM_CLASSES ? n[cls] : "?";
}

uint32_t rcu_lfsr_next(uint32_t s) { return (s >> 1) ^ ((s & 1u) ? RCU_LFSR_TAPS : 0u); }

/* The LFSR step is linear over GF(2): a 32x32 bit matrix, as the images of the 32 unit vectors. */
typedef struct {
    uint32_t col[32];
} lfsr_mat;

static uint32_t mat_apply(const lfsr_mat *m, uint32_t s) {
    uint32_t v = 0;
    for (; s; s &= s - 1) v ^= m->col[__builtin_ctz(s)];
    return v;
}

/* Four steps at once: with the low nibble cleared, four steps only shift (no feedback bit reaches
 * bit 0), and the steps are linear, so step^4(s) = (s >> 4) ^ step^4(s & 15). The table is
 * step^4 of the 16 nibbles, computed by the compiler from RCU_LFSR_TAPS (speed only: parked
 * units catch up; tests/test_rcu.c checks every gap up to 300 against single steps). */
#define LFSR_STEP1(s) (((s) >> 1) ^ (((s)&1u) ? RCU_LFSR_TAPS : 0u))
#define LFSR_STEP4(s) LFSR_STEP1(LFSR_STEP1(LFSR_STEP1(LFSR_STEP1(s))))
static const uint32_t lfsr_step4[16] = {LFSR_STEP4(0u),  LFSR_STEP4(1u),  LFSR_STEP4(2u),  LFSR_STEP4(3u),
                                        LFSR_STEP4(4u),  LFSR_STEP4(5u),  LFSR_STEP4(6u),  LFSR_STEP4(7u),
                                        LFSR_STEP4(8u),  LFSR_STEP4(9u),  LFSR_STEP4(10u), LFSR_STEP4(11u),
                                        LFSR_STEP4(12u), LFSR_STEP4(13u), LFSR_STEP4(14u), LFSR_STEP4(15u)};

uint32_t rcu_lfsr_advance(uint32_t s, uint64_t n) {
    if (n <= 256) { /* short gaps (the usual case): four steps at a time, then single steps */
        for (; n >= 4; n -= 4) s = (s >> 4) ^ lfsr_step4[s & 15u];
        for (; n; n--) s = rcu_lfsr_next(s);
        return s;
    }
    lfsr_mat p; /* step^(2^j), squared as j grows */
    for (int j = 0; j < 32; j++) p.col[j] = rcu_lfsr_next((uint32_t)1 << j);
    for (; n; n >>= 1) {
        if (n & 1) s = mat_apply(&p, s);
        lfsr_mat q;
        for (int j = 0; j < 32; j++) q.col[j] = mat_apply(&p, p.col[j]);
        p = q;
    }
    return s;
}

void rcu_idle_cycles(rcu *r, uint64_t n) { r->lfsr = rcu_lfsr_advance(r->lfsr, n); }

int rcu_clog2(int n) {
    int b = 1;
    while ((1 << b) < n) b++;
    return b;
}

/* A start position in [0, width) from the LFSR's low bits: r, or r - width when r >= width
 * (r < 2*width always), so no divider is needed in hardware. */
int rcu_lfsr_start(uint32_t lfsr, int width) {
    int r = (int)(lfsr & ((1u << rcu_clog2(width)) - 1u));
    return r < width ? r : r - width;
}

int rcu_first_from64(uint64_t req, int start, int width) {
    uint64_t all = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
    return rr_pick(req & all, start);
}

/* Lowest set bit of req in [lo, hi), or -1. */
static int scan_gbm(const gport_bitmap *req, int lo, int hi) {
    for (int j = lo; j < hi;) {
        uint64_t w = req->w[j >> 6] >> (j & 63);
        if (w) {
            int k = j + __builtin_ctzll(w);
            return k < hi ? k : -1;
        }
        j = (j | 63) + 1;
    }
    return -1;
}

int rcu_first_from_gbm(const gport_bitmap *req, int start, int width) {
    int k = scan_gbm(req, start, width);
    return k >= 0 ? k : scan_gbm(req, 0, start);
}

int rcu_init(rcu *r, const topo *t, const table_params *prm, char err[DOAR_ERRLEN]) {
    memset(r, 0, sizeof *r);
    if (tables_check_params(t, prm, err)) return -1;
    r->t = *t;
    r->prm = *prm;
    r->depth_a = t->p + t->a + t->g;
    r->depth_b = t->a + t->g;
    r->depth_c = t->a;
    r->nw = gbm_words(t);
    r->a = calloc((size_t)r->depth_a, 8);
    r->b = calloc((size_t)r->depth_b, 8);
    r->c = calloc((size_t)r->depth_c, 8);
    if (!r->a || !r->b || !r->c) {
        rcu_free(r);
        snprintf(err, DOAR_ERRLEN, "out of memory");
        return -1;
    }
    return 0;
}

void rcu_free(rcu *r) {
    if (!r->shared) {
        free(r->a);
        free(r->b);
        free(r->c);
    }
    r->a = r->b = r->c = NULL;
    r->shared = 0;
}

/* A unit sharing a table set's tables takes copies of them as its own. */
static void own_tables(rcu *r) {
    uint64_t *a = malloc((size_t)r->depth_a * 8), *b = malloc((size_t)r->depth_b * 8),
             *c = malloc((size_t)r->depth_c * 8);
    if (!a || !b || !c) {
        fprintf(stderr, "doar: out of memory copying a route-compute unit's tables\n");
        abort();
    }
    memcpy(a, r->a, (size_t)r->depth_a * 8);
    memcpy(b, r->b, (size_t)r->depth_b * 8);
    memcpy(c, r->c, (size_t)r->depth_c * 8);
    r->a = a;
    r->b = b;
    r->c = c;
    r->shared = 0;
}

void rcu_reset(rcu *r, const rcu_cfg *cfg) {
    r->cfg = *cfg;
    memset(&r->s1, 0, sizeof r->s1);
    memset(&r->s2, 0, sizeof r->s2);
    memset(&r->s3, 0, sizeof r->s3);
    memset(&r->out, 0, sizeof r->out);
    r->lfsr = cfg->lfsr_seed ? cfg->lfsr_seed : RCU_LFSR_ZERO_SEED;
    r->ptr_rta = 0;
    r->ptr_rtb = 0;
    r->idle = 0;
    r->empty = RCU_EMPTY_ALL;
}

void rcu_load(rcu *r, const port_tables *pt) {
    if (r->shared) own_tables(r);
    memcpy(r->a, pt->a, (size_t)r->depth_a * 8);
    memcpy(r->b, pt->b, (size_t)r->depth_b * 8);
    memcpy(r->c, pt->c, (size_t)r->depth_c * 8);
    r->idle = 0; /* stage 2 reads the new tables */
}

void rcu_share(rcu *r, const port_tables *pt) {
    rcu_free(r);
    r->a = pt->a;
    r->b = pt->b;
    r->c = pt->c;
    r->shared = 1;
    r->idle = 0; /* as rcu_load */
}

/* Table C row x: the first valid item as (has, self, port). */
static void c_item(const rcu *r, int x, int *has, int *self, int *port) {
    uint64_t e = r->c[x];
    *has = 0;
    *self = 0;
    *port = 0;
    for (int w = 0; w < r->prm.c_ways; w++) {
        unsigned item = tables_byte(e, w);
        if (!(item & CITEM_VALID)) continue;
        *has = 1;
        *self = (item & CITEM_SELF) != 0;
        *port = (int)(item & CITEM_PORT_MASK);
        return;
    }
}

static int header_is_zero(const rcu_header *h) { /* one test of all fields (no branch per field) */
    return (h->valid | h->dst_gid | h->dst_bid | h->dst_nid | h->src_gid | h->vc) == 0;
}

/* ---- stage 1: zone decode; writes *s (the register) ---- */
static void stage1(const rcu *r, const rcu_header *h, rcu_s1 *s) {
    memset(s, 0, sizeof *s);
    s->hdr = *h;
    if (!h->valid) return;
    s->bad = h->dst_gid < 0 || h->dst_gid >= r->t.g || h->dst_bid < 0 || h->dst_bid >= r->t.a || h->dst_nid < 0 ||
             h->dst_nid >= r->t.p;
    if (s->bad) return; /* rows 0: read, never used */
    int index;
    table_zone z = tables_zone(r->cfg.gid, r->cfg.bid, h->dst_gid, h->dst_bid, h->dst_nid, &index);
    s->zone = (int)z;
    s->rta = r->cfg.pc == PORT_TERMINAL && z == ZONE_G;
    s->row_a = z == ZONE_N ? index : z == ZONE_B ? r->t.p + index : r->t.p + r->t.a + index;
    s->row_b = z == ZONE_N ? 0 : z == ZONE_B ? index : r->t.a + index; /* zone N: row 0, unused */
}

/* ---- stage 3: A1/A2, C1, N1/N2, B (RTA) or S1/S2/F (RTB); writes *s (the register) ---- */
static void stage3(const rcu *r, const rcu_s2 *s2, uint64_t cong_local, const gport_bitmap *cong_global,
                   uint64_t opt_invalid, rcu_s3 *s) {
    const topo *t = &r->t;
    s->hdr = s2->s1.hdr;
    s->rta = s2->s1.rta;
    s->bad = s2->s1.bad;
    if (!s->hdr.valid || s->bad) return;
    uint64_t kmask = t->k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->k) - 1);
    uint64_t allowed = ~(opt_invalid & kmask); /* bits beyond k are never invalid */
    const int nw = r->nw;
    if (s->rta) {
        /* A1/A2/B: the classes (the same definition the static checker follows). */
        rta_classes cl;
        tables_rta_classes_words(t, &r->prm, &r->cfg.wired, r->cfg.bid, s2->entry_a, s2->entry_b, s->hdr.dst_bid, &cl);
        /* C1: per global port, does table C map it, and is that local port congested? */
        /* Global port g = x*h + i maps to local port first_global + i (self) or to the row's port;
         * a port whose options are invalid is no candidate. Row by row, h bits at a time. */
        gport_bitmap map, cl_cong;
        for (int w = 0; w < nw; w++) map.w[w] = cl_cong.w[w] = 0;
        for (int x = 0; x < t->a; x++) {
            int has, self, port;
            c_item(r, x, &has, &self, &port);
            s->row[x] = (uint8_t)(self ? RCU_ROW_SELF : port);
            if (!has) continue;
            uint64_t m, c; /* bit i: global port x*h + i is mapped / its local port is congested */
            if (self) {
                m = allowed >> t->first_global;
                c = m & (cong_local >> t->first_global);
            } else {
                m = (allowed >> port) & 1 ? ~(uint64_t)0 : 0;
                c = (cong_local >> port) & 1 ? m : 0;
            }
            gbm_or_field(&map, x * t->h, t->h, m);
            gbm_or_field(&cl_cong, x * t->h, t->h, c);
        }
        /* the fallback set (every candidate congested): the fewest-hop class that has a mapped
         * port, GA, GB, GC, GD in P1's order (docs/architecture.md "Fallback") */
        const gport_bitmap *cls[4] = {&cl.ga, &cl.gb, &cl.gc, &cl.gd};
        int fb = -1;
        for (int c = 0; c < 4 && fb < 0; c++)
            for (int w = 0; w < nw && fb < 0; w++)
                if (cls[c]->w[w] & map.w[w]) fb = c;
        for (int w = 0; w < nw; w++) {
            uint64_t free_w = map.w[w] & ~cl_cong.w[w] & ~cong_global->w[w];
            s->cand[w][0] = cl.ga.w[w] & free_w;
            s->cand[w][1] = cl.gb.w[w] & free_w;
            s->cand[w][2] = cl.gc.w[w] & free_w;
            s->cand[w][3] = cl.gd.w[w] & free_w;
            s->cand[w][4] = fb < 0 ? 0 : cls[fb]->w[w] & map.w[w];
        }
    } else {
        /* S1/S2 and filter F (table B has no zone N). */
        uint64_t le, lf;
        tables_rtb_ports(t, (table_zone)s2->s1.zone, s2->entry_a, s2->s1.zone == ZONE_N ? 0 : s2->entry_b,
                         s->hdr.src_gid == r->cfg.gid, &le, &lf);
        le &= kmask & allowed; /* LP bits beyond k name no port */
        lf &= kmask & allowed;
        /* a global input's zone B: table B (destination-group refraction) only when no table A
         * option is valid, so that without faults the paper's single option is all there is */
        if (r->cfg.pc == PORT_GLOBAL && s2->s1.zone == ZONE_B && le) lf = 0;
        s->keep_vc = s2->s1.zone != ZONE_G && s->hdr.src_gid != r->cfg.gid;
        s->s1_ok = le & ~cong_local;
        s->s2_ok = lf & ~cong_local;
        s->le_lf = le ? le : lf; /* the fallback set: LE, or LF when LE is empty */
    }
}

static int out_vc(const rcu *r, int in_vc, int port, int keep_vc) {
    port_class in = r->cfg.pc, outc = topo_port_class(&r->t, port);
    if (in == PORT_TERMINAL) return 0;
    if (outc == PORT_TERMINAL) return in_vc;
    if (keep_vc && outc == PORT_LOCAL) return in_vc; /* destination-group refraction */
    int rise = (outc == PORT_GLOBAL ? 2 : 1) >= (in == PORT_GLOBAL ? 2 : 1);
    int vc = in_vc + rise;
    return vc > RCU_NUM_VCS - 1 ? RCU_NUM_VCS - 1 : vc; /* saturates; unreachable on legal paths */
}

/* Set c of s->cand: its first bit at or after start (< width), wrapping; -1 if none. */
static int scan_cand(const rcu_s3 *s, int c, int lo, int hi) {
    for (int j = lo; j < hi;) {
        uint64_t w = s->cand[j >> 6][c] >> (j & 63);
        if (w) {
            int k = j + __builtin_ctzll(w);
            return k < hi ? k : -1;
        }
        j = (j | 63) + 1;
    }
    return -1;
}

/* rr_pick's contract (csim/rr.h) over class c, a set that may be wider than 64 bits. */
static int first_from_cand(const rcu_s3 *s, int c, int start, int width) {
    int k = scan_cand(s, c, start, width);
    return k >= 0 ? k : scan_cand(s, c, 0, start);
}

/* ---- stage 4: P1/M/P2 (RTA) or P3 (RTB), LFSR fallback; writes *o and the pointers ---- */
static void stage4(rcu *r, const rcu_s3 *s, rcu_out *o) {
    const topo *t = &r->t;
    memset(o, 0, sizeof *o);
    if (!s->hdr.valid) return;
    o->valid = 1;
    if (s->bad) return; /* RCU_NONE */
    if (s->rta) {
        int g = -1, cls = RCU_NONE;
        for (int c = 0; c < 4 && g < 0; c++) {
            g = first_from_cand(s, c, r->ptr_rta, t->ah);
            if (g >= 0) cls = RCU_GA + c;
        }
        if (g < 0) {
            g = first_from_cand(s, 4, rcu_lfsr_start(r->lfsr, t->ah), t->ah);
            if (g >= 0) cls = RCU_RTA_RAND;
        }
        if (g < 0) return; /* RCU_NONE */
        int x = g / t->h;
        o->port = s->row[x] == RCU_ROW_SELF ? t->first_global + g % t->h : s->row[x];
        o->cls = cls;
        o->gport_valid = 1;
        o->gport = g;
        r->ptr_rta = g + 1 == t->ah ? 0 : g + 1;
    } else {
        int port = rcu_first_from64(s->s1_ok, r->ptr_rtb, t->k), cls = RCU_S1;
        if (port < 0) {
            port = rcu_first_from64(s->s2_ok, r->ptr_rtb, t->k);
            cls = RCU_S2;
        }
        if (port < 0) {
            port = rcu_first_from64(s->le_lf, rcu_lfsr_start(r->lfsr, t->k), t->k);
            cls = RCU_RTB_RAND;
        }
        if (port < 0) return;
        o->port = port;
        o->cls = cls;
        r->ptr_rtb = port + 1 == t->k ? 0 : port + 1;
    }
    o->vc = out_vc(r, s->hdr.vc, o->port, !s->rta && s->keep_vc);
}

void rcu_cycle(rcu *r, const rcu_in *in, rcu_out *out) { rcu_cycle_cg(r, in, &in->cong_global, out); }

void rcu_cycle_cg(rcu *r, const rcu_in *in, const gport_bitmap *cong_global, rcu_out *out) {
    *out = r->out;
    const int hdr_zero = header_is_zero(&in->hdr);
    const int quiet = hdr_zero && !in->tw_valid;
    if (quiet && r->idle >= RCU_LATENCY) { /* no stage holds a header: only the LFSR steps */
        r->lfsr = rcu_lfsr_next(r->lfsr);
        return;
    }
    r->idle = quiet ? r->idle + 1 : 0;
    /* Each stage reads the register before it and writes its own, stage 4 first: every stage
     * sees the registers of the start of the cycle, as if all were computed before the edge.
     * An empty register fed by an empty one stays as it is: such stages are skipped. */
    const int e = r->empty;
    int ne = 0;
    if ((e & (RCU_EMPTY_S3 | RCU_EMPTY_OUT)) != (RCU_EMPTY_S3 | RCU_EMPTY_OUT)) {
        stage4(r, &r->s3, &r->out);
        if (!r->out.valid) ne |= RCU_EMPTY_OUT; /* stage 4 clears the whole register then */
    } else {
        ne |= RCU_EMPTY_OUT;
    }
    if ((e & (RCU_EMPTY_S2 | RCU_EMPTY_S3)) != (RCU_EMPTY_S2 | RCU_EMPTY_S3))
        stage3(r, &r->s2, in->cong_local, cong_global, in->opt_invalid, &r->s3);
    if (e & RCU_EMPTY_S2) ne |= RCU_EMPTY_S3; /* stage 3 copied (or kept) an empty header */
    if ((e & (RCU_EMPTY_S1 | RCU_EMPTY_S2)) != (RCU_EMPTY_S1 | RCU_EMPTY_S2)) {
        r->s2.s1 = r->s1;
        if (r->s1.hdr.valid) { /* synchronous read: old data on a same-cycle write */
            r->s2.entry_a = r->a[r->s1.row_a];
            r->s2.entry_b = r->b[r->s1.row_b];
        } else { /* the read of a bubble: never used (rows 0) */
            r->s2.entry_a = r->s2.entry_b = 0;
        }
    }
    if (e & RCU_EMPTY_S1) ne |= RCU_EMPTY_S2;
    if (!(hdr_zero && (e & RCU_EMPTY_S1))) stage1(r, &in->hdr, &r->s1);
    if (hdr_zero) ne |= RCU_EMPTY_S1; /* stage 1 clears the register for a zero header */
    r->empty = ne;
    /* the clock edge: the table write */
    if (in->tw_valid && in->tw_addr >= 0) {
        if (r->shared) own_tables(r);
        if (in->tw_table == RCU_TW_A && in->tw_addr < r->depth_a)
            r->a[in->tw_addr] = in->tw_data;
        else if (in->tw_table == RCU_TW_B && in->tw_addr < r->depth_b)
            r->b[in->tw_addr] = in->tw_data;
        else if (in->tw_table == RCU_TW_C && in->tw_addr < r->depth_c)
            r->c[in->tw_addr] =
                r->prm.c_ways >= 8 ? in->tw_data : in->tw_data & ((((uint64_t)1) << (8 * r->prm.c_ways)) - 1);
    }
    r->lfsr = rcu_lfsr_next(r->lfsr);
}
