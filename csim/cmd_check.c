/*
 * cmd_check — `doar check`: every route the tables allow, proven correct and deadlock-free.
 */
#include "cmd.h"

#include <string.h>

#include "tables_image.h"

static int run_check(cli *c) {
    c->copt.vc_rule = c->vc_rule ? VC_RULE_NONE : VC_RULE_DOAR; /* --vc-rule: index into vc_rules */
    char err[DOAR_ERRLEN];
    table_set ts;
    if (c->tables_dir) {
        if (tables_load_images(&ts, c->tables_dir, err)) return cmd_bad(c, "%s", err);
        if (c->have_topo && (ts.t.p != c->t.p || ts.t.a != c->t.a || ts.t.h != c->t.h || ts.t.g != c->t.g)) {
            cmd_bad(c, "%s: images are for dfly(%d,%d,%d,%d), not %s", c->tables_dir, ts.t.p, ts.t.a, ts.t.h, ts.t.g,
                    c->t.name);
            tables_free(&ts);
            return EXIT_BADINPUT;
        }
    } else {
        if (!c->have_topo) return cmd_bad(c, "%s", "missing CONFIG (see doar check --help)");
        if (tables_generate(&ts, &c->t, &c->prm, err)) return cmd_bad(c, "%s", err);
    }
    const topo *t = &ts.t;
    printf("check: config=%s dfly(%d,%d,%d,%d) k=%d routers=%d nodes=%d vcs=%d vc_rule=%s tables=%s\n", t->name, t->p,
           t->a, t->h, t->g, t->k, t->n_routers, t->n_nodes, c->copt.num_vcs,
           c->copt.vc_rule == VC_RULE_DOAR ? "doar" : "none", c->tables_dir ? c->tables_dir : "generated");
    fflush(stdout);
    c->copt.progress = c->quiet ? NULL : stderr;
    check_result res;
    double t0 = cmd_now_s();
    int rc = check_run(&ts, &c->copt, &res, err);
    double dt = cmd_now_s() - t0;
    tables_free(&ts);
    if (rc) return cmd_bad(c, "%s", err);
    char shapes[1024];
    size_t n = 0;
    shapes[0] = '\0';
    for (int code = 1; code < CHECK_SHAPE_CODES; code++)
        if ((res.shapes_seen[code >> 6] >> (code & 63)) & 1) {
            char name[32];
            check_shape_name(code, name, sizeof name);
            n += (size_t)snprintf(shapes + n, sizeof shapes - n, " %s", name);
        }
    printf("check: shapes seen:%s\n", shapes);
    printf("check: dp_states=%llu cdg_channels=%llu cdg_dependencies=%llu dest_routers=%d/%d time=%.2fs\n",
           (unsigned long long)res.states, (unsigned long long)res.cdg_nodes, (unsigned long long)res.cdg_edges,
           res.dests_checked, res.dests_total, dt);
    for (int k = 0; k < CHK_KINDS; k++)
        if (res.errors[k])
            printf("check: error %s x%llu, first: %s\n", check_kind_name((check_error_kind)k),
                   (unsigned long long)res.errors[k], res.first[k]);
    if (res.reran) printf("check: an error found, so checked again one destination router at a time (its reports)\n");
    if (!res.ok) {
        printf("check: FAIL %s\n", res.fail);
        return EXIT_FAIL;
    }
    printf("check: ok pairs=%llu routes=%llu max_hops=%d max_vc=%d cdg=acyclic", (unsigned long long)res.pairs,
           (unsigned long long)res.routes, res.max_hops, res.max_vc);
    if (res.dests_checked < res.dests_total) printf(" sampled_dest_routers=%d/%d", res.dests_checked, res.dests_total);
    printf("\n");
    return 0;
}

static const char *const vc_rules[] = {"doar", "none", NULL};

static const cmd_opt check_opts_table[] = {
    {.name = "--tables",
     .meta = "DIR",
     .kind = OPT_TEXT,
     .at = CLI_AT(tables_dir),
     .help = "check images loaded from DIR instead of generated tables"},
    {.name = "--vc-rule",
     .meta = "doar|none",
     .kind = OPT_WORD,
     .at = CLI_AT(vc_rule),
     .choices = vc_rules,
     .expect = "expected {range}",
     .help = "'none' keeps every packet on VC 0 (ablation: shows the cycle; default {default})"},
    {.name = "--dests",
     .meta = "N",
     .kind = OPT_INT,
     .at = CLI_AT(copt.dest_sample),
     .lo = 1,
     .hi = 1000000,
     .expect = "expected a positive integer",
     .help = "check only N destination routers, spread evenly (large networks)"},
    {.name = "--one-dest",
     .kind = OPT_FLAG,
     .at = CLI_AT(copt.one_dest),
     .help = "one destination router at a time (the reference order; slower): by default\n"
             "a group's destination routers are checked at once, with the same results"},
    {.name = "--quiet", .kind = OPT_FLAG, .at = CLI_AT(quiet), .help = "no progress lines"},
    {0},
};

static const cmd_opt *const check_tables[] = {check_opts_table, cmd_table_opts, NULL};

const cmd_command cmd_check = {
    .name = "check",
    .synopsis = "usage: doar check CONFIG [--tables DIR] [options]\n\n"
                "Follows every route the tables allow for every (source router, destination node)\n"
                "pair and proves: every route arrives; every path shape is one of seed 001's;\n"
                "<= 7 hops (6 without a fault fallback); VC <= 3 under the VC rule; the channel\n"
                "dependency graph is acyclic.\n"
                "Last line: check: ok pairs=N routes=M max_hops=H max_vc=V cdg=acyclic\n"
                "       or: check: FAIL <reason>   (exit 1)\n\n",
    .opts = check_tables,
    .common = cmd_common_opts,
    .run = run_check,
};
