/*
 * cmd_sim — `doar sim`: one run of the network simulator; and what sim and sweep share: the
 * network's option table (cmd_net_opts) and the fault-cycle refusals.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <string.h>
#include <sys/resource.h>

#include "net_part.h"

/* build/doar-mpi: how the run was split and what it cost — ranks, the window (the global link
 * latency: the lookahead), exchanges, what crossed ranks per exchange (summed over the ranks),
 * syncs, the ranks' mean share of the run spent in syncs and exchanges (waiting for the slowest
 * included), and the largest resident memory of a rank. A collective: every rank calls it. */
static void print_mpi_line(const net_comm *comm, const network *net, double run_seconds) {
    long ex, words, bytes, syncs;
    double comm_s;
    net_part_stats(net, &ex, &words, &bytes, &syncs, &comm_s);
    struct rusage ru;
    long rss_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
    long sum[2] = {words, bytes}, mx[2] = {rss_kb, ex};
    comm->reduce_long(comm->ctx, sum, 2, NET_OP_SUM);
    comm->reduce_long(comm->ctx, mx, 2, NET_OP_MAX);
    double share = run_seconds > 0.0 ? comm_s / run_seconds : 0.0; /* the ranks' mean share */
    comm->sum_double(comm->ctx, &share, 1);
    printf("sim: mpi ranks=%d groups_per_rank=%d..%d window=%d exchanges=%ld words_per_exchange=%.1f "
           "bytes_per_exchange=%.0f syncs=%ld comm_share=%.0f%% max_rss_per_rank=%.1fMiB\n",
           comm->size, net->t.g / comm->size, (net->t.g + comm->size - 1) / comm->size, net->lat[PORT_GLOBAL], mx[1],
           mx[1] ? (double)sum[0] / (double)mx[1] : 0.0, mx[1] ? (double)sum[1] / (double)mx[1] : 0.0, syncs,
           100.0 * share / comm->size, (double)mx[0] / 1024.0);
}

/* Options that would be silently ignored are refused (issue 24): --fault-at / --repair-at
 * without faults, --dead-dests skip without router faults, --bin without --series-csv or --cong-csv, and fault or
 * repair cycles the run never reaches.
 * `last` is the first cycle the run is sure not to simulate with injection on: sim, the end of
 * the drain limit; sweep, the end of the sample (a load may stop there). */
int cmd_check_fault_cycles(cli *c, long last) {
    const net_params *p = &c->nprm;
    int faulty = p->fault_links > 0 || p->fault_routers > 0;
    if (!faulty && (c->have_fault_at || c->have_repair_at))
        return cmd_bad(c, "%s needs --link-faults N or --router-faults N (without faults it would be ignored)",
                       c->have_fault_at ? "--fault-at" : "--repair-at");
    if (p->dead_dests && p->fault_routers <= 0)
        return cmd_bad(c, "%s", "--dead-dests skip needs --router-faults N (without dead routers it would be ignored)");
    if (c->have_bin && !c->series_csv && !c->cong_csv)
        return cmd_bad(c, "%s", "--bin needs --series-csv FILE or --cong-csv FILE (it sets their bins)");
    if (faulty && p->fault_at >= last)
        return cmd_bad(
            c,
            "--fault-at %ld: past the end of the run (cycle %ld = warm-up + sample%s): the faults would never "
            "strike",
            p->fault_at, last, !strcmp(c->cmd, "sim") ? " + drain limit" : "");
    if (faulty && p->repair_at >= last)
        return cmd_bad(c,
                       "--repair-at %ld: past the end of the run (cycle %ld = warm-up + sample + drain limit): leave "
                       "it out for faults that are never repaired",
                       p->repair_at, last);
    return 0;
}

