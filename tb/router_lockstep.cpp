// router_lockstep — rtl/router.v (Verilator) and csim/router_cycle.c side by side on identical inputs
// from tb/router_env.c; every output of every port is compared every cycle. Conservation is
// checked on the outputs (no flit lost or duplicated, multicast copies accounted, nothing stuck).
// On the first mismatch: report, replay with an FST of the last cycles and a .gtkw save file.
// Last line: lockstep router: config=C seed=S cycles=N flits_in=I flits_out=O mismatches=M
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "Vrouter.h"
#include "Vrouter___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "harness_common.h"
#include "router.h"
#include "router_env.h"
#include "router_input.h"
#include "router_ports.h"
#include "tables_image.h"

#ifndef DOAR_CONG_RTT
#define DOAR_CONG_RTT 32   // rtl/router.v CONG_RTT (router_default_params: the same)
#endif
#ifndef DOAR_MAX_LEN
#define DOAR_MAX_LEN 4   // rtl/router.v MAX_LEN (router_default_params: the same)
#endif
#ifndef DOAR_SPEEDUP
#define DOAR_SPEEDUP 2
#endif
#ifndef DOAR_P
#error "compile with -DDOAR_P.. -DDOAR_G.. and -DDOAR_BULLETIN matching the RTL parameters"
#endif

namespace {

using harness::Bits;
using harness::get;
using harness::kExitBadInput;
using harness::kExitFail;
using harness::put;

struct Options : harness::Options {
    std::string scenario = "random";
    bool final_wave = false;   // also keep an FST of the last cycles of a passing run
    int c_cong_demand = -1;    // >= 0: the C model's router_params.cong_demand (a planted model
                               // difference when it is not the RTL's CONG_DEMAND)
    Options() { window = 100; }
};

struct Coverage {
    long ctl_in = 0, ctl_out = 0, events = 0, mask_discards = 0, dead_discards = 0;
    long discarded = 0, unicast = 0, mcast_copies = 0, credit_stall = 0, congl = 0, congg = 0, group_nb = 0, sb_out = 0,
         sb_in = 0, bulletin_held = 0, idle = 0, saturated = 0, epochs = 0;
    long oq_full = 0, multi_plane = 0, link_wait = 0;   // router v2: output queues and planes
    long credit_plane = 0;                              // heads held to their credit plane
    long cong_window = 0;   // a global port over TG by its occupancy, not by CongG's in-flight estimate
    // issue 21 item 3: an output queue holding DEPTH flits, an input VC whose route FIFO holds
    // DEPTH entries (one-flit packets), multicasts to 6 ports and to every other port, data flits
    // per (port class, VC) into and out of the router
    long oq_depth_full = 0, route_fifo_full = 0, mcast_six = 0, mcast_all = 0;
    long vc_in[3][4] = {{0}}, vc_out[3][4] = {{0}};
    // issue 21 item 2c: protocol errors the env injected and the ledger saw handled
    long proto_len = 0, proto_tablec = 0, ovf_drops = 0, ovf_accepted = 0;
};

struct Stats {
    long flits_in = 0, flits_out = 0, pkts = 0, epochs = 0, setup_cycles = 0, traffic_cycles = 0;
};

class Run {
  public:
    Run(const Options &o, const table_set &ts, long trace_from, long stop_at)
        : o_(o), ts_(ts), t_(ts.t), trace_from_(trace_from), stop_at_(stop_at) {}
    int go(Coverage &cov, Stats &st, std::string &report, const char *fst_path);
    int scenario_deadlock(std::string &result, std::string &report, long &partial_hold, long &bulletin_held);
    int scenario_wave(const std::string &name, const std::string &fst, std::string &report);
    long cycles_run = 0;

  private:
    int start(router_params &prm);
    void apply(const router_in &in, int rst);
    void read_rtl(router_out &a);
    int compare(long cycle, const router_out &exp, const router_out &act, std::string &report, const router_in &in);
    int step(const router_in &in, int rst, router_out &exp, std::string &report);
    int bind(int rid);
    int ev_ready_c_ = 0, ev_ready_rtl_ = 0;
    // The congestion bitmaps (CongL per port, the a*h-bit group bitmap) at the start of the cycle,
    // compared directly: they reach the pins only through the routes they choose, and terminal
    // CongL never changes a route (zone N has one option), so only a direct compare sees it.
    // tb/router_lockstep.vlt makes the two wires of rtl/router.v readable (public_flat_rd).
    uint64_t congl_c_ = 0, congl_rtl_ = 0;
    gport_bitmap congg_c_{}, congg_rtl_{};

