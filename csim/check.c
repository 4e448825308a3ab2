#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <time.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void check_default_opts(check_opts *o) {
    o->num_vcs = CHECK_NUM_VCS;
    o->max_hops = CHECK_MAX_HOPS;
    o->vc_rule = VC_RULE_DOAR;
    o->dest_sample = 0;
    o->one_dest = 0;
    o->progress = NULL;
}

const char *check_kind_name(check_error_kind k) {
    static const char *names[CHK_KINDS] = {"loop",        "too long", "vc rule", "misdelivery",
                                           "rta meaning", "dead end", "shape",   "cdg cycle"};
    return k < CHK_KINDS ? names[k] : "?";
}

/* Split a shape code into L counts per segment; returns the number of G links or -1. */
static int shape_segments(int code, int seg[3]) {
    int len = 0;
    while ((1 << (len + 1)) <= code) len++;
    int bits = code & ((1 << len) - 1), ng = 0;
    seg[0] = seg[1] = seg[2] = 0;
    for (int i = 0; i < len; i++) {
        if ((bits >> i) & 1) {
            if (++ng > 2) return -1;
        } else
            seg[ng]++;
    }
    return ng;
}

int check_shape_allowed(int code, int intra_group) {
    int seg[3], ng = shape_segments(code, seg);
    if (ng < 0) return 0;
    if (intra_group) return ng == 0 && seg[0] <= 2;
    /* The last segment may hold two L hops: the destination-group refraction a global input
     * takes when a fault leaves its direct intra-group link no valid option (L-G-L-L, LG-LL-GLL). */
    if (ng == 1) return seg[0] <= 1 && seg[1] <= 2;                /* L-G-L(-L) and its shortenings */
    if (ng == 2) return seg[0] <= 1 && seg[1] <= 2 && seg[2] <= 2; /* LG-LL-GL(L) and shortenings */
    return 0;
}

void check_shape_name(int code, char *buf, size_t len) {
    int seg[3], ng = shape_segments(code, seg);
    char part[3][8];
    if (ng < 0) {
        snprintf(buf, len, "(>2 global hops)");
        return;
    }
    if (ng == 0) {
        if (seg[0] == 0)
            snprintf(buf, len, "(local)");
        else {
            size_t n = 0;
            for (int i = 0; i < seg[0] && n + 3 < len; i++) n += (size_t)snprintf(buf + n, len - n, i ? "-L" : "L");
        }
        return;
    }
    for (int s = 0; s < 3; s++) {
        int n = 0;
        for (int i = 0; i < seg[s] && i < 6; i++) part[s][n++] = 'L';
        part[s][n] = '\0';
    }
    if (ng == 1) {
        const char *p[3] = {part[0], "G", part[1]};
        size_t n = 0;
        buf[0] = '\0';
        for (int i = 0; i < 3; i++)
            if (p[i][0]) n += (size_t)snprintf(buf + n, len > n ? len - n : 0, "%s%s", n ? "-" : "", p[i]);
        return;
    }
    char a[10], c[10];
    snprintf(a, sizeof a, "%sG", part[0]);
    snprintf(c, sizeof c, "G%s", part[2]);
    if (part[1][0])
        snprintf(buf, len, "%s-%s-%s", a, part[1], c);
    else
        snprintf(buf, len, "%s-%s", a, c);
}

/* ---- memo: open addressing, cleared per destination by a generation stamp ---- */

/* An entry holds its shape set as an index into the set of distinct shape sets (a few dozen):
 * 32 bytes instead of 56, so the ~2 M entries of a tianhe destination take less of the caches
 * (speed only). The lane DP keeps its state's lane block in `shapes` and the lanes done in
 * `count`. */
typedef struct {
    uint64_t key;
    uint32_t gen;
    uint32_t shapes; /* index into shape_sets */
    uint64_t count;
    int8_t max_hops, max_vc;
    uint8_t err;
} memo_entry;

typedef struct {
    memo_entry *e;
    size_t cap, used;
    uint32_t gen;
} memo_table;

/* The distinct shape sets met, each once, found through an open-addressing index. */
typedef struct {
    uint64_t (*set)[CHECK_SHAPE_WORDS];
    uint32_t *slot; /* index + 1, 0: empty */
    size_t n, cap, slots;
} shape_sets;

typedef struct check_opt_s check_opt_s;
struct lane_val;

typedef struct {
    const table_set *ts;
    const topo *t;
    const check_opts *o;
    check_result *res;
    memo_table memo;
    shape_sets sets;
    uint64_t *adj; /* [(router*k + in_port)*V + vc]*V + out_vc -> out-port mask */
    /* the lane DP (check_run): every checked destination router of group dest_gid at once */
    int lane_fail;         /* a rule broken: the check runs again one destination at a time */
    struct lane_val *pool; /* a block of t->a lane values per state */
    size_t pool_n, pool_cap;
    check_opt_s *lopt; /* per hop count and lane, the lane's options (per-lane states) */
    int *lnopt;        /* per hop count and lane, how many (-1: the lane's destination) */
    struct {
        uint32_t a, b, r;
    } * ucache; /* SHAPE_UNION_CACHE unions of shape sets (lane DP) */
    struct {    /* the last source state's options and the classes they came from (lane DP only) */
        int on, router, in_port, vc, code, gid, nopt;
        rta_classes cls;
        check_opt_s *opt; /* 64 */
    } rta;
    int dest_router, dest_gid, dest_bid;
    int oom;
} checker;

