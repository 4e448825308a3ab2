/*
 * cmd_tables — `doar tables`: build, dump and write the routing tables A/B/C, and validate a
 * directory of $readmemh images (--load: encoding, then routes or the generated tables).
 */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

#include "tables_image.h"

static void dump_port(const table_set *ts, int r, int port) {
    const topo *t = &ts->t;
    const port_tables *pt = tables_port(ts, r, port);
    char line[600];
    printf("router (%d,%d) port %d (%s input): table A %d entries, table B %d, table C %d\n", topo_gid(t, r),
           topo_bid(t, r), port, cmd_class_word(topo_port_class(t, port)), ts->depth_a, ts->depth_b, ts->depth_c);
    const uint64_t *rows[3] = {pt->a, pt->b, pt->c};
    const int depth[3] = {ts->depth_a, ts->depth_b, ts->depth_c};
    for (int tab = 0; tab < 3; tab++)
        for (int row = 0; row < depth[tab]; row++) {
            uint64_t e = rows[tab][row];
            if (!e) continue;
            tables_describe(ts, r, port, (table_id)tab, row, e, line, sizeof line);
            printf("  %c[%3d] %0*llx  %s\n", "ABC"[tab], row, tab == TABLE_C ? 2 * ts->prm.c_ways : 16,
                   (unsigned long long)e, line);
        }
    printf("  (ports: t = terminal, l = intra-group, g = global; gN = group-level global port N;"
           " all-zero rows omitted)\n");
}

/* What `tables --load` proves about a loaded set beyond its encoding. A complete set gets the
 * route check (doar check's: every route arrives, shapes, hops, VCs, deadlock freedom): *how =
 * "routes". A partial set (--sample, --router) cannot be route-checked, so each of its routers
 * must equal the generated tables of the same shape and parameters word for word: *how =
 * "generated". Returns 0 verified, 1 wrong (why says where), -1 could not run (err). */
static int verify_loaded(const table_set *ts, const char **how, char why[DOAR_ERRLEN], char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    if (ts->routers_present == t->n_routers) {
        check_opts o;
        check_default_opts(&o);
        check_result *res = malloc(sizeof *res); /* per-kind messages: too big for the stack */
        if (!res) {
            snprintf(err, DOAR_ERRLEN, "out of memory");
            return -1;
        }
        *how = "routes";
        int rc = check_run(ts, &o, res, err);
        int wrong = !rc && !res->ok;
        if (wrong) snprintf(why, DOAR_ERRLEN, "%s", res->fail);
        free(res);
        return rc ? -1 : wrong;
    }
    table_set ref;
    *how = "generated";
    if (tables_generate(&ref, t, &ts->prm, err)) return -1;
    int wrong = 0;
    for (int r = 0; r < t->n_routers && !wrong; r++) {
        if (!ts->present[r]) continue;
        if (memcmp(&ts->rcfg[r].wired, &ref.rcfg[r].wired, sizeof ref.rcfg[r].wired)) {
            snprintf(why, DOAR_ERRLEN, "router %d,%d: wired-port mask differs from the generated one", topo_gid(t, r),
                     topo_bid(t, r));
            wrong = 1;
        }
        for (int port = 0; port < t->k && !wrong; port++) {
            const port_tables *x = tables_port(ts, r, port), *y = tables_port(&ref, r, port);
            const uint64_t *xs[3] = {x->a, x->b, x->c}, *ys[3] = {y->a, y->b, y->c};
            const int depth[3] = {ts->depth_a, ts->depth_b, ts->depth_c};
            for (int tab = 0; tab < 3 && !wrong; tab++)
                for (int row = 0; row < depth[tab] && !wrong; row++)
                    if (xs[tab][row] != ys[tab][row]) {
                        snprintf(why, DOAR_ERRLEN,
                                 "router %d,%d port %d table %c row %d differs from the generated "
                                 "tables",
                                 topo_gid(t, r), topo_bid(t, r), port, "ABC"[tab], row);
                        wrong = 1;
                    }
        }
    }
    tables_free(&ref);
    return wrong;
}

