/*
 * fault_campaign — `doar faults`: random fault campaigns on a network of fault units checked
 * against the centralised oracle (csim/fault_oracle.c), and seed 001's worked examples
 * (Fig. 8b, 8c, 9) on fig8.
 *
 * A campaign: fail 1..max_faults random links and routers in one cycle; run diagnosis (FD) to
 * quiescence; compare every valid mask and accessibility bit of every port of every live
 * router with the oracle; count node pairs left without a route; repair everything; run
 * recovery (FR) to quiescence; require every unit to be back at its initial state bit for bit.
 */
#ifndef DOAR_FAULT_CAMPAIGN_H
#define DOAR_FAULT_CAMPAIGN_H

#include <stdio.h>
#include "tables.h"

typedef struct {
    int campaigns;
    int max_faults;
    int exact_faults;    /* 1: every campaign has max_faults faults (not 1..max_faults) */
    int router_permille; /* share of faults that are router faults (per mille) */
    int lat_local, lat_global;
    unsigned long long seed;
    int verbose; /* one line per campaign */
    FILE *progress;
} fault_campaign_opts;

typedef struct {
    int campaigns, restored;
    uint64_t oracle_mismatches; /* (router, port, entry) triples that differ */
    uint64_t unreachable_pairs; /* summed over campaigns */
    uint64_t faults_links, faults_routers;
    int max_diag_cycles, max_recovery_cycles;
    double sum_diag_cycles, sum_recovery_cycles;
    uint64_t fd_msgs, fr_msgs, lost_msgs;
    char first_mismatch[DOAR_ERRLEN];
} fault_campaign_result;

void fault_campaign_default_opts(fault_campaign_opts *o);
int fault_campaign_run(const table_set *ts, const fault_campaign_opts *o, fault_campaign_result *res,
                       char err[DOAR_ERRLEN]);

/* Seed 001's worked examples on dfly(2,4,2,8): "fig8b", "fig8c", "fig9". Prints ours beside the
 * paper's; returns 0, or -1 with err set (e.g. not the fig8 topology). */
int fault_example_run(const table_set *ts, const char *which, FILE *out, char err[DOAR_ERRLEN]);

#endif
