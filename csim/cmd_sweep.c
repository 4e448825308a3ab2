/*
 * cmd_sweep — `doar sweep`: doar sim at rising loads up to saturation, bisected, optionally on
 * past it (--past), resumable from an interrupted run's output (--resume).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_parse.h"

/* One point of a sweep: saturated when the mean latency exceeds the limit, a sample packet was not
 * delivered in the drain limit, the network accepts clearly less than was generated, or traffic
 * stopped. With faults (failed from --fault-at, default cycle 0, never repaired) packets to pairs
 * left without a path and to a dead router's nodes are lost, not late: the delivered-all test is
 * left out, and the accepted share is taken of what could arrive (net_result.deliverable; until
 * 2026-11-28 of all that was generated, so with 30 dead routers on `paper` the 3.4 % of packets
 * for their nodes used up most of the 5 % margin: docs/RESULTS.md, issue 20). */
#define SWEEP_ACCEPT_SHARE 0.95
static int sweep_point(cli *c, double rate, net_result *r, int *saturated, char err[DOAR_ERRLEN]) {
    net_params p = c->nprm;
    p.rate = rate;
    p.progress = NULL;
    if (!c->full_points) {
        p.stop_latency = c->sat_latency;
        p.stop_share = SWEEP_ACCEPT_SHARE;
    }
    network net;
    if (net_init(&net, &c->t, &p, err)) return -1;
    int rc = net_run(&net, r);
    net_free(&net);
    if (r->errors) {
        snprintf(err, DOAR_ERRLEN, "rate %.3f: %s", rate, r->report);
        return -1;
    }
    int faults = p.fault_links > 0 || p.fault_routers > 0;
    *saturated = rc != 0 || r->stopped || r->latency > c->sat_latency ||
                 (!faults && r->sample_delivered < r->sample_created) ||
                 r->accepted < SWEEP_ACCEPT_SHARE * r->deliverable;
    return 0;
}

/* The loads of one sweep: each load's line, CSV row and progress line, taken from --resume when
 * the resumed output holds it. A load run twice (the same "%.4f" rate) is run once. */
#define SWEEP_MAX_RUN 512
typedef struct {
    cli *c;
    const sweep_resumed *resumed;
    FILE *csv;
    double t0, seconds_total; /* the loads' own times added up, a resumed one's too */
    int points, n;
    struct {
        double rate, accepted;
        int saturated;
    } * ran; /* every load of this sweep, in order */
} sweep_run;

/* Runs (or takes from --resume) the load `rate`; 0 with *accepted and *saturated, -1 when it
 * failed (the message is printed). */
static int sweep_load_at(sweep_run *s, double rate, double *accepted, int *saturated) {
    cli *c = s->c;
    char key[16];
    snprintf(key, sizeof key, "%.4f", rate);
    for (int j = 0; j < s->n; j++) {
        char seen[16];
        snprintf(seen, sizeof seen, "%.4f", s->ran[j].rate);
        if (!strcmp(seen, key)) { /* already run in this sweep */
            *accepted = s->ran[j].accepted;
            *saturated = s->ran[j].saturated;
            return 0;
        }
    }
    net_result r;
    int sat, reused = -1;
    double seconds = 0.0, t_load = cmd_now_s();
    char err[DOAR_ERRLEN];
    for (int j = 0; j < s->resumed->n && reused < 0; j++)
        if (!strcmp(s->resumed->load[j].key, key)) reused = j;
    if (reused >= 0) {
        const sweep_load *l = &s->resumed->load[reused];
        memset(&r, 0, sizeof r);
        r.accepted = l->accepted;
        r.latency = l->latency;
        r.hops = l->hops;
        r.stopped = l->stopped;
        sat = l->saturated;
        seconds = l->seconds;
    } else if (sweep_point(c, rate, &r, &sat, err)) {
        fprintf(stderr, "doar sweep: %s\n", err);
        return -1;
    } else {
        seconds = cmd_now_s() - t_load;
    }
    s->points++;
    s->seconds_total += seconds;
    printf("sweep: rate=%.4f accepted=%.4f latency=%.1f hops=%.3f saturated=%d stopped=%d time=%.1fs\n", rate,
           r.accepted, r.latency, r.hops, sat, r.stopped, seconds);
    fflush(stdout);
    if (s->csv) fprintf(s->csv, "%.4f,%.4f,%.1f,%.3f,%d,%d\n", rate, r.accepted, r.latency, r.hops, sat, r.stopped);
    if (!c->quiet) {
        int filled = (int)(rate * 40 + 0.5);
        fprintf(stderr, "sweep: [%.*s%*s] rate %.3f accepted %.3f latency %.0f %s%s (%.0fs)\n", filled,
                "########################################", 40 - filled, "", rate, r.accepted, r.latency,
                sat ? "saturated" : "ok", reused >= 0 ? " (resumed)" : "", cmd_now_s() - s->t0);
    }
    if (s->n < SWEEP_MAX_RUN) {
        s->ran[s->n].rate = rate;
        s->ran[s->n].accepted = r.accepted;
        s->ran[s->n].saturated = sat;
        s->n++;
    }
    *accepted = r.accepted;
    *saturated = sat;
    return 0;
}

