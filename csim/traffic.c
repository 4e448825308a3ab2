#include "traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERM_STREAM 0x7270u  /* "rp": the PRNG stream of the permutation */
#define MIX_STREAM 0x6d78u   /* "mx": which routers / nodes of a mix send the second pattern */
#define PLACE_STREAM 0x706cu /* "pl": random placement of ranks on nodes */
#define MAX_SHIFT 1000000
#define MAX_PERIOD 1000000000L
#define MAX_NUM_DIGITS 10
#define PCT 100
/* lulesh's 26 neighbours: weights of a face, an edge and a corner neighbour (docs/network.md) */
#define LULESH_W_FACE 8
#define LULESH_W_EDGE 2
#define LULESH_W_CORNER 1

static const struct {
    const char *name;
    traffic_kind kind;
    int phased;
} apps[] = {
    {"lu", TRAFFIC_LU, 1},         {"fft3d", TRAFFIC_FFT3D, 1},
    {"halo3d", TRAFFIC_HALO3D, 0}, {"stencil5d", TRAFFIC_STENCIL5D, 0},
    {"dl", TRAFFIC_DL, 0},         {"lulesh", TRAFFIC_LULESH, 0},
};
#define N_APPS (sizeof apps / sizeof apps[0])

/* Dimensions of each application's grid of ranks (dl and lulesh's reduction use rank order). */
static int app_dims(traffic_kind k) {
    switch (k) {
        case TRAFFIC_LU:
        case TRAFFIC_FFT3D: return 2;
        case TRAFFIC_HALO3D:
        case TRAFFIC_LULESH: return 3;
        case TRAFFIC_STENCIL5D: return 5;
        default: return 1;
    }
}

/* A whole number of decimal digits only (no sign, no spaces) in [s, end); -1 otherwise. */
static long parse_digits(const char *s, size_t n, long max) {
    if (n == 0 || n > MAX_NUM_DIGITS) return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v <= max ? v : -1;
}

static int parse_mixed(const char *name, const char *base, const char *args, traffic_spec *out, char err[DOAR_ERRLEN]) {
    out->kind = TRAFFIC_MIXED;
    out->mix_nodes = base[0] == 'n';
    out->mix_rp = !strcmp(base + 8, "ur");
    const char *comma = args ? strchr(args, ',') : NULL;
    const char *close = args ? strchr(args, ')') : NULL;
    long x = -1, y = -1;
    if (comma && close && close > comma && close[1] == '\0') {
        x = parse_digits(args, (size_t)(comma - args), PCT);
        y = parse_digits(comma + 1, (size_t)(close - comma - 1), PCT);
    }
    if (x < 0 || y < 0) {
        snprintf(err, DOAR_ERRLEN,
                 "traffic '%s': expected %s(x,y), x = UR%% and y = %s%% of the %s, whole numbers, "
                 "x + y = 100 (quote the parentheses in a shell)",
                 name, base, out->mix_rp ? "RP" : "ADV", out->mix_nodes ? "nodes" : "routers");
        return -1;
    }
    if (x + y != PCT) {
        snprintf(err, DOAR_ERRLEN, "traffic '%s': x + y = %ld, the UR and %s shares must add up to 100", name, x + y,
                 out->mix_rp ? "RP" : "ADV");
        return -1;
    }
    out->ur_pct = (int)x;
    out->mix_pct = (int)y;
    return 0;
}

