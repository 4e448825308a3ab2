/*
 * doar — the project's one command-line tool. Subcommands: topo, tables, check, faults, sim.
 * Exit status: 0 ok, 1 a check failed, 2 bad input (one-line message on stderr).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "check.h"
#include "cli_parse.h"
#include "doar_main.h"
#include "fault_campaign.h"
#include "net_part.h"
#include "network.h"
#include "tables.h"
#include "tables_image.h"
#include "topo.h"

#define EXIT_FAIL 1
#define EXIT_BADINPUT 2

typedef struct {
    const char *cmd;
    topo t;
    int have_topo;
    unsigned long long seed;
    int router;             /* -1 unless --router G,B */
    int port;               /* -1 unless --port P */
    const char *out_dir, *load_dir, *tables_dir;
    int dump;
    int sample;             /* tables --out: N routers spread evenly */
    table_params prm;
    check_opts copt;
    int quiet;
    fault_campaign_opts fopt;
    const char *example;
    net_params nprm;        /* sim */
    const char *routing, *traffic;
    int have_rate, have_packet_len, have_fault_at, have_repair_at, have_bin;
    int have_faults, have_max_faults;   /* doar faults: --faults (exact) and --max-faults were given */
    unsigned long long max_memory;     /* --max-memory (bytes); 0: the machine's memory */
    double sweep_step, sat_latency;   /* doar sweep */
    int full_points;                  /* doar sweep --full-points: saturated loads run to the end */
    double past;                      /* doar sweep --past F (> 1): loads on to F x the saturation load; 0: not given */
    const char *resume;               /* doar sweep --resume FILE: an interrupted run's output */
    const char *csv, *series_csv;
    long series_bin;
    const net_comm *comm;             /* build/doar-mpi: the ranks sim and sweep run on; NULL: this process */
} cli;

/* The one line every refusal prints: the message is formatted first and then every control
 * byte in it (a newline inside a quoted value, say) is escaped, so it stays one line. */