static int run_sweep(cli *c) {
    char err[DOAR_ERRLEN];
    net_params *p = &c->nprm;
    if (!c->have_topo) return cmd_bad(c, "%s", "missing CONFIG (see doar sweep --help)");
    if (net_parse_routing(c->routing, &p->routing, err)) return cmd_bad(c, "%s", err);
    if (traffic_parse(c->traffic, &c->t, &p->traffic, err)) return cmd_bad(c, "%s", err);
    int faulty = p->fault_links > 0 || p->fault_routers > 0;
    if (faulty && p->repair_at >= 0)
        return cmd_bad(c, "%s", "a sweep keeps its faults: --repair-at belongs to doar sim");
    if (faulty && p->routing != NET_ROUTING_DOAR)
        return cmd_bad(
            c, "faults need --routing doar: routing %s has no fault handling (fault units mask the DOAR tables)",
            net_routing_name(p->routing));
    if (faulty && !c->have_fault_at) p->fault_at = 0; /* diagnosed during the warm-up */
    int frc = cmd_check_fault_cycles(c, p->warmup + p->sample);
    if (frc) return frc;
    /* an impossible shape (dfly 1,1,63,64: table A too narrow) is bad input, refused before the header */
    if (tables_check_params(&c->t, &c->prm, err)) return cmd_bad(c, "%s", err);
    if (c->csv && c->resume) { /* --csv would empty the file --resume is about to read */
        struct stat a, b;
        if (!strcmp(c->csv, c->resume) ||
            (!stat(c->csv, &a) && !stat(c->resume, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino))
            return cmd_bad(c, "--csv '%s' is the --resume file: it would be emptied before it is read", c->csv);
    }
    p->seed = c->seed;
    p->tprm = c->prm;
    p->rate = c->sweep_step;
    net_size_router(&c->t, p);
    if (net_check_params(&c->t, p, err)) return cmd_bad(c, "%s", err);
    /* one load at a time: a sweep needs what one doar sim of it needs (not printed: the header
     * lines are what --resume matches, and older outputs must stay resumable) */
    int mrc = cmd_net_check_memory(c, cmd_estimate_bytes(&c->t, EST_NET, p));
    if (mrc) return mrc;
    p->comm = c->comm;
    char tname[32];
    traffic_name(&p->traffic, tname, sizeof tname);
    const topo *t = &c->t;
    char header[1024];
    int hlen = 0;
    if (faulty)
        hlen = snprintf(header, sizeof header,
                        "sweep: faults links=%d routers=%d from cycle %ld, never repaired; dest_refraction=%d "
                        "dead_dests=%s accepted_share_of=deliverable\n",
                        p->fault_links, p->fault_routers, p->fault_at, p->tprm.dest_refraction,
                        p->dead_dests ? "skip" : "send");
    snprintf(header + hlen, sizeof header - (size_t)hlen,
             "sweep: config=%s dfly(%d,%d,%d,%d) routing=%s traffic=%s step=%g sat_latency=%g warmup=%ld sample=%ld "
             "seed=%llu%s\n",
             t->name, t->p, t->a, t->h, t->g, net_routing_name(p->routing), tname, c->sweep_step, c->sat_latency,
             p->warmup, p->sample, (unsigned long long)p->seed, c->full_points ? " full_points" : "");
    hlen = (int)strlen(header);
    /* every other setting a load's result depends on: --resume takes loads only from a run
     * whose header lines are these */
    snprintf(
        header + hlen, sizeof header - (size_t)hlen,
        "sweep: packet_len=%d latency=%d,%d speedup=%d oq_depth=%d thresholds=%d,%d threshold_util=%d drain_limit=%ld "
        "watchdog=%ld nm_slots=%d c_ways=%d router=%s%s%s\n",
        p->packet_len, p->lat_local, p->lat_global, p->speedup, p->oq_pkts, p->tl_pkts, p->tg_pkts, p->threshold_util,
        p->drain_limit, p->watchdog, p->tprm.nm_slots, p->tprm.c_ways, ROUTER_VERSION,
        /* only DOAR reads the congestion unit (route policies keep their headers, and so their
         * resumable loads, from before the options) */
        p->routing != NET_ROUTING_DOAR ? ""
        : p->cong_demand               ? " cong_demand=1"
                                       : " cong_demand=0",
        p->routing != NET_ROUTING_DOAR ? ""
        : p->cong_window               ? " cong_window=1"
                                       : " cong_window=0");
    sweep_resumed *resumed = calloc(1, sizeof *resumed);
    if (!resumed) {
        fprintf(stderr, "doar sweep: out of memory\n");
        return EXIT_FAIL;
    }
    const int root = net_comm_root(c->comm);
    int resume_ok = 1;
    if (c->resume && root) { /* doar-mpi: rank 0 reads it (its machine has it) and hands it round */
        FILE *rf = fopen(c->resume, "r");
        char shown[256];
        cli_one_line(c->resume, shown, sizeof shown);
        if (!rf)
            fprintf(stderr, "sweep: resume: %s: no such output, every load runs\n", shown);
        else {
            int rrc = sweep_resume_read(rf, c->resume, header, resumed, err);
            fclose(rf);
            if (rrc == SWEEP_RESUME_BAD) resume_ok = 0; /* a damaged output of this very sweep: trust none of it */
            if (rrc == SWEEP_RESUME_OTHER)
                fprintf(stderr, "sweep: resume: %s: not the output of this sweep, every load runs\n", shown);
        }
    }
    if (!net_comm_all(c->comm, resume_ok)) {
        free(resumed);
        return root ? cmd_bad(c, "%s", err) : EXIT_BADINPUT;
    }
    if (c->comm && c->resume) c->comm->bcast(c->comm->ctx, resumed, sizeof *resumed, 0);
    /* the resume file is read and the header settled before anything is written */
    FILE *csv = NULL; /* rank 0 writes the file; every rank gives up when it cannot */
    if (!net_comm_all(c->comm, !(root && c->csv && !(csv = fopen(c->csv, "w"))))) {
        if (csv) fclose(csv);
        free(resumed);
        return root ? cmd_bad(c, "--csv '%s': cannot write the file", c->csv) : EXIT_BADINPUT;
    }
    if (csv) fprintf(csv, "rate,accepted,latency,hops,saturated,stopped\n");
    fputs(header, stdout);
    fflush(stdout);
    sweep_run run = {c, resumed, csv, cmd_now_s(), 0.0, 0, 0, NULL};
    run.ran = calloc(SWEEP_MAX_RUN, sizeof *run.ran);
    if (!run.ran) {
        if (csv) fclose(csv);
        free(resumed);
        fprintf(stderr, "doar sweep: out of memory\n");
        return EXIT_FAIL;
    }
    double lo = 0.0, hi = -1.0, first_hi = -1.0, best = 0.0;
    int steps = (int)(1.0 / c->sweep_step + 1e-9), failed = 0;
    for (int pass = 0; pass < 3 && !failed; pass++) {
        int n = pass == 0 ? steps : 2;
        for (int i = 1; i <= n; i++) {
            double rate = pass == 0 ? c->sweep_step * i : (lo + (hi - lo) * i / 3.0);
            if (pass > 0 && hi < 0) break;
            if (rate > 1.0) rate = 1.0;
            int sat;
            double accepted;
            if (sweep_load_at(&run, rate, &accepted, &sat)) {
                failed = 1;
                break;
            }
            if (sat) {
                if (hi < 0 || rate < hi) hi = rate;
                if (pass == 0) {
                    first_hi = rate;
                    break;
                }
            } else {
                if (rate > lo) lo = rate;
                if (accepted > best) best = accepted;
            }
        }
        if (hi < 0) break; /* never saturated up to 1.0 */
    }
    /* --past F: past the saturation load (lo, the highest unsaturated load) up to top = F x lo
     * (at most 1.0; F x the first saturated load when no load was unsaturated): the step's grid
     * on from the first saturated load, then top itself. post_saturation is the lowest accepted
     * load of every load run in (lo, top], the saturated ones of the passes above included. A
     * sweep that never saturated has nothing past saturation: the field repeats the accepted
     * load at the highest load run (1.0). The saturation figure does not depend on --past. */
    double post = -1.0;
    if (!failed && c->past > 0) {
        if (hi < 0) {
            int top_j = 0; /* the accepted load at the highest rate run */
            for (int j = 1; j < run.n; j++)
                if (run.ran[j].rate > run.ran[top_j].rate) top_j = j;
            if (run.n) post = run.ran[top_j].accepted;
        } else {
            /* lo as the points= line prints it, and top to the 4 decimals its load line prints:
             * top follows from the output, and a doar sim at the printed rate is the same run */
            char shown[32];
            snprintf(shown, sizeof shown, "%.4f", lo > 0 ? lo : hi);
            double top = c->past * strtod(shown, NULL);
            if (top > 1.0) top = 1.0;
            snprintf(shown, sizeof shown, "%.4f", top);
            top = strtod(shown, NULL);
            for (int k = (int)(first_hi / c->sweep_step + 0.5) + 1; !failed && c->sweep_step * k < top - 5e-5; k++) {
                int sat;
                double accepted;
                if (sweep_load_at(&run, c->sweep_step * k, &accepted, &sat)) failed = 1;
            }
            int sat;
            double accepted;
            if (!failed && sweep_load_at(&run, top, &accepted, &sat)) failed = 1;
            for (int j = 0; !failed && j < run.n; j++)
                if (run.ran[j].rate > lo + 5e-5 && run.ran[j].rate < top + 5e-5 &&
                    (post < 0 || run.ran[j].accepted < post))
                    post = run.ran[j].accepted;
        }
    }
    if (csv) fclose(csv);
    free(resumed);
    free(run.ran);
    if (failed) return EXIT_FAIL;
    printf("sweep: points=%d highest_unsaturated=%.4f first_saturated=%.4f time=%.1fs wall=%.1fs\n", run.points, lo, hi,
           run.seconds_total, cmd_now_s() - run.t0);
    printf("sweep: config=%s routing=%s traffic=%s saturation=%.4f", t->name, net_routing_name(p->routing), tname,
           best);
    if (c->past > 0) printf(" post_saturation=%.4f", post);
    printf("\n");
    return 0;
}

static const cmd_opt sweep_opts[] = {
    {.name = "--step",
     .meta = "X",
     .kind = OPT_REAL,
     .at = CLI_AT(sweep_step),
     .rlo = 0.005,
     .rhi = 0.5,
     .expect = "expected {range}",
     .help = "load step, {range} (default {default})"},
    {.name = "--sat-latency",
     .meta = "L",
     .kind = OPT_REAL,
     .at = CLI_AT(sat_latency),
     .rlo = 1.0,
     .rhi = 1e6,
     .expect = "expected {range} cycles",
     .help = "saturation latency, cycles, {range} (default {default})"},
    {.name = "--full-points",
     .kind = OPT_FLAG,
     .at = CLI_AT(full_points),
     .help = "no early stop: saturated loads also run their drain to the end"},
    {.name = "--past",
     .meta = "F",
     .kind = OPT_REAL,
     .at = CLI_AT(past),
     .rlo = 1.0,
     .rhi = 100.0,
     .lo_open = 1,
     .expect = "expected a factor F, 1 < F <= 100 (loads on to F x the saturation load)",
     .help = "go on past saturation to F x the saturation load (1 < F <= 100;\n"
             "the highest unsaturated load as printed; at most 1.0): the\n"
             "--step grid on from the first saturated grid load, then that\n"
             "load itself (4 decimals); the last line gains post_saturation=Z,\n"
             "the lowest accepted load of the loads run above the saturation\n"
             "load (a congestion collapse: Z far below Y)"},
    {.name = "--resume",
     .meta = "FILE",
     .kind = OPT_TEXT,
     .at = CLI_AT(resume),
     .help = "FILE: the output of an interrupted run of the same sweep (same\n"
             "header lines); its loads are taken from it instead of run again.\n"
             "A missing FILE or another sweep's output: a note (sweep: resume:)\n"
             "on stderr, and every load runs; a finished run's output is taken\n"
             "whole; a damaged load line (nan, negative, junk): exit 2"},
    {.name = "--csv",
     .meta = "FILE",
     .kind = OPT_TEXT,
     .at = CLI_AT(csv),
     .help = "also write rate,accepted,latency,hops,saturated,stopped rows to FILE"},
    {0},
};

static const cmd_opt *const sweep_tables[] = {sweep_opts, cmd_net_opts, cmd_table_opts, NULL};

const cmd_command cmd_sweep = {
    .name = "sweep",
    .synopsis = "usage: doar sweep CONFIG [--routing R] [--traffic T] [--seed S] [options]\n\n"
                "Runs doar sim at rising offered loads (--step apart, from one step up to 1.0) until the\n"
                "network saturates — mean latency of the sample's packets above --sat-latency (seed 001\n"
                "sec. 5), a sample packet not delivered within the drain limit, accepted\n"
                "below 95% of generated, or traffic stopped — then bisects twice between the highest\n"
                "unsaturated and the first saturated load. A load stops as soon as it is saturated for\n"
                "certain (after the sample window: accepted below 95% of generated, or the latencies so\n"
                "far plus the ages of the sample packets still out already average above the limit); its\n"
                "latency is then that lower bound. Unsaturated loads and the saturation found are the\n"
                "same as without the early stop.\n"
                "One line per load (sweep: rate=.. accepted=.. latency=.. hops=.. saturated=0|1\n"
                "stopped=0|1 time=..s, the load's own run time, kept through --resume), a progress bar on\n"
                "stderr, then sweep: points=.. highest_unsaturated=.. first_saturated=.. time=..s (the\n"
                "loads' times added up) wall=..s (this invocation), and last:\n"
                "  sweep: config=C routing=R traffic=T saturation=Y   (Y: the highest accepted throughput,\n"
                "  flits/node/cycle, of an unsaturated load; 0 when even the first load saturates;\n"
                "  with --past F: ... saturation=Y post_saturation=Z)\n"
                "Every option of doar sim but --rate and its files; with --link-faults N the links fail at\n"
                "--fault-at, default cycle 0, and stay failed (seed 001 Fig. 15's DFT_N).\n\n",
    .opts = sweep_tables,
    .common = cmd_seeded_opts,
    .run = run_sweep,
};
