#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tables_default_params(table_params *prm) {
    prm->nm_slots = TABLES_PAPER_NM_SLOTS;
    prm->c_ways = TABLES_PAPER_C_WAYS;
    prm->dest_refraction = 1;
}

int tables_check_params(const topo *t, const table_params *prm, char err[DOAR_ERRLEN]) {
    if (prm->nm_slots < 1 || prm->nm_slots > TABLES_MAX_NM_SLOTS) {
        snprintf(err, DOAR_ERRLEN, "nm_slots=%d: must be 1..%d (8-bit slots in a 64-bit entry)", prm->nm_slots,
                 TABLES_MAX_NM_SLOTS);
        return -1;
    }
    if (prm->c_ways < 1 || prm->c_ways > TABLES_MAX_C_WAYS) {
        snprintf(err, DOAR_ERRLEN, "c_ways=%d: must be 1..%d", prm->c_ways, TABLES_MAX_C_WAYS);
        return -1;
    }
    if (prm->dest_refraction != 0 && prm->dest_refraction != 1) {
        snprintf(err, DOAR_ERRLEN, "dest_refraction=%d: must be 0 or 1", prm->dest_refraction);
        return -1;
    }
    if (GLOBAL_A_GP_SHIFT + t->h > 64) {
        snprintf(err, DOAR_ERRLEN, "h=%d: table A global entry needs 8 (lpc0) + h (GP) <= 64 bits", t->h);
        return -1;
    }
    return 0;
}

int tables_init(table_set *ts, const topo *t, const table_params *prm, char err[DOAR_ERRLEN]) {
    memset(ts, 0, sizeof *ts);
    if (tables_check_params(t, prm, err)) return -1;
    ts->t = *t;
    ts->prm = *prm;
    ts->nz = t->p;
    ts->bz = t->a;
    ts->gz = t->g;
    ts->depth_a = ts->nz + ts->bz + ts->gz;
    ts->depth_b = ts->bz + ts->gz;
    ts->depth_c = t->a;
    size_t nports = (size_t)t->n_routers * t->k;
    ts->rcfg = calloc((size_t)t->n_routers, sizeof *ts->rcfg);
    ts->port_ix = malloc(nports * sizeof *ts->port_ix);
    ts->present = calloc((size_t)t->n_routers, 1);
    if (!ts->rcfg || !ts->port_ix || !ts->present) {
        tables_free(ts);
        snprintf(err, DOAR_ERRLEN, "out of memory for %d routers", t->n_routers);
        return -1;
    }
    for (size_t i = 0; i < nports; i++) ts->port_ix[i] = -1;
    return 0;
}

void tables_free(table_set *ts) {
    for (int i = 0; i < ts->pool_n; i++) {
        free(ts->pool[i].a);
        free(ts->pool[i].b);
        free(ts->pool[i].c);
    }
    free(ts->pool);
    free(ts->rcfg);
    free(ts->port_ix);
    free(ts->present);
    memset(ts, 0, sizeof *ts);
}

int tables_pool_new(table_set *ts) {
    if (ts->pool_n == ts->pool_cap) {
        int cap = ts->pool_cap ? ts->pool_cap * 2 : 64;
        port_tables *np = realloc(ts->pool, (size_t)cap * sizeof *np);
        if (!np) return -1;
        ts->pool = np;
        ts->pool_cap = cap;
    }
    port_tables *pt = &ts->pool[ts->pool_n];
    pt->a = calloc((size_t)ts->depth_a, sizeof(uint64_t));
    pt->b = calloc((size_t)ts->depth_b, sizeof(uint64_t));
    pt->c = calloc((size_t)ts->depth_c, sizeof(uint64_t));
    if (!pt->a || !pt->b || !pt->c) {
        free(pt->a);
        free(pt->b);
        free(pt->c);
        return -1;
    }
    return ts->pool_n++;
}

int tables_unshare(table_set *ts, int router, int port) {
    int32_t *slot = &ts->port_ix[router * ts->t.k + port];
    int32_t old = *slot;
    if (old < 0) return -1;
    for (size_t i = 0; i < (size_t)ts->t.n_routers * ts->t.k; i++)
        if (&ts->port_ix[i] != slot && ts->port_ix[i] == old) goto shared;
    return 0; /* already private */
shared:;
    int nix = tables_pool_new(ts);
    if (nix < 0) return -1;
    memcpy(ts->pool[nix].a, ts->pool[old].a, (size_t)ts->depth_a * sizeof(uint64_t));
    memcpy(ts->pool[nix].b, ts->pool[old].b, (size_t)ts->depth_b * sizeof(uint64_t));
    memcpy(ts->pool[nix].c, ts->pool[old].c, (size_t)ts->depth_c * sizeof(uint64_t));
    *slot = nix;
    return 0;
}

