/*
 * cmd_memory — what a run of sim, sweep or faults will allocate, estimated before any of it is,
 * and the refusal (exit 2) of a run that cannot fit (issue 24).
 */
#include "cmd.h"

#include <string.h>

#include "net_part.h"

/* What a run will allocate, in bytes, counted from the structures that grow with the network,
 * before any of it is (issue 24: a run that cannot fit used to grow for minutes toward ~18 GB
 * without a word). Counted: the tables (three distinct port tables per router, entries stored
 * as 64-bit words: the network's route-compute units read them, rcu_share); for the network
 * simulator the routers' state, their input buffers (route entries for packets of the longest
 * length, csim/vcbuf.h), their output queues and congestion windows, and the link rings; with
 * faults each router's fault unit (k x (nz+bz+gz) masks of 9 bytes, 3 x (nz+bz+gz) route options
 * of 16), and for doar faults the oracle's as many again.
 * Fixed overheads and per-packet state are left out: the figure is of the order of the peak,
 * a little under it (tests/bad_input_test.sh compares it with the measured peak). */
static double table_bytes(const topo *t) {
    const double nr = t->n_routers, k = t->k;
    const double da = t->p + t->a + t->g, db = t->a + t->g, dc = t->a; /* zones nz+bz+gz, bz+gz, a */
    return nr * 3.0 * (da + db + dc) * 8.0 + nr * k * 4.0 + nr * (double)sizeof(router_cfg);
}

double cmd_estimate_bytes(const topo *t, int kind, const net_params *p) {
    const double nr = t->n_routers, k = t->k;
    const double da = t->p + t->a + t->g;
    double bytes = table_bytes(t);
    /* a fault unit's mask (8 B) and accessibility (1 B) per port and entry, and its options (two
     * roles, 8 B each) per entry of the three port classes' tables (csim/fault.h) */
    const double options = nr * (k * da * 9.0 + 3.0 * da * 16.0);
    /* doar faults: the oracle holds as much again, and its rows' offsets */
    if (kind == EST_FAULTS) return bytes + 2.0 * options + nr * k * 8.0;
    /* input buffers by port class: VCs x depth flits, and route entries for packets of max_len */
    const int vcs = p->rprm.vcs > 0 ? p->rprm.vcs : 4, len = p->rprm.max_len > 0 ? p->rprm.max_len : 1;
    const double ports[3] = {t->p, t->a - 1.0, t->h};
    double buffers = 0.0;
    for (int c = 0; c < 3; c++) {
        const int depth = p->rprm.depth[c], routes = depth / len + 2 < depth ? depth / len + 2 : depth;
        buffers += ports[c] * vcs * ((double)depth * sizeof(flit) + (double)routes * sizeof(route_entry));
    }
    const double oqs = k * (p->rprm.speedup > 0 ? p->rprm.speedup : 1) * (double)p->rprm.oq_depth * sizeof(flit);
    const double window = 8.0 * p->rprm.cong_rtt; /* cong's in-flight window: a mask per cycle */
    bytes += nr * ((double)sizeof(router) + k * (double)sizeof(rcu) + buffers + oqs + window);
    bytes += net_ring_bytes(t, p, nr, 0);
    if (p->fault_links > 0 || p->fault_routers > 0) bytes += options;
    return bytes;
}

/* The machine's memory (MemTotal), bytes; 0 when it cannot be read (then only --max-memory limits). */
static double machine_bytes(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    double kib = 0.0;
    if (!f) return 0.0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %lf kB", &kib) == 1) break;
    fclose(f);
    return kib * 1024.0;
}

/* Refuses (one line, exit 2) a run whose estimate exceeds --max-memory or the machine. Split over
 * MPI ranks (sim, sweep in doar-mpi) a machine holds its ranks' share of the network: that share is
 * compared, and a network too large for one process points to MPI (docs/network.md "Memory"). */
int cmd_check_memory(const cli *c, double need) {
    double limit = c->max_memory ? (double)c->max_memory : machine_bytes();
    const net_comm *comm = cmd_is_net(c) ? c->comm : NULL;
    const double gib = 1073741824.0;
    /* every rank builds the whole table set; the rest is split by groups */
    const double every = comm ? table_bytes(&c->t) : 0.0, host = comm && comm->host_ranks > 0 ? comm->host_ranks : 1;
    double here = comm ? (need - every) * host / comm->size + every * host : need;
    if (limit <= 0.0 || here <= limit) return 0;
    if (comm)
        return cmd_bad(c,
                       "this run needs about %.1f GiB of memory, %.1f GiB of it on this machine's ranks, more than %s "
                       "(%.1f GiB): use more machines",
                       need / gib, here / gib, c->max_memory ? "--max-memory" : "the machine's", limit / gib);
    if (cmd_is_net(c))
        return cmd_bad(c,
                       "this run needs about %.1f GiB of memory, more than %s (%.1f GiB): a smaller network, fewer "
                       "faults, or MPI ranks on several machines (make mpi; mpirun -np R build/doar-mpi ...)",
                       need / gib, c->max_memory ? "--max-memory" : "the machine's", limit / gib);
    return cmd_bad(c,
                   "this run needs about %.1f GiB of memory, more than %s (%.1f GiB): a smaller network or "
                   "fewer faults",
                   need / gib, c->max_memory ? "--max-memory" : "the machine's", limit / gib);
}

/* check_memory for sim and sweep: with doar-mpi the ranks' machines may differ, so all of them
 * give up when one does (none is left waiting for the others); rank 0 says why, or that another
 * machine refused. */
int cmd_net_check_memory(const cli *c, double need) {
    int mrc = cmd_check_memory(c, need);
    if (net_comm_all(c->comm, mrc == 0)) return 0;
    if (!mrc && net_comm_root(c->comm))
        fprintf(stderr,
                "doar %s: another machine of this run cannot hold its ranks' share of about %.1f GiB: use "
                "more machines or fewer ranks per machine\n",
                c->cmd, need / 1073741824.0);
    return EXIT_BADINPUT;
}