__attribute__((format(printf, 2, 3))) static int bad(const cli *c, const char *fmt, ...) {
    char msg[1024], shown[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_one_line(msg, shown, sizeof shown);
    fprintf(stderr, "doar %s: %s\n", c->cmd, shown);
    return EXIT_BADINPUT;
}

static const char *common_help =
    "  CONFIG               one of: tiny small fig8 mid paper tianhe\n"
    "  --dfly p,a,h,g       any dragonfly instead of a named CONFIG (k = p+a-1+h <= 64, g <= a*h+1)\n"
    "  --seed N             run seed, decimal (recorded; these commands make no random choices)\n"
    "  -h, --help           this text\n";

static void usage_main(FILE *f) {
    fprintf(f,
            "usage: doar <command> [options]\n"
            "\n"
            "doar: an open, verified model of the DOAR dragonfly router (seed 001).\n"
            "\n"
            "commands:\n"
            "  topo     print a dragonfly's size, links and the wiring of a router\n"
            "  tables   build, dump, write and validate the routing tables A/B/C\n"
            "  check    prove the tables' routes correct and deadlock-free\n"
            "  faults   fault diagnosis/recovery campaigns against the oracle; seed 001's examples\n"
            "  sim      cycle-level network simulation: latency and throughput under synthetic traffic\n"
            "  sweep    doar sim at rising loads up to saturation (CSV, progress bar)\n"
            "\n"
            "'doar <command> --help' describes a command. Exit status: 0 ok, 1 check failed,\n"
            "2 bad input.\n");
}

static void usage_topo(FILE *f) {
    fprintf(f, "usage: doar topo CONFIG [--router G,B] [--seed N]\n\n"
               "Prints k, nodes, routers, local and global links; with --router, every port of\n"
               "router <G,B> and what it connects to. Last line: topo: config=... (key=value).\n\n%s",
            common_help);
}

static void usage_tables(FILE *f) {
    fprintf(f, "usage: doar tables CONFIG --out DIR [--router G,B]\n"
               "       doar tables CONFIG --router G,B --port P --dump\n"
               "       doar tables --load DIR [CONFIG]\n\n"
               "Builds the routing tables of seed 001 Fig. 7(a) for every input port of every router.\n"
               "  --out DIR            write $readmemh images and DIR/manifest.txt (all routers, or one)\n"
               "  --sample N           with --out: only N routers spread evenly over the network\n"
               "  --dump               print one port's tables readably (needs --router and --port)\n"
               "  --load DIR           validate a directory of images (exit 2 on the first problem),\n"
               "                       then check their routes (a sampled set: against the generated\n"
               "                       tables); exit 1 on a wrong route. With CONFIG, also require it\n"
               "  --nm-slots N         table B non-minimal router slots (default 8, as the paper)\n"
               "  --c-ways N           route items per table C entry (default 6, as the paper)\n%s",
            common_help);
}

static void usage_check(FILE *f) {
    fprintf(f, "usage: doar check CONFIG [--tables DIR] [options]\n\n"
               "Follows every route the tables allow for every (source router, destination node)\n"
               "pair and proves: every route arrives; every path shape is one of seed 001's;\n"
               "<= 6 hops; VC <= 3 under the VC rule; the channel dependency graph is acyclic.\n"
               "Last line: check: ok pairs=N routes=M max_hops=H max_vc=V cdg=acyclic\n"
               "       or: check: FAIL <reason>   (exit 1)\n\n"
               "  --tables DIR         check images loaded from DIR instead of generated tables\n"
               "  --vc-rule doar|none  'none' keeps every packet on VC 0 (ablation: shows the cycle)\n"
               "  --dests N            check only N destination routers, spread evenly (large networks)\n"
               "  --quiet              no progress lines\n"
               "  --nm-slots N, --c-ways N   table parameters, as for 'doar tables'\n%s",
            common_help);
}

static void usage_faults(FILE *f) {
    fprintf(f, "usage: doar faults CONFIG [--campaigns N] [--max-faults F] [--seed S] [options]\n"
               "       doar faults fig8 --example fig8b|fig8c|fig9\n\n"
               "Random campaigns on a whole network of fault units (seed 001 Algorithms 2, 3): fail\n"
               "1..F random links and routers at once, run diagnosis (FD) to quiescence, compare every\n"
               "valid mask and accessibility bit of every port of every live router with the\n"
               "centralised oracle, count node pairs left without a route, repair everything, run\n"
               "recovery (FR) to quiescence and require every table state to be back bit for bit.\n"
               "Last line: faults: ok campaigns=N oracle_mismatches=0 restored=N/N unreachable_pairs=U\n"
               "       or: faults: FAIL ...   (exit 1)\n\n"
               "  --campaigns N        campaigns (default 100)\n"
               "  --max-faults F       faults per campaign, 1..F uniformly (default 10)\n"
               "  --faults F           exactly F faults per campaign (not with --max-faults)\n"
               "  --max-memory SIZE    refuse a run estimated above SIZE (K/M/G/T; default: the\n"
               "                       machine's memory); the estimate is memory= in the first line\n"
               "  --router-share X     share of faults that are router faults, 0..1 (default 0.2)\n"
               "  --latency L,G        FD/FR link latency, intra-group and global (default 10,100)\n"
               "  --example NAME       seed 001's worked examples on fig8: fig8b, fig8c, fig9\n"
               "  --verbose            one line per campaign (twice: also its faults)\n"
               "  --quiet              no progress lines\n%s",
            common_help);
}

static void usage_sweep(FILE *f) {
    fprintf(f, "usage: doar sweep CONFIG [--routing R] [--traffic T] [--seed S] [options]\n\n"
               "Runs doar sim at rising offered loads (--step apart, from one step up to 1.0) until the\n"
               "network saturates — mean latency of the sample's packets above --sat-latency (default 500\n"
               "cycles, seed 001 sec. 5), a sample packet not delivered within the drain limit, accepted\n"
               "below 95%% of generated, or traffic stopped — then bisects twice between the highest\n"
               "unsaturated and the first saturated load. A load stops as soon as it is saturated for\n"
               "certain (after the sample window: accepted below 95%% of generated, or the latencies so\n"
               "far plus the ages of the sample packets still out already average above the limit); its\n"
               "latency is then that lower bound. Unsaturated loads and the saturation found are the\n"
               "same as without the early stop.\n"
               "One line per load (sweep: rate=.. accepted=.. latency=.. hops=.. saturated=0|1\n"
               "stopped=0|1 time=..s, the load's own run time, kept through --resume), a progress bar on\n"
               "stderr, then sweep: points=.. highest_unsaturated=.. first_saturated=.. time=..s (the\n"
               "loads' times added up) wall=..s (this invocation), and last:\n"
               "  sweep: config=C routing=R traffic=T saturation=Y   (Y: the highest accepted throughput,\n"
               "  flits/node/cycle, of an unsaturated load; 0 when even the first load saturates;\n"
               "  with --past F: ... saturation=Y post_saturation=Z)\n\n"
               "  --step X             load step, 0.005..0.5 (default 0.05)\n"
               "  --sat-latency L      saturation latency, cycles (default 500)\n"
               "  --full-points        no early stop: saturated loads also run their drain to the end\n"
               "  --past F             go on past saturation to F x the saturation load (1 < F <= 100;\n"
               "                       the highest unsaturated load as printed; at most 1.0): the\n"
               "                       --step grid on from the first saturated grid load, then that\n"
               "                       load itself (4 decimals); the last line gains post_saturation=Z,\n"
               "                       the lowest accepted load of the loads run above the saturation\n"
               "                       load (a congestion collapse: Z far below Y)\n"
               "  --resume FILE        FILE: the output of an interrupted run of the same sweep (same\n"
               "                       header lines); its loads are taken from it instead of run again.\n"
               "                       A missing FILE or another sweep's output: a note (sweep: resume:)\n"
               "                       on stderr, and every load runs; a finished run's output is taken\n"
               "                       whole; a damaged load line (nan, negative, junk): exit 2\n"
               "  --csv FILE           also write rate,accepted,latency,hops,saturated,stopped rows to FILE\n"
               "  (and every option of doar sim but --rate and --repair-at: with --link-faults N the\n"
               "  links fail at --fault-at, default cycle 0, and stay failed: seed 001 Fig. 15's DFT_N)\n%s",
            common_help);
}

static void usage_sim(FILE *f) {
    fprintf(f, "usage: doar sim CONFIG --rate X [--routing R] [--traffic T] [--seed S] [options]\n\n"
               "A dragonfly of the C router model (the one lock-stepped against the RTL) with Bernoulli\n"
               "sources and sinks on every node (docs/network.md). Warm-up, then a sample window whose\n"
               "packets are measured (latency from creation to tail delivery, source queueing included),\n"
               "then a drain until every packet is delivered (a watchdog reports where traffic stopped).\n"
               "Last line: sim: config=C routing=R traffic=T offered=X accepted=Y latency=L hops=H\n"
               "           delivered=D lost=N   (exit 1 when traffic stopped, or a packet was lost with no\n"
               "           fault injected; with --link-faults losses are counted and reported, not errors)\n\n"
               "  --rate X             offered load, flits per node per cycle, 0..1 (required)\n"
               "  --routing R          doar (default: the route-compute units of the RTL) or a route\n"
               "                       policy of the C model: min val ugal_l ugal_g par par_ph ugal_le tpr\n"
               "                       (VCs as seed 001 Table 1; docs/network.md \"Routing algorithms\")\n"
               "  --traffic T          ur (default), adv+i (group G sends to group G+i), rp (permutation);\n"
               "                       mixes r_mixed_ua(x,y) r_mixed_ur(x,y) (y%% of the routers send ADV+1 /\n"
               "                       RP, the rest UR; x + y = 100), n_mixed_ua(x,y) n_mixed_ur(x,y) (y%% of\n"
               "                       the nodes); applications lu fft3d halo3d stencil5d dl lulesh, ranks\n"
               "                       placed at random from the seed, NAME(linear): rank = node; lu, fft3d:\n"
               "                       NAME(P) or NAME(linear,P), P cycles per phase (default 2000).\n"
               "                       Quote parentheses in a shell: --traffic 'r_mixed_ua(50,50)'\n"
               "  --warmup N           warm-up cycles (default 30000)\n"
               "  --sample N           sample cycles (default 10000)\n"
               "  --packet-len L       flits per packet, 2..15 (default 4)\n"
               "  --thresholds TL,TG   DOAR congestion thresholds, packets (default 20,30: seed 001's\n"
               "                       TG, twice its TL because the waiting packets count; docs/network.md)\n"
               "  --threshold-util P   a threshold is at least the flits a port busy P%% of the cycles\n"
               "                       has in flight on its link (occupancy is credit-based; default 80;\n"
               "                       0: the paper's figures alone; docs/network.md)\n"
               "  --cong-demand 0|1    DOAR: an intra-group or global port's congestion counts the flits\n"
               "                       routed to it and waiting in its router besides its credits (1,\n"
               "                       default: the RTL's); 0: credit occupancy only (docs/network.md)\n"
               "  --speedup S          the routers' internal speed-up: crossbar planes, 1, 2 or 4 (default 2,\n"
               "                       seed 001 Table 1; docs/architecture.md \"Router v2\")\n"
               "  --latency L,G        intra-group and global link latency, cycles (default 10,100)\n"
               "  --drain-limit N      after the sample, injection goes on until the sample's packets are\n"
               "                       delivered or for N cycles (default 10000); then the network drains\n"
               "  --watchdog N         cycles without any flit moving that count as deadlock (default 10000)\n"
               "  --block N            speed only, same results: a router runs N cycles before the next\n"
               "                       router (1: cycle by cycle; default 0: the shortest router link\n"
               "                       latency, at most 16; ugal_g: whole groups; cycle by cycle after the\n"
               "                       sample and while faults are being diagnosed or recovered)\n"
               "  --link-faults N      N random network links fail (both ways) at --fault-at; every router\n"
               "                       runs its fault units; losses are counted, not errors\n"
               "  --router-faults N    N random routers die at --fault-at (their nodes stop; neighbours\n"
               "                       see the peer down); may be combined with --link-faults\n"
               "  --fault-at C         cycle of the link and router faults (default: the start of the sample);\n"
               "                       refused without faults or at/after warm-up + sample + drain limit,\n"
               "                       exit 1 (sim: FAIL) when the run ends before it\n"
               "  --repair-at C        cycle the links and routers come back (default: never); as --fault-at\n"
               "  --series-csv FILE    time series (seed 001 Fig. 17): cycle,accepted,latency,packets per\n"
               "                       bin of --bin N cycles (default 1000), up to the drain limit\n"
               "  --channel-csv FILE   load of every global link direction in the sample (seed 001\n"
               "                       Fig. 12): router,gid,bid,port,peer_gid,load (flits/cycle)\n"
               "  --max-memory SIZE    refuse a run estimated above SIZE (K/M/G/T; default: the machine's\n"
               "                       memory); the estimate is memory=NMiB at the end of the first line\n"
               "  --quiet              no progress lines\n%s",
            common_help);
}

/* Every integer option: decimal digits only, in [lo, hi] (cli_parse.h: no sign, no junk,
 * no overflow; "010" is ten). */
static int parse_int(const char *s, long lo, long hi, long *out) { return cli_parse_long(s, lo, hi, out); }

/* A real option value: digits, '.', an exponent and nothing else (strtod alone would take
 * leading spaces, hex, "inf" and "nan"), finite and in [lo, hi]. */
static int parse_real(const char *s, double lo, double hi, double *out) {
    if (!s || !*s || strspn(s, "0123456789.eE+-") != strlen(s)) return -1;
    char *end;
    double x = strtod(s, &end);
    if (*end || !isfinite(x) || !(x >= lo && x <= hi)) return -1;
    *out = x;
    return 0;
}

/* --max-memory: a whole number with a binary suffix K, M, G or T (bytes without one), >= 1 MiB. */
static int parse_memory(const char *s, unsigned long long *out) {
    char num[32];
    size_t n = s ? strlen(s) : 0;
    if (!n || n >= sizeof num) return -1;
    memcpy(num, s, n + 1);
    int shift = 0;
    const char *units = "KMGT", *u = strchr(units, num[n - 1] & ~0x20);
    if (num[n - 1] && u && *u) { shift = 10 * (int)(u - units + 1); num[n - 1] = '\0'; }
    long v;
    if (cli_parse_long(num, 1, 1L << 40, &v)) return -1;
    if (shift && (unsigned long long)v > (~0ULL >> shift)) return -1;
    *out = (unsigned long long)v << shift;
    return *out < (1ULL << 20) ? -1 : 0;
}

/* "A,B" with both in [lo, hi], each strictly decimal. */
static int parse_pair(const char *s, long lo, long hi, long *a, long *b) {
    const char *comma = s ? strchr(s, ',') : NULL;
    char first[32];
    if (!comma || (size_t)(comma - s) >= sizeof first) return -1;
    memcpy(first, s, (size_t)(comma - s));
    first[comma - s] = '\0';
    return cli_parse_long(first, lo, hi, a) || cli_parse_long(comma + 1, lo, hi, b) ? -1 : 0;
}

static int parse_router(cli *c, const char *s) {
    long g, b;
    if (parse_pair(s, 0, 100000, &g, &b)) return bad(c, "--router '%s': expected G,B", s ? s : "");
    if (!c->have_topo) return bad(c, "%s: --router needs CONFIG before it", "--router");
    if (g >= c->t.g || b >= c->t.a)
        return bad(c, "--router %s: no such router in dfly(%d,%d,%d,%d) (G < %d, B < %d)", s, c->t.p, c->t.a, c->t.h,
                   c->t.g, c->t.g, c->t.a);
    c->router = topo_router(&c->t, (int)g, (int)b);
    return 0;
}

/* Parses options for one subcommand. Returns 0, or an exit status (help: -1). */
static int is_net(const cli *c) { return !strcmp(c->cmd, "sim") || !strcmp(c->cmd, "sweep"); }

static int parse_args(cli *c, int argc, char **argv, void (*usage)(FILE *)) {
    const char *router_arg = NULL, *port_arg = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char err[DOAR_ERRLEN];
        long n;
/* A value that is itself an option ("--resume --quiet") is a missing value, not a file name. */
#define NEED_VALUE() do { if (!v) return bad(c, "option %s needs a value", a); \
                          if (!strncmp(v, "--", 2)) return bad(c, "option %s needs a value (got the option '%s')", a, v); \
                          i++; } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return -1; }
        else if (!strcmp(a, "--dfly")) {
            NEED_VALUE();
            if (c->have_topo) return bad(c, "give one configuration (%s is the second)", a);
            if (topo_parse_dfly(&c->t, v, err)) return bad(c, "%s", err);
            c->have_topo = 1;
        } else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            uint64_t seed;
            if (cli_parse_u64(v, &seed)) return bad(c, "--seed '%s': expected a decimal integer 0..2^64-1", v);
            c->seed = seed;
        } else if (!strcmp(a, "--router")) { NEED_VALUE(); router_arg = v; }
        else if (!strcmp(a, "--port")) { NEED_VALUE(); port_arg = v; }
        else if (!strcmp(a, "--out") && !strcmp(c->cmd, "tables")) { NEED_VALUE(); c->out_dir = v; }
        else if (!strcmp(a, "--load") && !strcmp(c->cmd, "tables")) { NEED_VALUE(); c->load_dir = v; }
        else if (!strcmp(a, "--dump") && !strcmp(c->cmd, "tables")) c->dump = 1;
        else if (!strcmp(a, "--sample") && !strcmp(c->cmd, "tables")) {
            NEED_VALUE();
            if (parse_int(v, 1, 1000000, &n)) return bad(c, "--sample '%s': expected a positive integer", v);
            c->sample = (int)n;
        }
        else if (!strcmp(a, "--tables") && !strcmp(c->cmd, "check")) { NEED_VALUE(); c->tables_dir = v; }
        else if (!strcmp(a, "--quiet") && !strcmp(c->cmd, "check")) c->quiet = 1;
        else if (!strcmp(a, "--vc-rule") && !strcmp(c->cmd, "check")) {
            NEED_VALUE();
            if (!strcmp(v, "doar")) c->copt.vc_rule = VC_RULE_DOAR;
            else if (!strcmp(v, "none")) c->copt.vc_rule = VC_RULE_NONE;
            else return bad(c, "--vc-rule '%s': expected doar or none", v);
        } else if (!strcmp(a, "--dests") && !strcmp(c->cmd, "check")) {
            NEED_VALUE();
            if (parse_int(v, 1, 1000000, &n)) return bad(c, "--dests '%s': expected a positive integer", v);
            c->copt.dest_sample = (int)n;
        } else if (!strcmp(c->cmd, "faults") &&
                   (!strcmp(a, "--campaigns") || !strcmp(a, "--max-faults") || !strcmp(a, "--faults"))) {
            NEED_VALUE();
            if (parse_int(v, 1, 100000, &n)) return bad(c, "%s: expected a positive integer (at most 100000)", a);
            /* only --faults makes the count exact, whatever order the options come in */
            if (a[2] == 'c') c->fopt.campaigns = (int)n;
            else if (!strcmp(a, "--faults")) { c->fopt.max_faults = (int)n; c->have_faults = 1; }
            else { c->fopt.max_faults = (int)n; c->have_max_faults = 1; }
        } else if (!strcmp(c->cmd, "faults") && !strcmp(a, "--router-share")) {
            NEED_VALUE();
            double x;
            if (parse_real(v, 0.0, 1.0, &x)) return bad(c, "--router-share '%s': expected 0..1", v);
            c->fopt.router_permille = (int)(x * 1000.0 + 0.5);
        } else if (is_net(c) && (!strcmp(a, "--routing") || !strcmp(a, "--traffic"))) {
            NEED_VALUE();
            if (a[2] == 'r') c->routing = v;
            else c->traffic = v;
        } else if (!strcmp(c->cmd, "sim") && !strcmp(a, "--rate")) {
            NEED_VALUE();
            double x;
            if (parse_real(v, 0.0, 1.0, &x)) return bad(c, "--rate '%s': expected 0..1 flits/node/cycle", v);
            c->nprm.rate = x;
            c->have_rate = 1;
        } else if (is_net(c) && (!strcmp(a, "--warmup") || !strcmp(a, "--sample") ||
                                              !strcmp(a, "--drain-limit") || !strcmp(a, "--watchdog"))) {
            NEED_VALUE();
            long lo = !strcmp(a, "--warmup") ? 0 : 1;
            if (parse_int(v, lo, 1000000000L, &n)) return bad(c, "%s: expected a cycle count (0..1000000000; sample >= 1)", a);
            if (!strcmp(a, "--warmup")) c->nprm.warmup = n;
            else if (!strcmp(a, "--sample")) c->nprm.sample = n;
            else if (!strcmp(a, "--drain-limit")) c->nprm.drain_limit = n;
            else c->nprm.watchdog = n;
        } else if (is_net(c) && !strcmp(a, "--block")) {
            NEED_VALUE();
            if (parse_int(v, 0, NET_MAX_BLOCK, &n)) return bad(c, "--block '%s': expected 0..16 cycles (0: automatic)", v);
            _Static_assert(NET_MAX_BLOCK == 16, "the --block message names 16");
            c->nprm.block = (int)n;
        } else if (is_net(c) && (!strcmp(a, "--link-faults") || !strcmp(a, "--fault-at") ||
                                              !strcmp(a, "--repair-at") || !strcmp(a, "--router-faults"))) {
            NEED_VALUE();
            if (parse_int(v, 0, 1000000000L, &n)) return bad(c, "%s: expected a number 0..1000000000", a);
            if (!strcmp(a, "--link-faults")) c->nprm.fault_links = (int)n;
            else if (!strcmp(a, "--router-faults")) c->nprm.fault_routers = (int)n;
            else if (!strcmp(a, "--fault-at")) { c->nprm.fault_at = n; c->have_fault_at = 1; }
            else { c->nprm.repair_at = n; c->have_repair_at = 1; }
        } else if (is_net(c) && !strcmp(a, "--thresholds")) {
            NEED_VALUE();
            long tl, tg;
            if (parse_pair(v, 0, 100000, &tl, &tg)) return bad(c, "--thresholds '%s': expected TL,TG (packets)", v);
            c->nprm.tl_pkts = (int)tl;
            c->nprm.tg_pkts = (int)tg;
        } else if (is_net(c) && !strcmp(a, "--threshold-util")) {
            NEED_VALUE();
            if (parse_int(v, 0, 100, &n)) return bad(c, "--threshold-util '%s': expected a percentage 0..100", v);
            c->nprm.threshold_util = (int)n;
        } else if (is_net(c) && !strcmp(a, "--speedup")) {
            NEED_VALUE();
            if (parse_int(v, 1, 4, &n) || n == 3) return bad(c, "--speedup '%s': expected 1, 2 or 4", v);
            c->nprm.speedup = (int)n;
        } else if (is_net(c) && !strcmp(a, "--cong-demand")) {
            NEED_VALUE();
            if (parse_int(v, 0, 1, &n)) return bad(c, "--cong-demand '%s': expected 0 or 1", v);
            c->nprm.cong_demand = (int)n;
        } else if (is_net(c) && !strcmp(a, "--packet-len")) {
            NEED_VALUE();
            if (parse_int(v, NET_MIN_PACKET_LEN, FLIT_MAX_LEN, &n)) return bad(c, "--packet-len '%s': expected 2..15 flits", v);
            c->nprm.packet_len = (int)n;
            c->have_packet_len = 1;
        } else if (is_net(c) && !strcmp(a, "--quiet")) c->quiet = 1;
        else if (!strcmp(c->cmd, "sweep") && (!strcmp(a, "--step") || !strcmp(a, "--sat-latency"))) {
            NEED_VALUE();
            double x;
            int step = !strcmp(a, "--step");
            if (step ? parse_real(v, 0.005, 0.5, &x) : parse_real(v, 1.0, 1e6, &x))
                return bad(c, step ? "--step '%s': expected 0.005..0.5" : "--sat-latency '%s': expected 1..1000000 cycles", v);
            if (step) c->sweep_step = x;
            else c->sat_latency = x;
        } else if (!strcmp(c->cmd, "sweep") && !strcmp(a, "--past")) {
            NEED_VALUE();
            double x;
            if (parse_real(v, 1.0, 100.0, &x) || !(x > 1.0))
                return bad(c, "--past '%s': expected a factor F, 1 < F <= 100 (loads on to F x the saturation load)", v);
            c->past = x;
        } else if (!strcmp(c->cmd, "sweep") && !strcmp(a, "--full-points")) {
            c->full_points = 1;
        } else if (!strcmp(c->cmd, "sweep") && !strcmp(a, "--resume")) {
            NEED_VALUE();
            c->resume = v;
        } else if (!strcmp(c->cmd, "sim") && !strcmp(a, "--series-csv")) {
            NEED_VALUE();
            c->series_csv = v;
        } else if (!strcmp(c->cmd, "sim") && !strcmp(a, "--bin")) {
            NEED_VALUE();
            if (parse_int(v, 1, 1000000000L, &n)) return bad(c, "--bin '%s': expected 1..1000000000 cycles", v);
            c->series_bin = n;
            c->have_bin = 1;
        } else if ((!strcmp(c->cmd, "sweep") && !strcmp(a, "--csv")) ||
                   (!strcmp(c->cmd, "sim") && !strcmp(a, "--channel-csv"))) {
            NEED_VALUE();
            c->csv = v;
        }
        else if ((!strcmp(c->cmd, "faults") || is_net(c)) && !strcmp(a, "--latency")) {
            NEED_VALUE();
            long l, gl;
            if (parse_pair(v, 0, 100000, &l, &gl)) return bad(c, "--latency '%s': expected L,G (cycles)", v);
            if (is_net(c) && (l < 1 || gl < 1)) return bad(c, "--latency '%s': links need >= 1 cycle", v);
            c->fopt.lat_local = c->nprm.lat_local = (int)l;
            c->fopt.lat_global = c->nprm.lat_global = (int)gl;
        } else if ((!strcmp(c->cmd, "faults") || is_net(c)) && !strcmp(a, "--max-memory")) {
            NEED_VALUE();
            if (parse_memory(v, &c->max_memory))
                return bad(c, "--max-memory '%s': expected a size such as 4096M, 16G or 1T (at least 1M)", v);
        } else if (!strcmp(c->cmd, "faults") && !strcmp(a, "--example")) {
            NEED_VALUE();
            if (strcmp(v, "fig8b") && strcmp(v, "fig8c") && strcmp(v, "fig9"))
                return bad(c, "--example '%s': expected fig8b, fig8c or fig9", v);
            c->example = v;
        } else if (!strcmp(c->cmd, "faults") && !strcmp(a, "--verbose")) c->fopt.verbose++;
        else if (!strcmp(c->cmd, "faults") && !strcmp(a, "--quiet")) c->quiet = 1;
        else if (!strcmp(a, "--nm-slots") && strcmp(c->cmd, "topo")) {
            NEED_VALUE();
            if (parse_int(v, 1, TABLES_MAX_NM_SLOTS, &n)) return bad(c, "--nm-slots '%s': expected 1..8", v);
            c->prm.nm_slots = (int)n;
        } else if (!strcmp(a, "--c-ways") && strcmp(c->cmd, "topo")) {
            NEED_VALUE();
            if (parse_int(v, 1, TABLES_MAX_C_WAYS, &n)) return bad(c, "--c-ways '%s': expected 1..8", v);
            c->prm.c_ways = (int)n;
        } else if (a[0] == '-') {
            return bad(c, "unknown option '%s' (see doar %s --help)", a, c->cmd);
        } else {
            if (c->have_topo) return bad(c, "give one configuration ('%s' is the second)", a);
            if (topo_named(&c->t, a, err)) return bad(c, "%s", err);
            c->have_topo = 1;
        }