table_zone tables_zone(int gid, int bid, int dgid, int dbid, int dnid, int *index) {
    if (dgid != gid) {
        *index = dgid;
        return ZONE_G;
    }
    if (dbid != bid) {
        *index = dbid;
        return ZONE_B;
    }
    *index = dnid;
    return ZONE_N;
}

int tables_row_a(const table_set *ts, table_zone z, int index) {
    switch (z) {
        case ZONE_N: return index;
        case ZONE_B: return ts->nz + index;
        default: return ts->nz + ts->bz + index;
    }
}

int tables_row_b(const table_set *ts, table_zone z, int index) {
    switch (z) {
        case ZONE_N: return -1;
        case ZONE_B: return index;
        default: return ts->bz + index;
    }
}

table_zone tables_zone_of_row(const table_set *ts, table_id tab, int row, int *index) {
    if (tab == TABLE_A) {
        if (row < ts->nz) {
            *index = row;
            return ZONE_N;
        }
        row -= ts->nz;
    }
    if (row < ts->bz) {
        *index = row;
        return ZONE_B;
    }
    *index = row - ts->bz;
    return ZONE_G;
}

uint64_t tables_global_a(int lpc0_bid, uint64_t gp) {
    return (uint64_t)(LPC_VALID | ((unsigned)lpc0_bid & LPC_BID_MASK)) | (gp << GLOBAL_A_GP_SHIFT);
}

uint64_t tables_global_b(const int *bids, int n) {
    uint64_t e = 0;
    for (int s = 0; s < n; s++) e |= (uint64_t)(LPC_VALID | ((unsigned)bids[s] & LPC_BID_MASK)) << (8 * s);
    return e;
}

uint64_t tables_c_entry(const uint8_t *items, int n) {
    uint64_t e = 0;
    for (int i = 0; i < n; i++) e |= (uint64_t)items[i] << (8 * i);
    return e;
}

static uint64_t bit(int port) { return (uint64_t)1 << port; }

/* Router-port bitmap of every wired global port of router bid in group gid. */
static uint64_t own_wired_globals(const topo *t, int gid, int bid) {
    uint64_t m = 0;
    for (int i = 0; i < t->h; i++)
        if (topo_gport_target(t, gid, bid * t->h + i) >= 0) m |= bit(t->first_global + i);
    return m;
}

/* Intra-group ports of router bid to every router except bid and the ones in skip[0..n). */
static uint64_t locals_except(const topo *t, int bid, int skip1, int skip2) {
    uint64_t m = 0;
    for (int o = 0; o < t->a; o++)
        if (o != bid && o != skip1 && o != skip2) m |= bit(topo_local_port(t, bid, o));
    return m;
}

/*
 * Destination-group refraction x -> y -> d (docs/architecture.md "Destination-group refraction"):
 * both hops keep the VC the packet arrived on, so the intra-group channels of one VC must not
 * wait on each other in a cycle. Each hop x -> y gets the rank (delta, delta <= a/2 ? x : -x) with
 * delta = (y - x) mod a, compared lexicographically: distinct hops have distinct ranks, and y is a
 * middle router for (x, d) only when rank(x -> y) < rank(y -> d), so every chain of such waits
 * climbs the ranks and cannot close. Every pair has at least one middle router when a >= 4.
 */
static int dref_rank_less(int a, int x, int y, int d) {
    int d1 = ((y - x) % a + a) % a, d2 = ((d - y) % a + a) % a;
    if (d1 != d2) return d1 < d2;
    int t1 = 2 * d1 <= a ? x : -x, t2 = 2 * d2 <= a ? y : -y;
    return t1 < t2;
}

uint64_t tables_dest_refraction(const topo *t, int bid, int d) {
    uint64_t m = 0;
    for (int y = 0; y < t->a; y++)
        if (y != bid && y != d && dref_rank_less(t->a, bid, y, d)) m |= bit(topo_local_port(t, bid, y));
    return m;
}