static int run_sim(cli *c) {
    char err[DOAR_ERRLEN];
    net_params *p = &c->nprm;
    if (!c->have_topo) return cmd_bad(c, "%s", "missing CONFIG (see doar sim --help)");
    if (!c->have_rate) return cmd_bad(c, "%s", "missing --rate X (offered load, flits/node/cycle)");
    if (net_parse_routing(c->routing, &p->routing, err)) return cmd_bad(c, "%s", err);
    if (traffic_parse(c->traffic, &c->t, &p->traffic, err)) return cmd_bad(c, "%s", err);
    p->seed = c->seed;
    p->tprm = c->prm;
    if (!c->have_fault_at) p->fault_at = p->warmup;
    net_size_router(&c->t, p); /* buffers and thresholds follow the packet length */
    if (net_check_params(&c->t, p, err)) return cmd_bad(c, "%s", err);
    if (tables_check_params(&c->t, &p->tprm, err)) return cmd_bad(c, "%s", err); /* before the header line */
    int frc = cmd_check_fault_cycles(c, p->warmup + p->sample + p->drain_limit);
    if (frc) return frc;
    double need = cmd_estimate_bytes(&c->t, EST_NET, p);
    int mrc = cmd_net_check_memory(c, need);
    if (mrc) return mrc;
    p->progress = c->quiet ? NULL : stderr;
    p->comm = c->comm;
    char tname[32];
    traffic_name(&p->traffic, tname, sizeof tname);
    const topo *t = &c->t;
    printf("sim: config=%s dfly(%d,%d,%d,%d) routers=%d nodes=%d routing=%s traffic=%s rate=%g packet_len=%d "
           "latency=%d,%d speedup=%d oq_depth=%d router=%s warmup=%ld sample=%ld seed=%llu memory=%.0fMiB\n",
           t->name, t->p, t->a, t->h, t->g, t->n_routers, t->n_nodes, net_routing_name(p->routing), tname, p->rate,
           p->packet_len, p->lat_local, p->lat_global, p->speedup, p->oq_pkts, ROUTER_VERSION, p->warmup, p->sample,
           (unsigned long long)p->seed, need / 1048576.0);
    fflush(stdout);
    /* the output files: --channel-csv, --series-csv, --cong-csv, each written after the run */
    enum { OUT_CHAN, OUT_SERIES, OUT_CONG, OUT_FILES };
    static const char *const out_opt[OUT_FILES] = {"--channel-csv", "--series-csv", "--cong-csv"};
    const char *out_name[OUT_FILES] = {c->csv, c->series_csv, c->cong_csv};
    int (*const out_write[OUT_FILES])(const network *, FILE *) = {net_write_channels, net_write_series, net_write_cong};
    FILE *out[OUT_FILES] = {NULL, NULL, NULL};
    if (c->series_csv || c->cong_csv) p->series_bin = c->series_bin;
    p->cong_series = c->cong_csv != NULL;
    /* rank 0 writes the files; every rank gives up when it cannot */
    const int root = net_comm_root(c->comm);
    int bad = -1;
    for (int i = 0; i < OUT_FILES && bad < 0; i++)
        if (root && out_name[i] && !(out[i] = fopen(out_name[i], "w"))) bad = i;
    if (!net_comm_all(c->comm, bad < 0)) {
        for (int i = 0; i < OUT_FILES; i++)
            if (out[i]) fclose(out[i]);
        if (!root) return EXIT_BADINPUT;
        return cmd_bad(c, "%s '%s': cannot write the file", out_opt[bad], out_name[bad]);
    }
    network net;
    if (net_init(&net, t, p, err)) {
        for (int i = 0; i < OUT_FILES; i++)
            if (out[i]) fclose(out[i]);
        return cmd_bad(c, "%s", err);
    }
    net_result r;
    int rc = net_run(&net, &r);
    if (c->comm) print_mpi_line(c->comm, &net, r.seconds);
    for (int i = 0; i < OUT_FILES; i++) {
        if (!out[i]) continue;
        int bad_write = out_write[i](&net, out[i]) != 0;
        if (fclose(out[i])) bad_write = 1;
        out[i] = NULL;
        if (bad_write && bad < 0) bad = i;
    }
    if (bad >= 0) {
        net_free(&net);
        return cmd_bad(c, "%s '%s': cannot write the file", out_opt[bad], out_name[bad]);
    }
    long gl_live, gl_wired;
    int gl_fewest;
    net_router_fault_links(&net, &gl_live, &gl_wired, &gl_fewest);
    net_free(&net);
    printf("sim: global_channels=%ld load min=%.4f mean=%.4f max=%.4f flits/cycle\n", r.channels, r.channel_min,
           r.channel_mean, r.channel_max);
    printf(
        "sim: cycles=%ld time=%.2fs speed=%.0f router-cycles/s generated=%.4f sample_packets=%ld/%ld sample_lost=%ld "
        "hops_hist=",
        r.cycles, r.seconds, r.seconds > 0 ? (double)r.cycles * t->n_routers / r.seconds : 0.0, r.generated,
        r.sample_delivered, r.sample_created, r.sample_lost);
    for (int h = 0; h <= NET_MAX_HOPS_HIST; h++) printf("%s%ld", h ? "," : "", r.hops_hist[h]);
    printf("\n");
    if (p->routing != NET_ROUTING_DOAR)
        printf("sim: policy=%s vcs=%d source_decisions=%ld nonminimal=%ld (%.1f%%; PAR/PAR_PH count their second "
               "decision too)\n",
               net_routing_name(p->routing), policy_vcs(p->routing), r.decisions, r.nonminimal,
               r.decisions ? 100.0 * (double)r.nonminimal / (double)r.decisions : 0.0);
    if (p->fault_routers > 0)
        printf("sim: router_faults routers=%d lost_in_routers=%ld lost_dead_sources=%ld created_to_dead=%ld "
               "lost_to_dead_after_diagnosis=%ld dead_dests=%s global_links_live=%ld/%ld fewest_in_a_group=%d\n",
               p->fault_routers, r.lost_router, r.lost_dead_source, r.created_to_dead, r.lost_to_dead_after_diagnosis,
               p->dead_dests ? "skip" : "send", gl_live, gl_wired, gl_fewest);
    if (p->fault_links > 0 || p->fault_routers > 0)
        printf(
            "sim: faults links=%d at=%ld repair=%ld dest_refraction=%d fd_fr_packets=%ld ctl_unwired=%ld diagnosis_cycles=%ld recovery_cycles=%ld "
            "lost_on_links=%ld lost_discarded=%ld; lost by creation: before_fault=%ld in_diagnosis=%ld "
            "after_diagnosis=%ld in_recovery=%ld after_recovery=%ld; lost by time: before_fault=%ld in_diagnosis=%ld "
            "after_diagnosis=%ld in_recovery=%ld after_recovery=%ld; unreachable_pairs=%ld created_unreachable=%ld "
            "lost_unreachable=%ld deliverable=%.4f\n",
            p->fault_links, p->fault_at, p->repair_at, p->tprm.dest_refraction, r.fd_fr_packets, r.ctl_unwired,
            r.diagnosis_cycles, r.recovery_cycles, r.lost_link, r.lost_discard, r.lost_before_fault, r.lost_diagnosis,
            r.lost_after_diagnosis, r.lost_recovery, r.lost_after_recovery, r.lost_when[NET_PHASE_BEFORE],
            r.lost_when[NET_PHASE_DIAGNOSIS], r.lost_when[NET_PHASE_AFTER_DIAGNOSIS], r.lost_when[NET_PHASE_RECOVERY],
            r.lost_when[NET_PHASE_AFTER_RECOVERY], r.unreachable_pairs, r.created_unreachable, r.lost_unreachable,
            r.deliverable);
    if (rc) printf("sim: FAIL %s%s\n", r.deadlock ? "deadlock: " : "", r.report);
    /* a run whose drain ended before the fault (or repair) cycle did not do what was asked:
     * say so and fail rather than report a fault-free figure as a faulty one */
    int faulty = p->fault_links > 0 || p->fault_routers > 0;
    const char *missed = !faulty                                         ? NULL
                         : r.cycles <= p->fault_at                       ? "--fault-at"
                         : p->repair_at >= 0 && r.cycles <= p->repair_at ? "--repair-at"
                                                                         : NULL;
    if (missed) {
        long at = r.cycles <= p->fault_at ? p->fault_at : p->repair_at;
        fprintf(stderr,
                "doar sim: warning: the run ended at cycle %ld, before %s %ld: its result is not the one asked "
                "for\n",
                r.cycles, missed, at);
        printf("sim: FAIL the run ended at cycle %ld, before %s %ld\n", r.cycles, missed, at);
        rc = 1;
    }
    printf(
        "sim: config=%s routing=%s traffic=%s offered=%.4f accepted=%.4f latency=%.1f hops=%.3f delivered=%ld lost=%ld\n",
        t->name, net_routing_name(p->routing), tname, r.offered, r.accepted, r.latency, r.hops, r.delivered, r.lost);
    return rc ? EXIT_FAIL : 0;
}