static int run_tables(cli *c) {
    char err[DOAR_ERRLEN];
    table_set ts;
    if (c->load_dir) {
        if (c->out_dir || c->dump) return cmd_bad(c, "%s", "--load cannot be combined with --out or --dump");
        if (tables_load_images(&ts, c->load_dir, err)) return cmd_bad(c, "%s", err);
        if (c->have_topo && (ts.t.p != c->t.p || ts.t.a != c->t.a || ts.t.h != c->t.h || ts.t.g != c->t.g)) {
            cmd_bad(c, "%s/manifest.txt: images are for dfly(%d,%d,%d,%d), not %s", c->load_dir, ts.t.p, ts.t.a, ts.t.h,
                    ts.t.g, c->t.name);
            tables_free(&ts);
            return EXIT_BADINPUT;
        }
        /* well-encoded is not right: a valid entry pointing at the wrong port passes the loader
         * (and a lock-step, whose two sides read the same table); check what the tables do */
        const char *how = NULL;
        char why[DOAR_ERRLEN];
        int vrc = verify_loaded(&ts, &how, why, err);
        if (vrc < 0) {
            tables_free(&ts);
            return cmd_bad(c, "%s", err);
        }
        if (vrc > 0) {
            printf("tables: FAIL dir=%s config=%s %s: %s\n", c->load_dir, ts.t.name, how, why);
            tables_free(&ts);
            return EXIT_FAIL;
        }
        printf("tables: ok loaded dir=%s config=%s routers=%d/%d ports=%d distinct_port_tables=%d verified=%s\n",
               c->load_dir, ts.t.name, ts.routers_present, ts.t.n_routers, ts.routers_present * ts.t.k, ts.pool_n, how);
        tables_free(&ts);
        return 0;
    }
    if (!c->have_topo) return cmd_bad(c, "%s", "missing CONFIG (see doar tables --help)");
    if (!c->out_dir && !c->dump) return cmd_bad(c, "%s", "nothing to do: give --out DIR, --dump or --load DIR");
    if (c->sample && !c->out_dir) return cmd_bad(c, "%s", "--sample needs --out DIR");
    if (c->out_dir && c->router < 0 && !c->sample && (long)c->t.n_routers * (1 + 3 * c->t.k) > 1000000)
        return cmd_bad(c, "%s", "the full image set would exceed a million files: give --router G,B or --sample N");
    if (c->dump && (c->router < 0 || c->port < 0)) return cmd_bad(c, "%s", "--dump needs --router G,B and --port P");
    if (tables_generate(&ts, &c->t, &c->prm, err)) return cmd_bad(c, "%s", err);
    if (c->dump) dump_port(&ts, c->router, c->port);
    if (c->out_dir) {
        uint8_t *select = NULL;
        int nr = c->t.n_routers;
        if (c->router >= 0 || c->sample) {
            select = calloc((size_t)c->t.n_routers, 1);
            if (!select) {
                tables_free(&ts);
                return cmd_bad(c, "%s", "out of memory");
            }
            if (c->router >= 0) select[c->router] = 1;
            int ns = c->sample > c->t.n_routers ? c->t.n_routers : c->sample;
            for (int i = 0; i < ns; i++) select[(long)i * c->t.n_routers / ns] = 1;
            nr = 0;
            for (int r = 0; r < c->t.n_routers; r++) nr += select[r];
        }
        int wrc = tables_write_images(&ts, c->out_dir, select, err);
        free(select);
        if (wrc) {
            tables_free(&ts);
            return cmd_bad(c, "%s", err);
        }
        printf("tables: wrote dir=%s config=%s routers=%d files=%d entries_per_port=%d+%d+%d\n", c->out_dir, c->t.name,
               nr, nr * (1 + 3 * c->t.k), ts.depth_a, ts.depth_b, ts.depth_c);
    }
    tables_free(&ts);
    return 0;
}

static const cmd_opt tables_opts[] = {
    {.name = "--out",
     .meta = "DIR",
     .kind = OPT_TEXT,
     .at = CLI_AT(out_dir),
     .help = "write $readmemh images and DIR/manifest.txt (all routers, or one)"},
    {.name = "--router",
     .meta = "G,B",
     .kind = OPT_TEXT,
     .at = CLI_AT(router_arg),
     .help = "with --out: only router <G,B>; with --dump: the router to print"},
    {.name = "--port",
     .meta = "P",
     .kind = OPT_TEXT,
     .at = CLI_AT(port_arg),
     .help = "with --dump: the input port to print, 0..k-1"},
    {.name = "--sample",
     .meta = "N",
     .kind = OPT_INT,
     .at = CLI_AT(sample),
     .lo = 1,
     .hi = 1000000,
     .expect = "expected a positive integer",
     .help = "with --out: only N routers spread evenly over the network"},
    {.name = "--dump",
     .kind = OPT_FLAG,
     .at = CLI_AT(dump),
     .help = "print one port's tables readably (needs --router and --port)"},
    {.name = "--load",
     .meta = "DIR",
     .kind = OPT_TEXT,
     .at = CLI_AT(load_dir),
     .help = "validate a directory of images (exit 2 on the first problem),\n"
             "then check their routes (a sampled set: against the generated\n"
             "tables); exit 1 on a wrong route. With CONFIG, also require it"},
    {0},
};

static const cmd_opt *const tables_tables[] = {tables_opts, cmd_table_opts, NULL};

const cmd_command cmd_tables = {
    .name = "tables",
    .synopsis = "usage: doar tables CONFIG --out DIR [--router G,B]\n"
                "       doar tables CONFIG --router G,B --port P --dump\n"
                "       doar tables --load DIR [CONFIG]\n\n"
                "Builds the routing tables of seed 001 Fig. 7(a) for every input port of every router.\n",
    .opts = tables_tables,
    .common = cmd_common_opts,
    .run = run_tables,
};