/*
 * Routers named by table B's non-minimal slots for internal ports, destination group dg.
 * The own router comes first (case 2 of Algorithm 1 needs its global ports). The exit router
 * (the owner of the minimal port) is left out unless it is this router: Fig. 7(a) configures its
 * intra-group input with table A only, so a packet sent there leaves minimally whatever global
 * port the source had in mind (docs/architecture.md, "Which routers fill table B's slots").
 * When more routers remain than slots, the choice rotates with dg so that different
 * destination groups spread over different routers.
 */
static int nm_routers(const topo *t, int nm_slots, int bid, int exit_bid, int dg, int *out) {
    int n = 0, cand[DOAR_MAX_RADIX], nc = 0;
    out[n++] = bid;
    for (int o = 1; o < t->a; o++) {
        int x = (bid + o) % t->a;
        if (x != exit_bid) cand[nc++] = x;
    }
    if (nc <= nm_slots - 1) {
        for (int c = 0; c < nc; c++) out[n++] = cand[c];
        return n;
    }
    int start = (int)(((long)dg * (nm_slots - 1)) % nc);
    for (int s = 0; s < nm_slots - 1; s++) out[n++] = cand[(start + s) % nc];
    return n;
}

static void fill_router(table_set *ts, int router, int ix_internal, int ix_local, int ix_global) {
    const topo *t = &ts->t;
    int gid = topo_gid(t, router), bid = topo_bid(t, router);
    port_tables *in = &ts->pool[ix_internal], *lo = &ts->pool[ix_local], *gl = &ts->pool[ix_global];
    uint64_t own_globals = own_wired_globals(t, gid, bid);

    /* Zone N: every port class reaches the router's own nodes through table A only. */
    for (int n = 0; n < t->p; n++) {
        int row = tables_row_a(ts, ZONE_N, n);
        in->a[row] = lo->a[row] = gl->a[row] = bit(n);
    }
    /* Zone B: table A goes straight to the destination router; internal ports may
     * refract through any other router of the group (path L-L) via table B. */
    for (int d = 0; d < t->a; d++) {
        if (d == bid) continue;
        int ra = tables_row_a(ts, ZONE_B, d), rb = tables_row_b(ts, ZONE_B, d);
        in->a[ra] = lo->a[ra] = gl->a[ra] = bit(topo_local_port(t, bid, d));
        in->b[rb] = locals_except(t, bid, d, -1);
        /* global input: the paper configures table A only; the refraction is for faults (the
         * route-compute unit takes it only when no table A option is valid) */
        if (ts->prm.dest_refraction) gl->b[rb] = tables_dest_refraction(t, bid, d);
    }
    /* Zone G. */
    for (int dg = 0; dg < t->g; dg++) {
        if (dg == gid) continue;
        int ra = tables_row_a(ts, ZONE_G, dg), rb = tables_row_b(ts, ZONE_G, dg);
        int j = topo_gport_to_group(t, gid, dg);
        int exit_bid = j / t->h;
        uint64_t exit_port = exit_bid == bid ? bit(topo_global_port(t, j)) : bit(topo_local_port(t, bid, exit_bid));
        /* Internal port: global configuration (Algorithm 1 at the source router). */
        in->a[ra] = tables_global_a(exit_bid, (uint64_t)1 << (j % t->h));
        int slots[TABLES_MAX_NM_SLOTS];
        int ns = nm_routers(t, ts->prm.nm_slots, bid, exit_bid, dg, slots);
        in->b[rb] = tables_global_b(slots, ns);
        if (exit_bid == bid) {
            /* Directly connected group: only table A, for both local and global inputs. */
            lo->a[ra] = gl->a[ra] = exit_port;
        } else {
            /* Intra-group input: table B only; filter F keeps the exit router (intermediate
             * group) or this router's own global ports (source group, non-minimal). */
            lo->b[rb] = exit_port | own_globals;
            /* Global input (intermediate group): table A to the exit router, table B
             * refracts through any router other than this one and the exit router. */
            gl->a[ra] = exit_port;
            gl->b[rb] = locals_except(t, bid, exit_bid, -1);
        }
    }
    /* Table C: the local port toward each router of the group; the own entry is "self". */
    for (int d = 0; d < t->a; d++) {
        uint8_t item =
            d == bid ? (uint8_t)(CITEM_VALID | CITEM_SELF) : (uint8_t)(CITEM_VALID | topo_local_port(t, bid, d));
        in->c[d] = lo->c[d] = gl->c[d] = tables_c_entry(&item, 1);
    }
}