static uint64_t hash64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t memo_key(int router, int in_port, int vc, int code) {
    return ((uint64_t)router << 24) | ((uint64_t)in_port << 16) | ((uint64_t)vc << 8) | (uint64_t)code;
}

static size_t memo_slot(const memo_table *m, uint64_t key) { return (size_t)hash64(key) & (m->cap - 1); }

static uint64_t shapes_hash(const uint64_t *w) {
    uint64_t h = 0;
    for (int i = 0; i < CHECK_SHAPE_WORDS; i++) h = hash64(h ^ w[i]);
    return h;
}

/* The index of set w in ss, added when new; -1 when out of memory. */
static long shape_sets_id(shape_sets *ss, const uint64_t *w) {
    if ((ss->n + 1) * 2 > ss->slots) {
        size_t ns = ss->slots ? ss->slots * 2 : 256;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl) return -1;
        for (size_t i = 0; i < ss->n; i++) {
            size_t j = (size_t)shapes_hash(ss->set[i]) & (ns - 1);
            while (sl[j]) j = (j + 1) & (ns - 1);
            sl[j] = (uint32_t)(i + 1);
        }
        free(ss->slot);
        ss->slot = sl;
        ss->slots = ns;
    }
    size_t j = (size_t)shapes_hash(w) & (ss->slots - 1);
    for (; ss->slot[j]; j = (j + 1) & (ss->slots - 1))
        if (!memcmp(ss->set[ss->slot[j] - 1], w, sizeof ss->set[0])) return (long)ss->slot[j] - 1;
    if (ss->n == ss->cap) {
        size_t nc = ss->cap ? ss->cap * 2 : 64;
        void *ns = realloc(ss->set, nc * sizeof ss->set[0]);
        if (!ns) return -1;
        ss->set = ns;
        ss->cap = nc;
    }
    memcpy(ss->set[ss->n], w, sizeof ss->set[0]);
    ss->slot[j] = (uint32_t)(ss->n + 1);
    return (long)ss->n++;
}

static memo_entry *memo_find(memo_table *m, uint64_t key, int *found) {
    size_t mask = m->cap - 1, i = memo_slot(m, key);
    for (;;) {
        memo_entry *e = &m->e[i];
        if (e->gen != m->gen) {
            *found = 0;
            return e;
        }
        if (e->key == key) {
            *found = 1;
            return e;
        }
        i = (i + 1) & mask;
    }
}

static int memo_grow(memo_table *m) {
    size_t ncap = m->cap ? m->cap * 2 : (size_t)1 << 16;
    memo_entry *ne = calloc(ncap, sizeof *ne), *old = m->e;
    if (!ne) return -1;
    size_t ocap = m->cap;
    m->e = ne;
    m->cap = ncap;
    uint32_t g = m->gen;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].gen != g) continue;
        int found;
        memo_entry *d = memo_find(m, old[i].key, &found);
        *d = old[i];
    }
    free(old);
    return 0;
}

static void report(checker *c, check_error_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void report(checker *c, check_error_kind kind, const char *fmt, ...) {
    check_result *r = c->res;
    if (r->errors[kind]++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first[kind], DOAR_ERRLEN, fmt, ap);
        va_end(ap);
        if (!r->fail[0]) snprintf(r->fail, DOAR_ERRLEN, "%s: %s", check_kind_name(kind), r->first[kind]);
    }
}

typedef struct {
    uint64_t count;
    uint64_t shapes[CHECK_SHAPE_WORDS];
    int max_hops, max_vc;
    int err;
} dp_value;

static int port_level(port_class pc) { return pc == PORT_GLOBAL ? 2 : pc == PORT_LOCAL ? 1 : 0; }

static void eval_state(checker *c, int router, int in_port, int vc, int code, dp_value *out);

static void add_value(dp_value *acc, const dp_value *v) {
    acc->count += v->count;
    for (int w = 0; w < CHECK_SHAPE_WORDS; w++) acc->shapes[w] |= v->shapes[w];
    if (v->max_hops > acc->max_hops) acc->max_hops = v->max_hops;
    if (v->max_vc > acc->max_vc) acc->max_vc = v->max_vc;
    acc->err |= v->err;
}

#define RFMT "router (%d,%d) port %d"
#define RARGS(r, p) topo_gid(c->t, r), topo_bid(c->t, r), p

static void arrive(checker *c, int router, int in_port, int code, dp_value *out) {
    const topo *t = c->t;
    const port_tables *pt = tables_port(c->ts, router, in_port);
    int len = 0;
    while ((1 << (len + 1)) <= code) len++;
    for (int nid = 0; nid < t->p; nid++) {
        uint64_t cand = pt->a[tables_row_a(c->ts, ZONE_N, nid)];
        if (cand == 0) {
            report(c, CHK_DEAD_END, RFMT ": zone N[%d] is empty", RARGS(router, in_port), nid);
            out->err = 1;
        } else if (cand != ((uint64_t)1 << nid)) {
            int bad = __builtin_ctzll(cand & ~((uint64_t)1 << nid));
            report(c, CHK_MISDELIVERY, RFMT ": zone N[%d] sends node %d's packets to port %d", RARGS(router, in_port),
                   nid, nid, bad);
            out->err = 1;
        }
    }
    int intra = !(code & ((1 << len) - 1)) && topo_gid(t, router) == c->dest_gid;
    if (!check_shape_allowed(code, intra)) {
        char name[32];
        check_shape_name(code, name, sizeof name);
        report(c, CHK_SHAPE, "route of shape %s reaches router (%d,%d)%s", name, c->dest_gid, c->dest_bid,
               intra ? " from inside its group" : "");
        out->err = 1;
    }
    if (out->err) return;
    out->count = 1;
    out->shapes[code >> 6] |= (uint64_t)1 << (code & 63);
    out->max_hops = len;
    out->max_vc = -1;
}