/* NAME or NAME(opt[,opt]): opt is random or linear (placement), or for lu and fft3d a phase length. */
static int parse_app(const char *name, int app, const char *args, traffic_spec *out, char err[DOAR_ERRLEN]) {
    out->kind = apps[app].kind;
    out->period = apps[app].phased ? TRAFFIC_DEFAULT_PERIOD : 0;
    if (!args) return 0;
    size_t len = strlen(args);
    const char *last = args + len - 1; /* must be the closing ')' */
    int have_place = 0, have_period = 0, ok = len >= 2 && *last == ')';
    for (const char *s = args; ok && s < last;) {
        const char *e = s;
        while (e < last && *e != ',') e++;
        size_t n = (size_t)(e - s);
        if (n == 6 && (!strncmp(s, "linear", n) || !strncmp(s, "random", n))) {
            ok = !have_place;
            have_place = 1;
            out->linear_place = s[0] == 'l';
        } else {
            long p = apps[app].phased ? parse_digits(s, n, MAX_PERIOD) : -1;
            ok = p >= 1 && !have_period;
            have_period = 1;
            out->period = p;
        }
        s = e + 1;
        if (*e == ',' && s == last) ok = 0; /* a trailing comma */
    }
    if (ok) return 0;
    if (apps[app].phased)
        snprintf(err, DOAR_ERRLEN,
                 "traffic '%s': expected %s or %s(OPT[,OPT]), OPT = random or linear (rank placement) "
                 "or P, cycles per phase, 1..1000000000",
                 name, apps[app].name, apps[app].name);
    else
        snprintf(err, DOAR_ERRLEN, "traffic '%s': expected %s, %s(random) or %s(linear) (rank placement)", name,
                 apps[app].name, apps[app].name, apps[app].name);
    return -1;
}

int traffic_parse(const char *name, const topo *t, traffic_spec *out, char err[DOAR_ERRLEN]) {
    memset(out, 0, sizeof *out);
    if (!strcmp(name, "ur")) {
        out->kind = TRAFFIC_UR;
        return 0;
    }
    if (!strcmp(name, "rp")) {
        out->kind = TRAFFIC_RP;
        return 0;
    }
    if (!strncmp(name, "adv+", 4)) {
        long i = parse_digits(name + 4, strlen(name + 4), MAX_SHIFT);
        if (i < 1) goto unknown;
        if (i % t->g == 0) {
            snprintf(err, DOAR_ERRLEN, "traffic '%s': with g=%d every group would send to itself (need i mod g != 0)",
                     name, t->g);
            return -1;
        }
        out->kind = TRAFFIC_ADV;
        out->shift = (int)i;
        return 0;
    }
    char base[16];
    const char *paren = strchr(name, '(');
    size_t blen = paren ? (size_t)(paren - name) : strlen(name);
    if (blen >= sizeof base) goto unknown;
    memcpy(base, name, blen);
    base[blen] = '\0';
    const char *args = paren ? paren + 1 : NULL;
    if (!strcmp(base, "r_mixed_ua") || !strcmp(base, "r_mixed_ur") || !strcmp(base, "n_mixed_ua") ||
        !strcmp(base, "n_mixed_ur")) {
        if (parse_mixed(name, base, args, out, err)) return -1;
        if (!out->mix_rp && 1 % t->g == 0) {
            snprintf(err, DOAR_ERRLEN, "traffic '%s': ADV+1 needs at least 2 groups", name);
            return -1;
        }
        return 0;
    }
    for (size_t a = 0; a < N_APPS; a++)
        if (!strcmp(base, apps[a].name)) return parse_app(name, (int)a, args, out, err);
unknown:
    snprintf(err, DOAR_ERRLEN,
             "traffic '%s': expected ur, adv+i (i >= 1), rp, r_mixed_ua(x,y), r_mixed_ur(x,y), "
             "n_mixed_ua(x,y), n_mixed_ur(x,y), lu, fft3d, halo3d, stencil5d, dl or lulesh",
             name);
    return -1;
}

void traffic_name(const traffic_spec *s, char *buf, size_t len) {
    switch (s->kind) {
        case TRAFFIC_UR: snprintf(buf, len, "ur"); return;
        case TRAFFIC_RP: snprintf(buf, len, "rp"); return;
        case TRAFFIC_ADV: snprintf(buf, len, "adv+%d", s->shift); return;
        case TRAFFIC_MIXED:
            snprintf(buf, len, "%c_mixed_%s(%d,%d)", s->mix_nodes ? 'n' : 'r', s->mix_rp ? "ur" : "ua", s->ur_pct,
                     s->mix_pct);
            return;
        default: break;
    }
    for (size_t a = 0; a < N_APPS; a++) {
        if (apps[a].kind != s->kind) continue;
        int show_period = apps[a].phased && s->period > 0 && s->period != TRAFFIC_DEFAULT_PERIOD;
        if (!s->linear_place && !show_period)
            snprintf(buf, len, "%s", apps[a].name);
        else if (!show_period)
            snprintf(buf, len, "%s(linear)", apps[a].name);
        else
            snprintf(buf, len, "%s(%s%ld)", apps[a].name, s->linear_place ? "linear," : "", s->period);
        return;
    }
    snprintf(buf, len, "?");
}

