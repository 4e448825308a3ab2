#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The named configurations, defined here once: the tool, its help, and the Makefile
 * (build/configs.mk, written by `doar configs --make`) all read this list. */
#define TOPO_NAMED_CONFIGS(X)                                                                                          \
    X(tiny, 1, 2, 1, 3)                                                                                                \
    X(small, 2, 4, 2, 9)                                                                                               \
    X(fig8, 2, 4, 2, 8)                                                                                                \
    X(mid, 4, 8, 4, 33)                                                                                                \
    X(paper, 6, 12, 6, 73)                                                                                             \
    X(tianhe, 16, 32, 16, 513)

#define NAMED_ENTRY(n, p_, a_, h_, g_) {#n, p_, a_, h_, g_},
static const struct {
    const char *name;
    int p, a, h, g;
} named_configs[] = {TOPO_NAMED_CONFIGS(NAMED_ENTRY)};

/* " tiny small ...": a string literal, its leading space skipped */
#define NAMED_WORD(n, p_, a_, h_, g_) " " #n
const char *topo_named_list(void) { return &TOPO_NAMED_CONFIGS(NAMED_WORD)[1]; }

int topo_named_count(void) { return (int)(sizeof named_configs / sizeof named_configs[0]); }

int topo_named_at(topo *t, int i, char err[DOAR_ERRLEN]) {
    if (i < 0 || i >= topo_named_count()) {
        snprintf(err, DOAR_ERRLEN, "no named configuration %d (there are %d)", i, topo_named_count());
        return -1;
    }
    return topo_init(t, named_configs[i].p, named_configs[i].a, named_configs[i].h, named_configs[i].g,
                     named_configs[i].name, err);
}

uint64_t topo_local_mask(const topo *t) {
    uint64_t m = 0;
    for (int port = t->first_local; port < t->first_global; port++) m |= (uint64_t)1 << port;
    return m;
}

uint64_t topo_global_mask(const topo *t) {
    uint64_t m = 0;
    for (int port = t->first_global; port < t->k; port++) m |= (uint64_t)1 << port;
    return m;
}

int topo_init(topo *t, int p, int a, int h, int g, const char *name, char err[DOAR_ERRLEN]) {
    memset(t, 0, sizeof *t);
    if (p < 1 || a < 1 || h < 1 || g < 1) {
        snprintf(err, DOAR_ERRLEN, "dfly(%d,%d,%d,%d): p, a, h and g must all be >= 1", p, a, h, g);
        return -1;
    }
    long k = (long)p + (a - 1) + h;
    if (k > DOAR_MAX_RADIX) {
        snprintf(err, DOAR_ERRLEN, "dfly(%d,%d,%d,%d): radix k = p+(a-1)+h = %ld exceeds %d", p, a, h, g, k,
                 DOAR_MAX_RADIX);
        return -1;
    }
    if ((long)g > (long)a * h + 1) {
        snprintf(err, DOAR_ERRLEN, "dfly(%d,%d,%d,%d): g = %d exceeds a*h+1 = %d", p, a, h, g, g, a * h + 1);
        return -1;
    }
    t->p = p;
    t->a = a;
    t->h = h;
    t->g = g;
    t->k = (int)k;
    t->ah = a * h;
    t->n_routers = a * g;
    t->n_nodes = a * p * g;
    t->first_local = p;
    t->first_global = p + a - 1;
    snprintf(t->name, sizeof t->name, "%s", name ? name : "custom");
    return 0;
}

int topo_named(topo *t, const char *name, char err[DOAR_ERRLEN]) {
    for (int i = 0; i < topo_named_count(); i++)
        if (strcmp(named_configs[i].name, name) == 0) return topo_named_at(t, i, err);
    snprintf(err, DOAR_ERRLEN, "unknown configuration '%s' (known: %s, or --dfly p,a,h,g)", name, topo_named_list());
    return -1;
}

int topo_parse_dfly(topo *t, const char *spec, char err[DOAR_ERRLEN]) {
    long v[4];
    const char *s = spec;
    for (int i = 0; i < 4; i++) {
        char *end;
        if (*s < '0' || *s > '9') goto bad;
        v[i] = strtol(s, &end, 10);
        if (end == s || v[i] > 100000) goto bad;
        s = end;
        if (i < 3) {
            if (*s != ',') goto bad;
            s++;
        }
    }
    if (*s != '\0') goto bad;
    {
        char name[32];
        snprintf(name, sizeof name, "dfly%ld.%ld.%ld.%ld", v[0], v[1], v[2], v[3]);
        return topo_init(t, (int)v[0], (int)v[1], (int)v[2], (int)v[3], name, err);
    }
bad:
    snprintf(err, DOAR_ERRLEN, "--dfly '%s': expected four positive integers p,a,h,g", spec);
    return -1;
}

int topo_gport_target(const topo *t, int gid, int j) {
    int dst;
    if (gid == t->ah)
        dst = j; /* group a*h: port j leads to group j */
    else if (j == gid)
        dst = t->ah; /* own-id port leads to group a*h */
    else
        dst = j;
    return dst < t->g ? dst : -1;
}

int topo_gport_to_group(const topo *t, int gid, int dst) {
    if (dst == gid || dst < 0 || dst >= t->g) return -1;
    int j;
    if (gid == t->ah)
        j = dst;
    else if (dst == t->ah)
        j = gid;
    else
        j = dst;
    return j;
}

void topo_wired(const topo *t, int gid, gport_bitmap *out) {
    gbm_clear(out);
    for (int j = 0; j < t->ah; j++)
        if (topo_gport_target(t, gid, j) >= 0) gbm_set(out, j);
}

int topo_peer(const topo *t, int router, int port, int *peer_router, int *peer_port) {
    int gid = topo_gid(t, router), bid = topo_bid(t, router);
    switch (topo_port_class(t, port)) {
        case PORT_TERMINAL:
            *peer_router = -1;
            *peer_port = router * t->p + port;
            return 0;
        case PORT_LOCAL: {
            int nb = topo_local_peer(t, bid, port);
            *peer_router = topo_router(t, gid, nb);
            *peer_port = topo_local_port(t, nb, bid);
            return 0;
        }
        case PORT_GLOBAL:
        default: {
            int j = topo_group_port(t, bid, port);
            int dst = topo_gport_target(t, gid, j);
            if (dst < 0) {
                *peer_router = -1;
                *peer_port = -1;
                return -1;
            }
            /* The far end is the port of group dst that leads back to gid. */
            int rj = topo_gport_to_group(t, dst, gid);
            *peer_router = topo_router(t, dst, rj / t->h);
            *peer_port = topo_global_port(t, rj);
            return 0;
        }
    }
}

long topo_local_links(const topo *t) { return (long)t->g * t->a * (t->a - 1) / 2; }

long topo_global_links(const topo *t) {
    long ends = 0;
    for (int gid = 0; gid < t->g; gid++)
        for (int j = 0; j < t->ah; j++)
            if (topo_gport_target(t, gid, j) >= 0) ends++;
    return ends / 2;
}

int gbm_count(const gport_bitmap *b) {
    int n = 0;
    for (int i = 0; i < DOAR_GBM_WORDS; i++) n += __builtin_popcountll(b->w[i]);
    return n;
}
