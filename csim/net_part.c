/* The network split over processes by groups: partition, exchange, totals (net_part.h). */
#define _GNU_SOURCE /* mallinfo2: what the first router allocated (net_part_memory_check) */
#include "net_part.h"

#include <limits.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One word that crossed ranks: the cycle it is read in, the ring (router * k + port) it goes
 * into, the word. */
typedef struct {
    int64_t cycle;
    int32_t ring, pad;
    link_word w;
} xword;

struct net_part {
    int *rank_of_group; /* [g] */
    int *xr;            /* the other ranks' routers ours write into over a global link, by rank */
    int *xr_start;      /* [size + 1]: xr[xr_start[d] .. xr_start[d+1]) belong to rank d */
    long last_x;        /* every word written before this cycle has been exchanged */
    char *sbuf;
    size_t scap;
    size_t *slen, *rlen; /* [size] */
    long exchanges, words, bytes, syncs;
    double comm_seconds; /* wall time in syncs and exchanges (waiting for the others included) */
    /* the totals at the last sync (sum_longs / sum_doubles below, in that order) */
    long base_l[32 + NET_MAX_HOPS_HIST + 1];
    double base_d[4];
};

static int owned(const network *n, int r) { return r >= n->r_lo && r < n->r_hi; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int net_part_range(network *n, char err[DOAR_ERRLEN]) {
    const net_comm *c = n->prm.comm;
    const topo *t = &n->t;
    if (c->size > t->g) {
        snprintf(err, DOAR_ERRLEN, "%d ranks: the network is split by groups and has only %d (use at most %d ranks)",
                 c->size, t->g, t->g);
        return -1;
    }
    n->g_lo = (int)((long)c->rank * t->g / c->size);
    n->g_hi = (int)((long)(c->rank + 1) * t->g / c->size);
    n->r_lo = n->g_lo * t->a;
    n->r_hi = n->g_hi * t->a;
    return 0;
}

int net_part_needs_ring(const network *n, int r, int port) {
    int pr, pp;
    if (owned(n, r)) return 1;
    return topo_peer(&n->t, r, port, &pr, &pp) == 0 && pr >= 0 && owned(n, pr);
}

int net_part_init(network *n, char err[DOAR_ERRLEN]) {
    const net_comm *c = n->prm.comm;
    const topo *t = &n->t;
    net_part *P = calloc(1, sizeof *P);
    n->part = P;
    if (!P) goto oom;
    P->rank_of_group = malloc((size_t)t->g * sizeof *P->rank_of_group);
    P->xr_start = calloc((size_t)c->size + 1, sizeof *P->xr_start);
    P->slen = calloc((size_t)c->size, sizeof *P->slen);
    P->rlen = calloc((size_t)c->size, sizeof *P->rlen);
    uint8_t *mark = calloc((size_t)t->n_routers, 1);
    if (!P->rank_of_group || !P->xr_start || !P->slen || !P->rlen || !mark) {
        free(mark);
        goto oom;
    }
    for (int rk = 0; rk < c->size; rk++)
        for (int g = (int)((long)rk * t->g / c->size); g < (int)((long)(rk + 1) * t->g / c->size); g++)
            P->rank_of_group[g] = rk;
    int count = 0;
    for (int r = n->r_lo; r < n->r_hi; r++)
        for (int o = t->first_global; o < t->k; o++) {
            int pr, pp;
            if (topo_peer(t, r, o, &pr, &pp) == 0 && pr >= 0 && !owned(n, pr) && !mark[pr]) {
                mark[pr] = 1;
                count++;
            }
        }
    P->xr = malloc((size_t)(count ? count : 1) * sizeof *P->xr);
    if (!P->xr) {
        free(mark);
        goto oom;
    }
    /* routers in id order are in rank order (contiguous groups): one pass sorts them by rank */
    int m = 0;
    for (int r = 0; r < t->n_routers; r++)
        if (mark[r]) {
            P->xr[m++] = r;
            P->xr_start[P->rank_of_group[topo_gid(t, r)] + 1]++;
        }
    for (int rk = 0; rk < c->size; rk++) P->xr_start[rk + 1] += P->xr_start[rk];
    free(mark);
    return 0;
oom:
    snprintf(err, DOAR_ERRLEN, "out of memory (partition)");
    return -1;
}

void net_part_free(network *n) {
    net_part *P = n->part;
    if (!P) return;
    free(P->rank_of_group);
    free(P->xr);
    free(P->xr_start);
    free(P->sbuf);
    free(P->slen);
    free(P->rlen);
    free(P);
    n->part = NULL;
}

int net_part_agree(const net_comm *c, int ok, char err[DOAR_ERRLEN]) {
    long first = ok ? INT_MAX : c->rank;
    c->reduce_long(c->ctx, &first, 1, NET_OP_MIN);
    if (first == INT_MAX) return 1;
    c->bcast(c->ctx, err, DOAR_ERRLEN, (int)first);
    return 0;
}

/* The counters summed over ranks (net_part.h "Totals"): their addresses in n, in a fixed order. */
static int sum_longs(network *n, long *f[]) {
    int m = 0;
    f[m++] = &n->created;
    f[m++] = &n->delivered;
    f[m++] = &n->flits_delivered;
    f[m++] = &n->sample_created;
    f[m++] = &n->sample_delivered;
    f[m++] = &n->sample_lost;
    f[m++] = &n->sample_flits;
    f[m++] = &n->sample_flits_created;
    f[m++] = &n->sample_flits_doomed;
    f[m++] = &n->errors;
    f[m++] = &n->ctl_in_flight;
    f[m++] = &n->events_queued;
    f[m++] = &n->lost_link;
    f[m++] = &n->lost_discard;
    f[m++] = &n->fd_fr_packets;
    f[m++] = &n->ctl_unwired;
    f[m++] = &n->lost_router;
    f[m++] = &n->lost_dead_source;
    f[m++] = &n->created_to_dead;
    f[m++] = &n->delivered_to_dead;
    f[m++] = &n->delivered_unreachable;
    f[m++] = &n->unreachable_pairs;
    f[m++] = &n->created_unreachable;
    for (int w = 0; w < NET_PHASES; w++) f[m++] = &n->lost_when[w];
    for (int h = 0; h <= NET_MAX_HOPS_HIST; h++) f[m++] = &n->hops_hist[h];
    return m;
}

static int sum_doubles(network *n, double *f[]) {
    int m = 0;
    f[m++] = &n->sample_latency_sum;
    f[m++] = &n->sample_hops_sum;
    f[m++] = &n->sample_created_at_sum;
    f[m++] = &n->sample_delivered_created_sum;
    return m;
}

void net_part_sync(network *n) {
    const net_comm *c = n->prm.comm;
    net_part *P = n->part;
    long *fl[sizeof P->base_l / sizeof P->base_l[0]];
    double *fd[sizeof P->base_d / sizeof P->base_d[0]];
    const double t0 = now_s();
    const int nl = sum_longs(n, fl), nd = sum_doubles(n, fd);
    /* one reduction for all sums: the doubles hold whole numbers below 2^53, exact as longs */
    long v[sizeof P->base_l / sizeof P->base_l[0] + sizeof P->base_d / sizeof P->base_d[0]];
    for (int i = 0; i < nl; i++) v[i] = *fl[i] - P->base_l[i]; /* this rank's increments */
    for (int i = 0; i < nd; i++) v[nl + i] = (long)(*fd[i] - P->base_d[i]);
    c->reduce_long(c->ctx, v, nl + nd, NET_OP_SUM);
    for (int i = 0; i < nl; i++) *fl[i] = P->base_l[i] = P->base_l[i] + v[i];
    for (int i = 0; i < nd; i++) *fd[i] = P->base_d[i] = P->base_d[i] + (double)v[nl + i];
    /* stamps only rise; injection stops when any rank stopped it (out of memory) */
    long mx[4] = {n->last_move, n->last_settle, n->overflow_seen, -(long)n->injecting};
    c->reduce_long(c->ctx, mx, 4, NET_OP_MAX);
    n->last_move = mx[0];
    n->last_settle = mx[1];
    n->overflow_seen = (int)mx[2];
    n->injecting = (int)-mx[3];
    P->syncs++;
    P->comm_seconds += now_s() - t0;
}

/* The arrival wheel's word of router r for cycle cy (network.c's layout). */
static size_t wheel_word(const network *n, int r, long cy) {
    return ((size_t)r << n->wheel_shift) | (size_t)(cy & n->wheel_mask);
}

void net_part_exchange(network *n, long c, int b) {
    const net_comm *cm = n->prm.comm;
    net_part *P = n->part;
    const int k = n->t.k;
    const int lat = n->lat[PORT_GLOBAL], len = n->ring_len[PORT_GLOBAL];
    if (c + b <= P->last_x + lat) return; /* nothing the step reads is missing yet */
    const double t0 = now_s();
    /* words written in [last_x, c) are read in [last_x + lat, c + lat); the writers marked them on
     * the remote routers' arrival wheel, which nobody here reads */
    const long from = P->last_x + lat, to = c + lat;
    size_t used = 0;
    for (int d = 0; d < cm->size; d++) {
        size_t start = used;
        for (int i = P->xr_start[d]; i < P->xr_start[d + 1]; i++) {
            const int pr = P->xr[i];
            for (long cy = from; cy < to; cy++) {
                uint64_t *a = &n->arrive[wheel_word(n, pr, cy)];
                for (uint64_t bits = *a; bits; bits &= bits - 1) {
                    const int pp = __builtin_ctzll(bits);
                    link_word *w = &n->in_ring[pr * k + pp][cy % len];
                    if (used + sizeof(xword) > P->scap) {
                        size_t cap = P->scap ? 2 * P->scap : 64 * sizeof(xword);
                        char *s = realloc(P->sbuf, cap);
                        if (!s) {
                            fprintf(stderr, "doar: out of memory exchanging links\n");
                            abort();
                        }
                        P->sbuf = s;
                        P->scap = cap;
                    }
                    xword x;
                    memset(&x, 0, sizeof x);
                    x.cycle = cy;
                    x.ring = pr * k + pp;
                    x.w = *w;
                    memcpy(P->sbuf + used, &x, sizeof x);
                    used += sizeof x;
                    memset(w, 0, sizeof *w); /* the slot is written again lat + block cycles later */
                    P->words++;
                }
                *a = 0;
            }
        }
        P->slen[d] = used - start;
    }
    P->bytes += (long)used;
    char *rbuf = NULL;
    cm->alltoallv(cm->ctx, P->sbuf, P->slen, &rbuf, P->rlen);
    size_t total = 0;
    for (int s = 0; s < cm->size; s++) total += P->rlen[s];
    for (size_t off = 0; off + sizeof(xword) <= total; off += sizeof(xword)) {
        xword x;
        memcpy(&x, rbuf + off, sizeof x);
        const int r = x.ring / k, port = x.ring % k;
        n->in_ring[x.ring][x.cycle % len] = x.w;
        n->arrive[wheel_word(n, r, x.cycle)] |= (uint64_t)1 << port;
    }
    free(rbuf);
    P->last_x = c;
    P->exchanges++;
    P->comm_seconds += now_s() - t0;
}

void net_part_max(network *n, long *v, int count) {
    const net_comm *c = n->prm.comm;
    c->reduce_long(c->ctx, v, count, NET_OP_MAX);
}

int net_part_all(network *n, int flag) { return net_comm_all(n->prm.comm, flag); }

void net_part_deadlock(const network *n, int *holding, long *flits, int *first_router, char *text, size_t len) {
    const net_comm *c = n->prm.comm;
    long v[2] = {*holding, *flits};
    c->reduce_long(c->ctx, v, 2, NET_OP_SUM);
    *holding = (int)v[0];
    *flits = v[1];
    long f = *first_router >= 0 ? *first_router : LONG_MAX;
    c->reduce_long(c->ctx, &f, 1, NET_OP_MIN);
    if (f == LONG_MAX) {
        *first_router = -1;
        return;
    }
    *first_router = (int)f;
    c->bcast(c->ctx, text, len, n->part->rank_of_group[topo_gid(&n->t, (int)f)]);
}

/* Sums an int32 per-creation-cycle array over ranks for cycles [0, cycles); grows it to hold them. */
static int sum_cycle_array(network *n, int32_t **arr, long cycles) {
    const net_comm *c = n->prm.comm;
    long *tmp = calloc((size_t)(cycles ? cycles : 1), sizeof *tmp);
    if (!tmp) return -1;
    for (long i = 0; i < cycles && i < n->cap_cycles; i++) tmp[i] = (*arr)[i];
    for (long off = 0; off < cycles; off += INT_MAX / 2) /* counts are ints in the transport */
        c->reduce_long(c->ctx, tmp + off, (int)(cycles - off < INT_MAX / 2 ? cycles - off : INT_MAX / 2), NET_OP_SUM);
    int32_t *a = *arr;
    if (cycles > n->cap_cycles) {
        a = realloc(*arr, (size_t)cycles * sizeof *a);
        if (!a) {
            free(tmp);
            return -1;
        }
        *arr = a;
    }
    for (long i = 0; i < cycles; i++) a[i] = (int32_t)tmp[i];
    free(tmp);
    return 0;
}

void net_part_finish(network *n, net_result *res) {
    const net_comm *c = n->prm.comm;
    const topo *t = &n->t;
    long pol[2] = {res->decisions, res->nonminimal};
    c->reduce_long(c->ctx, pol, 2, NET_OP_SUM);
    res->decisions = pol[0];
    res->nonminimal = pol[1];
    c->reduce_long(c->ctx, n->channel_flits, t->n_routers * t->k, NET_OP_SUM);
    if (n->n_bins) {
        c->reduce_long(c->ctx, n->bin_flits, (int)n->n_bins, NET_OP_SUM);
        c->reduce_long(c->ctx, n->bin_pkts, (int)n->n_bins, NET_OP_SUM);
        c->sum_double(c->ctx, n->bin_latency, (int)n->n_bins);
        if (n->bin_cong) c->reduce_long(c->ctx, n->bin_cong, (int)(n->n_bins * NET_CONG_COLS), NET_OP_SUM);
    }
    if (n->prm.fault_links > 0 || n->prm.fault_routers > 0) {
        /* every rank takes the same branches: a failure here is out of memory, which aborts */
        if (sum_cycle_array(n, &n->created_at, n->cycle) || sum_cycle_array(n, &n->delivered_from, n->cycle)) {
            fprintf(stderr, "doar: out of memory summing the loss counters\n");
            abort();
        }
        if (n->cycle > n->cap_cycles) n->cap_cycles = n->cycle;
    }
    /* the first error in simulated order over every rank (note_error's key) */
    long key = n->first_error[0] ? (long)n->first_error_key : LONG_MAX;
    c->reduce_long(c->ctx, &key, 1, NET_OP_MIN);
    if (key == LONG_MAX) return;
    long who = n->first_error[0] && (long)n->first_error_key == key ? c->rank : INT_MAX;
    c->reduce_long(c->ctx, &who, 1, NET_OP_MIN);
    c->bcast(c->ctx, n->first_error, sizeof n->first_error, (int)who);
}

void net_part_stats(const network *n, long *exchanges, long *words, long *bytes, long *syncs, double *seconds) {
    const net_part *P = n->part;
    *seconds = P ? P->comm_seconds : 0.0;
    *exchanges = P ? P->exchanges : 0;
    *words = P ? P->words : 0;
    *bytes = P ? P->bytes : 0;
    *syncs = P ? P->syncs : 0;
}

size_t net_part_allocated(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* MemAvailable of /proc/meminfo in bytes; 0 when unknown (then nothing is refused). */
static double mem_available(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0.0;
    char line[256];
    double kb = 0.0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024.0;
}

int net_part_memory_check(const network *n, size_t before, char err[DOAR_ERRLEN]) {
    const topo *t = &n->t;
    const net_comm *c = n->prm.comm;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    const double per_router = (double)(net_part_allocated() - before);
    const long routers = n->r_hi - n->r_lo;
    /* what the process held before its routers (the table set, every router's slot, the nodes),
     * its routers and the rings of their links */
    const double held = (double)before;
    const double need = held + per_router * (double)routers + net_ring_bytes(t, &n->prm, (double)routers, c != NULL);
    const int host_ranks = c && c->host_ranks > 0 ? c->host_ranks : 1;
    const double avail = mem_available() / host_ranks;
    if (avail <= 0.0 || need <= avail) return 0;
    /* the routers and their links of the whole network, which ranks share */
    const double spread = (per_router + net_ring_bytes(t, &n->prm, 1.0, c != NULL)) * t->n_routers;
    if (!c)
        snprintf(err, DOAR_ERRLEN,
                 "%s needs ~%.1f GiB in one process (%d routers x %.2f MiB + links + %.1f GiB of "
                 "tables and nodes), %.1f GiB available: run it over MPI (make mpi; mpirun -np R build/doar-mpi sim "
                 "...: ~%.1f/R + %.1f GiB per rank)",
                 t->name, need / gib, t->n_routers, per_router / (1024.0 * 1024.0), held / gib, avail / gib,
                 spread / gib, held / gib);
    else
        snprintf(err, DOAR_ERRLEN,
                 "%s over %d ranks: ~%.1f GiB per rank (%ld routers x %.2f MiB + links + %.1f GiB "
                 "of tables and nodes), %.1f GiB available per rank here (%d ranks): use more machines (~%.1f GiB in "
                 "all)",
                 t->name, c->size, need / gib, routers, per_router / (1024.0 * 1024.0), held / gib, avail / gib,
                 host_ranks, (spread + held * c->size) / gib);
    return -1;
}