/* One option of a state: the output port, the successor state (pr, pp, nvc, ncode) and, when the
 * option breaks a rule, which (why != OPT_OK); blk: the successor's lane block (the lane DP). */
enum { OPT_OK, OPT_RANGE, OPT_TERMINAL, OPT_BACK, OPT_UNWIRED, OPT_LONG, OPT_VC };
struct check_opt_s {
    int o, pr, pp, nvc, ncode, why;
    uint32_t blk;
};
typedef check_opt_s check_opt;

/* The options of state (router, in_port, vc, code) toward c->dest_router, in port order, into opt
 * (the successors' memo slots prefetched); returns their number, or -1 when the state ends here
 * (the destination, or a rule broken before any option: *out says which). *out is cleared; *len
 * and *in_class are the state's hop count and input port class. */
static int state_options(checker *c, int router, int in_port, int vc, int code, dp_value *out, check_opt opt[64],
                         int *len_out, port_class *in_class_out) {
    const topo *t = c->t;
    const table_set *ts = c->ts;
    int gid = topo_gid(t, router), bid = topo_bid(t, router);
    memset(out, 0, sizeof *out);
    out->max_hops = -1;
    out->max_vc = -1;
    if (router == c->dest_router) {
        arrive(c, router, in_port, code, out);
        return -1;
    }

    int len = 0;
    while ((1 << (len + 1)) <= code) len++;
    int in_source_group = (code & ((1 << len) - 1)) == 0;
    *len_out = len;
    int index;
    table_zone z = tables_zone(gid, bid, c->dest_gid, c->dest_bid, 0, &index);
    const port_tables *pt = tables_port(ts, router, in_port);
    uint64_t ea = pt->a[tables_row_a(ts, z, index)];
    uint64_t eb = pt->b[tables_row_b(ts, z, index)];
    port_class in_class = topo_port_class(t, in_port);
    *in_class_out = in_class;
    uint64_t cand;
    int rta = tables_is_global_config(in_class, z);
    rta_classes cls;
    if (rta) {
        memset(&cls, 0, sizeof cls);
        tables_rta_classes(ts, router, ea, eb, c->dest_bid, &cls);
        /* the lane DP: a lane whose classes are the last lane's has its options (a source's
         * options depend on its destination router through the classes alone) */
        if (c->rta.on && c->rta.router == router && c->rta.in_port == in_port && c->rta.vc == vc &&
            c->rta.code == code && c->rta.gid == c->dest_gid && !memcmp(&cls, &c->rta.cls, sizeof cls)) {
            memcpy(opt, c->rta.opt, (size_t)c->rta.nopt * sizeof *opt);
            return c->rta.nopt;
        }
        cand = tables_rta_ports(ts, pt, router, &cls);
        for (int w = 0; w * 64 < t->ah; w++) /* every global port in a class, in order */
            for (uint64_t mw = cls.ga.w[w] | cls.gb.w[w] | cls.gc.w[w] | cls.gd.w[w]; mw; mw &= mw - 1) {
                int g = w * 64 + __builtin_ctzll(mw);
                if (g >= t->ah) break;
                int in_ga = gbm_test(&cls.ga, g);
                if (in_ga && topo_gport_target(t, gid, g) != c->dest_gid) {
                    report(c, CHK_RTA, RFMT ": GA for group %d names global port %d, which leads to %s %d",
                           RARGS(router, in_port), c->dest_gid, g,
                           topo_gport_target(t, gid, g) < 0 ? "nothing (unwired):" : "group",
                           topo_gport_target(t, gid, g));
                    out->err = 1;
                }
                uint64_t lp = tables_lport(ts, pt, router, g);
                int x = g / t->h;
                uint64_t want =
                    x == bid ? (uint64_t)1 << topo_global_port(t, g) : (uint64_t)1 << topo_local_port(t, bid, x);
                if (lp && lp != want) {
                    report(c, CHK_RTA,
                           RFMT ": table C row %d maps global port %d to port %d, which does not reach router %d",
                           RARGS(router, in_port), x, g, __builtin_ctzll(lp), x);
                    out->err = 1;
                }
            }
        if (out->err) return -1;
    } else {
        cand = tables_rtb_ports(&ts->t, z, ea, eb, in_source_group, NULL, NULL);
    }
    if (cand == 0) {
        report(c, CHK_DEAD_END, RFMT ": no route option toward router (%d,%d) (zone %c[%d])", RARGS(router, in_port),
               c->dest_gid, c->dest_bid, z == ZONE_B ? 'B' : 'G', index);
        out->err = 1;
        return -1;
    }
    /* The options are worked out first and reported or followed after (eval_uncached), in the
     * same order: the successors' memo slots are prefetched here. Speed only: most successors are
     * memo hits in a table far larger than the caches (tianhe: ~2 M states a destination, ~10
     * options each), and the prefetches let those misses overlap. */
    const int V = c->o->num_vcs;
    int nopt = 0;
    for (uint64_t m = cand; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        opt[nopt].o = o;
        opt[nopt].nvc = 0;
        int *why = &opt[nopt++].why;
        *why = OPT_OK;
        if (o >= t->k) {
            *why = OPT_RANGE;
            continue;
        }
        port_class oc = topo_port_class(t, o);
        if (oc == PORT_TERMINAL) {
            *why = OPT_TERMINAL;
            continue;
        }
        if (o == in_port) {
            *why = OPT_BACK;
            continue;
        }
        int pr, pp;
        if (topo_peer(t, router, o, &pr, &pp) != 0) {
            *why = OPT_UNWIRED;
            continue;
        }
        if (len + 1 > c->o->max_hops) {
            *why = OPT_LONG;
            continue;
        }
        int nvc;
        if (c->o->vc_rule == VC_RULE_NONE || in_class == PORT_TERMINAL)
            nvc = in_class == PORT_TERMINAL ? 0 : vc;
        else if (!in_source_group && gid == c->dest_gid && oc == PORT_LOCAL)
            nvc = vc; /* inside the destination group, having come from another: no rise (the
                         second hop of a destination-group refraction; the cycle search below
                         proves that the refraction's choice of middle routers keeps it acyclic) */
        else
            nvc = port_level(oc) >= port_level(in_class) ? vc + 1 : vc;
        if (c->o->vc_rule == VC_RULE_NONE) nvc = 0;
        opt[nopt - 1].nvc = nvc;
        if (nvc >= V) {
            *why = OPT_VC;
            continue;
        }
        int ncode = (1 << (len + 1)) | (code & ((1 << len) - 1)) | (oc == PORT_GLOBAL ? 1 << len : 0);
        opt[nopt - 1].pr = pr;
        opt[nopt - 1].pp = pp;
        opt[nopt - 1].ncode = ncode;
        __builtin_prefetch(&c->memo.e[memo_slot(&c->memo, memo_key(pr, pp, nvc, ncode))]);
    }
    if (rta && c->rta.on && !out->err) {
        c->rta.router = router;
        c->rta.in_port = in_port;
        c->rta.vc = vc;
        c->rta.code = code;
        c->rta.gid = c->dest_gid;
        c->rta.cls = cls;
        c->rta.nopt = nopt;
        memcpy(c->rta.opt, opt, (size_t)nopt * sizeof *opt);
    }
    return nopt;
}

