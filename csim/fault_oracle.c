#include "fault_oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t bit(int j) { return (uint64_t)1 << j; }

/* Options of one entry, straight from the path rules of docs/architecture.md sec. 2. */
static uint64_t options(const table_set *ts, int r, int c, int e, int transit) {
    const topo *t = &ts->t;
    const port_tables *pt = tables_port(ts, r, c);
    int index;
    table_zone z = tables_zone_of_row(ts, TABLE_A, e, &index);
    uint64_t a = pt->a[e], b = z == ZONE_N ? 0 : pt->b[tables_row_b(ts, z, index)];
    port_class pc = topo_port_class(t, c);
    if (z != ZONE_G) return a | b;
    if (pc == PORT_TERMINAL) {
        rta_classes cls;
        tables_rta_classes(ts, r, a, b, 0, &cls);
        uint64_t out = 0;
        for (int j = 0; j < t->ah; j++)
            if (gbm_test(&cls.ga, j) || gbm_test(&cls.gb, j) || gbm_test(&cls.gc, j) || gbm_test(&cls.gd, j))
                out |= tables_lport(ts, pt, r, j);
        return out;
    }
    if (pc == PORT_LOCAL && !transit) return a | (b & ~topo_local_mask(t));
    return a | (b & ~topo_global_mask(t));
}

typedef struct {
    const table_set *ts;
    const topo *t;
    const uint8_t *rdead, *pdead;
    fault_oracle *o;
    uint8_t *dirty, *next_dirty;
} orc;

static size_t ix(const orc *w, int r, int c, int e) { return ((size_t)r * w->t->k + c) * w->o->et_num + e; }

static size_t oix(const orc *w, int r, int c, int e) { return w->o->opt_row[(size_t)r * w->t->k + c] + e; }

static int usable(const orc *w, int q, int cq, int row, int transit) {
    return (w->o->opt[transit][oix(w, q, cq, row)] & w->o->mask[ix(w, q, cq, row)]) != 0;
}

/* Options per router and distinct (port tables, port class): the rows and their offsets. Returns the
 * number of rows, or -1 (memory). */
static long option_rows(fault_oracle *o, const table_set *ts) {
    const topo *t = &ts->t;
    long rows = 0;
    for (int pass = 0; pass < 2; pass++) {
        rows = 0;
        for (int r = 0; r < t->n_routers; r++)
            for (int c = 0; c < t->k; c++) {
                int same = -1;
                for (int c0 = 0; c0 < c && same < 0; c0++)
                    if (ts->port_ix[r * t->k + c0] == ts->port_ix[r * t->k + c] &&
                        topo_port_class(t, c0) == topo_port_class(t, c))
                        same = c0;
                if (same < 0) {
                    if (pass) {
                        o->opt_row[(size_t)r * t->k + c] = (size_t)rows * o->et_num;
                        for (int e = 0; e < o->et_num; e++) {
                            o->opt[0][(size_t)rows * o->et_num + e] = options(ts, r, c, e, 0);
                            o->opt[1][(size_t)rows * o->et_num + e] = options(ts, r, c, e, 1);
                        }
                    }
                    rows++;
                } else if (pass)
                    o->opt_row[(size_t)r * t->k + c] = o->opt_row[(size_t)r * t->k + same];
            }
        if (!pass) {
            o->opt[0] = calloc((size_t)(rows ? rows : 1) * o->et_num, sizeof(uint64_t));
            o->opt[1] = calloc((size_t)(rows ? rows : 1) * o->et_num, sizeof(uint64_t));
            if (!o->opt[0] || !o->opt[1]) return -1;
        }
    }
    return rows;
}

/* Does every destination of entry e at router r, reached through Q's input cq, stay reachable? */
static int option_holds(const orc *w, int r, int c, int e, int q, int cq) {
    const topo *t = w->t;
    const table_set *ts = w->ts;
    int transit = topo_port_class(t, c) != PORT_TERMINAL;
    int index;
    table_zone z = tables_zone_of_row(ts, TABLE_A, e, &index);
    int qg = topo_gid(t, q), qb = topo_bid(t, q);
    if (z == ZONE_N) return 1;
    if (z == ZONE_B) {
        int d = topo_router(t, topo_gid(t, r), index);
        if (q == d) return 1;
        if (w->rdead[d]) return 1;
        return usable(w, q, cq, tables_row_a(ts, ZONE_B, index), transit);
    }
    if (qg != index) return usable(w, q, cq, tables_row_a(ts, ZONE_G, index), transit);
    for (int d = 0; d < t->a; d++) {
        if (d == qb || w->rdead[topo_router(t, qg, d)]) continue;
        if (!usable(w, q, cq, tables_row_a(ts, ZONE_B, d), transit)) return 0;
    }
    return 1;
}

