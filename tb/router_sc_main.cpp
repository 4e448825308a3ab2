// router_sc_main — the small router as a SystemC module (Verilator --sc), the way it would be
// dropped into a virtual platform: an sc_clock, sc_signals on every port, and a testbench that
// loads the routing tables, sends random unicast and multicast packets (tb/router_env.c: sources
// that honour credits, sinks that return them) and checks every packet is delivered once,
// whole, on a port the tables allow. No C model runs beside it: this is a user's-eye test.
// Last line: systemc router: config=C cycles=N packets=P flits_in=I flits_out=O errors=E
#include <systemc.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "Vrouter.h"
#include "harness_common.h"
#include "router_env.h"
#include "router_ports.h"

// Verilator --sc port types by width: 1 bool, 2..32 uint32_t, 33..64 uint64_t, wider sc_bv<W>.
template <int W, bool B = (W == 1), bool S = (W <= 32), bool L = (W <= 64)> struct sc_port_type {
    typedef sc_bv<W> type;
};
template <int W> struct sc_port_type<W, true, true, true> { typedef bool type; };
template <int W> struct sc_port_type<W, false, true, true> { typedef uint32_t type; };
template <int W> struct sc_port_type<W, false, false, true> { typedef uint64_t type; };
#define SIG(W) sc_signal<typename sc_port_type<(W)>::type>

template <typename T> void to_sig(sc_signal<T> &s, const harness::Bits &b, int width) {
    uint64_t v = b.w[0];
    if (width < 64) v &= (1ull << width) - 1;
    s.write((T)v);
}
template <int N> void to_sig(sc_signal<sc_bv<N>> &s, const harness::Bits &b, int width) {
    sc_bv<N> v;
    for (int i = 0; i < width; i++) v[i] = (bool)b.get(i, 1);
    s.write(v);
}
template <typename T> void from_sig(const sc_signal<T> &s, harness::Bits &b) { b.w[0] = (uint64_t)s.read(); }
template <int N> void from_sig(const sc_signal<sc_bv<N>> &s, harness::Bits &b) {
    sc_bv<N> v = s.read();
    for (int i = 0; i < N; i++) b.set(i, 1, v[i].to_bool() ? 1 : 0);
}

// The widths of rtl/router.v's ports (tb/router_ports.h's width names), known when compiling.
static constexpr int K = DOAR_P + DOAR_A - 1 + DOAR_H;
static constexpr int H = DOAR_H;
static constexpr int AH = DOAR_A * DOAR_H;
static constexpr int GW = router_port_width(DOAR_G);
static constexpr int BW = router_port_width(DOAR_A);
static constexpr int TAW = router_port_width(DOAR_P + DOAR_A + DOAR_G);

int sc_main(int argc, char **argv) {
    harness::Options o;
    o.cycles = 20000;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool used = false;
        int r = harness::parse_common("router_sc", a, i + 1 < argc ? argv[i + 1] : nullptr, o, &used);
        if (r < 0) return harness::kExitBadInput;
        if (r == 0) {
            fprintf(stderr, "router_sc: unknown option '%s'\n", a.c_str());
            return harness::kExitBadInput;
        }
        i += used;
    }
    table_set ts;
    if (harness::load_tables("router_sc", o, DOAR_P, DOAR_A, DOAR_H, DOAR_G, &ts)) return harness::kExitBadInput;
    const topo &t = ts.t;

    sc_clock clk("clk", 10, SC_NS, 0.5, 5, SC_NS, true);   // rising edges at 5, 15, 25 ... ns
    sc_signal<bool> rst;
    // one signal per port, bound by name (tb/router_ports.h)
#define DECL_IN(name, W, N, KIND, FIELD) SIG((W) * (N)) name;
#define DECL_OUT(name, W, N, KIND, FIELD, WHEN) SIG((W) * (N)) name;
    ROUTER_PORTS_IN(DECL_IN)
    ROUTER_PORTS_OUT(DECL_OUT)