#undef NEED_VALUE
    }
    if (router_arg) { int rc = parse_router(c, router_arg); if (rc) return rc; }
    if (port_arg) {
        long n;
        if (!c->have_topo) return bad(c, "%s: --port needs CONFIG", "--port");
        if (parse_int(port_arg, 0, c->t.k - 1, &n))
            return bad(c, "--port '%s': expected 0..%d (k=%d)", port_arg, c->t.k - 1, c->t.k);
        c->port = (int)n;
    }
    if (c->have_faults && c->have_max_faults)
        return bad(c, "%s", "give --faults F (exactly F per campaign) or --max-faults F (1..F), not both");
    c->fopt.exact_faults = c->have_faults;
    return 0;
}

static const char *class_word(port_class pc) {
    return pc == PORT_TERMINAL ? "terminal" : pc == PORT_LOCAL ? "local" : "global";
}

static int cmd_topo(cli *c) {
    const topo *t = &c->t;
    if (!c->have_topo) return bad(c, "%s", "missing CONFIG (see doar topo --help)");
    printf("dfly(%d,%d,%d,%d) \"%s\": radix k=%d, %d groups of %d routers, %d nodes\n", t->p, t->a, t->h, t->g,
           t->name, t->k, t->g, t->a, t->n_nodes);
    printf("ports per router: terminal 0..%d, intra-group %d..%d, global %d..%d\n", t->p - 1, t->first_local,
           t->first_global - 1, t->first_global, t->k - 1);
    if (t->g < t->ah + 1)
        printf("g < a*h+1: %d of %d group-level global ports per group are wired; the rest are unused\n",
               t->g - 1, t->ah);
    if (c->router >= 0) {
        int r = c->router;
        printf("router (%d,%d) id %d:\n", topo_gid(t, r), topo_bid(t, r), r);
        for (int port = 0; port < t->k; port++) {
            int pr, pp;
            port_class pc = topo_port_class(t, port);
            int wired = topo_peer(t, r, port, &pr, &pp) == 0;
            printf("  port %2d %-8s ", port, class_word(pc));
            if (pc == PORT_TERMINAL)
                printf("node <%d,%d,%d> (node id %d)\n", topo_gid(t, r), topo_bid(t, r), port, pp);
            else if (!wired)
                printf("group-level port %d: unwired\n", topo_group_port(t, topo_bid(t, r), port));
            else if (pc == PORT_LOCAL)
                printf("-> router (%d,%d) port %d\n", topo_gid(t, pr), topo_bid(t, pr), pp);
            else
                printf("group-level port %d -> group %d, router (%d,%d) port %d\n",
                       topo_group_port(t, topo_bid(t, r), port), topo_gid(t, pr), topo_gid(t, pr),
                       topo_bid(t, pr), pp);
        }
    }
    printf("topo: config=%s p=%d a=%d h=%d g=%d k=%d routers=%d nodes=%d local_links=%ld global_links=%ld\n",
           t->name, t->p, t->a, t->h, t->g, t->k, t->n_routers, t->n_nodes, topo_local_links(t),
           topo_global_links(t));
    return 0;
}