static void eval_uncached(checker *c, int router, int in_port, int vc, int code, dp_value *out) {
    const topo *t = c->t;
    const int V = c->o->num_vcs;
    check_opt opt[64];
    int len = 0;
    port_class in_class = PORT_TERMINAL;
    c->res->states++;
    int nopt = state_options(c, router, in_port, vc, code, out, opt, &len, &in_class);
    for (int i = 0; i < nopt; i++) {
        int o = opt[i].o, nvc = opt[i].nvc;
        switch (opt[i].why) {
            case OPT_RANGE:
                report(c, CHK_DEAD_END, RFMT ": route option names port %d but k=%d", RARGS(router, in_port), o, t->k);
                break;
            case OPT_TERMINAL:
                report(c, CHK_MISDELIVERY, RFMT ": sends router (%d,%d)'s packets to its own terminal port %d",
                       RARGS(router, in_port), c->dest_gid, c->dest_bid, o);
                break;
            case OPT_BACK:
                report(c, CHK_LOOP, RFMT ": sends packets for router (%d,%d) back out the port they came in on",
                       RARGS(router, in_port), c->dest_gid, c->dest_bid);
                break;
            case OPT_UNWIRED:
                report(c, CHK_DEAD_END, RFMT ": route toward router (%d,%d) uses unwired global port %d",
                       RARGS(router, in_port), c->dest_gid, c->dest_bid, o);
                break;
            case OPT_LONG:
                report(c, CHK_TOO_LONG, RFMT ": route toward router (%d,%d) needs hop %d (limit %d)",
                       RARGS(router, in_port), c->dest_gid, c->dest_bid, len + 1, c->o->max_hops);
                break;
            case OPT_VC:
                report(c, CHK_VC, RFMT ": route toward router (%d,%d) needs VC %d on port %d (VCs 0..%d)",
                       RARGS(router, in_port), c->dest_gid, c->dest_bid, nvc, o, V - 1);
                break;
            default: {
                if (in_class != PORT_TERMINAL)
                    c->adj[(((size_t)router * t->k + in_port) * V + vc) * V + nvc] |= (uint64_t)1 << o;
                dp_value v;
                eval_state(c, opt[i].pr, opt[i].pp, nvc, opt[i].ncode, &v);
                if (v.count && nvc > v.max_vc) v.max_vc = nvc;
                add_value(out, &v);
                continue;
            }
        }
        out->err = 1;
    }
}

static void eval_state(checker *c, int router, int in_port, int vc, int code, dp_value *out) {
    uint64_t key = memo_key(router, in_port, vc, code);
    int found;
    memo_entry *e = memo_find(&c->memo, key, &found);
    if (found) {
        out->count = e->count;
        memcpy(out->shapes, c->sets.set[e->shapes], sizeof out->shapes);
        out->max_hops = e->max_hops;
        out->max_vc = e->max_vc;
        out->err = e->err;
        return;
    }
    eval_uncached(c, router, in_port, vc, code, out);
    if (out->err) out->count = 0;
    if ((c->memo.used + 1) * 2 > c->memo.cap) {
        if (memo_grow(&c->memo)) {
            c->oom = 1;
            return;
        }
    }
    long id = shape_sets_id(&c->sets, out->shapes);
    if (id < 0) {
        c->oom = 1;
        return;
    }
    e = memo_find(&c->memo, key, &found);
    e->key = key;
    e->shapes = (uint32_t)id;
    e->gen = c->memo.gen;
    e->count = out->count;
    e->max_hops = (int8_t)out->max_hops;
    e->max_vc = (int8_t)out->max_vc;
    e->err = (uint8_t)out->err;
    c->memo.used++;
}

