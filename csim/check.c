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
 * (speed only). */
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

typedef struct {
    const table_set *ts;
    const topo *t;
    const check_opts *o;
    check_result *res;
    memo_table memo;
    shape_sets sets;
    uint64_t *adj; /* [(router*k + in_port)*V + vc]*V + out_vc -> out-port mask */
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

static void eval_uncached(checker *c, int router, int in_port, int vc, int code, dp_value *out) {
    const topo *t = c->t;
    const table_set *ts = c->ts;
    int gid = topo_gid(t, router), bid = topo_bid(t, router);
    memset(out, 0, sizeof *out);
    out->max_hops = -1;
    out->max_vc = -1;
    c->res->states++;
    if (router == c->dest_router) {
        arrive(c, router, in_port, code, out);
        return;
    }

    int len = 0;
    while ((1 << (len + 1)) <= code) len++;
    int in_source_group = (code & ((1 << len) - 1)) == 0;
    int index;
    table_zone z = tables_zone(gid, bid, c->dest_gid, c->dest_bid, 0, &index);
    const port_tables *pt = tables_port(ts, router, in_port);
    uint64_t ea = pt->a[tables_row_a(ts, z, index)];
    uint64_t eb = pt->b[tables_row_b(ts, z, index)];
    port_class in_class = topo_port_class(t, in_port);
    uint64_t cand;
    if (tables_is_global_config(in_class, z)) {
        rta_classes cls;
        tables_rta_classes(ts, router, ea, eb, c->dest_bid, &cls);
        cand = tables_rta_ports(ts, pt, router, &cls);
        for (int g = 0; g < t->ah; g++) {
            int in_ga = gbm_test(&cls.ga, g);
            if (!(in_ga || gbm_test(&cls.gb, g) || gbm_test(&cls.gc, g) || gbm_test(&cls.gd, g))) continue;
            if (in_ga && topo_gport_target(t, gid, g) != c->dest_gid) {
                report(c, CHK_RTA, RFMT ": GA for group %d names global port %d, which leads to %s %d",
                       RARGS(router, in_port), c->dest_gid, g,
                       topo_gport_target(t, gid, g) < 0 ? "nothing (unwired):" : "group", topo_gport_target(t, gid, g));
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
        if (out->err) return;
    } else {
        cand = tables_rtb_ports(&ts->t, z, ea, eb, in_source_group, NULL, NULL);
    }
    if (cand == 0) {
        report(c, CHK_DEAD_END, RFMT ": no route option toward router (%d,%d) (zone %c[%d])", RARGS(router, in_port),
               c->dest_gid, c->dest_bid, z == ZONE_B ? 'B' : 'G', index);
        out->err = 1;
        return;
    }
    /* Two passes over the options, in port order: the first works out each option's successor
     * state (or the rule it breaks) and prefetches the successor's memo slot; the second reports
     * and recurses in the order one pass would. Speed only: most successors are memo hits in a
     * table far larger than the caches (tianhe: ~2 M states a destination, ~10 options each),
     * and the prefetches let those misses overlap. */
    const int V = c->o->num_vcs;
    enum { OPT_OK, OPT_RANGE, OPT_TERMINAL, OPT_BACK, OPT_UNWIRED, OPT_LONG, OPT_VC };
    struct {
        int o, pr, pp, nvc, ncode, why;
    } opt[64];
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
    struct timespec t_start, t_now;
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    double next_report = 1.0; /* seconds: short runs print no progress */
    for (int di = 0; di < ndest && !c.oom; di++) {
        int dr = (int)((long)di * t->n_routers / ndest);
        c.dest_router = dr;
        c.dest_gid = topo_gid(t, dr);
        c.dest_bid = topo_bid(t, dr);
        c.memo.gen++;
        c.memo.used = 0;
        for (int r = 0; r < t->n_routers; r++) {
            for (int ip = 0; ip < t->p; ip++) {
                dp_value v;
                eval_state(&c, r, ip, 0, 1, &v);
                res->routes += v.count * (uint64_t)t->p;
                for (int w = 0; w < CHECK_SHAPE_WORDS; w++) res->shapes_seen[w] |= v.shapes[w];
                if (v.max_hops > res->max_hops) res->max_hops = v.max_hops;
                if (v.max_vc > res->max_vc) res->max_vc = v.max_vc;
            }
        }
        res->pairs += (uint64_t)t->n_routers * t->p;
        res->dests_checked++;
        if (o->progress) {
            clock_gettime(CLOCK_MONOTONIC, &t_now);
            double el = (double)(t_now.tv_sec - t_start.tv_sec) + (t_now.tv_nsec - t_start.tv_nsec) * 1e-9;
            if (el >= next_report) {
                double eta = el / (di + 1) * (ndest - di - 1);
                fprintf(o->progress, "check: %3d%% destination routers %d/%d, %.0fs elapsed, ~%.0fs to go\n",
                        (int)(100L * (di + 1) / ndest), di + 1, ndest, el, eta);
                fflush(o->progress);
                next_report = el < 10 ? el + 2 : el + 10;
            }
        }
    }
    if (!c.oom) cdg_check(&c);
    free(c.adj);
    free(c.memo.e);
    free(c.sets.set);
    free(c.sets.slot);
    if (c.oom) {
        snprintf(err, DOAR_ERRLEN, "out of memory during the check");
        return -1;
    }
    res->ok = res->fail[0] == '\0';
    return 0;
}