/* ---- the grid of ranks ---- */

typedef struct {
    int cur[TRAFFIC_MAX_DIMS], best[TRAFFIC_MAX_DIMS];
    long best_sum;
    int d;
} grid_search;

/* True when f^k >= m (k factors of at most f can multiply to m). */
static int reaches(long f, int k, long m) {
    long v = 1;
    for (int i = 0; i < k; i++) {
        v *= f;
        if (v >= m) return 1;
    }
    return v >= m;
}

/* Factor `depth` onwards of m, each at most maxf, non-increasing. */
static void grid_rec(grid_search *g, int depth, long m, long maxf, long sum) {
    int k = g->d - depth;
    if (k == 1) {
        if (m > maxf) return;
        g->cur[depth] = (int)m;
        sum += m;
        if (g->best_sum < 0 || sum < g->best_sum || (sum == g->best_sum && g->cur[0] < g->best[0])) {
            g->best_sum = sum;
            memcpy(g->best, g->cur, sizeof g->best);
        }
        return;
    }
    for (long f = maxf < m ? maxf : m; f >= 1; f--) {
        if (!reaches(f, k, m)) break;
        if (m % f) continue;
        g->cur[depth] = (int)f;
        grid_rec(g, depth + 1, m / f, f, sum + f);
    }
}

void traffic_grid(int n, int d, int dims[TRAFFIC_MAX_DIMS]) {
    grid_search g;
    memset(&g, 0, sizeof g);
    g.d = d;
    g.best_sum = -1;
    grid_rec(&g, 0, n, n, 0);
    for (int i = 0; i < TRAFFIC_MAX_DIMS; i++) dims[i] = i < d ? g.best[i] : 1;
}

/* ---- init ---- */

static void shuffle(int *v, int n, prng *r) { /* Fisher-Yates: every order equally likely */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)prng_below(r, (uint32_t)(i + 1));
        int x = v[i];
        v[i] = v[j];
        v[j] = x;
    }
}

static int init_perm(traffic *tr, uint64_t run_seed) {
    int n_nodes = tr->t.n_nodes;
    tr->perm = malloc((size_t)n_nodes * sizeof *tr->perm);
    if (!tr->perm) return -1;
    for (int n = 0; n < n_nodes; n++) tr->perm[n] = n;
    /* Sattolo: swap each position with a strictly earlier one -> a single cycle, no fixed point. */
    prng r;
    prng_seed(&r, run_seed, PERM_STREAM, 0);
    for (int n = n_nodes - 1; n > 0; n--) {
        int j = (int)prng_below(&r, (uint32_t)n);
        int x = tr->perm[n];
        tr->perm[n] = tr->perm[j];
        tr->perm[j] = x;
    }
    return 0;
}

/* round(y% of the routers or nodes), a seeded random subset of them, send the second pattern. */
static int init_mix(traffic *tr, uint64_t run_seed) {
    const topo *t = &tr->t;
    int units = tr->spec.mix_nodes ? t->n_nodes : t->n_routers;
    int per_unit = tr->spec.mix_nodes ? 1 : t->p;
    int chosen = (int)(((long)tr->spec.mix_pct * units + PCT / 2) / PCT);
    int *order = malloc((size_t)units * sizeof *order);
    tr->mix_other = calloc((size_t)t->n_nodes, 1);
    if (!order || !tr->mix_other) {
        free(order);
        return -1;
    }
    for (int i = 0; i < units; i++) order[i] = i;
    prng r;
    prng_seed(&r, run_seed, MIX_STREAM, 0);
    shuffle(order, units, &r);
    for (int i = 0; i < chosen; i++)
        for (int j = 0; j < per_unit; j++) tr->mix_other[order[i] * per_unit + j] = 1;
    free(order);
    return tr->spec.mix_rp ? init_perm(tr, run_seed) : 0;
}