/* ---- the lane DP: every checked destination router of one group at once ----
 *
 * Outside the destination group D, a state whose input is not a terminal port has the same
 * options for every destination router of D (zone G[D] of its tables; the VC rule reads only D):
 * only the values (routes, shapes, hops, VCs) differ per destination. The lane DP evaluates such a
 * state's options once and keeps a value per destination router ("lane") of D; the states whose
 * options depend on the destination router (inside D, and the sources' global configuration,
 * which reads its bid) are evaluated lane by lane. A state is evaluated for exactly the lanes that
 * reach it (the `need` masks), so the states counted, the routes, shapes, hops, VCs and the
 * dependency graph are those of one destination at a time; tianhe's 32 routers a group share the
 * work of ~2 M states. A broken rule ends the lane DP (lane_fail): check_run then runs the check
 * one destination at a time, whose reports name the first error in its order. Speed only. */

#define NO_BLOCK UINT32_MAX
#define SHAPE_UNION_CACHE 4096 /* a power of two */

struct lane_val {
    uint64_t count;
    uint32_t shapes; /* index into shape_sets */
    int8_t max_hops, max_vc;
};

static uint32_t pool_block(checker *c) {
    if (c->pool_n == c->pool_cap) {
        size_t nc = c->pool_cap ? c->pool_cap * 2 : 1024;
        if (nc >= NO_BLOCK) return NO_BLOCK;
        struct lane_val *np = realloc(c->pool, nc * (size_t)c->t->a * sizeof *np);
        if (!np) return NO_BLOCK;
        c->pool = np;
        c->pool_cap = nc;
    }
    return (uint32_t)c->pool_n++;
}

static void lane_get(const checker *c, uint32_t b, int l, dp_value *v) {
    const struct lane_val *x = &c->pool[(size_t)b * c->t->a + l];
    v->count = x->count;
    memcpy(v->shapes, c->sets.set[x->shapes], sizeof v->shapes);
    v->max_hops = x->max_hops;
    v->max_vc = x->max_vc;
    v->err = 0;
}

static int lane_put(checker *c, uint32_t b, int l, const dp_value *v) {
    long id = shape_sets_id(&c->sets, v->shapes);
    if (id < 0) return -1;
    struct lane_val *x = &c->pool[(size_t)b * c->t->a + l];
    x->count = v->count;
    x->shapes = (uint32_t)id;
    x->max_hops = (int8_t)v->max_hops;
    x->max_vc = (int8_t)v->max_vc;
    return 0;
}

static void lane_dest(checker *c, int l) {
    c->dest_bid = l;
    c->dest_router = topo_router(c->t, c->dest_gid, l);
}

/* The union of two shape sets by index, through a small cache of the unions met (the lane DP's
 * values keep their shape sets as indices; most unions repeat). UINT32_MAX when out of memory. */
static uint32_t shape_union(checker *c, uint32_t a, uint32_t b) {
    if (a == b || b == 0) return a;
    if (a == 0) return b;
    size_t h = (size_t)hash64(((uint64_t)a << 32) | b) & (SHAPE_UNION_CACHE - 1);
    if (c->ucache[h].a == a && c->ucache[h].b == b) return c->ucache[h].r;
    uint64_t w[CHECK_SHAPE_WORDS];
    for (int i = 0; i < CHECK_SHAPE_WORDS; i++) w[i] = c->sets.set[a][i] | c->sets.set[b][i];
    long r = shape_sets_id(&c->sets, w);
    if (r < 0) return UINT32_MAX;
    c->ucache[h].a = a;
    c->ucache[h].b = b;
    c->ucache[h].r = (uint32_t)r;
    return (uint32_t)r;
}

/* The lanes in mask of block blk from their options (the successors' blocks in opt[].blk), as
 * eval_uncached adds them, option by option so that each successor block is read in order (shape
 * set 0 is the empty set: run_lanes interns it first). */
static int lanes_combine(checker *c, uint32_t blk, uint64_t mask, const check_opt *opt, int nopt) {
    const size_t A = (size_t)c->t->a;
    struct lane_val acc[64];
    for (uint64_t m = mask; m; m &= m - 1) acc[__builtin_ctzll(m)] = (struct lane_val){0, 0, -1, -1};
    for (int i = 0; i < nopt; i++) {
        const struct lane_val *vb = &c->pool[opt[i].blk * A];
        const int nvc = opt[i].nvc;
        for (uint64_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctzll(m);
            const struct lane_val *v = &vb[l];
            struct lane_val *x = &acc[l];
            int mvc = v->count && nvc > v->max_vc ? nvc : v->max_vc;
            x->count += v->count;
            if (v->shapes != x->shapes && (x->shapes = shape_union(c, x->shapes, v->shapes)) == UINT32_MAX) return -1;
            if (v->max_hops > x->max_hops) x->max_hops = v->max_hops;
            if (mvc > x->max_vc) x->max_vc = (int8_t)mvc;
        }
    }
    for (uint64_t m = mask; m; m &= m - 1) c->pool[blk * A + (size_t)__builtin_ctzll(m)] = acc[__builtin_ctzll(m)];
    return 0;
}