int fault_oracle_run(fault_oracle *o, const table_set *ts, const uint8_t *router_dead, const uint8_t *port_dead,
                     char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    memset(o, 0, sizeof *o);
    o->ts = ts;
    o->et_num = ts->depth_a;
    size_t n = (size_t)t->n_routers * t->k * o->et_num;
    o->opt_row = calloc((size_t)t->n_routers * t->k, sizeof *o->opt_row);
    o->mask = calloc(n, sizeof(uint64_t));
    o->acc = calloc(n, 1);
    orc w = {ts, t, router_dead, port_dead, o, calloc((size_t)t->n_routers, 1), calloc((size_t)t->n_routers, 1)};
    if (!o->opt_row || !o->mask || !o->acc || !w.dirty || !w.next_dirty || option_rows(o, ts) < 0) {
        free(w.dirty);
        free(w.next_dirty);
        fault_oracle_free(o);
        snprintf(err, DOAR_ERRLEN, "out of memory for the fault oracle");
        return -1;
    }
    for (int r = 0; r < t->n_routers; r++) {
        if (router_dead[r]) continue;
        w.dirty[r] = 1;
        for (int c = 0; c < t->k; c++)
            for (int e = 0; e < o->et_num; e++) {
                size_t i = ix(&w, r, c, e), oi = oix(&w, r, c, e);
                o->mask[i] = ~(uint64_t)0;
                for (uint64_t m = o->opt[0][oi] | o->opt[1][oi]; m; m &= m - 1) {
                    int p = __builtin_ctzll(m), q, qp;
                    if (topo_port_class(t, p) == PORT_TERMINAL) continue;
                    if (topo_peer(t, r, p, &q, &qp) || port_dead[(size_t)r * t->k + p] || router_dead[q])
                        o->mask[i] &= ~bit(p);
                }
            }
    }
    int any = 1;
    while (any) {
        any = 0;
        o->iterations++;
        memset(w.next_dirty, 0, (size_t)t->n_routers);
        for (int r = 0; r < t->n_routers; r++) {
            if (!w.dirty[r]) continue;
            for (int c = 0; c < t->k; c++)
                for (int e = 0; e < o->et_num; e++) {
                    size_t i = ix(&w, r, c, e), oi = oix(&w, r, c, e);
                    uint64_t before_src = o->opt[0][oi] & o->mask[i], before_tr = o->opt[1][oi] & o->mask[i];
                    for (uint64_t m = (o->opt[0][oi] | o->opt[1][oi]) & o->mask[i]; m; m &= m - 1) {
                        int p = __builtin_ctzll(m), q, qp;
                        if (topo_port_class(t, p) == PORT_TERMINAL) continue;
                        topo_peer(t, r, p, &q, &qp);
                        if (!option_holds(&w, r, c, e, q, qp)) o->mask[i] &= ~bit(p);
                    }
                    int lost =
                        (before_src && !(o->opt[0][oi] & o->mask[i])) || (before_tr && !(o->opt[1][oi] & o->mask[i]));
                    if (lost) {
                        /* the routers that send into (r, c) must look again */
                        int q, qp;
                        if (topo_port_class(t, c) != PORT_TERMINAL && !topo_peer(t, r, c, &q, &qp) && !router_dead[q]) {
                            w.next_dirty[q] = 1;
                            any = 1;
                        }
                    }
                }
        }
        uint8_t *tmp = w.dirty;
        w.dirty = w.next_dirty;
        w.next_dirty = tmp;
    }
    for (int r = 0; r < t->n_routers; r++)
        for (int c = 0; c < t->k; c++)
            for (int e = 0; e < o->et_num; e++) {
                size_t i = ix(&w, r, c, e), oi = oix(&w, r, c, e);
                o->acc[i] = (uint8_t)(((o->opt[0][oi] & o->mask[i]) ? 1 : 0) | ((o->opt[1][oi] & o->mask[i]) ? 2 : 0));
            }
    for (int s = 0; s < t->n_routers; s++) {
        if (router_dead[s]) continue;
        for (int d = 0; d < t->n_routers; d++) {
            if (d == s || router_dead[d]) continue;
            int sg = topo_gid(t, s), dg = topo_gid(t, d);
            int row = sg == dg ? tables_row_a(ts, ZONE_B, topo_bid(t, d)) : tables_row_a(ts, ZONE_G, dg);
            for (int c = 0; c < t->p; c++)
                if (!(o->acc[ix(&w, s, c, row)] & 1)) o->unreachable_pairs += (uint64_t)t->p;
        }
    }
    free(w.dirty);
    free(w.next_dirty);
    return 0;
}

void fault_oracle_free(fault_oracle *o) {
    free(o->opt[0]);
    free(o->opt[1]);
    free(o->opt_row);
    free(o->mask);
    free(o->acc);
    memset(o, 0, sizeof *o);
}