    const Options &o_;
    const table_set &ts_;
    const topo &t_;
    long trace_from_, stop_at_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vrouter> top_;
    std::unique_ptr<VerilatedFstC> fst_;
    router model_;
    router_cfg_in cfg_;
    long cycle_ = 0, sim_time_ = 0;
};

// The widths of rtl/router.v's ports for this router (tb/router_ports.h's width names).
#define ROUTER_PORT_WIDTHS(t)                                                                                          \
    const int K = (t).k, H = (t).h, AH = (t).a * (t).h, GW = router_port_width((t).g), BW = router_port_width((t).a),  \
              TAW = router_port_width((t).p + (t).a + (t).g);                                                          \
    (void)K;                                                                                                           \
    (void)H;                                                                                                           \
    (void)AH;                                                                                                          \
    (void)GW;                                                                                                          \
    (void)BW;                                                                                                          \
    (void)TAW

// Every input port from the cycle's router_in and the configuration (tb/router_ports.h).
void Run::apply(const router_in &in, int rst) {
    Vrouter &v = *top_;
    ROUTER_PORT_WIDTHS(t_);
    const router_cfg_in &cfg = cfg_;
    v.rst = (CData)rst;
#define APPLY(name, W, N, KIND, FIELD)                                                                                 \
    {                                                                                                                  \
        Bits b((W) * (N));                                                                                             \
        for (int i = 0; i < (N); i++) b.set((W)*i, (W), ROUTER_PORT_GET(KIND, FIELD, i));                              \
        put(v.name, b, (W) * (N));                                                                                     \
    }
    ROUTER_PORTS_IN(APPLY)
#undef APPLY
}

// Every output port into a router_out (and the event input's ready) (tb/router_ports.h), and the
// two congestion bitmaps the lock-step compares directly.
void Run::read_rtl(router_out &out) {
    Vrouter &v = *top_;
    ROUTER_PORT_WIDTHS(t_);
    memset(&out, 0, sizeof out);
    int ready = 0;
#define READ(name, W, N, KIND, FIELD, WHEN)                                                                            \
    {                                                                                                                  \
        Bits b((W) * (N));                                                                                             \
        get(v.name, b);                                                                                                \
        for (int i = 0; i < (N); i++) ROUTER_PORT_SET(KIND, FIELD, i, b.get((W)*i, (W)));                              \
    }
    ROUTER_PORTS_OUT(READ)
#undef READ
    ev_ready_rtl_ = ready;
    Bits cl(K), cg(AH);
    get(v.rootp->router__DOT__cong_local, cl);
    get(v.rootp->router__DOT__cong_group, cg);
    congl_rtl_ = cl.get(0, K);
    memset(&congg_rtl_, 0, sizeof congg_rtl_);
    for (int j = 0; j < AH; j++)
        if (cg.get(j, 1)) congg_rtl_.w[j >> 6] |= (uint64_t)1 << (j & 63);
}

// Every output port, element by element (tb/router_ports.h: WHEN says which elements mean
// something); an invalid flit is expected as zeros.
int Run::compare(long cycle, const router_out &exp, const router_out &a, std::string &report, const router_in &in) {
    ROUTER_PORT_WIDTHS(t_);
    router_out e = exp;
    for (int o = 0; o < K; o++)
        if (!e.out[o].valid) e.out[o] = flit{0, 0, 0, 0, 0};
    char buf[512];
    int bad = 0;
#define CMP(name, W, N, KIND, FIELD, WHEN)                                                                             \
    for (int i = 0; i < (N); i++) {                                                                                    \
        uint64_t ev, av;                                                                                               \
        bool when;                                                                                                     \
        {                                                                                                              \
            const router_out &out = e;                                                                                 \
            const int ready = ev_ready_c_;                                                                             \
            (void)out;                                                                                                 \
            (void)ready;                                                                                               \
            ev = ROUTER_PORT_GET(KIND, FIELD, i);                                                                      \
            when = (WHEN) != 0;                                                                                        \
        }                                                                                                              \
        {                                                                                                              \
            const router_out &out = a;                                                                                 \
            const int ready = ev_ready_rtl_;                                                                           \
            (void)out;                                                                                                 \
            (void)ready;                                                                                               \
            av = ROUTER_PORT_GET(KIND, FIELD, i);                                                                      \
        }                                                                                                              \
        if (when && ev != av) {                                                                                        \
            if ((N) > 1)                                                                                               \
                snprintf(buf, sizeof buf, "  port %d %s: expected 0x%" PRIx64 ", actual 0x%" PRIx64 "\n", i, #name,    \
                         ev, av);                                                                                      \
            else                                                                                                       \
                snprintf(buf, sizeof buf, "  %s: expected 0x%" PRIx64 ", actual 0x%" PRIx64 "\n", #name, ev, av);      \
            report += buf;                                                                                             \
            bad = 1;                                                                                                   \
        }                                                                                                              \
    }
    ROUTER_PORTS_OUT(CMP)
#undef CMP
    if (congl_rtl_ != congl_c_ || memcmp(&congg_rtl_, &congg_c_, sizeof congg_c_) != 0) {
        snprintf(buf, sizeof buf, "  congestion: CongL expected 0x%" PRIx64 ", actual 0x%" PRIx64 "; group bitmap %s\n",
                 congl_c_, congl_rtl_, memcmp(&congg_rtl_, &congg_c_, sizeof congg_c_) ? "differs" : "agrees");
        report += buf;
        bad = 1;
    }
    if (bad) {
        snprintf(buf, sizeof buf, "MISMATCH at cycle %ld: router (%d,%d)\n", cycle, cfg_.gid, cfg_.bid);
        report = std::string(buf) + report;
        report += "  inputs this cycle:";
        for (int i = 0; i < K; i++)
            if (in.in[i].valid) {
                snprintf(buf, sizeof buf, " in%d[%s%s vc%d %016" PRIx64 "]", i, in.in[i].head ? "H" : "",
                         in.in[i].tail ? "T" : "", in.in[i].vc, in.in[i].data);
                report += buf;
            }
        report += "\n";
    }
    return bad;
}

int Run::step(const router_in &in, int rst, router_out &exp, std::string &report) {
    const bool use_rtl = o_.mode != 1, use_c = o_.mode != 2;
    router_out act;
    if (use_rtl) {
        apply(in, rst);
        top_->clk = 0;
        top_->eval();
        if (fst_ && cycle_ >= trace_from_) fst_->dump((uint64_t)sim_time_);
        sim_time_++;
        read_rtl(act);
    }
    if (use_c) {
        ev_ready_c_ = router_event_ready(&model_);
        congl_c_ = model_.cg.cong_local;
        congg_c_ = model_.cg.group;
        router_cycle(&model_, &in, &exp);
        if (rst) router_reset(&model_, &cfg_);
    } else {
        exp = act;
    }
    int bad = use_c && use_rtl ? compare(cycle_, exp, act, report, in) : 0;
    if (use_rtl) {
        top_->clk = 1;
        top_->eval();
        if (fst_ && cycle_ >= trace_from_) fst_->dump((uint64_t)sim_time_);
        sim_time_++;
    }
    cycle_++;
    return bad;
}

// The C model's fault unit for router rid (the RTL's takes its options through the fw_* writes).
int Run::bind(int rid) {
    char err[DOAR_ERRLEN];
    if (router_enable_faults(&model_, &ts_, rid, err)) {
        fprintf(stderr, "router_lockstep: %s\n", err);
        return -1;
    }
    return 0;
}

// A fresh Verilator model and C model with the parameters the RTL was built with.
int Run::start(router_params &prm) {
    char err[DOAR_ERRLEN];
    table_params tp = ts_.prm;
    router_default_params(&t_, &prm);
    prm.bulletin = DOAR_BULLETIN;
    prm.speedup = DOAR_SPEEDUP;
    prm.cong_rtt = DOAR_CONG_RTT;
    prm.max_len = DOAR_MAX_LEN;
    prm.oq_depth = 2 * DOAR_MAX_LEN;   // rtl/router.v OQ_DEPTH
    if (o_.c_cong_demand >= 0) prm.cong_demand = o_.c_cong_demand;
    ctx_.reset(new VerilatedContext);
    ctx_->traceEverOn(true);
    top_.reset(new Vrouter(ctx_.get(), "router"));
    if (router_init(&model_, &t_, &prm, &tp, err)) {
        fprintf(stderr, "router_lockstep: %s\n", err);
        return -1;
    }
    return 0;
}

int Run::go(Coverage &cov, Stats &st, std::string &report, const char *fst_path) {
    router_params prm;
    if (start(prm)) return -1;
    if (fst_path) {
        fst_.reset(new VerilatedFstC);
        top_->trace(fst_.get(), 99);
        fst_->open(fst_path);
    }
    env_rng seeder = {o_.seed * 0x9E3779B97F4A7C15ull + 7};
    auto next_seed = [&]() {
        uint64_t x = seeder.s;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        seeder.s = x;
        return x * 0x2545F4914F6CDD1Dull;
    };
    int mismatches = 0;
    time_t last = time(nullptr);
    // a line on stderr at most every 5 s (a tianhe run takes minutes)
    auto progress = [&](const router_env &env, const char *phase) {
        if (o_.quiet || fst_ || (cycle_ & 0x3fff) != 0 || time(nullptr) - last < 5) return;
        last = time(nullptr);
        fprintf(stderr, "lockstep router: %ld/%ld cycles (%.0f%%, %s), %ld flits in\n", cycle_, o_.cycles,
                100.0 * cycle_ / o_.cycles, phase, st.flits_in + env.injected_flits);
    };
    router_in in;
    router_out exp;
    while (cycle_ < o_.cycles && !mismatches) {
        // ---- epoch: a router, reset, tables and multicast sets, traffic, drain ----
        cov.epochs++;
        st.epochs++;
        int rid;
        do rid = (int)(next_seed() % (uint64_t)t_.n_routers);
        while (!ts_.present[rid]);
        router_env env;
        if (env_init(&env, &t_, &ts_, &prm, rid, next_seed())) return -1;
        // protocol errors at a low rate (issue 21 item 2c): bad lengths, overflow probes, and in a
        // quarter of the epochs one terminal port's table C naming ports >= k — in every epoch of a
        // router above 32 ports (tianhe), whose runs hold one or two epochs: at 0.25 a run would
        // miss the case three times in four (tianhe seed 1, 2026-11-27: one epoch, the row zero)
        env.proto_prob = 0.002;
        env.ovf_prob = 0.002;
        env.tablec_prob = t_.k > 32 ? 1.0 : 0.25;
        cfg_.gid = topo_gid(&t_, rid);
        cfg_.bid = topo_bid(&t_, rid);
        cfg_.wired = ts_.rcfg[rid].wired;
        if (bind(rid)) return -1;
        cfg_.seed = (uint32_t)next_seed();
        memset(&in, 0, sizeof in);
        for (int r = 0; r < 2 && !mismatches; r++) mismatches += step(in, 1, exp, report);
        long setup = 0;
        for (; !mismatches && env_setup(&env, setup, &in); setup++) {
            mismatches += step(in, 0, exp, report);
            progress(env, "set-up");
        }
        st.setup_cycles += setup + 2;
        long len = 20000 + (long)(next_seed() % 80000);
        // Traffic lasts at least as long as the set-up writes before it, and runs on to the end of
        // the run when what would be left after it could not hold another set-up: so on tianhe
        // (63 ports, ~108,000 set-up writes) at least half of the cycles carry traffic and no run
        // ends inside a set-up. Smaller routers' set-ups are far below 20,000 cycles.
        if (len < setup) len = setup;
        long end = cycle_ + len;
        if (o_.cycles - end < setup + 2) end = o_.cycles;
        const long traffic_from = cycle_;
        for (long i = 0; !mismatches && cycle_ < end && cycle_ < o_.cycles; i++) {
            if (i % 700 == 0) {   // phase: idle / light / saturated; back-pressure; multicast share
                int m = (int)(env_rand(&env) % 7);
                env.load = m == 0 ? 0.0 : m < 3 ? 0.15 : m < 5 ? 0.5 : 1.0;
                env.drain_prob = (double)(1 + env_rand(&env) % 10) / 10.0;
                env.mcast_frac = (double)(env_rand(&env) % 4) / 10.0;
                env.sb_prob = (env_rand(&env) % 2) ? 0.05 : 0.0;
                // FD/FR packets and local events in some phases (the fault units inside the router)
                env.ctl_prob = (env_rand(&env) % 4) == 0 ? 0.005 : 0.0;
                env.ev_prob = (env_rand(&env) % 4) == 0 ? 0.001 : 0.0;
                // one-flit packets in some phases: DEPTH of them in one VC fill its route FIFO
                // (one entry per packet), which mixed lengths almost never do (issue 21 item 3)
                env.short_frac = (env_rand(&env) % 4) == 0 ? 0.9 : 0.0;
                // a hot spot in the saturated phases of one kind in seven (no draw of its own, so
                // the other phases keep their stimulus): router v5's longer pipeline keeps the
                // output queues emptier, and random destinations almost never fill one (the
                // "output queue holds DEPTH flits" row, docs/RESULTS.md "Router v5")
                env.hot_frac = m == 6 ? 0.7 : 0.0;
                env.hot_bid = (cfg_.bid + 1 + (int)(i / 700) % (t_.a - 1)) % t_.a;
            }
            env_drive(&env, cycle_, &in);
            long fin = 0;
            for (int p = 0; p < t_.k; p++) fin += in.in[p].valid;
            if (fin == 0) cov.idle++;
            if (fin == t_.k) cov.saturated++;
            for (int p = 0; p < t_.k; p++) cov.sb_in += in.sb_valid[p];
            for (int p = 0; p < t_.k; p++)
                if (in.in[p].valid && !fault_is_ctl(&in.in[p])) cov.vc_in[topo_port_class(&t_, p)][in.in[p].vc & 3]++;
            mismatches += step(in, 0, exp, report);
            env_observe(&env, cycle_ - 1, &in, &exp);
            int stall = 0;
            for (int p = 0; p < t_.k && !stall; p++)
                for (int v = 0; v < 4; v++)
                    if (model_.cred[p][v] < prm.max_len) stall = 1;
            cov.credit_stall += stall;
            if (model_.cg.cong_local) cov.congl++;
            if (model_.cg.congg) cov.congg++;
            // what the congestion unit compares next cycle: occupancy (+ demand) against TG, less the
            // flits in flight (CONG_RTT window)
            for (int i = 0; i < t_.h && model_.prm.cong_rtt > 0; i++) {
                const int o = t_.first_global + i;
                const int occ = model_.occ[o] + (model_.prm.cong_demand ? model_.demand[o] : 0);
                if (occ > model_.prm.tg && occ - model_.cg.recent[i] <= model_.prm.tg) {
                    cov.cong_window++;
                    break;
                }
            }
            for (int x = 0; x < t_.a; x++)
                if (x != cfg_.bid)
                    for (int hh = 0; hh < t_.h; hh++)
                        if (gbm_test(&model_.cg.group, x * t_.h + hh)) {
                            cov.group_nb++;
                            x = t_.a;
                            break;
                        }
            if (exp.sb_valid) cov.sb_out++;
            uint64_t all = t_.k >= 64 ? ~0ull : ((1ull << t_.k) - 1);
            for (int q = 0; q < model_.np; q++)
                if (model_.grb_free[q] != all) {
                    cov.bulletin_held++;
                    break;
                }
            // output queues: one without room for a longest packet; an output whose link serves one
            // queue while another waits (planes queue behind the link)
            for (int n = 0; n < t_.k * model_.np; n++)
                if (model_.oqs[n].room < prm.max_len) {
                    cov.oq_full++;
                    break;
                }
            for (int n = 0; n < t_.k * model_.np; n++)
                if (model_.oqs[n].count == model_.oqs[n].depth) {
                    cov.oq_depth_full++;
                    break;
                }
            for (int p = 0; p < t_.k; p++)
                if (exp.out[p].valid && !fault_is_ctl(&exp.out[p]))
                    cov.vc_out[topo_port_class(&t_, p)][exp.out[p].vc & 3]++;
            for (int p = 0, full = 0; p < t_.k && !full; p++)
                for (int v = 0; v < 4 && !full; v++)
                    if (model_.in[p].rcount[v] == model_.in[p].depth) {
                        cov.route_fifo_full++;
                        full = 1;
                    }
            // a unicast head held to its output VC's credit plane, not its home plane (scarce credits)
            for (int p = 0, hit = 0; p < t_.k && !hit && model_.np > 1; p++)
                for (int v = 0; v < 4 && !hit; v++)
                    if (!router_input_looks_past(&model_, p, v)) {
                        int cp = router_input_credit_plane(&model_, p, v);
                        if (cp >= 0 && cp != alloc_plane(p, v, model_.np)) {
                            cov.credit_plane++;
                            hit = 1;
                        }
                    }
            for (int o = 0; o < t_.k; o++) {
                int nonempty = 0;
                for (int q = 0; q < model_.np; q++) nonempty += model_.oqs[o * model_.np + q].count > 0;
                if (nonempty > 1) {
                    cov.link_wait++;
                    break;
                }
            }
            if ((cycle_ & 1023) == 0) env_check_stuck(&env, cycle_, 30000);
            if (stop_at_ >= 0 && cycle_ > stop_at_) break;
            progress(env, "traffic");
        }
        // drain: every packet out, every buffer empty, every credit back
        env.injecting = 0;
        env.drain_prob = 1.0;
        env.ctl_prob = env.ev_prob = 0.0;
        for (int p = 0; p < ROUTER_MAX_PORTS; p++) env.drain_port[p] = -1.0;
        auto ctl_pending = [&]() {
            long n = 0;
            for (int p = 0; p < t_.k; p++) n += env.ctl_ret[p];
            return n;
        };
        auto held = [&]() {
            long n = 0;
            for (int p = 0; p < t_.k; p++)
                for (int v = 0; v < 4; v++) n += env.ds_held[p][v];
            return n;
        };
        // credits the router still owes upstream (router v2 returns one per input per cycle)
        auto owed = [&]() {
            long n = 0;
            for (int p = 0; p < t_.k; p++)
                for (int v = 0; v < 4; v++) n += prm.depth[topo_port_class(&t_, p)] - env.up_cred[p][v];
            return n;
        };
        // out_ports: flits the router has registered for its outputs but the environment has not
        // seen yet (an FD/FR packet sent in the drain's last cycle has taken its control credit)
        for (long n = 0; !mismatches && n < 40000 &&
                         (env.live_pkts || router_buffered(&model_) || held() || ctl_pending() || owed() ||
                          !fault_idle(model_.fu) || model_.regs[model_.cur].out_ports);
             n++) {
            if (stop_at_ >= 0 && cycle_ > stop_at_) break;
            env_drive(&env, cycle_, &in);
            mismatches += step(in, 0, exp, report);
            env_observe(&env, cycle_ - 1, &in, &exp);
        }
        st.traffic_cycles += cycle_ - traffic_from;
        st.flits_in += env.injected_flits;
        st.flits_out += env.delivered_flits;
        st.pkts += env.injected_pkts;
        cov.unicast += env.stat_unicast;
        cov.mcast_copies += env.mcast_copies;
        cov.discarded += env.discarded_pkts;
        cov.ctl_in += env.ctl_in;
        cov.ctl_out += env.ctl_out;
        cov.events += env.events;
        cov.mask_discards += env.mask_discards;
        cov.dead_discards += env.dead_discards;
        cov.mcast_six += env.mcast_six;
        cov.proto_len += env.proto_len;
        cov.proto_tablec += env.proto_tablec;
        cov.ovf_drops += env.ovf_drops;
        cov.ovf_accepted += env.ovf_accepted;
        cov.mcast_all += env.mcast_all;
        cov.multi_plane = (long)model_.multi_plane_cycles;
        if (!mismatches && !(stop_at_ >= 0)) {
            // after the drain the router must be back at rest: credits full, no port held or reserved
            // (read from the C model, so only when it runs: not in --mode rtl)
            int rest = o_.mode == 2 ||
                       (!model_.res_valid && router_buffered(&model_) == 0 && !model_.lk_lock && !model_.crp_ports);
            uint64_t all = t_.k >= 64 ? ~0ull : ((1ull << t_.k) - 1);
            for (int q = 0; q < model_.np && o_.mode != 2; q++)
                rest = rest && !model_.locked[q] && !model_.in_busy[q] && !model_.g_go[q] && model_.grb_free[q] == all;
            for (int n = 0; n < t_.k * model_.np && o_.mode != 2; n++)
                rest = rest && model_.oqs[n].room == prm.oq_depth;
            for (int p = 0; p < t_.k && o_.mode != 2; p++)
                for (int v = 0; v < 4; v++) rest = rest && model_.cred[p][v] == prm.ds_depth[topo_port_class(&t_, p)];
            for (int p = 0; p < t_.k && o_.mode != 2; p++) rest = rest && model_.ctl_cred[p] == prm.ctl_depth;
            if (!rest && !env.errors) {
                env.errors++;
                snprintf(
                    env.first_error, sizeof env.first_error,
                    "after the drain the router is not at rest (credits, slots, streams, output queues or bulletin)");
            }
            if (env.errors || env.live_pkts) {
                char buf[800];
                snprintf(
                    buf, sizeof buf,
                    "CONSERVATION FAILED in epoch %ld (router %d): %ld errors, %ld packets not delivered; first: %s\n",
                    cov.epochs, rid, env.errors, env.live_pkts, env.errors ? env.first_error : "-");
                report += buf;
                env_free(&env);
                mismatches = -2;
                break;
            }
        }
        env_free(&env);
        if (stop_at_ >= 0 && cycle_ > stop_at_) break;
    }
    if (fst_) {
        memset(&in, 0, sizeof in);
        std::string ignore;
        for (int i = 0; i < 2; i++) step(in, 0, exp, ignore);
        fst_->close();
    }
    top_->final();
    router_free(&model_);
    cycles_run = cycle_;
    return mismatches;
}

// Seed 003 sec. 5.1's deadlock: two multicasts with crossed port sets (see tests/test_router.c).
// Coverage (issue 21 item 3): the path the build takes must be reached. Without the bulletin, a
// multicast acquires its slots one by one (vcbuf.held: some of its ports held, others awaited);
// with it, the slots leave the bulletin (grb_free) and are never held in part.
int Run::scenario_deadlock(std::string &result, std::string &report, long &partial_hold, long &bulletin_held) {
    router_params prm;
    if (start(prm)) return -1;
    int rid = topo_router(&t_, t_.g > 2 ? 2 : 0, t_.a > 1 ? 1 : 0);
    if (!ts_.present[rid]) rid = 0;
    router_env env;
    env_init(&env, &t_, &ts_, &prm, rid, 5);
    cfg_.gid = topo_gid(&t_, rid);
    cfg_.bid = topo_bid(&t_, rid);
    cfg_.wired = ts_.rcfg[rid].wired;
    if (bind(rid)) return -1;
    cfg_.seed = 5;
    router_in in;
    router_out exp;
    memset(&in, 0, sizeof in);
    int bad = step(in, 1, exp, report);
    for (long n = 0; !bad && env_setup(&env, n, &in); n++) bad += step(in, 0, exp, report);
    const int p2 = t_.first_local, p3 = t_.first_local + 1;   // two intra-group ports
    for (int port = 0; port < 2 && !bad; port++) {
        memset(&in, 0, sizeof in);
        in.mw_valid = 1;
        in.mw_port = port;
        in.mw_group = 0;
        in.mw_set = (1ull << p2) | (1ull << p3);
        bad += step(in, 0, exp, report);
    }
    int g = cfg_.gid, b = cfg_.bid;
    int to2 = topo_local_peer(&t_, b, p2), to3 = topo_local_peer(&t_, b, p3);
    long delivered = 0;
    uint8_t cr[ROUTER_MAX_PORTS] = {0}, crvc[ROUTER_MAX_PORTS] = {0};
    // input 1 sends on the VC whose plane is input 0's VC 0 plane ((i + v) mod S): both multicasts
    // and the priming packets want the same output slots
    const uint8_t v1 = (uint8_t)((prm.speedup - 1) % prm.speedup);
    for (long c = 0; c < 3000 && !bad; c++) {
        memset(&in, 0, sizeof in);
        for (int o = 0; o < t_.k; o++) {
            in.cr_valid[o] = cr[o];
            in.cr_vc[o] = crvc[o];
            cr[o] = 0;
        }
        if (c == 0) {
            in.in[1] = flit{1, 1, 1, v1, flit_header(g, to2, 0, g, 0, 0, 1, 1)};
            in.in[0] = flit{1, 1, 1, 0, flit_header(g, to3, 0, g, 0, 0, 1, 2)};
        }
        if (c == 20) {
            in.in[0] = flit{1, 1, 0, 0, flit_header(g, b, 0, g, 1, 0, 2, 3)};
            in.in[1] = flit{1, 1, 0, v1, flit_header(g, b, 0, g, 1, 0, 2, 4)};
        }
        if (c == 21) {
            in.in[0] = flit{1, 0, 1, 0, 1};
            in.in[1] = flit{1, 0, 1, v1, 1};
        }
        bad += step(in, 0, exp, report);
        int part = 0;
        for (int i = 0; i < t_.k; i++)
            for (int v = 0; v < 4; v++) part |= model_.in[i].held[v] != 0;
        partial_hold += part;
        uint64_t all = t_.k >= 64 ? ~0ull : ((1ull << t_.k) - 1);
        for (int q = 0; q < model_.np; q++)
            if (model_.grb_free[q] != all) {
                bulletin_held++;
                break;
            }
        for (int o = 0; o < t_.k; o++)
            if (exp.out[o].valid) {
                cr[o] = 1;
                crvc[o] = exp.out[o].vc;
                if (exp.out[o].tail && c > 20) delivered++;
            }
    }
    long stuck = router_buffered(&model_);
    char buf[200];
    snprintf(buf, sizeof buf, "bulletin=%d multicast_copies_out=%ld stuck_flits=%ld result=%s", DOAR_BULLETIN,
             delivered, stuck, stuck ? "deadlock" : "completed");
    result = buf;
    env_free(&env);
    top_->final();
    router_free(&model_);
    cycles_run = cycle_;
    return bad;
}

// Named waveform scenarios (make wave SCENARIO=..): a short directed run in lock-step, traced
// from its first cycle.
int Run::scenario_wave(const std::string &name, const std::string &fst_path, std::string &report) {
    router_params prm;
    if (start(prm)) return -1;
    fst_.reset(new VerilatedFstC);
    top_->trace(fst_.get(), 99);
    fst_->open(fst_path.c_str());
    trace_from_ = 0;
    int rid = topo_router(&t_, t_.g > 2 ? 2 : 0, t_.a > 1 ? 1 : 0);
    if (!ts_.present[rid]) rid = 0;
    router_env env;
    env_init(&env, &t_, &ts_, &prm, rid, o_.seed);
    cfg_.gid = topo_gid(&t_, rid);
    cfg_.bid = topo_bid(&t_, rid);
    cfg_.wired = ts_.rcfg[rid].wired;
    if (bind(rid)) return -1;
    cfg_.seed = (uint32_t)o_.seed;
    router_in in;
    router_out exp;
    memset(&in, 0, sizeof in);
    int bad = step(in, 1, exp, report);
    for (long n = 0; !bad && env_setup(&env, n, &in); n++) bad += step(in, 0, exp, report);
    long len = 1500;
    if (name == "multicast-contention") {
        // three multicast groups with overlapping port sets on every input; unicast besides
        const uint64_t sets[3] = {(1ull << t_.first_local) | (1ull << (t_.first_local + 1)),
                                  (1ull << (t_.first_local + 1)) | (1ull << (t_.k - 1)),
                                  (1ull << t_.first_local) | (1ull << (t_.k - 1))};
        for (int port = 0; port < t_.k && !bad; port++)
            for (int grp = 0; grp < 3 && !bad; grp++) {
                memset(&in, 0, sizeof in);
                in.mw_valid = 1;
                in.mw_port = port;
                in.mw_group = grp;
                in.mw_set = sets[grp] & ~(1ull << port);
                env.mcast_sets[port][grp] = in.mw_set;
                bad += step(in, 0, exp, report);
            }
        env.mgroups = 3;
        env.mcast_frac = 0.5;
        env.load = 0.6;
        env.drain_prob = 0.7;
    } else {
        // congestion-driven non-minimal routing: the downstream of one of this router's own
        // global ports drains slowly, so its CongG rises; terminal inputs send to that port's group
        int gport = t_.first_global + t_.h - 1;
        int j = topo_group_port(&t_, cfg_.bid, gport);
        int dst_group = topo_gport_target(&t_, cfg_.gid, j);
        env.drain_port[gport] = 0.05;
        env.load = 0.0;
        env.drain_prob = 1.0;
        for (long c = 0; c < len && !bad; c++) {
            env_drive(&env, cycle_, &in);
            for (int p = 0; p < t_.p; p++)
                if (!in.in[p].valid && (c % 3) == 0 && env.up_cred[p][0] > 0) {   // a one-flit packet to dst_group
                    in.in[p] =
                        flit{1, 1, 1, 0,
                             flit_header(dst_group, (int)(c % t_.a), 0, cfg_.gid, 0, 0, 1, 60000 + (int)(c % 1000))};
                    env.up_cred[p][0]--;
                }
            bad += step(in, 0, exp, report);
            for (int i = 0; i < t_.k; i++)
                if (exp.cr_valid[i]) env.up_cred[i][exp.cr_vc[i] & 3]++;
            for (int o = 0; o < t_.k; o++)
                if (exp.out[o].valid) env.ds_held[o][exp.out[o].vc & 3]++;
        }
        len = 0;
    }
    for (long c = 0; c < len && !bad; c++) {
        env_drive(&env, cycle_, &in);
        bad += step(in, 0, exp, report);
        env_observe(&env, cycle_ - 1, &in, &exp);
    }
    fst_->close();
    env_free(&env);
    top_->final();
    router_free(&model_);
    cycles_run = cycle_;
    return bad;
}

void write_wave_gtkw(const std::string &path, const std::string &fst, const topo &t, const std::string &scenario) {
    const int K = t.k;
    harness::Gtkw w(path, fst, "router", 0);
    w.begin("Links in");
    w.sig("clk", 1);
    w.sig("rst", 1);
    w.sig("in_valid", K);
    w.sig("in_head", K);
    w.sig("cr_in_valid", K);
    w.end("Links in");
    if (scenario == "multicast-contention") {
        w.begin("Global Resource Bulletin");
        w.sig("grb_free", K * DOAR_SPEEDUP);
        w.sig("locked", K * DOAR_SPEEDUP);
        w.sig("mc_valid", 1);
        w.sig("mc_in", (K > 1) ? 32 - __builtin_clz(K - 1) : 1);
        w.end("Global Resource Bulletin");
        w.begin("Allocation");
        w.sig("pk_valid", K * DOAR_SPEEDUP);
        w.sig("pk_vc", 2 * K * DOAR_SPEEDUP);
        w.sig("alloc.out_granted_f", K * DOAR_SPEEDUP);
        w.sig("pop", 4 * K);
        w.end("Allocation");
    } else {
        char name[96];
        const int GPW = (t.ah > 1) ? 32 - __builtin_clz(t.ah - 1) : 1;
        w.begin("Congestion");
        w.sig("cong_local", K);
        w.sig("cong_group", t.ah);
        w.sig("congestion.congg", t.h);
        w.end("Congestion");
        w.begin("Route compute, input port 0");
        snprintf(name, sizeof name, "inputs.g_in[0].route.s3_ok_ga");
        w.sig(name, t.ah);
        snprintf(name, sizeof name, "inputs.g_in[0].route.s3_ok_gc");
        w.sig(name, t.ah);
        snprintf(name, sizeof name, "inputs.g_in[0].route.s3_ok_gd");
        w.sig(name, t.ah);
        snprintf(name, sizeof name, "inputs.g_in[0].route.out_class");
        w.sig(name, 4);
        snprintf(name, sizeof name, "inputs.g_in[0].route.out_gport");
        w.sig(name, GPW);
        snprintf(name, sizeof name, "inputs.g_in[0].route.out_port");
        w.sig(name, 6);
        w.end("Route compute, input port 0");
    }
    w.begin("Links out");
    w.sig("out_valid", K);
    w.sig("out_head", K);
    w.sig("out_tail", K);
    w.sig("cr_out_valid", K);
    w.end("Links out");
}

void write_gtkw(const std::string &path, const std::string &fst, const topo &t, long start_time) {
    const int K = t.k;
    harness::Gtkw w(path, fst, "router", start_time);
    w.begin("Links in");
    w.sig("clk", 1);
    w.sig("rst", 1);
    w.sig("in_valid", K);
    w.sig("in_head", K);
    w.sig("in_tail", K);
    w.sig("in_vc", 2 * K);
    w.sig("cr_in_valid", K);
    w.sig("sb_in_valid", K);
    w.end("Links in");
    w.begin("Allocation");
    w.sig("locked", K * DOAR_SPEEDUP);
    w.sig("grb_free", K * DOAR_SPEEDUP);
    w.sig("pk_valid", K * DOAR_SPEEDUP);
    w.sig("pk_vc", 2 * K * DOAR_SPEEDUP);
    w.sig("alloc.out_granted_f", K * DOAR_SPEEDUP);
    w.sig("mc_valid", 1);
    w.sig("pop", 4 * K);
    w.sig("inputs.rpush", K);
    w.sig("inputs.plane_void", K * DOAR_SPEEDUP);
    w.sig("inputs.g_valid", K * DOAR_SPEEDUP);
    w.sig("inputs.in_busy", K * DOAR_SPEEDUP);
    w.sig("lk_lock", K);
    w.end("Allocation");
    w.begin("Congestion");
    // what the congestion unit compares with TL / TG: per port, occupancy (+ demand on intra-group
    // and global ports), COW bits each as rtl/router.v sizes them from the default depths
    router_params prm;
    router_default_params(&t, &prm);
    int max_depth = prm.depth[0], demand_bits = 0, occ_bits = 13;
    for (int c = 1; c < 3; c++)
        if (prm.depth[c] > max_depth) max_depth = prm.depth[c];
    while ((1L << demand_bits) < (long)K * 4 * max_depth + 1) demand_bits++;
    w.sig("occ_cong", K * ((demand_bits > occ_bits ? demand_bits : occ_bits) + 1));
    w.sig("cong_local", K);
    w.sig("cong_group", t.ah);
    w.end("Congestion");
    w.begin("Links out");
    w.sig("out_valid", K);
    w.sig("out_head", K);
    w.sig("out_tail", K);
    w.sig("out_vc", 2 * K);
    w.sig("cr_out_valid", K);
    w.sig("sb_out_valid", 1);
    w.sig("overflow", K);
    w.end("Links out");
}

int usage(FILE *f, int rc) {
    fprintf(f,
            "usage: router_lockstep --tables DIR [--config NAME] [--seed S] [--cycles N] [--wave-dir DIR]\n"
            "                      [--window W] [--scenario random|mcast-deadlock] [--mode lockstep|c|rtl]\n"
            "                      [--final-wave] [--c-cong-demand 0|1] [--coverage-optional] [--quiet]\n"
            "Lock-steps rtl/router.v against csim/router_cycle.c under random traffic; exit 0 only with 0 mismatches,\n"
            "conservation holding and full coverage (--coverage-optional: holes are reported, not failed: make\n"
            "check's short run). --final-wave replays the run to keep an FST of its\n"
            "last --window cycles; --mode c / rtl runs one side alone and prints its speed (make bench).\n"
            "--c-cong-demand 0 gives the C model credit-only congestion against the RTL's demand counters:\n"
            "a planted model difference that must mismatch (docs/architecture.md \"Congestion\").\n");
    return rc;
}

}   // namespace

int main(int argc, char **argv) {
    Options o;
    bool coverage_optional = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "-h" || a == "--help") return usage(stdout, 0);
        if (a == "--final-wave") {
            o.final_wave = true;
            continue;
        }
        if (a == "--coverage-optional") {
            coverage_optional = true;
            continue;
        }
        bool used = false;
        int r = harness::parse_common("router_lockstep", a, v, o, &used);
        if (r < 0) return kExitBadInput;
        if (r > 0) {
            i += used;
            continue;
        }
        if (a == "--c-cong-demand" && v) {
            if (strcmp(v, "0") && strcmp(v, "1")) {
                fprintf(stderr, "router_lockstep: --c-cong-demand '%s': expected 0 or 1\n", v);
                return kExitBadInput;
            }
            o.c_cong_demand = v[0] - '0';
            i++;
            continue;
        }
        if (a == "--scenario" && v) {
            o.scenario = v;
            i++;
            if (o.scenario != "random" && o.scenario != "mcast-deadlock" && o.scenario != "multicast-contention" &&
                o.scenario != "nonminimal") {
                fprintf(stderr,
                        "router_lockstep: --scenario '%s': expected random, mcast-deadlock, "
                        "multicast-contention or nonminimal\n",
                        v);
                return kExitBadInput;
            }
            continue;
        }
        fprintf(stderr, "router_lockstep: unknown option or missing value '%s'\n", a.c_str());
        return kExitBadInput;
    }
    table_set ts;
    if (harness::load_tables("router_lockstep", o, DOAR_P, DOAR_A, DOAR_H, DOAR_G, &ts)) return kExitBadInput;
    if (o.config.empty()) o.config = ts.t.name;
    int rc = 0;
    if (o.scenario == "mcast-deadlock") {
        Run run(o, ts, -1, -1);
        std::string result, report;
        long partial = 0, held = 0;
        int bad = run.scenario_deadlock(result, report, partial, held);
        if (bad) {
            fputs(report.c_str(), stdout);
            rc = kExitFail;
        }
        printf("coverage (every row must be non-zero):\n");
        const std::vector<harness::CovRow> rows = {
            {"multicast holding part of its set", partial, DOAR_BULLETIN ? "the bulletin grants whole sets" : nullptr},
            {"bulletin held", held, DOAR_BULLETIN ? nullptr : "no bulletin"}};
        if (harness::report_coverage("", rows) && !rc) rc = kExitFail;
        printf("scenario mcast-deadlock: %s mismatches=%d\n", result.c_str(), bad ? 1 : 0);
        tables_free(&ts);
        return rc;
    }
    if (o.scenario == "multicast-contention" || o.scenario == "nonminimal") {
        std::string mk = "mkdir -p '" + o.wave_dir + "'";
        if (system(mk.c_str()) != 0) {
            fprintf(stderr, "router_lockstep: cannot create %s\n", o.wave_dir.c_str());
            return kExitBadInput;
        }
        std::string base = o.wave_dir + "/" + o.scenario, report;
        Run run(o, ts, 0, -1);
        int bad = run.scenario_wave(o.scenario, base + ".fst", report);
        write_wave_gtkw(base + ".gtkw", base + ".fst", ts.t, o.scenario);
        if (bad) fputs(report.c_str(), stdout);
        printf("wave: scenario=%s fst=%s.fst gtkw=%s.gtkw cycles=%ld mismatches=%d\n", o.scenario.c_str(), base.c_str(),
               base.c_str(), run.cycles_run, bad ? 1 : 0);
        tables_free(&ts);
        return bad ? kExitFail : 0;
    }
    Coverage cov;
    Stats st;
    std::string report;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long cycles_run;
    int mismatches;
    {
        Run run(o, ts, -1, -1);
        mismatches = run.go(cov, st, report, nullptr);
        cycles_run = run.cycles_run;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (mismatches == -1) {
        tables_free(&ts);
        return kExitBadInput;
    }
    if (o.mode != 0) {
        printf("bench router: config=%s side=%s cycles=%ld flits_in=%ld seconds=%.3f router_cycles_per_s=%.0f\n",
               o.config.c_str(), o.mode == 1 ? "c-model" : "verilator", cycles_run, st.flits_in, secs,
               cycles_run / secs);
        tables_free(&ts);
        return 0;
    }
    if (mismatches == -2) {   // conservation
        fputs(report.c_str(), stdout);
        rc = kExitFail;
        mismatches = 0;
    } else if (mismatches > 0) {
        fputs(report.c_str(), stdout);
        long mcycle = cycles_run - 1;
        std::string base = o.wave_dir + "/router_" + o.config + "_seed" + std::to_string(o.seed);
        std::string fst = base + ".fst", gtkw = base + ".gtkw";
        std::string mk = "mkdir -p '" + o.wave_dir + "'";
        if (system(mk.c_str()) != 0) fprintf(stderr, "router_lockstep: cannot create %s\n", o.wave_dir.c_str());
        long from = mcycle > o.window ? mcycle - o.window : 0;
        Coverage c2;
        Stats s2;
        std::string r2;
        Run replay(o, ts, from, mcycle);
        replay.go(c2, s2, r2, fst.c_str());
        write_gtkw(gtkw, fst, ts.t, 2 * from);
        printf("waveform: %s (cycles %ld..%ld; time = 2*cycle)\nsave file: %s\n", fst.c_str(), from, mcycle + 1,
               gtkw.c_str());
        rc = kExitFail;
    }
    if (!rc && o.final_wave) {
        std::string base = o.wave_dir + "/router_" + o.config + "_seed" + std::to_string(o.seed) + "_last";
        std::string fst = base + ".fst", gtkw = base + ".gtkw";
        std::string mk = "mkdir -p '" + o.wave_dir + "'";
        if (system(mk.c_str()) == 0) {
            long from = cycles_run > o.window ? cycles_run - o.window : 0;
            Coverage c2;
            Stats s2;
            std::string r2;
            Run replay(o, ts, from, -1);
            replay.go(c2, s2, r2, fst.c_str());
            write_gtkw(gtkw, fst, ts.t, 2 * from);
            printf("waveform of the last %d cycles: %s (gtkwave %s)\n", o.window, fst.c_str(), gtkw.c_str());
        }
    }
    printf("coverage (every row must be non-zero):\n");
    // Rows a configuration or build cannot reach are "n/a" with the reason, never dropped:
    // with one plane (S = 1) nothing arrives at an output from two planes; a 6-port multicast
    // needs k - 1 >= 6 (tiny: k = 3). Terminal inputs carry VC 0 only (a source injects on VC 0;
    // the VC rule starts there), so terminal VC 1..3 in are not rows. Every output VC is reachable
    // on every class: terminal and local outputs keep a global input's VC (0..3), intra-group and
    // global outputs raise a local input's VC (1..3) and take VC 0 from terminal inputs; multicasts
    // keep theirs.
    const char *one_plane = DOAR_SPEEDUP == 1 ? "S=1: one plane" : nullptr;
    std::vector<harness::CovRow> rows = {
        {"unicast packets", cov.unicast},
        {"multicast copies", cov.mcast_copies},
        {"discarded headers", cov.discarded},
        {"credit-stall cycles", cov.credit_stall},
        {"CongL cycles", cov.congl},
        {"CongG cycles", cov.congg},
        {"in-flight flits not congestion", cov.cong_window, DOAR_CONG_RTT == 0 ? "CONG_RTT=0: no window" : nullptr},
        {"neighbour CongG", cov.group_nb},
        {"side-band out", cov.sb_out},
        {"side-band in", cov.sb_in},
        {"bulletin held", cov.bulletin_held},
        {"idle cycles", cov.idle},
        {"saturated cycles", cov.saturated},
        {"FD/FR packets in", cov.ctl_in},
        {"FD/FR packets out", cov.ctl_out},
        {"local events", cov.events},
        {"discards (options masked)", cov.mask_discards},
        {"discards (a dead router's entry)", cov.dead_discards},
        {"output queue full", cov.oq_full},
        // At MAX_LEN = 8 a queue (2 * MAX_LEN = 16 flits) is full only when both of its packets
        // have crossed while its link still serves the other plane's two: once in 300,000 cycles
        // of seed 1 with router v5, 0-3 times by seed with v6 (docs/RESULTS.md "Router v6"), so
        // the row is required of the MAX_LEN = 4 runs only (small S = 2, seed 1: 5 times in a
        // million cycles with v6).
        {"output queue holds DEPTH flits", cov.oq_depth_full,
         DOAR_SPEEDUP == 1  ? "S=1: one plane writes a flit a cycle, the link takes one"
         : DOAR_MAX_LEN > 4 ? "MAX_LEN>4: rare (two longest packets behind the other plane's two)"
                            : nullptr},
        {"route FIFO full", cov.route_fifo_full},
        {"multicasts to 6 ports", cov.mcast_six, ts.t.k - 1 >= 6 ? nullptr : "k-1 < 6"},
        {"multicasts to every other port", cov.mcast_all},
        {"bad len drained", cov.proto_len},
        {"table C port>=k drained", cov.proto_tablec},
        {"overflow probes dropped", cov.ovf_drops},
        {"planes into one output", cov.multi_plane, one_plane},
        {"queue waits for link", cov.link_wait, one_plane},
        {"heads held to their credit plane", cov.credit_plane, one_plane}};
    const char *cls[3] = {"terminal", "local", "global"};
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 4; v++)
            if (c != PORT_TERMINAL || v == 0)
                rows.push_back({std::string("flits in ") + cls[c] + " VC" + std::to_string(v), cov.vc_in[c][v]});
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 4; v++)
            rows.push_back({std::string("flits out ") + cls[c] + " VC" + std::to_string(v), cov.vc_out[c][v]});
    int holes = harness::report_coverage("", rows);
    // not a row: a probe finds room when credits were still on their way (rare; either is legal)
    printf("  (overflow probes that found room: %ld)\n", cov.ovf_accepted);
    printf("  epochs %ld, packets %ld, %.1f s, %.0f cycles/s\n", cov.epochs, st.pkts, secs,
           secs > 0 ? cycles_run / secs : 0.0);
    printf("  cycles: %ld reset and table/multicast set-up, %ld traffic and drain\n", st.setup_cycles,
           st.traffic_cycles);
    if (holes && !rc) {
        printf("coverage: %d hole(s)%s\n", holes, coverage_optional ? " (not failed: --coverage-optional)" : "");
        if (!coverage_optional) rc = kExitFail;
    }
    printf("lockstep router: config=%s seed=%" PRIu64 " cycles=%ld flits_in=%ld flits_out=%ld mismatches=%d\n",
           o.config.c_str(), o.seed, cycles_run, st.flits_in, st.flits_out, mismatches);
    tables_free(&ts);
    return rc;
}