static void dump_port(const table_set *ts, int r, int port) {
    const topo *t = &ts->t;
    const port_tables *pt = tables_port(ts, r, port);
    char line[600];
    printf("router (%d,%d) port %d (%s input): table A %d entries, table B %d, table C %d\n", topo_gid(t, r),
           topo_bid(t, r), port, class_word(topo_port_class(t, port)), ts->depth_a, ts->depth_b, ts->depth_c);
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
        check_result *res = malloc(sizeof *res);   /* per-kind messages: too big for the stack */
        if (!res) { snprintf(err, DOAR_ERRLEN, "out of memory"); return -1; }
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
                        snprintf(why, DOAR_ERRLEN, "router %d,%d port %d table %c row %d differs from the generated "
                                 "tables", topo_gid(t, r), topo_bid(t, r), port, "ABC"[tab], row);
                        wrong = 1;
                    }
        }
    }
    tables_free(&ref);
    return wrong;
}

static int cmd_tables(cli *c) {
    char err[DOAR_ERRLEN];
    table_set ts;
    if (c->load_dir) {
        if (c->out_dir || c->dump) return bad(c, "%s", "--load cannot be combined with --out or --dump");
        if (tables_load_images(&ts, c->load_dir, err)) return bad(c, "%s", err);
        if (c->have_topo && (ts.t.p != c->t.p || ts.t.a != c->t.a || ts.t.h != c->t.h || ts.t.g != c->t.g)) {
            bad(c, "%s/manifest.txt: images are for dfly(%d,%d,%d,%d), not %s", c->load_dir, ts.t.p, ts.t.a, ts.t.h,
                ts.t.g, c->t.name);
            tables_free(&ts);
            return EXIT_BADINPUT;
        }
        /* well-encoded is not right: a valid entry pointing at the wrong port passes the loader
         * (and a lock-step, whose two sides read the same table); check what the tables do */
        const char *how = NULL;
        char why[DOAR_ERRLEN];
        int vrc = verify_loaded(&ts, &how, why, err);
        if (vrc < 0) { tables_free(&ts); return bad(c, "%s", err); }
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
    if (!c->have_topo) return bad(c, "%s", "missing CONFIG (see doar tables --help)");
    if (!c->out_dir && !c->dump) return bad(c, "%s", "nothing to do: give --out DIR, --dump or --load DIR");
    if (c->sample && !c->out_dir) return bad(c, "%s", "--sample needs --out DIR");
    if (c->out_dir && c->router < 0 && !c->sample && (long)c->t.n_routers * (1 + 3 * c->t.k) > 1000000)
        return bad(c, "%s", "the full image set would exceed a million files: give --router G,B or --sample N");
    if (c->dump && (c->router < 0 || c->port < 0)) return bad(c, "%s", "--dump needs --router G,B and --port P");
    if (tables_generate(&ts, &c->t, &c->prm, err)) return bad(c, "%s", err);
    if (c->dump) dump_port(&ts, c->router, c->port);
    if (c->out_dir) {
        uint8_t *select = NULL;
        int nr = c->t.n_routers;
        if (c->router >= 0 || c->sample) {
            select = calloc((size_t)c->t.n_routers, 1);
            if (!select) { tables_free(&ts); return bad(c, "%s", "out of memory"); }
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
            return bad(c, "%s", err);
        }
        printf("tables: wrote dir=%s config=%s routers=%d files=%d entries_per_port=%d+%d+%d\n", c->out_dir,
               c->t.name, nr, nr * (1 + 3 * c->t.k), ts.depth_a, ts.depth_b, ts.depth_c);
    }
    tables_free(&ts);
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmd_check(cli *c) {
    char err[DOAR_ERRLEN];
    table_set ts;
    if (c->tables_dir) {
        if (tables_load_images(&ts, c->tables_dir, err)) return bad(c, "%s", err);
        if (c->have_topo && (ts.t.p != c->t.p || ts.t.a != c->t.a || ts.t.h != c->t.h || ts.t.g != c->t.g)) {
            bad(c, "%s: images are for dfly(%d,%d,%d,%d), not %s", c->tables_dir, ts.t.p, ts.t.a, ts.t.h, ts.t.g,
                c->t.name);
            tables_free(&ts);
            return EXIT_BADINPUT;
        }
    } else {
        if (!c->have_topo) return bad(c, "%s", "missing CONFIG (see doar check --help)");
        if (tables_generate(&ts, &c->t, &c->prm, err)) return bad(c, "%s", err);
    }
    const topo *t = &ts.t;
    printf("check: config=%s dfly(%d,%d,%d,%d) k=%d routers=%d nodes=%d vcs=%d vc_rule=%s tables=%s\n", t->name,
           t->p, t->a, t->h, t->g, t->k, t->n_routers, t->n_nodes, c->copt.num_vcs,
           c->copt.vc_rule == VC_RULE_DOAR ? "doar" : "none", c->tables_dir ? c->tables_dir : "generated");
    fflush(stdout);
    c->copt.progress = c->quiet ? NULL : stderr;
    check_result res;
    double t0 = now_s();
    int rc = check_run(&ts, &c->copt, &res, err);
    double dt = now_s() - t0;
    tables_free(&ts);
    if (rc) return bad(c, "%s", err);
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

/* What a run will allocate, in bytes, counted from the structures that grow with the network,
 * before any of it is (issue 24: a run that cannot fit used to grow for minutes toward ~18 GB
 * without a word). Counted: the tables (three distinct port tables per router, entries stored
 * as 64-bit words: the network's route-compute units read them, rcu_share); for the network
 * simulator the routers' state, their input buffers (route entries for packets of the longest
 * length, csim/vcbuf.h) and the link rings; with faults each router's fault unit (k x
 * (nz+bz+gz) route options of 25 bytes), and for doar faults the oracle's as many again.
 * Fixed overheads and per-packet state are left out: the figure is of the order of the peak,
 * a little under it (tests/bad_input_test.sh compares it with the measured peak). */
enum { EST_FAULTS, EST_NET };
static double table_bytes(const topo *t) {
    const double nr = t->n_routers, k = t->k;
    const double da = t->p + t->a + t->g, db = t->a + t->g, dc = t->a;   /* zones nz+bz+gz, bz+gz, a */
    return nr * 3.0 * (da + db + dc) * 8.0 + nr * k * 4.0 + nr * (double)sizeof(router_cfg);
}

static double estimate_bytes(const topo *t, const table_params *prm, int kind, const net_params *p) {
    const double nr = t->n_routers, k = t->k;
    const double da = t->p + t->a + t->g;
    (void)prm;
    double bytes = table_bytes(t);
    const double options = nr * k * da * 25.0;   /* opt_src, opt_int, mask (8 B each) + acc (1 B) */
    if (kind == EST_FAULTS) return bytes + 2.0 * options;
    /* input buffers by port class: VCs x depth flits, and route entries for packets of max_len */
    const int vcs = p->rprm.vcs > 0 ? p->rprm.vcs : 4, len = p->rprm.max_len > 0 ? p->rprm.max_len : 1;
    const double ports[3] = {t->p, t->a - 1.0, t->h};
    double buffers = 0.0;
    for (int c = 0; c < 3; c++) {
        const int depth = p->rprm.depth[c], routes = depth / len + 2 < depth ? depth / len + 2 : depth;
        buffers += ports[c] * vcs * ((double)depth * sizeof(flit) + (double)routes * sizeof(route_entry));
    }
    bytes += nr * ((double)sizeof(router) + k * (double)sizeof(rcu) + buffers);
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
static int check_memory(const cli *c, double need) {
    double limit = c->max_memory ? (double)c->max_memory : machine_bytes();
    const net_comm *comm = is_net(c) ? c->comm : NULL;
    const double gib = 1073741824.0;
    /* every rank builds the whole table set; the rest is split by groups */
    const double every = comm ? table_bytes(&c->t) : 0.0, host = comm && comm->host_ranks > 0 ? comm->host_ranks : 1;
    double here = comm ? (need - every) * host / comm->size + every * host : need;
    if (limit <= 0.0 || here <= limit) return 0;
    if (comm)
        return bad(c, "this run needs about %.1f GiB of memory, %.1f GiB of it on this machine's ranks, more than %s "
                   "(%.1f GiB): use more machines", need / gib, here / gib,
                   c->max_memory ? "--max-memory" : "the machine's", limit / gib);
    if (is_net(c))
        return bad(c, "this run needs about %.1f GiB of memory, more than %s (%.1f GiB): a smaller network, fewer "
                   "faults, or MPI ranks on several machines (make mpi; mpirun -np R build/doar-mpi ...)",
                   need / gib, c->max_memory ? "--max-memory" : "the machine's", limit / gib);
    return bad(c, "this run needs about %.1f GiB of memory, more than %s (%.1f GiB): a smaller network or "
               "fewer faults", need / gib, c->max_memory ? "--max-memory" : "the machine's", limit / gib);
}

/* check_memory for sim and sweep: with doar-mpi the ranks' machines may differ, so all of them
 * give up when one does (none is left waiting for the others); rank 0 says why, or that another
 * machine refused. */
static int net_check_memory(const cli *c, double need) {
    int mrc = check_memory(c, need);
    if (net_comm_all(c->comm, mrc == 0)) return 0;
    if (!mrc && net_comm_root(c->comm))
        fprintf(stderr, "doar %s: another machine of this run cannot hold its ranks' share of about %.1f GiB: use "
                "more machines or fewer ranks per machine\n", c->cmd, need / 1073741824.0);
    return EXIT_BADINPUT;
}

static int cmd_faults(cli *c) {
    char err[DOAR_ERRLEN];
    table_set ts;
    if (!c->have_topo) return bad(c, "%s", "missing CONFIG (see doar faults --help)");
    if (tables_check_params(&c->t, &c->prm, err)) return bad(c, "%s", err);
    double need = estimate_bytes(&c->t, &c->prm, EST_FAULTS, &c->nprm);
    int mrc = check_memory(c, need);
    if (mrc) return mrc;
    if (tables_generate(&ts, &c->t, &c->prm, err)) return bad(c, "%s", err);
    const topo *t = &ts.t;
    if (c->example) {
        int rc = fault_example_run(&ts, c->example, stdout, err);
        tables_free(&ts);
        if (rc) return bad(c, "%s", err);
        return 0;
    }
    c->fopt.seed = c->seed;
    c->fopt.progress = c->quiet ? NULL : stderr;
    printf("faults: config=%s dfly(%d,%d,%d,%d) campaigns=%d %s=%d router_share=%.3f latency=%d,%d seed=%llu "
           "memory=%.0fMiB\n",
           t->name, t->p, t->a, t->h, t->g, c->fopt.campaigns, c->fopt.exact_faults ? "faults" : "max_faults",
           c->fopt.max_faults, c->fopt.router_permille / 1000.0,
           c->fopt.lat_local, c->fopt.lat_global, c->seed, need / 1048576.0);
    fflush(stdout);
    fault_campaign_result r;
    double t0 = now_s();
    int rc = fault_campaign_run(&ts, &c->fopt, &r, err);
    double dt = now_s() - t0;
    tables_free(&ts);
    if (rc) return bad(c, "%s", err);
    printf("faults: link_faults=%llu router_faults=%llu fd_msgs=%llu fr_msgs=%llu lost_msgs=%llu\n",
           (unsigned long long)r.faults_links, (unsigned long long)r.faults_routers, (unsigned long long)r.fd_msgs,
           (unsigned long long)r.fr_msgs, (unsigned long long)r.lost_msgs);
    printf("faults: diagnosis cycles mean=%.0f max=%d; recovery cycles mean=%.0f max=%d; time=%.2fs\n",
           r.sum_diag_cycles / (r.campaigns ? r.campaigns : 1), r.max_diag_cycles,
           r.sum_recovery_cycles / (r.campaigns ? r.campaigns : 1), r.max_recovery_cycles, dt);
    int ok = r.oracle_mismatches == 0 && r.restored == r.campaigns;
    if (!ok) printf("faults: first problem: %s\n", r.first_mismatch);
    printf("faults: %s campaigns=%d oracle_mismatches=%llu restored=%d/%d unreachable_pairs=%llu\n",
           ok ? "ok" : "FAIL", r.campaigns, (unsigned long long)r.oracle_mismatches, r.restored, r.campaigns,
           (unsigned long long)r.unreachable_pairs);
    return ok ? 0 : EXIT_FAIL;
}

#define SERIES_BIN_DEFAULT 1000   /* cycles per bin of --series-csv */

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
    double share = run_seconds > 0.0 ? comm_s / run_seconds : 0.0;   /* the ranks' mean share */
    comm->sum_double(comm->ctx, &share, 1);
    printf("sim: mpi ranks=%d groups_per_rank=%d..%d window=%d exchanges=%ld words_per_exchange=%.1f "
           "bytes_per_exchange=%.0f syncs=%ld comm_share=%.0f%% max_rss_per_rank=%.1fMiB\n",
           comm->size, net->t.g / comm->size, (net->t.g + comm->size - 1) / comm->size, net->lat[PORT_GLOBAL], mx[1],
           mx[1] ? (double)sum[0] / (double)mx[1] : 0.0, mx[1] ? (double)sum[1] / (double)mx[1] : 0.0, syncs,
           100.0 * share / comm->size, (double)mx[0] / 1024.0);
}

/* Options that would be silently ignored are refused (issue 24): --fault-at / --repair-at
 * without faults, --bin without --series-csv, and fault or repair cycles the run never reaches.
 * `last` is the first cycle the run is sure not to simulate with injection on: sim, the end of
 * the drain limit; sweep, the end of the sample (a load may stop there). */
static int check_fault_cycles(cli *c, long last) {
    const net_params *p = &c->nprm;
    int faulty = p->fault_links > 0 || p->fault_routers > 0;
    if (!faulty && (c->have_fault_at || c->have_repair_at))
        return bad(c, "%s needs --link-faults N or --router-faults N (without faults it would be ignored)",
                   c->have_fault_at ? "--fault-at" : "--repair-at");
    if (c->have_bin && !c->series_csv) return bad(c, "%s", "--bin needs --series-csv FILE (it sets that file's bins)");
    if (faulty && p->fault_at >= last)
        return bad(c, "--fault-at %ld: past the end of the run (cycle %ld = warm-up + sample%s): the faults would never "
                   "strike", p->fault_at, last, !strcmp(c->cmd, "sim") ? " + drain limit" : "");
    if (faulty && p->repair_at >= last)
        return bad(c, "--repair-at %ld: past the end of the run (cycle %ld = warm-up + sample + drain limit): leave "
                   "it out for faults that are never repaired", p->repair_at, last);
    return 0;
}

static int cmd_sim(cli *c) {
    char err[DOAR_ERRLEN];
    net_params *p = &c->nprm;
    if (!c->have_topo) return bad(c, "%s", "missing CONFIG (see doar sim --help)");
    if (!c->have_rate) return bad(c, "%s", "missing --rate X (offered load, flits/node/cycle)");
    if (net_parse_routing(c->routing ? c->routing : "doar", &p->routing, err)) return bad(c, "%s", err);
    if (traffic_parse(c->traffic ? c->traffic : "ur", &c->t, &p->traffic, err)) return bad(c, "%s", err);
    p->seed = c->seed;
    p->tprm = c->prm;
    if (!c->have_fault_at) p->fault_at = p->warmup;
    net_size_router(&c->t, p);   /* buffers and thresholds follow the packet length */
    if (net_check_params(&c->t, p, err)) return bad(c, "%s", err);
    if (tables_check_params(&c->t, &p->tprm, err)) return bad(c, "%s", err);   /* before the header line */
    int frc = check_fault_cycles(c, p->warmup + p->sample + p->drain_limit);
    if (frc) return frc;
    double need = estimate_bytes(&c->t, &p->tprm, EST_NET, p);
    int mrc = net_check_memory(c, need);
    if (mrc) return mrc;
    p->progress = c->quiet ? NULL : stderr;
    p->comm = c->comm;
    char tname[32];
    traffic_name(&p->traffic, tname, sizeof tname);
    const topo *t = &c->t;
    printf("sim: config=%s dfly(%d,%d,%d,%d) routers=%d nodes=%d routing=%s traffic=%s rate=%g packet_len=%d "
           "latency=%d,%d speedup=%d warmup=%ld sample=%ld seed=%llu memory=%.0fMiB\n",
           t->name, t->p, t->a, t->h, t->g, t->n_routers, t->n_nodes, net_routing_name(p->routing), tname, p->rate,
           p->packet_len, p->lat_local, p->lat_global, p->speedup, p->warmup, p->sample, (unsigned long long)p->seed,
           need / 1048576.0);
    fflush(stdout);
    FILE *chan = NULL, *series = NULL;
    if (c->series_csv) p->series_bin = c->series_bin > 0 ? c->series_bin : SERIES_BIN_DEFAULT;
    /* rank 0 writes the files; every rank gives up when it cannot */
    const int root = net_comm_root(c->comm);
    int chan_ok = !(root && c->csv && !(chan = fopen(c->csv, "w")));
    int series_ok = !(root && c->series_csv && !(series = fopen(c->series_csv, "w")));
    int files_ok = net_comm_all(c->comm, chan_ok && series_ok);
    if (!files_ok) {
        if (chan) fclose(chan);
        if (series) fclose(series);
        if (!root) return EXIT_BADINPUT;
        if (!chan_ok) return bad(c, "--channel-csv '%s': cannot write the file", c->csv);
        return bad(c, "--series-csv '%s': cannot write the file", c->series_csv);
    }
    network net;
    if (net_init(&net, t, p, err)) {
        if (chan) fclose(chan);
        if (series) fclose(series);
        return bad(c, "%s", err);
    }
    net_result r;
    int rc = net_run(&net, &r);
    if (c->comm) print_mpi_line(c->comm, &net, r.seconds);
    if (chan) {
        int bad_write = net_write_channels(&net, chan) != 0;
        if (fclose(chan)) bad_write = 1;
        if (bad_write) {
            if (series) fclose(series);
            net_free(&net);
            return bad(c, "--channel-csv '%s': cannot write the file", c->csv);
        }
    }
    if (series) {
        int bad_write = net_write_series(&net, series) != 0;
        if (fclose(series)) bad_write = 1;
        if (bad_write) { net_free(&net); return bad(c, "--series-csv '%s': cannot write the file", c->series_csv); }
    }
    net_free(&net);
    printf("sim: global_channels=%ld load min=%.4f mean=%.4f max=%.4f flits/cycle\n", r.channels, r.channel_min,
           r.channel_mean, r.channel_max);
    printf("sim: cycles=%ld time=%.2fs speed=%.0f router-cycles/s generated=%.4f sample_packets=%ld/%ld hops_hist=",
           r.cycles, r.seconds, r.seconds > 0 ? (double)r.cycles * t->n_routers / r.seconds : 0.0, r.generated,
           r.sample_delivered, r.sample_created);
    for (int h = 0; h <= NET_MAX_HOPS_HIST; h++) printf("%s%ld", h ? "," : "", r.hops_hist[h]);
    printf("\n");
    if (p->routing != NET_ROUTING_DOAR)
        printf("sim: policy=%s vcs=%d source_decisions=%ld nonminimal=%ld (%.1f%%; PAR/PAR_PH count their second "
               "decision too)\n", net_routing_name(p->routing), policy_vcs(p->routing), r.decisions, r.nonminimal,
               r.decisions ? 100.0 * (double)r.nonminimal / (double)r.decisions : 0.0);
    if (p->fault_routers > 0)
        printf("sim: router_faults routers=%d lost_in_routers=%ld lost_dead_sources=%ld created_to_dead=%ld "
               "lost_to_dead_after_diagnosis=%ld\n",
               p->fault_routers, r.lost_router, r.lost_dead_source, r.created_to_dead, r.lost_to_dead_after_diagnosis);
    if (p->fault_links > 0 || p->fault_routers > 0)
        printf("sim: faults links=%d at=%ld repair=%ld fd_fr_packets=%ld ctl_unwired=%ld diagnosis_cycles=%ld recovery_cycles=%ld "
               "lost_on_links=%ld lost_discarded=%ld; lost by creation: before_fault=%ld in_diagnosis=%ld "
               "after_diagnosis=%ld in_recovery=%ld after_recovery=%ld; unreachable_pairs=%ld created_unreachable=%ld "
               "lost_unreachable=%ld\n",
               p->fault_links, p->fault_at, p->repair_at, r.fd_fr_packets, r.ctl_unwired, r.diagnosis_cycles, r.recovery_cycles,
               r.lost_link, r.lost_discard, r.lost_before_fault, r.lost_diagnosis, r.lost_after_diagnosis,
               r.lost_recovery, r.lost_after_recovery, r.unreachable_pairs, r.created_unreachable, r.lost_unreachable);
    if (rc) printf("sim: FAIL %s%s\n", r.deadlock ? "deadlock: " : "", r.report);
    /* a run whose drain ended before the fault (or repair) cycle did not do what was asked:
     * say so and fail rather than report a fault-free figure as a faulty one */
    int faulty = p->fault_links > 0 || p->fault_routers > 0;
    const char *missed = !faulty ? NULL : r.cycles <= p->fault_at ? "--fault-at" :
                         p->repair_at >= 0 && r.cycles <= p->repair_at ? "--repair-at" : NULL;
    if (missed) {
        long at = r.cycles <= p->fault_at ? p->fault_at : p->repair_at;
        fprintf(stderr, "doar sim: warning: the run ended at cycle %ld, before %s %ld: its result is not the one asked "
                "for\n", r.cycles, missed, at);
        printf("sim: FAIL the run ended at cycle %ld, before %s %ld\n", r.cycles, missed, at);
        rc = 1;
    }
    printf("sim: config=%s routing=%s traffic=%s offered=%.4f accepted=%.4f latency=%.1f hops=%.3f delivered=%ld lost=%ld\n",
           t->name, net_routing_name(p->routing), tname, r.offered, r.accepted, r.latency, r.hops, r.delivered, r.lost);
    return rc ? EXIT_FAIL : 0;
}

/* One point of a sweep: saturated when the mean latency exceeds the limit, a sample packet was not
 * delivered in the drain limit, the network accepts clearly less than was generated, or traffic
 * stopped. With faults (failed from --fault-at, default cycle 0, never repaired) packets to pairs
 * left without a path are lost, not late: the delivered-all test is left out, the accepted share
 * still counts them. */
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
    if (r->errors) { snprintf(err, DOAR_ERRLEN, "rate %.3f: %s", rate, r->report); return -1; }
    int faults = p.fault_links > 0 || p.fault_routers > 0;
    *saturated = rc != 0 || r->stopped || r->latency > c->sat_latency ||
                 (!faults && r->sample_delivered < r->sample_created) || r->accepted < SWEEP_ACCEPT_SHARE * r->generated;
    return 0;
}

/* The loads of one sweep: each load's line, CSV row and progress line, taken from --resume when
 * the resumed output holds it. A load run twice (the same "%.4f" rate) is run once. */
#define SWEEP_MAX_RUN 512
typedef struct {
    cli *c;
    const sweep_resumed *resumed;
    FILE *csv;
    double t0, seconds_total;    /* the loads' own times added up, a resumed one's too */
    int points, n;
    struct { double rate, accepted; int saturated; } *ran;   /* every load of this sweep, in order */
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
        if (!strcmp(seen, key)) {   /* already run in this sweep */
            *accepted = s->ran[j].accepted;
            *saturated = s->ran[j].saturated;
            return 0;
        }
    }
    net_result r;
    int sat, reused = -1;
    double seconds = 0.0, t_load = now_s();
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
        seconds = now_s() - t_load;
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
                sat ? "saturated" : "ok", reused >= 0 ? " (resumed)" : "", now_s() - s->t0);
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

static int cmd_sweep(cli *c) {
    char err[DOAR_ERRLEN];
    net_params *p = &c->nprm;
    if (!c->have_topo) return bad(c, "%s", "missing CONFIG (see doar sweep --help)");
    if (net_parse_routing(c->routing ? c->routing : "doar", &p->routing, err)) return bad(c, "%s", err);
    if (traffic_parse(c->traffic ? c->traffic : "ur", &c->t, &p->traffic, err)) return bad(c, "%s", err);
    int faulty = p->fault_links > 0 || p->fault_routers > 0;
    if (faulty && p->repair_at >= 0) return bad(c, "%s", "a sweep keeps its faults: --repair-at belongs to doar sim");
    if (faulty && p->routing != NET_ROUTING_DOAR)
        return bad(c, "faults need --routing doar: routing %s has no fault handling (fault units mask the DOAR tables)",
                   net_routing_name(p->routing));
    if (faulty && !c->have_fault_at) p->fault_at = 0;   /* diagnosed during the warm-up */
    int frc = check_fault_cycles(c, p->warmup + p->sample);
    if (frc) return frc;
    /* an impossible shape (dfly 1,1,63,64: table A too narrow) is bad input, refused before the header */
    if (tables_check_params(&c->t, &c->prm, err)) return bad(c, "%s", err);
    if (c->csv && c->resume) {   /* --csv would empty the file --resume is about to read */
        struct stat a, b;
        if (!strcmp(c->csv, c->resume) ||
            (!stat(c->csv, &a) && !stat(c->resume, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino))
            return bad(c, "--csv '%s' is the --resume file: it would be emptied before it is read", c->csv);
    }
    if (c->sweep_step <= 0) c->sweep_step = 0.05;
    if (c->sat_latency <= 0) c->sat_latency = 500.0;
    p->seed = c->seed;
    p->tprm = c->prm;
    p->rate = c->sweep_step;
    net_size_router(&c->t, p);
    if (net_check_params(&c->t, p, err)) return bad(c, "%s", err);
    /* one load at a time: a sweep needs what one doar sim of it needs (not printed: the header
     * lines are what --resume matches, and older outputs must stay resumable) */
    int mrc = net_check_memory(c, estimate_bytes(&c->t, &p->tprm, EST_NET, p));
    if (mrc) return mrc;
    p->comm = c->comm;
    char tname[32];
    traffic_name(&p->traffic, tname, sizeof tname);
    const topo *t = &c->t;
    char header[1024];
    int hlen = 0;
    if (faulty)
        hlen = snprintf(header, sizeof header, "sweep: faults links=%d routers=%d from cycle %ld, never repaired\n",
                        p->fault_links, p->fault_routers, p->fault_at);
    snprintf(header + hlen, sizeof header - (size_t)hlen,
             "sweep: config=%s dfly(%d,%d,%d,%d) routing=%s traffic=%s step=%g sat_latency=%g warmup=%ld sample=%ld "
             "seed=%llu%s\n",
             t->name, t->p, t->a, t->h, t->g, net_routing_name(p->routing), tname, c->sweep_step, c->sat_latency,
             p->warmup, p->sample, (unsigned long long)p->seed, c->full_points ? " full_points" : "");
    hlen = (int)strlen(header);
    /* every other setting a load's result depends on: --resume takes loads only from a run
     * whose header lines are these */
    snprintf(header + hlen, sizeof header - (size_t)hlen,
             "sweep: packet_len=%d latency=%d,%d speedup=%d thresholds=%d,%d threshold_util=%d drain_limit=%ld "
             "watchdog=%ld nm_slots=%d c_ways=%d%s\n",
             p->packet_len, p->lat_local, p->lat_global, p->speedup, p->tl_pkts, p->tg_pkts, p->threshold_util, p->drain_limit,
             p->watchdog, p->tprm.nm_slots, p->tprm.c_ways,
             /* only DOAR reads the congestion unit (route policies keep their headers, and so
              * their resumable loads, from before the option) */
             p->routing != NET_ROUTING_DOAR ? "" : p->cong_demand ? " cong_demand=1" : " cong_demand=0");
    sweep_resumed *resumed = calloc(1, sizeof *resumed);
    if (!resumed) {
        fprintf(stderr, "doar sweep: out of memory\n");
        return EXIT_FAIL;
    }
    const int root = net_comm_root(c->comm);
    int resume_ok = 1;
    if (c->resume && root) {   /* doar-mpi: rank 0 reads it (its machine has it) and hands it round */
        FILE *rf = fopen(c->resume, "r");
        char shown[256];
        cli_one_line(c->resume, shown, sizeof shown);
        if (!rf) fprintf(stderr, "sweep: resume: %s: no such output, every load runs\n", shown);
        else {
            int rrc = sweep_resume_read(rf, c->resume, header, resumed, err);
            fclose(rf);
            if (rrc == SWEEP_RESUME_BAD) resume_ok = 0;   /* a damaged output of this very sweep: trust none of it */
            if (rrc == SWEEP_RESUME_OTHER)
                fprintf(stderr, "sweep: resume: %s: not the output of this sweep, every load runs\n", shown);
        }
    }
    if (!net_comm_all(c->comm, resume_ok)) {
        free(resumed);
        return root ? bad(c, "%s", err) : EXIT_BADINPUT;
    }
    if (c->comm && c->resume) c->comm->bcast(c->comm->ctx, resumed, sizeof *resumed, 0);
    /* the resume file is read and the header settled before anything is written */
    FILE *csv = NULL;   /* rank 0 writes the file; every rank gives up when it cannot */
    if (!net_comm_all(c->comm, !(root && c->csv && !(csv = fopen(c->csv, "w"))))) {
        if (csv) fclose(csv);
        free(resumed);
        return root ? bad(c, "--csv '%s': cannot write the file", c->csv) : EXIT_BADINPUT;
    }
    if (csv) fprintf(csv, "rate,accepted,latency,hops,saturated,stopped\n");
    fputs(header, stdout);
    fflush(stdout);
    sweep_run run = {c, resumed, csv, now_s(), 0.0, 0, 0, NULL};
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
            if (sweep_load_at(&run, rate, &accepted, &sat)) { failed = 1; break; }
            if (sat) {
                if (hi < 0 || rate < hi) hi = rate;
                if (pass == 0) { first_hi = rate; break; }
            } else {
                if (rate > lo) lo = rate;
                if (accepted > best) best = accepted;
            }
        }
        if (hi < 0) break;   /* never saturated up to 1.0 */
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
            int top_j = 0;   /* the accepted load at the highest rate run */
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
                if (run.ran[j].rate > lo + 5e-5 && run.ran[j].rate < top + 5e-5 && (post < 0 || run.ran[j].accepted < post))
                    post = run.ran[j].accepted;
        }
    }
    if (csv) fclose(csv);
    free(resumed);
    free(run.ran);
    if (failed) return EXIT_FAIL;
    printf("sweep: points=%d highest_unsaturated=%.4f first_saturated=%.4f time=%.1fs wall=%.1fs\n", run.points, lo, hi,
           run.seconds_total, now_s() - run.t0);
    printf("sweep: config=%s routing=%s traffic=%s saturation=%.4f", t->name, net_routing_name(p->routing), tname, best);
    if (c->past > 0) printf(" post_saturation=%.4f", post);
    printf("\n");
    return 0;
}