/* ---------------- options: the network's (sim and sweep), then sim's own ---------------- */

#define CYCLES(opt, field_, low, text)                                                                                 \
    {                                                                                                                  \
        .name = opt, .meta = "N", .kind = OPT_LONG, .at = CLI_AT(field_), .lo = low, .hi = 1000000000L,                \
        .msg = MSG_NAME, .expect = "expected a cycle count (0..1000000000; sample >= 1)", .help = text                 \
    }
#define FAULT_NUMBER(opt, meta_, kind_, field_, have_, text)                                                           \
    {                                                                                                                  \
        .name = opt, .meta = meta_, .kind = kind_, .at = CLI_AT(field_), .have = have_, .lo = 0, .hi = 1000000000L,    \
        .msg = MSG_NAME, .expect = "expected a number {range}", .help = text                                           \
    }

static const char *const speedups[] = {"1", "2", "4", NULL};
static const char *const zero_one[] = {"0", "1", NULL};
static const char *const dead_dest_modes[] = {"send", "skip", NULL};

const cmd_opt cmd_net_opts[] = {
    {.name = "--routing",
     .meta = "R",
     .kind = OPT_TEXT,
     .at = CLI_AT(routing),
     .help = "{default} (default: the route-compute units of the RTL) or a route\n"
             "policy of the C model: min val ugal_l ugal_g par par_ph ugal_le tpr\n"
             "(VCs as seed 001 Table 1; docs/network.md \"Routing algorithms\")"},
    {.name = "--traffic",
     .meta = "T",
     .kind = OPT_TEXT,
     .at = CLI_AT(traffic),
     .help = "{default} (default), adv+i (group G sends to group G+i), rp (permutation);\n"
             "mixes r_mixed_ua(x,y) r_mixed_ur(x,y) (y% of the routers send ADV+1 /\n"
             "RP, the rest UR; x + y = 100), n_mixed_ua(x,y) n_mixed_ur(x,y) (y% of\n"
             "the nodes); applications lu fft3d halo3d stencil5d dl lulesh, ranks\n"
             "placed at random from the seed, NAME(linear): rank = node; lu, fft3d:\n"
             "NAME(P) or NAME(linear,P), P cycles per phase (default 2000).\n"
             "Quote parentheses in a shell: --traffic 'r_mixed_ua(50,50)'"},
    CYCLES("--warmup", nprm.warmup, 0, "warm-up cycles (default {default})"),
    CYCLES("--sample", nprm.sample, 1, "sample cycles (default {default})"),
    {.name = "--packet-len",
     .meta = "L",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.packet_len),
     .have = CLI_AT(have_packet_len),
     .lo = NET_MIN_PACKET_LEN,
     .hi = FLIT_MAX_LEN,
     .expect = "expected {range} flits",
     .help = "flits per packet, {range} (default {default})"},
    {.name = "--thresholds",
     .meta = "TL,TG",
     .kind = OPT_PAIR,
     .at = CLI_AT(nprm.tl_pkts),
     .at2 = CLI_AT(nprm.tg_pkts),
     .lo = 0,
     .hi = 100000,
     .expect = "expected TL,TG (packets)",
     .help = "DOAR congestion thresholds, packets (default {default}: seed 001's\n"
             "TG, twice its TL because the waiting packets count; docs/network.md)"},
    {.name = "--threshold-util",
     .meta = "P",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.threshold_util),
     .lo = 0,
     .hi = 100,
     .expect = "expected a percentage {range}",
     .help = "a threshold is at least the flits a port busy P% of the cycles\n"
             "has in flight on its link (occupancy is credit-based; {range}, default\n"
             "{default}; 0: the paper's figures alone; TG only with --cong-window 0;\n"
             "docs/network.md)"},
    {.name = "--cong-demand",
     .meta = "0|1",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.cong_demand),
     .lo = 0,
     .hi = 1,
     .choices = zero_one,
     .expect = "expected {range}",
     .help = "DOAR: an intra-group or global port's congestion counts the flits\n"
             "routed to it and waiting in its router besides its credits (1: the\n"
             "RTL's); 0: credit occupancy only (default {default}; docs/network.md)"},
    {.name = "--cong-window",
     .meta = "0|1",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.cong_window),
     .lo = 0,
     .hi = 1,
     .choices = zero_one,
     .expect = "expected {range}",
     .help = "DOAR: 1: a global port's congestion leaves out the flits in flight on\n"
             "its link (sent within its round trip; TG is then the paper's alone);\n"
             "0: its occupancy (default {default}; docs/network.md)"},
    {.name = "--speedup",
     .meta = "S",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.speedup),
     .lo = 1,
     .hi = 4,
     .choices = speedups,
     .expect = "expected {range}",
     .help = "the routers' internal speed-up: crossbar planes, {range} (default\n"
             "{default}, seed 001 Table 1; docs/architecture.md \"Router v2\")"},
    {.name = "--oq-depth",
     .meta = "P",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.oq_pkts),
     .lo = 1,
     .hi = NET_OQ_PKTS_MAX,
     .expect = "expected {range} packets",
     .help = "output queue per output port and plane, packets, {range} (default\n"
             "{default}: where MIN's UR throughput stops rising; docs/network.md)"},
    {.name = "--latency",
     .meta = "L,G",
     .kind = OPT_PAIR,
     .at = CLI_AT(nprm.lat_local),
     .at2 = CLI_AT(nprm.lat_global),
     .lo = 0,
     .hi = 100000,
     .min = 1,
     .below = "links need >= 1 cycle",
     .expect = "expected L,G (cycles)",
     .help = "intra-group and global link latency, cycles 1..{hi} (default {default})"},
    CYCLES("--drain-limit", nprm.drain_limit, 1,
           "after the sample, injection goes on until the sample's packets are\n"
           "delivered (or, with faults, lost) or for N cycles (default {default});\n"
           "then the network drains"),
    CYCLES("--watchdog", nprm.watchdog, 1, "cycles without any flit moving that count as deadlock (default {default})"),
    {.name = "--block",
     .meta = "N",
     .kind = OPT_INT,
     .at = CLI_AT(nprm.block),
     .lo = 0,
     .hi = NET_MAX_BLOCK,
     .expect = "expected {range} cycles (0: automatic)",
     .help = "speed only, same results: a router runs N cycles before the next\n"
             "router ({range}; 1: cycle by cycle; default {default}: the shortest router\n"
             "link latency, at most {hi}; ugal_g: whole groups; cycle by cycle after\n"
             "the sample and while faults are being diagnosed or recovered)"},
    FAULT_NUMBER("--link-faults", "N", OPT_INT, nprm.fault_links, 0,
                 "N random network links fail (both ways) at --fault-at; every router\n"
                 "runs its fault units; losses are counted, not errors"),
    FAULT_NUMBER("--router-faults", "N", OPT_INT, nprm.fault_routers, 0,
                 "N random routers die at --fault-at (their nodes stop; neighbours\n"
                 "see the peer down); may be combined with --link-faults"),
    {.name = "--dead-dests",
     .meta = "send|skip",
     .kind = OPT_WORD,
     .at = CLI_AT(nprm.dead_dests),
     .choices = dead_dest_modes,
     .expect = "expected {range}",
     .help = "packets for a dead router's nodes: send (the sources cannot know;\n"
             "lost in the network; default {default}) or skip (not created, as in a\n"
             "job that leaves those nodes out); needs --router-faults"},
    FAULT_NUMBER("--fault-at", "C", OPT_LONG, nprm.fault_at, CLI_AT(have_fault_at),
                 "cycle of the link and router faults (default: sim, the start of the\n"
                 "sample; sweep, cycle 0); refused without faults or at/after the end\n"
                 "of the run, exit 1 (sim: FAIL) when the run ends before it"),
    FAULT_NUMBER("--repair-at", "C", OPT_LONG, nprm.repair_at, CLI_AT(have_repair_at),
                 "cycle the links and routers come back (default: never); as --fault-at\n"
                 "(sim only: a sweep keeps its faults)"),
    {.name = "--max-memory",
     .meta = "SIZE",
     .kind = OPT_MEMORY,
     .at = CLI_AT(max_memory),
     .expect = "expected a size such as 4096M, 16G or 1T (at least 1M)",
     .help = "refuse a run estimated above SIZE (K/M/G/T, at least 1M; default: the\n"
             "machine's memory); sim: the estimate is memory=NMiB in the first line"},
    {.name = "--quiet", .kind = OPT_FLAG, .at = CLI_AT(quiet), .help = "no progress lines"},
    {0},
};

