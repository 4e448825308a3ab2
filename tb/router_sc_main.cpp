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

// Verilator --sc port types by width: 1 bool, 2..32 uint32_t, 33..64 uint64_t, wider sc_bv<W>.
template <int W, bool B = (W == 1), bool S = (W <= 32), bool L = (W <= 64)> struct sc_port_type { typedef sc_bv<W> type; };
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

static const int K = DOAR_P + DOAR_A - 1 + DOAR_H;
static const int H = DOAR_H;
static const int AH = DOAR_A * DOAR_H;
static int clog2(int n) { int b = 1; while ((1 << b) < n) b++; return b; }

int sc_main(int argc, char **argv) {
    harness::Options o;
    o.cycles = 20000;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool used = false;
        int r = harness::parse_common("router_sc", a, i + 1 < argc ? argv[i + 1] : nullptr, o, &used);
        if (r < 0) return harness::kExitBadInput;
        if (r == 0) { fprintf(stderr, "router_sc: unknown option '%s'\n", a.c_str()); return harness::kExitBadInput; }
        i += used;
    }
    table_set ts;
    if (harness::load_tables("router_sc", o, DOAR_P, DOAR_A, DOAR_H, DOAR_G, &ts)) return harness::kExitBadInput;
    const topo &t = ts.t;

    sc_clock clk("clk", 10, SC_NS, 0.5, 5, SC_NS, true);   // rising edges at 5, 15, 25 ... ns
    sc_signal<bool> rst, tw_valid, mw_valid, sb_out_valid, ev_valid, ev_ready, fw_valid;
    SIG(((DOAR_G > 1) ? 32 - __builtin_clz(DOAR_G - 1) : 1)) cfg_gid;
    SIG(((DOAR_A > 1) ? 32 - __builtin_clz(DOAR_A - 1) : 1)) cfg_bid;
    SIG(AH) cfg_wired;
    sc_signal<uint32_t> cfg_seed, tw_port, tw_table, tw_addr, mw_port, mw_group, ev_kind, ev_port, fw_port, fw_entry;
    sc_signal<uint64_t> tw_data;
    SIG(K) in_valid, in_head, in_tail, cr_in_valid, sb_in_valid, mw_set, out_valid, out_head, out_tail, cr_out_valid, overflow;
    SIG(K) ctl_cr_in_valid, fw_src, fw_int, ctl_cr_out_valid, discard;
    SIG(2 * K) in_vc, cr_in_vc, out_vc, cr_out_vc;
    SIG(4 * K) discard_vcs;
    SIG(64 * K) in_data, out_data;
    SIG(H * K) sb_in_bits;
    SIG(H) sb_out_bits;

    Vrouter top("router");
    top.clk(clk); top.rst(rst); top.cfg_gid(cfg_gid); top.cfg_bid(cfg_bid); top.cfg_wired(cfg_wired);
    top.cfg_seed(cfg_seed); top.in_valid(in_valid); top.in_head(in_head); top.in_tail(in_tail); top.in_vc(in_vc);
    top.in_data(in_data); top.cr_in_valid(cr_in_valid); top.cr_in_vc(cr_in_vc); top.sb_in_valid(sb_in_valid);
    top.sb_in_bits(sb_in_bits); top.tw_valid(tw_valid); top.tw_port(tw_port); top.tw_table(tw_table);
    top.tw_addr(tw_addr); top.tw_data(tw_data); top.mw_valid(mw_valid); top.mw_port(mw_port); top.mw_group(mw_group);
    top.mw_set(mw_set); top.out_valid(out_valid); top.out_head(out_head); top.out_tail(out_tail); top.out_vc(out_vc);
    top.out_data(out_data); top.cr_out_valid(cr_out_valid); top.cr_out_vc(cr_out_vc); top.sb_out_valid(sb_out_valid);
    top.sb_out_bits(sb_out_bits); top.overflow(overflow);
    top.ev_valid(ev_valid); top.ev_kind(ev_kind); top.ev_port(ev_port); top.ev_ready(ev_ready);
    top.ctl_cr_in_valid(ctl_cr_in_valid); top.fw_valid(fw_valid); top.fw_port(fw_port); top.fw_entry(fw_entry);
    top.fw_src(fw_src); top.fw_int(fw_int); top.ctl_cr_out_valid(ctl_cr_out_valid); top.discard(discard);
    top.discard_vcs(discard_vcs);

    router_params prm;
    router_default_params(&t, &prm);
    int rid = topo_router(&t, t.g > 2 ? 2 : 0, t.a > 1 ? 1 : 0);
    router_env env;
    env_init(&env, &t, &ts, &prm, rid, o.seed);
    cfg_gid.write(topo_gid(&t, rid));
    cfg_bid.write(topo_bid(&t, rid));
    harness::Bits wb(AH);
    for (int j = 0; j < AH; j++) wb.set(j, 1, (uint64_t)gbm_test(&ts.rcfg[rid].wired, j));
    to_sig(cfg_wired, wb, AH);
    cfg_seed.write((uint32_t)o.seed);
    (void)clog2;

    long cycle = 0;
    auto step = [&](const router_in &in, int reset) {
        harness::Bits iv(K), ih(K), it(K), ivc(2 * K), id(64 * K), cv(K), cvc(2 * K), sv(K), sb(H * K), ms(K);
        for (int i = 0; i < K; i++) {
            iv.set(i, 1, in.in[i].valid); ih.set(i, 1, in.in[i].head); it.set(i, 1, in.in[i].tail);
            ivc.set(2 * i, 2, in.in[i].vc); id.set(64 * i, 64, in.in[i].data);
            cv.set(i, 1, in.cr_valid[i]); cvc.set(2 * i, 2, in.cr_vc[i]);
            sv.set(i, 1, in.sb_valid[i]); sb.set(H * i, H, in.sb_bits[i]);
        }
        ms.set(0, K, in.mw_set);
        rst.write(reset);
        to_sig(in_valid, iv, K); to_sig(in_head, ih, K); to_sig(in_tail, it, K); to_sig(in_vc, ivc, 2 * K);
        to_sig(in_data, id, 64 * K); to_sig(cr_in_valid, cv, K); to_sig(cr_in_vc, cvc, 2 * K);
        to_sig(sb_in_valid, sv, K); to_sig(sb_in_bits, sb, H * K); to_sig(mw_set, ms, K);
        tw_valid.write(in.tw_valid); tw_port.write(in.tw_port); tw_table.write(in.tw_table);
        tw_addr.write(in.tw_addr); tw_data.write(in.tw_data);
        mw_valid.write(in.mw_valid); mw_port.write(in.mw_port); mw_group.write(in.mw_group);
        harness::Bits ccv(K), fs(K), fi(K);
        for (int i = 0; i < K; i++) ccv.set(i, 1, in.ctl_cr_valid[i]);
        fs.set(0, K, in.fw_src);
        fi.set(0, K, in.fw_int);
        to_sig(ctl_cr_in_valid, ccv, K); to_sig(fw_src, fs, K); to_sig(fw_int, fi, K);
        ev_valid.write(in.ev_valid); ev_kind.write((uint32_t)in.ev_kind & 3); ev_port.write((uint32_t)in.ev_port & 63);
        fw_valid.write(in.fw_valid); fw_port.write((uint32_t)in.fw_port & 63); fw_entry.write((uint32_t)in.fw_entry);
        sc_start(1, SC_NS);            // inputs settle; outputs are this cycle's registers
        router_out out;
        memset(&out, 0, sizeof out);
        harness::Bits ov(K), oh(K), ot(K), ovc(2 * K), od(64 * K), crv(K), crvc(2 * K), of(K);
        from_sig(out_valid, ov); from_sig(out_head, oh); from_sig(out_tail, ot); from_sig(out_vc, ovc);
        from_sig(out_data, od); from_sig(cr_out_valid, crv); from_sig(cr_out_vc, crvc); from_sig(overflow, of);
        for (int o2 = 0; o2 < K; o2++) {
            out.out[o2] = flit{(uint8_t)ov.get(o2, 1), (uint8_t)oh.get(o2, 1), (uint8_t)ot.get(o2, 1),
                               (uint8_t)ovc.get(2 * o2, 2), od.get(64 * o2, 64)};
            out.cr_valid[o2] = (uint8_t)crv.get(o2, 1);
            out.cr_vc[o2] = (uint8_t)crvc.get(2 * o2, 2);
        }
        out.overflow = of.get(0, K);
        harness::Bits ccov(K), dv(K), dvc(4 * K);
        from_sig(ctl_cr_out_valid, ccov); from_sig(discard, dv); from_sig(discard_vcs, dvc);
        out.discard = dv.get(0, K);
        for (int o2 = 0; o2 < K; o2++) {
            out.ctl_cr_valid[o2] = (uint8_t)ccov.get(o2, 1);
            out.discard_vcs[o2] = (uint8_t)dvc.get(4 * o2, 4);
        }
        if (!reset) env_observe(&env, cycle, &in, &out);
        sc_start(9, SC_NS);            // through the rising edge
        cycle++;
    };

    router_in in;
    memset(&in, 0, sizeof in);
    sc_start(4, SC_NS);                // to the middle of the first low phase... then one cycle per step
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