static int init_app(traffic *tr, uint64_t run_seed) {
    int n = tr->t.n_nodes;
    tr->rank_of = malloc((size_t)n * sizeof *tr->rank_of);
    tr->node_of = malloc((size_t)n * sizeof *tr->node_of);
    if (!tr->rank_of || !tr->node_of) return -1;
    for (int r = 0; r < n; r++) tr->node_of[r] = r;
    if (!tr->spec.linear_place) {
        prng rng;
        prng_seed(&rng, run_seed, PLACE_STREAM, 0);
        shuffle(tr->node_of, n, &rng);
    }
    for (int r = 0; r < n; r++) tr->rank_of[tr->node_of[r]] = r;
    tr->ndims = app_dims(tr->spec.kind);
    traffic_grid(n, tr->ndims, tr->dims);
    return 0;
}

int traffic_init(traffic *tr, const topo *t, const traffic_spec *s, uint64_t run_seed, char err[DOAR_ERRLEN]) {
    memset(tr, 0, sizeof *tr);
    tr->t = *t;
    tr->spec = *s;
    if (t->n_nodes < 2) {
        snprintf(err, DOAR_ERRLEN, "traffic needs at least 2 nodes");
        return -1;
    }
    int rc = 0;
    if (s->kind == TRAFFIC_RP)
        rc = init_perm(tr, run_seed);
    else if (s->kind == TRAFFIC_MIXED)
        rc = init_mix(tr, run_seed);
    else if (s->kind >= TRAFFIC_LU)
        rc = init_app(tr, run_seed);
    if (rc) {
        traffic_free(tr);
        snprintf(err, DOAR_ERRLEN, "out of memory");
        return -1;
    }
    return 0;
}

void traffic_free(traffic *tr) {
    free(tr->perm);
    free(tr->mix_other);
    free(tr->rank_of);
    free(tr->node_of);
    tr->perm = tr->rank_of = tr->node_of = NULL;
    tr->mix_other = NULL;
}

/* ---- destinations ---- */

static int ur_dest(const topo *t, int src, prng *r) {
    int d = (int)prng_below(r, (uint32_t)(t->n_nodes - 1));
    return d >= src ? d + 1 : d; /* skip src: uniform over the others */
}

static int adv_dest(const topo *t, int src, int shift, prng *r) {
    int nodes_per_group = t->a * t->p;
    int gid = src / nodes_per_group;
    int dg = (int)(((long)gid + shift) % t->g);
    return dg * nodes_per_group + (int)prng_below(r, (uint32_t)nodes_per_group);
}

/* Coordinates of a rank on the grid, and back. */
static void coords(const traffic *tr, int rank, int c[TRAFFIC_MAX_DIMS]) {
    for (int i = 0; i < tr->ndims; i++) {
        c[i] = rank % tr->dims[i];
        rank /= tr->dims[i];
    }
}
static int rank_at(const traffic *tr, const int c[TRAFFIC_MAX_DIMS]) {
    int r = 0;
    for (int i = tr->ndims - 1; i >= 0; i--) r = r * tr->dims[i] + c[i];
    return r;
}

/* halo3d, stencil5d: one of the 2 face neighbours of every dimension longer than 1, periodic. */
static int face_dest(const traffic *tr, int rank, prng *r) {
    int c[TRAFFIC_MAX_DIMS], live[TRAFFIC_MAX_DIMS], n = 0;
    for (int i = 0; i < tr->ndims; i++)
        if (tr->dims[i] > 1) live[n++] = i;
    int pick = (int)prng_below(r, (uint32_t)(2 * n));
    int dim = live[pick / 2], d = tr->dims[dim];
    coords(tr, rank, c);
    c[dim] = (c[dim] + ((pick & 1) ? d - 1 : 1)) % d;
    return rank_at(tr, c);
}

/* lu: the forward sweep (even phases) sends east (+x) and south (+y), the backward sweep west and
 * north; no wrap-around. The corner that ends a sweep starts the next: it sends the other way. */
static int lu_dest(const traffic *tr, int rank, long phase, prng *r) {
    int c[TRAFFIC_MAX_DIMS], cand[4], n = 0;
    coords(tr, rank, c);
    for (int pass = 0; pass < 2 && n == 0; pass++) {
        int step = ((phase & 1) == 0) == (pass == 0) ? 1 : -1;
        for (int i = 0; i < 2; i++) {
            int x = c[i] + step;
            if (x < 0 || x >= tr->dims[i]) continue;
            int cc[TRAFFIC_MAX_DIMS];
            memcpy(cc, c, sizeof cc);
            cc[i] = x;
            cand[n++] = rank_at(tr, cc);
        }
    }
    return cand[n == 1 ? 0 : (int)prng_below(r, (uint32_t)n)];
}

