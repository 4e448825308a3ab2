/*
 * fault_oracle — the centralised reference for fault diagnosis, written independently of the
 * distributed units in csim/fault.c (it sees the whole faulted network at once and uses no
 * FD/FR message, no Aim(), no scheduler).
 *
 * Why in csim/: `doar faults` (the product) compares its campaigns with it, and nothing in csim/
 * includes from tests/ (issue 23). It stays a second, independent reading of the rules: it
 * includes tables.h and the C library only, never fault.h, fault_net.h or anything they use
 * (tests/faults_test.sh checks its includes), so a bug in csim/fault.c cannot be copied into it
 * (the mutant csim-fault-roles-ignored of tests/mutants/mutants.txt shows the comparison works).
 *
 * Definition (docs/architecture.md, sec. 7, "What the tables must say after diagnosis"):
 *   A route option (router R, input port C, entry et, output port o) is valid iff R and the
 *   router Q at the far end of o are alive, the link is up, and for every destination router
 *   t of et's region that Q must still reach through its input port Cq, Q's entry for t at Cq
 *   has a valid option usable by R's packets (role: "source" when C is a terminal input,
 *   "transit" otherwise). Destinations whose router is dead are not required when Q's entry
 *   for them is a per-router (zone B) entry. The valid set is the greatest one that satisfies
 *   this (computed by removing violators until nothing changes).
 *   Terminal-port options are always valid (terminal links are not faulted).
 * Output: per (router, port, entry) the valid mask (all ones except invalid option bits) and
 *   the accessibility bits per role, in the same encoding csim/fault.h exposes, so the two can
 *   be compared bit for bit; and the number of node pairs left without any route.
 */
#ifndef DOAR_FAULT_ORACLE_H
#define DOAR_FAULT_ORACLE_H

#include "tables.h"

typedef struct {
    const table_set *ts;
    int et_num;
    uint64_t *opt[2]; /* options per role (0 source, 1 transit), index opt_row[router*k+port]+e: stored
                       * once per router and distinct (port tables, port class), what they depend on */
    size_t *opt_row;  /* [n_routers*k] */
    uint64_t *mask;   /* index (router*k+port)*et_num+e */
    uint8_t *acc;     /* same index: bit0 source, bit1 transit */
    uint64_t unreachable_pairs;
    int iterations;
} fault_oracle;

/* router_dead[n_routers]; port_dead[n_routers*k]: the link on that port is down (both ends). */
int fault_oracle_run(fault_oracle *o, const table_set *ts, const uint8_t *router_dead, const uint8_t *port_dead,
                     char err[DOAR_ERRLEN]);
void fault_oracle_free(fault_oracle *o);

#endif
