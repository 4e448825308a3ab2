/*
 * net_comm — how the processes of a partitioned network simulation talk (docs/network.md,
 * "Beyond one machine"). An interface only: csim/net_mpi.c implements it over MPI and is compiled
 * into build/doar-mpi alone, so nothing here needs MPI headers and build/doar passes NULL
 * (the whole network in one process, the code path of before).
 *
 * Contract
 *   Every function is a collective: every rank calls it, in the same order, with the same counts
 *   and roots; it returns when this rank has its result. A transport that fails aborts the job
 *   (MPI's default error handler); the functions therefore return nothing.
 *   reduce_long : v[0..count) combined over the ranks by op, every rank gets the result in place.
 *   sum_double  : the same for doubles, summed. The network sums only integer-valued doubles
 *                 below 2^53, so the result does not depend on the order the ranks are added in.
 *   bcast       : len bytes at buf from rank root to every rank.
 *   alltoallv   : rank r's send[off .. off + send_len[d]) goes to rank d, off = the sum of
 *                 send_len[0..d); *recv becomes a malloc'ed buffer (the caller frees it; NULL when
 *                 nothing arrived) holding what every rank sent here, rank 0's first, and
 *                 recv_len[s] what came from rank s. Returns nothing: out of memory aborts.
 *   Data: raw bytes of this program's structs: every rank must run the same binary on the same
 *   architecture (a homogeneous cluster), which mpirun of one executable gives.
 */
#ifndef DOAR_NET_COMM_H
#define DOAR_NET_COMM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { NET_OP_SUM, NET_OP_MAX, NET_OP_MIN } net_op;

typedef struct net_comm {
    int rank, size;
    int host_ranks; /* ranks on this machine (they share its memory) */
    void *ctx;      /* the transport's own handles (an MPI communicator) */
    void (*reduce_long)(void *ctx, long *v, int count, net_op op);
    void (*sum_double)(void *ctx, double *v, int count);
    void (*bcast)(void *ctx, void *buf, size_t len, int root);
    void (*alltoallv)(void *ctx, const char *send, const size_t *send_len, char **recv, size_t *recv_len);
} net_comm;

/* Whether every rank says ok (1): a decision all ranks must take together, such as giving up on
 * bad input, so that none waits for ever in a collective the others left. NULL: just ok. */
static inline int net_comm_all(const net_comm *c, int ok) {
    if (!c) return ok;
    long v = ok ? 1 : 0;
    c->reduce_long(c->ctx, &v, 1, NET_OP_MIN);
    return v != 0;
}

/* Rank 0 writes the outputs (files, lines); with NULL the one process does. */
static inline int net_comm_root(const net_comm *c) { return !c || c->rank == 0; }

#ifdef __cplusplus
}
#endif

#endif
