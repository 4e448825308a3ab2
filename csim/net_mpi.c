/*
 * build/doar-mpi's entry point: net_comm (csim/net_comm.h) over MPI, then the same command line
 * as build/doar (doar_main in csim/doar.c). Compiled only by `make mpi`; build/doar has no MPI.
 *
 * Contract
 *   Every rank parses the same arguments and runs the same command; simulations (`sim`, `sweep`)
 *   split the network by groups over the ranks (csim/net_part.h) and every rank ends with the
 *   whole network's results. Rank 0 alone prints and writes files: the other ranks' stdout and
 *   stderr go to /dev/null, so a run prints what build/doar prints (plus the `sim: mpi` line).
 *   Exit status: rank 0's, which every rank shares (the decisions are collective).
 *   MPI handles live in a struct handed to the network as net_comm.ctx: no global state.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doar_main.h"
#include "net_comm.h"

typedef struct {
    MPI_Comm comm;
    int size;
    int *scount, *sdispl, *rcount, *rdispl; /* [size] scratch of alltoallv */
} mpi_ctx;

static MPI_Op op_of(net_op op) { return op == NET_OP_SUM ? MPI_SUM : op == NET_OP_MAX ? MPI_MAX : MPI_MIN; }

static void mpi_reduce_long(void *ctx, long *v, int count, net_op op) {
    mpi_ctx *m = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_LONG, op_of(op), m->comm);
}

static void mpi_sum_double(void *ctx, double *v, int count) {
    mpi_ctx *m = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_SUM, m->comm);
}

static void mpi_bcast(void *ctx, void *buf, size_t len, int root) {
    mpi_ctx *m = ctx;
    MPI_Bcast(buf, (int)len, MPI_BYTE, root, m->comm);
}

static void mpi_alltoallv(void *ctx, const char *send, const size_t *send_len, char **recv, size_t *recv_len) {
    mpi_ctx *m = ctx;
    int off = 0;
    for (int d = 0; d < m->size; d++) {
        m->scount[d] = (int)send_len[d]; /* a window's words: far below 2 GiB */
        m->sdispl[d] = off;
        off += m->scount[d];
    }
    MPI_Alltoall(m->scount, 1, MPI_INT, m->rcount, 1, MPI_INT, m->comm);
    int total = 0;
    for (int s = 0; s < m->size; s++) {
        m->rdispl[s] = total;
        total += m->rcount[s];
        recv_len[s] = (size_t)m->rcount[s];
    }
    *recv = total ? malloc((size_t)total) : NULL;
    if (total && !*recv) {
        fprintf(stderr, "doar-mpi: out of memory receiving %d bytes\n", total);
        MPI_Abort(m->comm, 1);
    }
    MPI_Alltoallv(send, m->scount, m->sdispl, MPI_BYTE, *recv, m->rcount, m->rdispl, MPI_BYTE, m->comm);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    mpi_ctx m;
    memset(&m, 0, sizeof m);
    m.comm = MPI_COMM_WORLD;
    int rank = 0;
    MPI_Comm_rank(m.comm, &rank);
    MPI_Comm_size(m.comm, &m.size);
    m.scount = calloc((size_t)m.size, sizeof *m.scount);
    m.sdispl = calloc((size_t)m.size, sizeof *m.sdispl);
    m.rcount = calloc((size_t)m.size, sizeof *m.rcount);
    m.rdispl = calloc((size_t)m.size, sizeof *m.rdispl);
    if (!m.scount || !m.sdispl || !m.rcount || !m.rdispl) {
        fprintf(stderr, "doar-mpi: out of memory\n");
        MPI_Abort(m.comm, 1);
    }
    if (rank != 0) { /* rank 0 speaks for the job */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) MPI_Abort(m.comm, 1);
    }
    MPI_Comm host; /* the ranks sharing this machine's memory */
    int host_ranks = 1;
    if (MPI_Comm_split_type(m.comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host) == MPI_SUCCESS) {
        MPI_Comm_size(host, &host_ranks);
        MPI_Comm_free(&host);
    }
    net_comm c = {rank, m.size, host_ranks, &m, mpi_reduce_long, mpi_sum_double, mpi_bcast, mpi_alltoallv};
    int rc = doar_main(argc, argv, &c);
    fflush(stdout);
    fflush(stderr);
    free(m.scount);
    free(m.sdispl);
    free(m.rcount);
    free(m.rdispl);
    MPI_Finalize();
    return rc;
}
