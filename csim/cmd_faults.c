/*
 * cmd_faults — `doar faults`: fault campaigns on a whole network of fault units against the
 * centralised oracle (csim/fault_oracle.c), and seed 001's worked examples.
 */
#include "cmd.h"

#include <string.h>

static const char *const example_names[] = {"fig8b", "fig8c", "fig9", NULL};

static int run_faults(cli *c) {
    char err[DOAR_ERRLEN];
    table_set ts;
    if (!c->have_topo) return cmd_bad(c, "%s", "missing CONFIG (see doar faults --help)");
    if (tables_check_params(&c->t, &c->prm, err)) return cmd_bad(c, "%s", err);
    double need = cmd_estimate_bytes(&c->t, EST_FAULTS, &c->nprm);
    int mrc = cmd_check_memory(c, need);
    if (mrc) return mrc;
    if (tables_generate(&ts, &c->t, &c->prm, err)) return cmd_bad(c, "%s", err);
    const topo *t = &ts.t;
    if (c->example >= 0) {
        int rc = fault_example_run(&ts, example_names[c->example], stdout, err);
        tables_free(&ts);
        if (rc) return cmd_bad(c, "%s", err);
        return 0;
    }
    c->fopt.seed = c->seed;
    c->fopt.progress = c->quiet ? NULL : stderr;
    printf("faults: config=%s dfly(%d,%d,%d,%d) campaigns=%d %s=%d router_share=%.3f latency=%d,%d seed=%llu "
           "memory=%.0fMiB\n",
           t->name, t->p, t->a, t->h, t->g, c->fopt.campaigns, c->fopt.exact_faults ? "faults" : "max_faults",
           c->fopt.max_faults, c->fopt.router_permille / 1000.0, c->fopt.lat_local, c->fopt.lat_global, c->seed,
           need / 1048576.0);
    fflush(stdout);
    fault_campaign_result r;
    double t0 = cmd_now_s();
    int rc = fault_campaign_run(&ts, &c->fopt, &r, err);
    double dt = cmd_now_s() - t0;
    tables_free(&ts);
    if (rc) return cmd_bad(c, "%s", err);
    printf("faults: link_faults=%llu router_faults=%llu fd_msgs=%llu fr_msgs=%llu lost_msgs=%llu\n",
           (unsigned long long)r.faults_links, (unsigned long long)r.faults_routers, (unsigned long long)r.fd_msgs,
           (unsigned long long)r.fr_msgs, (unsigned long long)r.lost_msgs);
    printf("faults: diagnosis cycles mean=%.0f max=%d; recovery cycles mean=%.0f max=%d; time=%.2fs\n",
           r.sum_diag_cycles / (r.campaigns ? r.campaigns : 1), r.max_diag_cycles,
           r.sum_recovery_cycles / (r.campaigns ? r.campaigns : 1), r.max_recovery_cycles, dt);
    int ok = r.oracle_mismatches == 0 && r.restored == r.campaigns;
    if (!ok) printf("faults: first problem: %s\n", r.first_mismatch);
    printf("faults: %s campaigns=%d oracle_mismatches=%llu restored=%d/%d unreachable_pairs=%llu\n", ok ? "ok" : "FAIL",
           r.campaigns, (unsigned long long)r.oracle_mismatches, r.restored, r.campaigns,
           (unsigned long long)r.unreachable_pairs);
    return ok ? 0 : EXIT_FAIL;
}

#define FAULTS_COUNT(opt, meta_, field_, have_, text)                                                                  \
    {                                                                                                                  \
        .name = opt, .meta = meta_, .kind = OPT_INT, .at = CLI_AT(field_), .have = have_, .lo = 1, .hi = 100000,       \
        .msg = MSG_NAME, .expect = "expected a positive integer (at most {hi})", .help = text                          \
    }

static const cmd_opt faults_opts[] = {
    FAULTS_COUNT("--campaigns", "N", fopt.campaigns, 0, "campaigns, {range} (default {default})"),
    FAULTS_COUNT("--max-faults", "F", fopt.max_faults, CLI_AT(have_max_faults),
                 "faults per campaign, 1..F uniformly; F in {range} (default {default})"),
    FAULTS_COUNT("--faults", "F", fopt.max_faults, CLI_AT(have_faults),
                 "exactly F faults per campaign, {range} (not with --max-faults)"),
    {.name = "--max-memory",
     .meta = "SIZE",
     .kind = OPT_MEMORY,
     .at = CLI_AT(max_memory),
     .expect = "expected a size such as 4096M, 16G or 1T (at least 1M)",
     .help = "refuse a run estimated above SIZE (K/M/G/T, at least 1M; default: the\n"
             "machine's memory); the estimate is memory= in the first line"},
    {.name = "--router-share",
     .meta = "X",
     .kind = OPT_SHARE,
     .at = CLI_AT(fopt.router_permille),
     .rlo = 0.0,
     .rhi = 1.0,
     .expect = "expected {range}",
     .help = "share of faults that are router faults, {range} (default {default})"},
    {.name = "--latency",
     .meta = "L,G",
     .kind = OPT_PAIR,
     .at = CLI_AT(fopt.lat_local),
     .at2 = CLI_AT(fopt.lat_global),
     .lo = 0,
     .hi = 100000,
     .expect = "expected L,G (cycles)",
     .help = "FD/FR link latency, intra-group and global, cycles {range} (default {default})"},
    {.name = "--example",
     .meta = "NAME",
     .kind = OPT_WORD,
     .at = CLI_AT(example),
     .choices = example_names,
     .expect = "expected {range}",
     .help = "seed 001's worked examples on fig8: {range}"},
    {.name = "--verbose",
     .kind = OPT_COUNT,
     .at = CLI_AT(fopt.verbose),
     .help = "one line per campaign (twice: also its faults)"},
    {.name = "--quiet", .kind = OPT_FLAG, .at = CLI_AT(quiet), .help = "no progress lines"},
    {0},
};

static const cmd_opt *const faults_tables[] = {faults_opts, cmd_table_opts, NULL};

const cmd_command cmd_faults = {
    .name = "faults",
    .synopsis = "usage: doar faults CONFIG [--campaigns N] [--max-faults F] [--seed S] [options]\n"
                "       doar faults fig8 --example fig8b|fig8c|fig9\n\n"
                "Random campaigns on a whole network of fault units (seed 001 Algorithms 2, 3): fail\n"
                "1..F random links and routers at once, run diagnosis (FD) to quiescence, compare every\n"
                "valid mask and accessibility bit of every port of every live router with the\n"
                "centralised oracle, count node pairs left without a route, repair everything, run\n"
                "recovery (FR) to quiescence and require every table state to be back bit for bit.\n"
                "Last line: faults: ok campaigns=N oracle_mismatches=0 restored=N/N unreachable_pairs=U\n"
                "       or: faults: FAIL ...   (exit 1)\n\n",
    .opts = faults_tables,
    .common = cmd_seeded_opts,
    .run = run_faults,
};