/* fft3d: all-to-all within the row (same y) in even phases, within the column (same x) in odd
 * ones; a group of 1 rank uses the other. */
static int fft_dest(const traffic *tr, int rank, long phase, prng *r) {
    int c[TRAFFIC_MAX_DIMS];
    coords(tr, rank, c);
    int dim = (int)(phase & 1);
    if (tr->dims[dim] < 2) dim = 1 - dim;
    int j = (int)prng_below(r, (uint32_t)(tr->dims[dim] - 1));
    c[dim] = j >= c[dim] ? j + 1 : j;
    return rank_at(tr, c);
}

/* lulesh: a recursive-doubling all-reduce partner rank ^ 2^k with probability
 * TRAFFIC_LULESH_REDUCE, else one of the 26 neighbours (faces, edges, corners weighted
 * LULESH_W_*), without wrap-around. */
static int lulesh_dest(const traffic *tr, int rank, prng *r) {
    int n = tr->t.n_nodes;
    if (prng_chance(r, prng_threshold(TRAFFIC_LULESH_REDUCE))) {
        int bits[31], nb = 0;
        for (int k = 0; k < 31 && (1L << k) < 2L * n; k++)
            if ((rank ^ (1 << k)) < n) bits[nb++] = k;
        return rank ^ (1 << bits[nb == 1 ? 0 : (int)prng_below(r, (uint32_t)nb)]);
    }
    static const int weight_by_nonzero[4] = {0, LULESH_W_FACE, LULESH_W_EDGE, LULESH_W_CORNER};
    int c[TRAFFIC_MAX_DIMS], total = 0;
    coords(tr, rank, c);
    for (int pass = 0; pass < 2; pass++) {
        int target = pass ? (int)prng_below(r, (uint32_t)total) : 0;
        for (int o = 0; o < 27; o++) {
            int off[3] = {o % 3 - 1, o / 3 % 3 - 1, o / 9 - 1}, nz = 0, inside = 1;
            for (int i = 0; i < 3; i++) {
                nz += off[i] != 0;
                inside &= c[i] + off[i] >= 0 && c[i] + off[i] < tr->dims[i];
            }
            if (!nz || !inside) continue;
            if (!pass) {
                total += weight_by_nonzero[nz];
                continue;
            }
            target -= weight_by_nonzero[nz];
            if (target < 0) {
                int cc[TRAFFIC_MAX_DIMS];
                memcpy(cc, c, sizeof cc);
                for (int i = 0; i < 3; i++) cc[i] += off[i];
                return rank_at(tr, cc);
            }
        }
    }
    return (rank + 1) % n; /* not reached: total > 0 whenever n >= 2 */
}

int traffic_dest(const traffic *tr, int src, prng *node_rng, long cycle) {
    const topo *t = &tr->t;
    const traffic_spec *s = &tr->spec;
    switch (s->kind) {
        case TRAFFIC_RP: return tr->perm[src];
        case TRAFFIC_ADV: return adv_dest(t, src, s->shift, node_rng);
        case TRAFFIC_MIXED:
            if (!tr->mix_other[src]) return ur_dest(t, src, node_rng);
            return s->mix_rp ? tr->perm[src] : adv_dest(t, src, 1, node_rng);
        case TRAFFIC_UR: return ur_dest(t, src, node_rng);
        default: break;
    }
    int rank = tr->rank_of[src], to;
    long phase = cycle / (s->period > 0 ? s->period : TRAFFIC_DEFAULT_PERIOD);
    switch (s->kind) {
        case TRAFFIC_LU: to = lu_dest(tr, rank, phase, node_rng); break;
        case TRAFFIC_FFT3D: to = fft_dest(tr, rank, phase, node_rng); break;
        case TRAFFIC_DL: to = (rank + 1) % t->n_nodes; break;
        case TRAFFIC_LULESH: to = lulesh_dest(tr, rank, node_rng); break;
        default: to = face_dest(tr, rank, node_rng); break; /* halo3d, stencil5d */
    }
    return tr->node_of[to];
}