static int same_options(const check_opt *a, const check_opt *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i].pr != b[i].pr || a[i].pp != b[i].pp || a[i].nvc != b[i].nvc || a[i].ncode != b[i].ncode ||
            a[i].o != b[i].o)
            return 0;
    return 1;
}

static void lane_adj(checker *c, int router, int in_port, int vc, port_class in_class, const check_opt *opt, int n) {
    if (in_class == PORT_TERMINAL) return;
    const int V = c->o->num_vcs;
    for (int i = 0; i < n; i++)
        c->adj[(((size_t)router * c->t->k + in_port) * V + vc) * V + opt[i].nvc] |= (uint64_t)1 << opt[i].o;
}

/* The block of state (router, in_port, vc, code) with the lanes in need evaluated; NO_BLOCK when
 * the lane DP ended (lane_fail). */
static uint32_t lanes_eval(checker *c, int router, int in_port, int vc, int code, uint64_t need) {
    if (c->lane_fail) return NO_BLOCK;
    const topo *t = c->t;
    uint64_t key = memo_key(router, in_port, vc, code);
    int found;
    memo_entry *e = memo_find(&c->memo, key, &found);
    uint32_t blk;
    uint64_t miss;
    if (found) { /* lanes: shapes holds the block, count the lanes done */
        blk = e->shapes;
        miss = need & ~e->count;
        if (!miss) return blk;
    } else {
        if ((c->memo.used + 1) * 2 > c->memo.cap && memo_grow(&c->memo)) goto oom;
        blk = pool_block(c);
        if (blk == NO_BLOCK) goto oom;
        e = memo_find(&c->memo, key, &found);
        e->key = key;
        e->gen = c->memo.gen;
        e->shapes = blk;
        e->count = 0;
        c->memo.used++;
        miss = need;
    }
    c->res->states += (uint64_t)__builtin_popcountll(miss);
    int len = 0;
    port_class in_class = PORT_TERMINAL;
    dp_value out;
    if (topo_gid(t, router) != c->dest_gid && topo_port_class(t, in_port) != PORT_TERMINAL) {
        check_opt opt[64];
        lane_dest(c, __builtin_ctzll(miss));
        int nopt = state_options(c, router, in_port, vc, code, &out, opt, &len, &in_class);
        if (nopt < 0) goto fail;
        for (int i = 0; i < nopt; i++)
            if (opt[i].why != OPT_OK) goto fail;
        lane_adj(c, router, in_port, vc, in_class, opt, nopt);
        for (int i = 0; i < nopt; i++)
            if ((opt[i].blk = lanes_eval(c, opt[i].pr, opt[i].pp, opt[i].nvc, opt[i].ncode, miss)) == NO_BLOCK)
                return NO_BLOCK;
        if (lanes_combine(c, blk, miss, opt, nopt)) goto oom;
    } else {
        while ((1 << (len + 1)) <= code) len++;
        const int A = t->a;
        check_opt *lo = c->lopt + (size_t)len * A * 64;
        int *ln = c->lnopt + (size_t)len * A, rep[64];
        for (uint64_t m = miss; m; m &= m - 1) {
            int l = __builtin_ctzll(m), hops;
            lane_dest(c, l);
            int n = state_options(c, router, in_port, vc, code, &out, lo + (size_t)l * 64, &hops, &in_class);
            ln[l] = n;
            if (n < 0) { /* the destination router of lane l */
                if (out.err || lane_put(c, blk, l, &out)) goto fail;
                continue;
            }
            for (int i = 0; i < n; i++)
                if (lo[(size_t)l * 64 + i].why != OPT_OK) goto fail;
            lane_adj(c, router, in_port, vc, in_class, lo + (size_t)l * 64, n);
            rep[l] = l; /* the first lane with the same options follows them for it */
            for (uint64_t m2 = miss & (((uint64_t)1 << l) - 1); m2; m2 &= m2 - 1) {
                int l2 = __builtin_ctzll(m2);
                if (ln[l2] == n && rep[l2] == l2 && same_options(lo + (size_t)l2 * 64, lo + (size_t)l * 64, n)) {
                    rep[l] = l2;
                    break;
                }
            }
        }
        for (uint64_t m = miss; m; m &= m - 1) {
            int r = __builtin_ctzll(m);
            if (ln[r] < 0 || rep[r] != r) continue;
            uint64_t lanes = 0;
            for (uint64_t m2 = miss; m2; m2 &= m2 - 1)
                if (ln[__builtin_ctzll(m2)] >= 0 && rep[__builtin_ctzll(m2)] == r) lanes |= m2 & -m2;
            check_opt *ro = lo + (size_t)r * 64;
            for (int i = 0; i < ln[r]; i++)
                if ((ro[i].blk = lanes_eval(c, ro[i].pr, ro[i].pp, ro[i].nvc, ro[i].ncode, lanes)) == NO_BLOCK)
                    return NO_BLOCK;
            if (lanes_combine(c, blk, lanes, ro, ln[r])) goto oom;
        }
    }
    e = memo_find(&c->memo, key, &found);
    e->count |= miss;
    return blk;
oom:
    c->oom = 1;
fail:
    c->lane_fail = 1;
    return NO_BLOCK;
}