int tables_generate(table_set *ts, const topo *t, const table_params *prm, char err[DOAR_ERRLEN]) {
    if (tables_init(ts, t, prm, err)) return -1;
    for (int r = 0; r < t->n_routers; r++) {
        int ix[3];
        for (int c = 0; c < 3; c++) {
            ix[c] = tables_pool_new(ts);
            if (ix[c] < 0) {
                tables_free(ts);
                snprintf(err, DOAR_ERRLEN, "out of memory generating tables for %d routers", t->n_routers);
                return -1;
            }
        }
        fill_router(ts, r, ix[0], ix[1], ix[2]);
        topo_wired(t, topo_gid(t, r), &ts->rcfg[r].wired);
        for (int port = 0; port < t->k; port++) ts->port_ix[r * t->k + port] = ix[topo_port_class(t, port)];
        ts->present[r] = 1;
    }
    ts->routers_present = t->n_routers;
    return 0;
}

static void gbm_or_router(gport_bitmap *b, const topo *t, int bid, uint64_t bits) {
    if (bid >= t->a) return; /* an lpc naming no router of the group selects nothing */
    gbm_or_field(b, bid * t->h, t->h, bits);
}

void tables_rta_classes(const table_set *ts, int router, uint64_t entry_a, uint64_t entry_b, int dest_bid,
                        rta_classes *out) {
    tables_rta_classes_raw(&ts->t, &ts->prm, &ts->rcfg[router].wired, topo_bid(&ts->t, router), entry_a, entry_b,
                           dest_bid, out);
}

void tables_rta_classes_raw(const topo *t, const table_params *prm, const gport_bitmap *wired, int own,
                            uint64_t entry_a, uint64_t entry_b, int dest_bid, rta_classes *out) {
    gbm_clear(&out->ga);
    gbm_clear(&out->gb);
    gbm_clear(&out->gc);
    gbm_clear(&out->gd);
    tables_rta_classes_words(t, prm, wired, own, entry_a, entry_b, dest_bid, out);
}

void tables_rta_classes_words(const topo *t, const table_params *prm, const gport_bitmap *wired, int own,
                              uint64_t entry_a, uint64_t entry_b, int dest_bid, rta_classes *out) {
    const int nw = gbm_words(t);
    uint64_t router_mask = t->h >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->h) - 1);
    gport_bitmap nm, g2, g3;
    for (int w = 0; w < nw; w++) out->ga.w[w] = nm.w[w] = 0;
    /* A1: Sel_min(table A) — lpc0's router, its GP ports. */
    unsigned lpc0 = tables_byte(entry_a, 0);
    if (lpc0 & LPC_VALID)
        gbm_or_router(&out->ga, t, (int)(lpc0 & LPC_BID_MASK), (entry_a >> GLOBAL_A_GP_SHIFT) & router_mask);
    /* A2: Sel_nm(table B) — every wired global port of each slot's router, minus GA so
     * that each global port belongs to exactly one class. */
    for (int s = 0; s < prm->nm_slots; s++) {
        unsigned lpc = tables_byte(entry_b, s);
        if (lpc & LPC_VALID) gbm_or_router(&nm, t, (int)(lpc & LPC_BID_MASK), router_mask);
    }
    gport_bitmap own_ports, dst_ports;
    for (int w = 0; w < nw; w++) own_ports.w[w] = dst_ports.w[w] = 0;
    gbm_or_router(&own_ports, t, own, router_mask);
    if (dest_bid >= 0 && dest_bid < t->a) gbm_or_router(&dst_ports, t, dest_bid, router_mask);
    for (int w = 0; w < nw; w++) {
        nm.w[w] &= wired->w[w] & ~out->ga.w[w];
        g2.w[w] = nm.w[w] & own_ports.w[w];
        g3.w[w] = nm.w[w] & dst_ports.w[w];
        out->gb.w[w] = g2.w[w] & g3.w[w];
        out->gc.w[w] = (g2.w[w] | g3.w[w]) & ~out->gb.w[w];
        out->gd.w[w] = nm.w[w] & ~(g2.w[w] | g3.w[w]);
    }
}