static const cmd_opt sim_rate_opts[] = {
    {.name = "--rate",
     .meta = "X",
     .kind = OPT_REAL,
     .at = CLI_AT(nprm.rate),
     .have = CLI_AT(have_rate),
     .rlo = 0.0,
     .rhi = 1.0,
     .expect = "expected {range} flits/node/cycle",
     .help = "offered load, flits per node per cycle, {range} (required)"},
    {0},
};

static const cmd_opt sim_file_opts[] = {
    {.name = "--series-csv",
     .meta = "FILE",
     .kind = OPT_TEXT,
     .at = CLI_AT(series_csv),
     .help = "time series (seed 001 Fig. 17): cycle,accepted,latency,packets per\n"
             "bin of --bin N cycles, up to the drain limit"},
    {.name = "--bin",
     .meta = "N",
     .kind = OPT_LONG,
     .at = CLI_AT(series_bin),
     .have = CLI_AT(have_bin),
     .lo = 1,
     .hi = 1000000000L,
     .expect = "expected {range} cycles",
     .help = "with --series-csv or --cong-csv: cycles per bin, {range} (default\n"
             "{default})"},
    {.name = "--cong-csv",
     .meta = "FILE",
     .kind = OPT_TEXT,
     .at = CLI_AT(cong_csv),
     .help = "the routers' congestion state at the end of every bin of --bin N\n"
             "cycles: cycle,accepted,hops,congg,congl,global_occ,global_demand,\n"
             "local_occ,source_queue (live routers and links; docs/network.md\n"
             "\"Congestion over time\")"},
    {.name = "--channel-csv",
     .meta = "FILE",
     .kind = OPT_TEXT,
     .at = CLI_AT(csv),
     .help = "load of every global link direction in the sample (seed 001\n"
             "Fig. 12): router,gid,bid,port,peer_gid,load (flits/cycle)"},
    {0},
};

static const cmd_opt *const sim_tables[] = {sim_rate_opts, cmd_net_opts, sim_file_opts, cmd_table_opts, NULL};

const cmd_command cmd_sim = {
    .name = "sim",
    .synopsis = "usage: doar sim CONFIG --rate X [--routing R] [--traffic T] [--seed S] [options]\n\n"
                "A dragonfly of the C router model (the one lock-stepped against the RTL) with Bernoulli\n"
                "sources and sinks on every node (docs/network.md). Warm-up, then a sample window whose\n"
                "packets are measured (latency from creation to tail delivery, source queueing included),\n"
                "then a drain until every packet is delivered (a watchdog reports where traffic stopped).\n"
                "Last line: sim: config=C routing=R traffic=T offered=X accepted=Y latency=L hops=H\n"
                "           delivered=D lost=N   (exit 1 when traffic stopped, or a packet was lost with no\n"
                "           fault injected; with --link-faults losses are counted and reported, not errors)\n\n",
    .opts = sim_tables,
    .common = cmd_seeded_opts,
    .run = run_sim,
};