/* Cycle search over channels (router, out port, vc) with an explicit DFS stack. */
static void cdg_check(checker *c) {
    const topo *t = c->t;
    const int V = c->o->num_vcs, K = t->k;
    size_t n = (size_t)t->n_routers * K * V;
    uint8_t *color = calloc(n, 1);
    size_t *stack = malloc(n * sizeof *stack);
    int *next_vc = malloc(n * sizeof *next_vc);
    uint64_t *rest = malloc(n * sizeof *rest);
    if (!color || !stack || !next_vc || !rest) {
        c->oom = 1;
        goto done;
    }
    /* Edges, and channels that take part in at least one dependency (color used as a mark). */
    for (size_t i = 0; i < (size_t)t->n_routers * K * V * V; i++) {
        uint64_t m = c->adj[i];
        if (!m) continue;
        c->res->cdg_edges += (uint64_t)__builtin_popcountll(m);
        int nvc = (int)(i % V), vc = (int)(i / V % V), ip = (int)(i / V / V % K), r = (int)(i / V / V / K);
        int pr, pp;
        if (topo_peer(t, r, ip, &pr, &pp) == 0) color[((size_t)pr * K + pp) * V + vc] = 3;
        for (; m; m &= m - 1) color[((size_t)r * K + __builtin_ctzll(m)) * V + nvc] = 3;
    }
    for (size_t i = 0; i < n; i++)
        if (color[i] == 3) {
            c->res->cdg_nodes++;
            color[i] = 0;
        }
    for (size_t start = 0; start < n; start++) {
        if (color[start]) continue;
        size_t sp = 0;
        stack[sp++] = start;
        color[start] = 1;
        next_vc[start] = 0;
        rest[start] = ~(uint64_t)0; /* sentinel: mask for next_vc not loaded yet */
        while (sp) {
            size_t node = stack[sp - 1];
            int r = (int)(node / ((size_t)K * V)), o = (int)(node / V % K), vc = (int)(node % V);
            int pr, pp;
            if (topo_port_class(t, o) == PORT_TERMINAL || topo_peer(t, r, o, &pr, &pp) != 0) {
                color[node] = 2;
                sp--;
                continue;
            }
            size_t adj_base = (((size_t)pr * K + pp) * V + vc) * V;
            if (rest[node] == ~(uint64_t)0) rest[node] = next_vc[node] < V ? c->adj[adj_base + next_vc[node]] : 0;
            while (!rest[node] && next_vc[node] < V) {
                next_vc[node]++;
                rest[node] = next_vc[node] < V ? c->adj[adj_base + next_vc[node]] : 0;
            }
            if (!rest[node]) {
                color[node] = 2;
                sp--;
                continue;
            }
            int o2 = __builtin_ctzll(rest[node]);
            rest[node] &= rest[node] - 1;
            size_t succ = ((size_t)pr * K + o2) * V + (size_t)next_vc[node];
            if (color[succ] == 1) {
                char buf[DOAR_ERRLEN];
                size_t bn = 0;
                size_t from = sp;
                while (from > 0 && stack[from - 1] != succ) from--;
                if (from > 0) from--;
                for (size_t i = from; i < sp && bn + 40 < sizeof buf; i++) {
                    size_t x = stack[i];
                    int xr = (int)(x / ((size_t)K * V));
                    bn += (size_t)snprintf(buf + bn, sizeof buf - bn, "%s(%d,%d):%d/vc%d", i > from ? " -> " : "",
                                           topo_gid(t, xr), topo_bid(t, xr), (int)(x / V % K), (int)(x % V));
                }
                report(c, CHK_CDG, "cycle %s", buf);
                c->res->cdg_acyclic = 0;
                goto done;
            }
            if (color[succ] == 0) {
                color[succ] = 1;
                next_vc[succ] = 0;
                rest[succ] = ~(uint64_t)0;
                stack[sp++] = succ;
            }
        }
    }
    c->res->cdg_acyclic = 1;
done:
    free(color);
    free(stack);
    free(next_vc);
    free(rest);
}

/* Progress after a destination router (or a group of them) of ndest. */
static void progress(const checker *c, int done, int ndest, const struct timespec *t_start, double *next_report) {
    if (!c->o->progress) return;
    struct timespec t_now;
    clock_gettime(CLOCK_MONOTONIC, &t_now);
    double el = (double)(t_now.tv_sec - t_start->tv_sec) + (t_now.tv_nsec - t_start->tv_nsec) * 1e-9;
    if (el < *next_report) return;
    double eta = el / done * (ndest - done);
    fprintf(c->o->progress, "check: %3d%% destination routers %d/%d, %.0fs elapsed, ~%.0fs to go\n",
            (int)(100L * done / ndest), done, ndest, el, eta);
    fflush(c->o->progress);
    *next_report = el < 10 ? el + 2 : el + 10;
}

/* A root's value into the result (for each of the p terminal ports' nodes). */
static void add_root(const checker *c, const dp_value *v) {
    check_result *res = c->res;
    res->routes += v->count * (uint64_t)c->t->p;
    for (int w = 0; w < CHECK_SHAPE_WORDS; w++) res->shapes_seen[w] |= v->shapes[w];
    if (v->max_hops > res->max_hops) res->max_hops = v->max_hops;
    if (v->max_vc > res->max_vc) res->max_vc = v->max_vc;
}

