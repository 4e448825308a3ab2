/*
 * cmd_topo — `doar topo`: a dragonfly's size, links and the wiring of one router; `doar configs`:
 * the named configurations (with --make, the Makefile's build/configs.mk).
 */
#include "cmd.h"

#include <string.h>

const char *cmd_class_word(port_class pc) {
    return pc == PORT_TERMINAL ? "terminal" : pc == PORT_LOCAL ? "local" : "global";
}

static int run_topo(cli *c) {
    const topo *t = &c->t;
    if (!c->have_topo) return cmd_bad(c, "%s", "missing CONFIG (see doar topo --help)");
    printf("dfly(%d,%d,%d,%d) \"%s\": radix k=%d, %d groups of %d routers, %d nodes\n", t->p, t->a, t->h, t->g, t->name,
           t->k, t->g, t->a, t->n_nodes);
    printf("ports per router: terminal 0..%d, intra-group %d..%d, global %d..%d\n", t->p - 1, t->first_local,
           t->first_global - 1, t->first_global, t->k - 1);
    if (t->g < t->ah + 1)
        printf("g < a*h+1: %d of %d group-level global ports per group are wired; the rest are unused\n", t->g - 1,
               t->ah);
    if (c->router >= 0) {
        int r = c->router;
        printf("router (%d,%d) id %d:\n", topo_gid(t, r), topo_bid(t, r), r);
        for (int port = 0; port < t->k; port++) {
            int pr, pp;
            port_class pc = topo_port_class(t, port);
            int wired = topo_peer(t, r, port, &pr, &pp) == 0;
            printf("  port %2d %-8s ", port, cmd_class_word(pc));
            if (pc == PORT_TERMINAL)
                printf("node <%d,%d,%d> (node id %d)\n", topo_gid(t, r), topo_bid(t, r), port, pp);
            else if (!wired)
                printf("group-level port %d: unwired\n", topo_group_port(t, topo_bid(t, r), port));
            else if (pc == PORT_LOCAL)
                printf("-> router (%d,%d) port %d\n", topo_gid(t, pr), topo_bid(t, pr), pp);
            else
                printf("group-level port %d -> group %d, router (%d,%d) port %d\n",
                       topo_group_port(t, topo_bid(t, r), port), topo_gid(t, pr), topo_gid(t, pr), topo_bid(t, pr), pp);
        }
    }
    printf("topo: config=%s p=%d a=%d h=%d g=%d k=%d routers=%d nodes=%d local_links=%ld global_links=%ld\n", t->name,
           t->p, t->a, t->h, t->g, t->k, t->n_routers, t->n_nodes, topo_local_links(t), topo_global_links(t));
    return 0;
}

static const cmd_opt topo_opts[] = {
    {.name = "--router",
     .meta = "G,B",
     .kind = OPT_TEXT,
     .at = CLI_AT(router_arg),
     .help = "also every port of router <G,B> and what it connects to"},
    {0},
};

static const cmd_opt *const topo_tables[] = {topo_opts, NULL};

const cmd_command cmd_topo = {
    .name = "topo",
    .synopsis = "usage: doar topo CONFIG [--router G,B] [--seed N]\n\n"
                "Prints k, nodes, routers, local and global links; with --router, every port of\n"
                "router <G,B> and what it connects to. Last line: topo: config=... (key=value).\n\n",
    .opts = topo_tables,
    .common = cmd_common_opts,
    .run = run_topo,
};

/* ---------------- doar configs: the named configurations ---------------- */

static int run_configs(cli *c) {
    char err[DOAR_ERRLEN];
    int n = topo_named_count();
    if (c->make_fragment)
        printf("# the named configurations of csim/topo.c, written by `doar configs --make`: do not edit\n");
    for (int i = 0; i < n; i++) {
        topo t;
        if (topo_named_at(&t, i, err)) return cmd_bad(c, "%s", err); /* a bad table in csim/topo.c */
        if (c->make_fragment)
            printf("DFLY_%s := %d %d %d %d\n", t.name, t.p, t.a, t.h, t.g);
        else
            printf("%-7s dfly(%d,%d,%d,%d) k=%d routers=%d nodes=%d\n", t.name, t.p, t.a, t.h, t.g, t.k, t.n_routers,
                   t.n_nodes);
    }
    if (c->make_fragment)
        printf("CONFIGS := %s\n", topo_named_list());
    else
        printf("configs: n=%d names=%s\n", n, topo_named_list());
    return 0;
}

static const cmd_opt configs_opts_table[] = {
    {.name = "--make",
     .kind = OPT_FLAG,
     .at = CLI_AT(make_fragment),
     .help = "print them as a Makefile fragment: DFLY_NAME := p a h g for each, then\n"
             "CONFIGS := the names (the Makefile's build/configs.mk)"},
    {0},
};

static const cmd_opt *const configs_tables[] = {configs_opts_table, NULL};

const cmd_command cmd_configs = {
    .name = "configs",
    .synopsis = "usage: doar configs [--make]\n\n"
                "Prints the named configurations (csim/topo.c), one a line: name, dfly(p,a,h,g),\n"
                "radix, routers, nodes. Last line: configs: n=N names=... . Takes no CONFIG.\n\n",
    .opts = configs_tables,
    .common = cmd_no_opts,
    .no_config = 1,
    .run = run_configs,
};