#undef DECL_IN
#undef DECL_OUT
    Vrouter top("router");
    top.clk(clk);
    top.rst(rst);
#define BIND_IN(name, W, N, KIND, FIELD) top.name(name);
#define BIND_OUT(name, W, N, KIND, FIELD, WHEN) top.name(name);
    ROUTER_PORTS_IN(BIND_IN)
    ROUTER_PORTS_OUT(BIND_OUT)
#undef BIND_IN
#undef BIND_OUT

    router_params prm;
    router_default_params(&t, &prm);
    int rid = topo_router(&t, t.g > 2 ? 2 : 0, t.a > 1 ? 1 : 0);
    router_env env;
    env_init(&env, &t, &ts, &prm, rid, o.seed);
    router_cfg_in cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gid = topo_gid(&t, rid);
    cfg.bid = topo_bid(&t, rid);
    cfg.wired = ts.rcfg[rid].wired;
    cfg.seed = (uint32_t)o.seed;

    long cycle = 0;
    auto step = [&](const router_in &in, int reset) {
        rst.write(reset);
#define APPLY(name, W, N, KIND, FIELD)                                                                                 \
    {                                                                                                                  \
        harness::Bits b((W) * (N));                                                                                    \
        for (int i = 0; i < (N); i++) b.set((W)*i, (W), ROUTER_PORT_GET(KIND, FIELD, i));                              \
        to_sig(name, b, (W) * (N));                                                                                    \
    }
        ROUTER_PORTS_IN(APPLY)
#undef APPLY
        sc_start(1, SC_NS);   // inputs settle; outputs are this cycle's registers
        router_out out;
        memset(&out, 0, sizeof out);
        int ready = 0;
#define READ(name, W, N, KIND, FIELD, WHEN)                                                                            \
    {                                                                                                                  \
        harness::Bits b((W) * (N));                                                                                    \
        from_sig(name, b);                                                                                             \
        for (int i = 0; i < (N); i++) ROUTER_PORT_SET(KIND, FIELD, i, b.get((W)*i, (W)));                              \
    }
        ROUTER_PORTS_OUT(READ)
#undef READ
        (void)ready;   // the event input is never driven here
        if (!reset) env_observe(&env, cycle, &in, &out);
        sc_start(9, SC_NS);   // through the rising edge
        cycle++;
    };

    router_in in;
    memset(&in, 0, sizeof in);
    sc_start(4, SC_NS);   // to the middle of the first low phase... then one cycle per step
    for (int r = 0; r < 2; r++) step(in, 1);
    for (long n = 0; env_setup(&env, n, &in); n++) step(in, 0);
    long t0 = cycle;
    while (cycle - t0 < o.cycles) {
        if ((cycle - t0) % 1000 == 0) {
            env.load = (cycle / 1000) % 3 == 0 ? 1.0 : 0.3;
            env.mcast_frac = 0.2;
            env.drain_prob = (cycle / 1000) % 2 ? 0.5 : 1.0;
        }
        env_drive(&env, cycle, &in);
        step(in, 0);
    }
    env.injecting = 0;
    env.drain_prob = 1.0;
    for (long n = 0; n < 20000 && env.live_pkts; n++) {
        env_drive(&env, cycle, &in);
        step(in, 0);
    }
    long errors = env.errors + env.live_pkts;
    if (env.errors) printf("first error: %s\n", env.first_error);
    if (env.live_pkts) printf("%ld packets never delivered\n", env.live_pkts);
    printf("systemc router: config=%s cycles=%ld packets=%ld flits_in=%ld flits_out=%ld errors=%ld\n",
           o.config.empty() ? t.name : o.config.c_str(), cycle, env.injected_pkts, env.injected_flits,
           env.delivered_flits, errors);
    env_free(&env);
    tables_free(&ts);
    top.final();
    return errors ? harness::kExitFail : 0;
}