/* The reference order: one destination router at a time (the order of the reports). */
static void run_one_dest(checker *c, int ndest) {
    const topo *t = c->t;
    struct timespec t_start;
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    double next_report = 1.0; /* seconds: short runs print no progress */
    for (int di = 0; di < ndest && !c->oom; di++) {
        int dr = (int)((long)di * t->n_routers / ndest);
        c->dest_router = dr;
        c->dest_gid = topo_gid(t, dr);
        c->dest_bid = topo_bid(t, dr);
        c->memo.gen++;
        c->memo.used = 0;
        for (int r = 0; r < t->n_routers; r++) {
            for (int ip = 0; ip < t->p; ip++) {
                dp_value v;
                eval_state(c, r, ip, 0, 1, &v);
                add_root(c, &v);
            }
        }
        c->res->pairs += (uint64_t)t->n_routers * t->p;
        c->res->dests_checked++;
        progress(c, di + 1, ndest, &t_start, &next_report);
    }
}

/* The same destinations a group at a time (the lane DP); 0 when done, -1 when it ended. */
static int run_lanes(checker *c, int ndest) {
    const topo *t = c->t;
    const int A = t->a;
    c->lopt = malloc((size_t)(CHECK_MAX_HOPS + 1) * A * 64 * sizeof *c->lopt);
    c->lnopt = malloc((size_t)(CHECK_MAX_HOPS + 1) * A * sizeof *c->lnopt);
    c->rta.opt = malloc(64 * sizeof *c->rta.opt);
    c->ucache = calloc(SHAPE_UNION_CACHE, sizeof *c->ucache); /* a = b = 0 never looked up */
    const uint64_t empty[CHECK_SHAPE_WORDS] = {0};
    if (shape_sets_id(&c->sets, empty) != 0) c->oom = 1; /* the empty set is 0 */
    c->rta.on = 1;
    c->rta.router = -1;
    if (!c->lopt || !c->lnopt || !c->rta.opt || !c->ucache || c->oom) {
        c->oom = 1;
        return -1;
    }
    struct timespec t_start;
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    double next_report = 1.0;
    int done = 0;
    for (int di = 0; di < ndest;) {
        int g = topo_gid(t, (int)((long)di * t->n_routers / ndest));
        uint64_t lanes = 0;
        for (; di < ndest; di++) {
            int dr = (int)((long)di * t->n_routers / ndest);
            if (topo_gid(t, dr) != g) break;
            lanes |= (uint64_t)1 << topo_bid(t, dr);
        }
        c->dest_gid = g;
        c->memo.gen++;
        c->memo.used = 0;
        c->pool_n = 0;
        for (int r = 0; r < t->n_routers; r++) {
            for (int ip = 0; ip < t->p; ip++) {
                uint32_t b = lanes_eval(c, r, ip, 0, 1, lanes);
                if (b == NO_BLOCK) return -1;
                for (uint64_t m = lanes; m; m &= m - 1) {
                    dp_value v;
                    lane_get(c, b, __builtin_ctzll(m), &v);
                    add_root(c, &v);
                }
            }
        }
        int nl = __builtin_popcountll(lanes);
        c->res->pairs += (uint64_t)t->n_routers * t->p * (uint64_t)nl;
        c->res->dests_checked += nl;
        done += nl;
        progress(c, done, ndest, &t_start, &next_report);
    }
    return 0;
}

int check_run(const table_set *ts, const check_opts *o, check_result *res, char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    memset(res, 0, sizeof *res);
    res->max_hops = -1;
    res->max_vc = -1;
    if (ts->routers_present != t->n_routers) {
        snprintf(err, DOAR_ERRLEN, "tables cover %d of %d routers; the checker needs all of them", ts->routers_present,
                 t->n_routers);
        return -1;
    }
    if (o->num_vcs < 1 || o->num_vcs > 8) {
        snprintf(err, DOAR_ERRLEN, "num_vcs must be 1..8");
        return -1;
    }
    if (o->max_hops < 1 || o->max_hops > CHECK_MAX_HOPS) {
        snprintf(err, DOAR_ERRLEN, "max_hops must be 1..%d", CHECK_MAX_HOPS);
        return -1;
    }
    checker c = {0};
    c.ts = ts;
    c.t = t;
    c.o = o;
    c.res = res;
    size_t nadj = (size_t)t->n_routers * t->k * o->num_vcs * o->num_vcs;
    c.adj = calloc(nadj, sizeof *c.adj);
    if (!c.adj || memo_grow(&c.memo)) {
        free(c.adj);
        free(c.memo.e);
        snprintf(err, DOAR_ERRLEN, "out of memory (%zu MB for the dependency graph)", nadj * 8 >> 20);
        return -1;
    }
    int ndest = o->dest_sample > 0 && o->dest_sample < t->n_routers ? o->dest_sample : t->n_routers;
    res->dests_total = t->n_routers;
    if (o->one_dest || run_lanes(&c, ndest) != 0) {
        if (!c.oom) { /* a rule broken (or asked for): again in the reference order, for its reports */
            memset(res, 0, sizeof *res);
            res->max_hops = -1;
            res->max_vc = -1;
            res->dests_total = t->n_routers;
            memset(c.adj, 0, nadj * sizeof *c.adj);
            c.rta.on = 0;
            run_one_dest(&c, ndest);
            res->reran = !o->one_dest;
        }
    }
    if (!c.oom) cdg_check(&c);
    free(c.adj);
    free(c.memo.e);
    free(c.sets.set);
    free(c.sets.slot);
    free(c.pool);
    free(c.lopt);
    free(c.lnopt);
    free(c.rta.opt);
    free(c.ucache);
    if (c.oom) {
        snprintf(err, DOAR_ERRLEN, "out of memory during the check");
        return -1;
    }
    res->ok = res->fail[0] == '\0';
    return 0;
}