uint64_t tables_lport(const table_set *ts, const port_tables *pt, int router, int g) {
    const topo *t = &ts->t;
    int x = g / t->h;
    uint64_t e = pt->c[x];
    (void)router;
    /* M/P2 use the first valid route item of the row (docs/architecture.md, "Table C"). */
    for (int w = 0; w < ts->prm.c_ways; w++) {
        unsigned item = tables_byte(e, w);
        if (!(item & CITEM_VALID)) continue;
        return (item & CITEM_SELF) ? bit(topo_global_port(t, g)) : bit((int)(item & CITEM_PORT_MASK));
    }
    return 0;
}

uint64_t tables_rta_ports(const table_set *ts, const port_tables *pt, int router, const rta_classes *c) {
    uint64_t ports = 0;
    for (int w = 0; w * 64 < ts->t.ah; w++) /* the set bits of the four classes' union */
        for (uint64_t m = c->ga.w[w] | c->gb.w[w] | c->gc.w[w] | c->gd.w[w]; m; m &= m - 1) {
            int g = w * 64 + __builtin_ctzll(m);
            if (g >= ts->t.ah) break;
            ports |= tables_lport(ts, pt, router, g);
        }
    return ports;
}

uint64_t tables_rtb_ports(const topo *t, table_zone z, uint64_t entry_a, uint64_t entry_b, int in_source_group,
                          uint64_t *le, uint64_t *lf) {
    uint64_t a = entry_a, b = entry_b;
    if (z == ZONE_G) b &= in_source_group ? ~topo_local_mask(t) : ~topo_global_mask(t);
    if (le) *le = a;
    if (lf) *lf = b;
    return a | b;
}

static const char *table_name(table_id tab) { return tab == TABLE_A ? "A" : tab == TABLE_B ? "B" : "C"; }
static const char *zone_name(table_zone z) { return z == ZONE_N ? "N" : z == ZONE_B ? "B" : "G"; }

int tables_validate_entry(const table_set *ts, int router, int port, table_id tab, int row, uint64_t e,
                          char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    int gid = topo_gid(t, router), bid = topo_bid(t, router);
    port_class pc = topo_port_class(t, port);
    if (tab == TABLE_C) {
        if (ts->prm.c_ways < 8 && (e >> (8 * ts->prm.c_ways)) != 0) {
            snprintf(err, DOAR_ERRLEN, "table C row %d: bits above %d items set", row, ts->prm.c_ways);
            return -1;
        }
        for (int w = 0; w < ts->prm.c_ways; w++) {
            unsigned item = tables_byte(e, w);
            if (!(item & CITEM_VALID)) {
                if (item) {
                    snprintf(err, DOAR_ERRLEN, "table C row %d item %d: invalid item with bits 0x%02x", row, w, item);
                    return -1;
                }
                continue;
            }
            if (item & CITEM_SELF) {
                if (item & CITEM_PORT_MASK) {
                    snprintf(err, DOAR_ERRLEN, "table C row %d item %d: self item with port bits", row, w);
                    return -1;
                }
            } else {
                int pnum = (int)(item & CITEM_PORT_MASK);
                if (pnum >= t->k || topo_port_class(t, pnum) != PORT_LOCAL) {
                    snprintf(err, DOAR_ERRLEN, "table C row %d item %d: port %d is not an intra-group port", row, w,
                             pnum);
                    return -1;
                }
            }
        }
        return 0;
    }
    int index;
    table_zone z = tables_zone_of_row(ts, tab, row, &index);
    if ((z == ZONE_B && index == bid) || (z == ZONE_G && index == gid)) {
        if (e) {
            snprintf(err, DOAR_ERRLEN, "table %s zone %s[%d]: the router's own index must be zero", table_name(tab),
                     zone_name(z), index);
            return -1;
        }
        return 0;
    }
    if (tables_is_global_config(pc, z)) {
        if (tab == TABLE_A) {
            unsigned lpc0 = tables_byte(e, 0);
            uint64_t rest = e >> GLOBAL_A_GP_SHIFT;
            if ((lpc0 & LPC_RESERVED) || (lpc0 & LPC_VALID && (int)(lpc0 & LPC_BID_MASK) >= t->a) ||
                (!(lpc0 & LPC_VALID) && e != 0)) {
                snprintf(err, DOAR_ERRLEN, "table A zone G[%d]: bad lpc0 0x%02x", index, lpc0);
                return -1;
            }
            if (t->h < 64 - GLOBAL_A_GP_SHIFT && (rest >> t->h) != 0) {
                snprintf(err, DOAR_ERRLEN, "table A zone G[%d]: GP bits beyond h=%d set", index, t->h);
                return -1;
            }
        } else {
            for (int s = 0; s < 8; s++) {
                unsigned lpc = tables_byte(e, s);
                if (s >= ts->prm.nm_slots && lpc) {
                    snprintf(err, DOAR_ERRLEN, "table B zone G[%d]: slot %d beyond nm_slots=%d is set", index, s + 1,
                             ts->prm.nm_slots);
                    return -1;
                }
                if ((lpc & LPC_RESERVED) || (lpc & LPC_VALID && (int)(lpc & LPC_BID_MASK) >= t->a) ||
                    (!(lpc & LPC_VALID) && lpc)) {
                    snprintf(err, DOAR_ERRLEN, "table B zone G[%d]: bad lpc%d 0x%02x", index, s + 1, lpc);
                    return -1;
                }
            }
        }
        return 0;
    }
    if (t->k < 64 && (e >> t->k) != 0) {
        snprintf(err, DOAR_ERRLEN, "table %s zone %s[%d]: LP bitmap names port %d but k=%d", table_name(tab),
                 zone_name(z), index, 63 - __builtin_clzll(e), t->k);
        return -1;
    }
    return 0;
}