int doar_main(int argc, char **argv, const net_comm *comm) {
    if (argc < 2) {   /* one line, like every other refusal; the usage is one --help away */
        fprintf(stderr, "doar: missing command (commands: topo tables check faults sim sweep; see doar --help)\n");
        return EXIT_BADINPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) { usage_main(stdout); return 0; }
    cli c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.comm = comm;
    c.router = -1;
    c.port = -1;
    tables_default_params(&c.prm);
    check_default_opts(&c.copt);
    fault_campaign_default_opts(&c.fopt);
    net_default_params(&c.t, &c.nprm);   /* topology-independent defaults; sized again in cmd_sim */
    void (*usage)(FILE *) = NULL;
    int (*run)(cli *) = NULL;
    if (!strcmp(cmd, "topo")) { usage = usage_topo; run = cmd_topo; }
    else if (!strcmp(cmd, "tables")) { usage = usage_tables; run = cmd_tables; }
    else if (!strcmp(cmd, "check")) { usage = usage_check; run = cmd_check; }
    else if (!strcmp(cmd, "faults")) { usage = usage_faults; run = cmd_faults; }
    else if (!strcmp(cmd, "sim")) { usage = usage_sim; run = cmd_sim; }
    else if (!strcmp(cmd, "sweep")) { usage = usage_sweep; run = cmd_sweep; }
    else {
        char shown[256];
        cli_one_line(cmd, shown, sizeof shown);
        fprintf(stderr, "doar: unknown command '%s' (commands: topo tables check faults sim sweep; see doar --help)\n", shown);
        return EXIT_BADINPUT;
    }
    if (comm && comm->size > 1 && run != cmd_sim && run != cmd_sweep) {   /* the others would run R times */
        if (comm->rank == 0)
            fprintf(stderr, "doar-mpi: '%s' does not run split over ranks (sim and sweep do): use build/doar %s\n", cmd, cmd);
        return EXIT_BADINPUT;
    }
    int rc = parse_args(&c, argc - 2, argv + 2, usage);
    if (rc == -1) return 0;
    if (rc) return rc;
    return run(&c);
}

#if !defined(DOAR_MPI) && !defined(DOAR_NO_MAIN)   /* build/doar-mpi's main is in csim/net_mpi.c;
                                                    the fuzz targets include this file for its parser */
int main(int argc, char **argv) { return doar_main(argc, argv, NULL); }
#endif
