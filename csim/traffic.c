#include "traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERM_STREAM 0x7270u   /* "rp": the PRNG stream of the permutation */
#define MAX_SHIFT 1000000

int traffic_parse(const char *name, const topo *t, traffic_spec *out, char err[DOAR_ERRLEN]) {
    memset(out, 0, sizeof *out);
    if (!strcmp(name, "ur")) { out->kind = TRAFFIC_UR; return 0; }
    if (!strcmp(name, "rp")) { out->kind = TRAFFIC_RP; return 0; }
    if (!strncmp(name, "adv+", 4)) {
        const char *s = name + 4;
        char *end;
        if (*s < '0' || *s > '9') goto unknown;
        long i = strtol(s, &end, 10);
        if (*end || i < 1 || i > MAX_SHIFT) goto unknown;
        if (i % t->g == 0) {
            snprintf(err, DOAR_ERRLEN, "traffic '%s': with g=%d every group would send to itself (need i mod g != 0)",
                     name, t->g);
            return -1;
        }
        out->kind = TRAFFIC_ADV;
        out->shift = (int)i;
        return 0;
    }
unknown:
    snprintf(err, DOAR_ERRLEN, "traffic '%s': expected ur, adv+i (i >= 1) or rp", name);
    return -1;
}

void traffic_name(const traffic_spec *s, char *buf, size_t len) {
    if (s->kind == TRAFFIC_ADV) snprintf(buf, len, "adv+%d", s->shift);
    else snprintf(buf, len, "%s", s->kind == TRAFFIC_UR ? "ur" : "rp");
}

int traffic_init(traffic *tr, const topo *t, const traffic_spec *s, uint64_t run_seed, char err[DOAR_ERRLEN]) {
    memset(tr, 0, sizeof *tr);
    tr->t = *t;
    tr->spec = *s;
    if (t->n_nodes < 2) {
        snprintf(err, DOAR_ERRLEN, "traffic needs at least 2 nodes");
        return -1;
    }
    if (s->kind != TRAFFIC_RP) return 0;
    tr->perm = malloc((size_t)t->n_nodes * sizeof *tr->perm);
    if (!tr->perm) {
        snprintf(err, DOAR_ERRLEN, "out of memory");
        return -1;
    }
    for (int n = 0; n < t->n_nodes; n++) tr->perm[n] = n;
    /* Sattolo: swap each position with a strictly earlier one -> a single cycle, no fixed point. */
    prng r;
    prng_seed(&r, run_seed, PERM_STREAM, 0);
    for (int n = t->n_nodes - 1; n > 0; n--) {
        int j = (int)prng_below(&r, (uint32_t)n);
        int x = tr->perm[n];
        tr->perm[n] = tr->perm[j];
        tr->perm[j] = x;
    }
    return 0;
}

void traffic_free(traffic *tr) {
    free(tr->perm);
    tr->perm = NULL;
}

int traffic_dest(const traffic *tr, int src, prng *node_rng) {
    const topo *t = &tr->t;
    switch (tr->spec.kind) {
    case TRAFFIC_RP:
        return tr->perm[src];
    case TRAFFIC_ADV: {
        int nodes_per_group = t->a * t->p;
        int gid = src / nodes_per_group;
        int dg = (int)(((long)gid + tr->spec.shift) % t->g);
        return dg * nodes_per_group + (int)prng_below(node_rng, (uint32_t)nodes_per_group);
    }
    case TRAFFIC_UR:
    default: {
        int d = (int)prng_below(node_rng, (uint32_t)(t->n_nodes - 1));
        return d >= src ? d + 1 : d;   /* skip src: uniform over the others */
    }
    }
}