static int describe_ports(const topo *t, uint64_t m, char *buf, size_t len) {
    size_t n = 0;
    buf[0] = '\0';
    for (int port = 0; port < 64 && n < len; port++) {
        if (!((m >> port) & 1)) continue;
        const char *cls = port >= t->k                                ? "?"
                          : topo_port_class(t, port) == PORT_TERMINAL ? "t"
                          : topo_port_class(t, port) == PORT_LOCAL    ? "l"
                                                                      : "g";
        n += (size_t)snprintf(buf + n, len - n, "%s%d%s", n ? " " : "", port, cls);
    }
    if (!m) snprintf(buf, len, "-");
    return 0;
}

void tables_describe(const table_set *ts, int router, int port, table_id tab, int row, uint64_t e, char *buf,
                     size_t len) {
    const topo *t = &ts->t;
    char ports[400];
    if (tab == TABLE_C) {
        size_t n = (size_t)snprintf(buf, len, "C[%d] router bid %d:", row, row);
        for (int w = 0; w < ts->prm.c_ways && n < len; w++) {
            unsigned item = tables_byte(e, w);
            if (!(item & CITEM_VALID)) continue;
            if (item & CITEM_SELF)
                n += (size_t)snprintf(buf + n, len - n, " self");
            else
                n += (size_t)snprintf(buf + n, len - n, " port %u", item & CITEM_PORT_MASK);
        }
        return;
    }
    int index;
    table_zone z = tables_zone_of_row(ts, tab, row, &index);
    if (tables_is_global_config(topo_port_class(t, port), z) && e) {
        if (tab == TABLE_A) {
            unsigned lpc0 = tables_byte(e, 0);
            uint64_t gp = e >> GLOBAL_A_GP_SHIFT;
            size_t n = (size_t)snprintf(buf, len, "%s %s[%d] lpc0=bid %u GP:", table_name(tab), zone_name(z), index,
                                        lpc0 & LPC_BID_MASK);
            for (int i = 0; i < t->h && n < len; i++)
                if ((gp >> i) & 1)
                    n += (size_t)snprintf(buf + n, len - n, " g%d", (int)(lpc0 & LPC_BID_MASK) * t->h + i);
        } else {
            size_t n = (size_t)snprintf(buf, len, "%s %s[%d] lpc1..%d=", table_name(tab), zone_name(z), index,
                                        ts->prm.nm_slots);
            for (int s = 0; s < ts->prm.nm_slots && n < len; s++) {
                unsigned lpc = tables_byte(e, s);
                if (lpc & LPC_VALID) n += (size_t)snprintf(buf + n, len - n, " bid%u", lpc & LPC_BID_MASK);
            }
        }
        return;
    }
    (void)router;
    describe_ports(t, e, ports, sizeof ports);
    snprintf(buf, len, "%s %s[%d] LP=%s", table_name(tab), zone_name(z), index, ports);
}
