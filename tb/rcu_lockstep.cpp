// rcu_lockstep — runs rtl/rcu.v (Verilator) and csim/rcu.c side by side on identical inputs and
// compares every output field every cycle. On the first mismatch it prints the cycle, the
// inputs, expected and actual values, replays the run with an FST trace of the last cycles and
// writes a .gtkw save file grouped by pipeline stage. The harness owns the clock.
//
// Build: make lockstep-rcu CONFIG=.. (Verilator, -GP/-GA/-GH/-GG and -DDOAR_P.. -DDOAR_G).
// Last line: lockstep rcu: config=C seed=S cycles=N decisions=D mismatches=M coverage=full|incomplete
// Exit: 0 no mismatch and full coverage; 1 a mismatch; 2 bad input; 3 no mismatch but coverage
// holes (a short run: a smoke test, not a verdict). Mismatches win over holes.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "Vrcu.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "harness_common.h"
#include "rcu.h"
#include "tables_image.h"

#ifndef DOAR_P
#error "compile with -DDOAR_P=.. -DDOAR_A=.. -DDOAR_H=.. -DDOAR_G=.. matching the RTL parameters"
#endif

namespace {

using harness::kExitBadInput;
using harness::kExitFail;
using harness::put;

using harness::Rng;

struct Options : harness::Options {
    std::string vectors;   // per-cycle inputs and expected outputs, for tb/rcu_icarus_tb.v
};

struct Coverage {
    long cls[RCU_NUM_CLASSES] = {0};
    long rtb_zone[4] = {0};     // N, B, G source group, G intermediate group
    long unit_class[3] = {0};   // decisions per input-port class of the unit
    long rewrites = 0, epochs = 0;
    long masked = 0, masked_none = 0;   // decisions made with some options invalid (fault masks)
    long dref_keep_vc = 0;              // an intra-group hop in the destination group from another: VC kept
    long dref_global_lf = 0;            // a global input's zone B decided from table B (LE empty: the fallback)
};

struct Mismatch {
    long cycle = -1;
    char text[4096] = {0};
};

const char *pc_name(int pc) { return pc == 0 ? "terminal" : pc == 1 ? "intra-group" : "global"; }

class Run {
  public:
    Run(const Options &o, const table_set &ts, long trace_from, long stop_at)
        : o_(o), ts_(ts), t_(ts.t), rng_(o.seed), trace_from_(trace_from), stop_at_(stop_at) {}

    // Returns mismatches (0 or 1: the run stops at the first).
    int go(Coverage &cov, long &decisions, Mismatch &mm, const char *fst_path);
    long cycles_run() const { return cycles_run_; }

  private:
    void apply(const rcu_in &in, int rst);
    int compare(long cycle, const rcu_out &exp, Mismatch &mm);
    void random_row(int table, int row, uint64_t &value);

    const Options &o_;
    const table_set &ts_;
    const topo &t_;
    Rng rng_;
    long trace_from_, stop_at_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vrcu> top_;
    std::unique_ptr<VerilatedFstC> fst_;
    rcu model_;
    rcu_cfg cfg_;
    int router_ = 0, port_ = 0;
    rcu_in hist_[8];   // inputs of the last cycles, for reports and coverage
    // the fault units' valid masks as the router would hold them: a synchronous RAM of invalid
    // bits per entry, read at rcu_mask_row() and presented one cycle later
    std::vector<uint64_t> inv_mem_;
    uint64_t inv_q_ = 0;
    double mask_rate_ = 0.0;
    FILE *vec_ = nullptr;
    long sim_time_ = 0;
    long cycles_run_ = 0;
};

void Run::apply(const rcu_in &in, int rst) {
    Vrcu &v = *top_;
    v.rst = (CData)rst;
    harness_put_int(v.cfg_gid, (uint64_t)cfg_.gid);
    harness_put_int(v.cfg_bid, (uint64_t)cfg_.bid);
    harness_put_int(v.cfg_port_class, (uint64_t)cfg_.pc);
    put(v.cfg_wired, cfg_.wired.w, t_.ah);
    v.cfg_lfsr_seed = cfg_.lfsr_seed;
    v.in_valid = (CData)in.hdr.valid;
    harness_put_int(v.in_dst_gid, (uint64_t)in.hdr.dst_gid);
    harness_put_int(v.in_dst_bid, (uint64_t)in.hdr.dst_bid);
    harness_put_int(v.in_dst_nid, (uint64_t)in.hdr.dst_nid);
    harness_put_int(v.in_src_gid, (uint64_t)in.hdr.src_gid);
    v.in_vc = (CData)in.hdr.vc;
    put(v.cong_local, &in.cong_local, t_.k);
    put(v.cong_global, in.cong_global.w, t_.ah);
    put(v.opt_invalid, &in.opt_invalid, t_.k);
    v.tw_valid = (CData)in.tw_valid;
    v.tw_table = (CData)in.tw_table;
    harness_put_int(v.tw_addr, (uint64_t)in.tw_addr);
    v.tw_data = in.tw_data;
}

int Run::compare(long cycle, const rcu_out &e, Mismatch &mm) {
    Vrcu &v = *top_;
    int ok = v.out_valid == e.valid && v.out_port == e.port && v.out_vc == e.vc && v.out_class == e.cls &&
             v.out_gport_valid == e.gport_valid && (long)v.out_gport == e.gport;
    if (ok) return 0;
    size_t n = 0;
    char *b = mm.text;
    size_t cap = sizeof mm.text;
    mm.cycle = cycle;
    n += snprintf(b + n, cap - n, "MISMATCH at cycle %ld: router (%d,%d) input port %d (%s)\n", cycle, cfg_.gid,
                  cfg_.bid, port_, pc_name(cfg_.pc));
    n += snprintf(b + n, cap - n, "  field        expected  actual\n");
#define ROW(name, ev, av)                                                                                              \
    n += snprintf(b + n, cap - n, "  %-12s %8ld  %6ld%s\n", name, (long)(ev), (long)(av),                              \
                  (long)(ev) != (long)(av) ? "   <--" : "")
    ROW("valid", e.valid, v.out_valid);
    ROW("port", e.port, v.out_port);
    ROW("vc", e.vc, v.out_vc);
    ROW("class", e.cls, v.out_class);
    ROW("gport_valid", e.gport_valid, v.out_gport_valid);
    ROW("gport", e.gport, v.out_gport);
#undef ROW
    n += snprintf(b + n, cap - n, "  expected class %s, actual class %s\n", rcu_class_name(e.cls),
                  rcu_class_name((int)v.out_class));
    n += snprintf(b + n, cap - n, "  inputs of the last cycles (the header of cycle-4 is the one decided):\n");
    for (int d = RCU_LATENCY; d >= 0; d--) {
        const rcu_in &in = hist_[(cycle - d) & 7];
        if (cycle - d < 0) continue;
        n += snprintf(b + n, cap - n, "   cycle %ld: %s", cycle - d, in.hdr.valid ? "header" : "bubble");
        if (in.hdr.valid)
            n += snprintf(b + n, cap - n, " dst=<%d,%d,%d> src_gid=%d vc=%d", in.hdr.dst_gid, in.hdr.dst_bid,
                          in.hdr.dst_nid, in.hdr.src_gid, in.hdr.vc);
        n += snprintf(b + n, cap - n, " congL=0x%" PRIx64 " congG=0x", in.cong_local);
        for (int w = (t_.ah - 1) / 64; w >= 0; w--) n += snprintf(b + n, cap - n, "%016" PRIx64, in.cong_global.w[w]);
        if (in.tw_valid)
            n += snprintf(b + n, cap - n, " write %c[%d]=0x%" PRIx64, "ABC"[in.tw_table], in.tw_addr, in.tw_data);
        n += snprintf(b + n, cap - n, "\n");
        if (n > cap - 200) break;
    }
    return 1;
}

// A random row with a valid encoding for the unit's port class (the loader's contract).
void Run::random_row(int table, int row, uint64_t &value) {
    const uint64_t kmask = t_.k >= 64 ? ~0ull : ((1ull << t_.k) - 1);
    if (rng_.chance(0.1)) {
        value = 0;
        return;
    }   // an empty entry
    if (table == RCU_TW_C) {
        uint8_t items[TABLES_MAX_C_WAYS] = {0};
        for (int w = 0; w < ts_.prm.c_ways; w++) {
            if (!rng_.chance(0.6)) continue;
            if (rng_.chance(0.3) || t_.a < 2)
                items[w] = CITEM_VALID | CITEM_SELF;
            else
                items[w] = (uint8_t)(CITEM_VALID | (t_.first_local + rng_.below(t_.a - 1)));
        }
        value = tables_c_entry(items, ts_.prm.c_ways);
        return;
    }
    int index;
    table_zone z = tables_zone_of_row(&ts_, table == RCU_TW_A ? TABLE_A : TABLE_B, row, &index);
    if ((z == ZONE_B && index == cfg_.bid) || (z == ZONE_G && index == cfg_.gid)) {
        value = 0;
        return;
    }
    if (tables_is_global_config(cfg_.pc, z)) {
        if (table == RCU_TW_A) {
            uint64_t gp = rng_.next() & ((1ull << t_.h) - 1);
            value = tables_global_a(rng_.below(t_.a), gp);
        } else {
            int bids[TABLES_MAX_NM_SLOTS], n = 1 + rng_.below(ts_.prm.nm_slots);
            for (int s = 0; s < n; s++) bids[s] = rng_.below(t_.a);
            value = tables_global_b(bids, n);
        }
        return;
    }
    uint64_t m = rng_.next() & rng_.next() & kmask;   // sparse LP bitmap
    value = m;
}

int Run::go(Coverage &cov, long &decisions, Mismatch &mm, const char *fst_path) {
    char err[DOAR_ERRLEN];
    ctx_.reset(new VerilatedContext);
    ctx_->traceEverOn(true);
    top_.reset(new Vrcu(ctx_.get(), "rcu"));
    if (rcu_init(&model_, &t_, &ts_.prm, err)) {
        fprintf(stderr, "rcu_lockstep: %s\n", err);
        return -1;
    }
    memset(hist_, 0, sizeof hist_);
    if (!o_.vectors.empty() && trace_from_ < 0) {
        vec_ = fopen(o_.vectors.c_str(), "w");
        if (!vec_) {
            fprintf(stderr, "rcu_lockstep: cannot create %s\n", o_.vectors.c_str());
            return -1;
        }
    }
    int mismatches = 0;
    long cycle = 0;
    const double dens[] = {0.0, 0.05, 0.3, 0.7, 0.95, 1.0};
    const int ndens = sizeof dens / sizeof dens[0];
    time_t last_report = time(nullptr);

    const bool use_rtl = o_.mode != 1, use_c = o_.mode != 2;
    auto step = [&](rcu_in &in, int rst) -> int {
        rcu_out exp;
        memset(&exp, 0, sizeof exp);
        in.opt_invalid = inv_q_;
        hist_[cycle & 7] = in;
        const int row_c = rcu_mask_row(&model_);
        const bool row_matters = model_.s1.hdr.valid && !model_.s1.bad;
        if (!fst_ && fst_path && trace_from_ >= 0 && cycle >= trace_from_) {   // the replay's window starts
            fst_.reset(new VerilatedFstC);
            top_->trace(fst_.get(), 99);
            fst_->open(fst_path);
        }
        if (use_rtl) {
            apply(in, rst);
            top_->clk = 0;
            top_->eval();
            if (fst_ && cycle >= trace_from_) fst_->dump((uint64_t)sim_time_);
            sim_time_++;
        }
        if (use_c) {
            if (rst) {
                rcu_cycle(&model_, &in, &exp);
                rcu_reset(&model_, &cfg_);
            } else
                rcu_cycle(&model_, &in, &exp);
        } else {
            exp.valid = top_->out_valid;
            exp.cls = top_->out_class;
        }
        int bad = use_rtl && use_c ? compare(cycle, exp, mm) : 0;
        if (!bad && use_rtl && use_c && row_matters && (int)top_->mask_row != row_c) {
            mm.cycle = cycle;
            snprintf(mm.text, sizeof mm.text, "MISMATCH at cycle %ld: mask_row: C model %d, RTL %d\n", cycle, row_c,
                     (int)top_->mask_row);
            bad = 1;
        }
        // the synchronous read of the masks, then this cycle's changes to them
        int row = use_c ? row_c : (int)top_->mask_row;
        inv_q_ = rst || row < 0 || row >= (int)inv_mem_.size() ? 0 : inv_mem_[row];
        if (!rst && mask_rate_ > 0 && rng_.chance(mask_rate_)) {
            int e = rng_.below((int)inv_mem_.size());
            uint64_t inv = 0;
            if (!rng_.chance(0.5))
                for (int j = 0; j < t_.k; j++)
                    if (rng_.chance(0.3)) inv |= 1ull << j;
            inv_mem_[e] = inv;
        }
        if (vec_) {
            fprintf(vec_, "%x %x %x %x ", rst, cfg_.gid, cfg_.bid, (int)cfg_.pc);
            for (int w = (t_.ah - 1) / 64; w >= 0; w--) fprintf(vec_, "%016" PRIx64, cfg_.wired.w[w]);
            fprintf(vec_, " %x %x %x %x %x %x %x %" PRIx64 " ", cfg_.lfsr_seed, in.hdr.valid, in.hdr.dst_gid,
                    in.hdr.dst_bid, in.hdr.dst_nid, in.hdr.src_gid, in.hdr.vc, in.cong_local);
            for (int w = (t_.ah - 1) / 64; w >= 0; w--) fprintf(vec_, "%016" PRIx64, in.cong_global.w[w]);
            fprintf(vec_, " %" PRIx64, in.opt_invalid);
            fprintf(vec_, " %x %x %x %" PRIx64 " %x %x %x %x %x %x\n", in.tw_valid, in.tw_table, in.tw_addr, in.tw_data,
                    exp.valid, exp.port, exp.vc, exp.cls, exp.gport_valid, exp.gport);
        }
        if (exp.valid) {
            decisions++;
            cov.cls[exp.cls]++;
            cov.unit_class[cfg_.pc]++;
            const rcu_in &h = hist_[(cycle - RCU_LATENCY) & 7];
            int zi;
            table_zone z = tables_zone(cfg_.gid, cfg_.bid, h.hdr.dst_gid, h.hdr.dst_bid, h.hdr.dst_nid, &zi);
            bool rta = cfg_.pc == PORT_TERMINAL && z == ZONE_G;
            if (!rta) cov.rtb_zone[z == ZONE_G ? (h.hdr.src_gid == cfg_.gid ? 2 : 3) : (int)z]++;
            if (!rta && z != ZONE_G && h.hdr.src_gid != cfg_.gid && cfg_.pc != PORT_TERMINAL && exp.cls != RCU_NONE &&
                topo_port_class(&t_, exp.port) == PORT_LOCAL)
                cov.dref_keep_vc++;
            if (cfg_.pc == PORT_GLOBAL && z == ZONE_B && exp.cls == RCU_S2) cov.dref_global_lf++;
            if (hist_[(cycle - 2) & 7].opt_invalid) {   // the header's stage 3 saw invalid options
                cov.masked++;
                if (exp.cls == RCU_NONE) cov.masked_none++;
            }
        }
        if (use_rtl) {
            top_->clk = 1;
            top_->eval();
            if (fst_ && cycle >= trace_from_) fst_->dump((uint64_t)sim_time_);
            sim_time_++;
        }
        cycle++;
        return bad;
    };

    while (cycle < o_.cycles && !mismatches) {
        // ---- a new epoch: a random router and input port, reset, load its tables ----
        cov.epochs++;
        do router_ = rng_.below(t_.n_routers);
        while (!ts_.present[router_]);
        port_ = rng_.below(t_.k);
        cfg_.gid = topo_gid(&t_, router_);
        cfg_.bid = topo_bid(&t_, router_);
        cfg_.pc = topo_port_class(&t_, port_);
        cfg_.wired = ts_.rcfg[router_].wired;
        cfg_.lfsr_seed = (uint32_t)rng_.next();
        inv_mem_.assign((size_t)ts_.depth_a, 0);   // a fresh unit: every option valid
        inv_q_ = 0;
        mask_rate_ = 0.0;
        const port_tables *pt = tables_port(&ts_, router_, port_);
        rcu_in in;
        memset(&in, 0, sizeof in);
        // Reset for 1..3 cycles, with headers arriving meanwhile (they must be ignored).
        int reset_cycles = 1 + rng_.below(3);
        for (int rc = 0; rc < reset_cycles && !mismatches; rc++) {
            memset(&in, 0, sizeof in);
            in.hdr.valid = rng_.chance(0.5);
            in.hdr.dst_gid = rng_.below(t_.g);
            in.hdr.dst_bid = rng_.below(t_.a);
            in.hdr.dst_nid = rng_.below(t_.p);
            in.hdr.src_gid = rng_.below(t_.g);
            if (step(in, 1)) mismatches++;
        }
        if (mismatches) break;
        const int depth[3] = {ts_.depth_a, ts_.depth_b, ts_.depth_c};
        const uint64_t *rows[3] = {pt->a, pt->b, pt->c};
        for (int tab = 0; tab < 3 && !mismatches; tab++)
            for (int row = 0; row < depth[tab] && !mismatches; row++) {
                memset(&in, 0, sizeof in);
                in.tw_valid = 1;
                in.tw_table = tab;
                in.tw_addr = row;
                in.tw_data = rows[tab][row];
                if (step(in, 0)) mismatches++;
            }
        // ---- traffic ----
        long epoch_len = 2000 + rng_.below(20000);
        double load = 1.0, dl = 0.0, dg = 0.0, rewrite = 0.0;
        for (long i = 0; i < epoch_len && cycle < o_.cycles && !mismatches; i++) {
            if (i % 400 == 0) {   // a new phase: idle, light or saturated; congestion from none to all
                int m = rng_.below(8);
                load = m == 0 ? 0.0 : m < 3 ? 0.3 : 1.0;
                dl = dens[rng_.below(ndens)];
                dg = dens[rng_.below(ndens)];
                rewrite = rng_.chance(0.5) ? 0.0 : 0.01;
                mask_rate_ = rng_.chance(0.5) ? 0.0 : rng_.chance(0.5) ? 0.0005 : 0.005;
            }
            memset(&in, 0, sizeof in);
            if (rng_.chance(load)) {
                rcu_header &h = in.hdr;
                h.valid = 1;
                int zsel = rng_.below(4);
                h.dst_gid = zsel < 2 ? cfg_.gid : rng_.below(t_.g);
                h.dst_bid = zsel == 0 ? cfg_.bid : rng_.below(t_.a);
                h.dst_nid = rng_.below(t_.p);
                h.src_gid = (cfg_.pc == PORT_TERMINAL || rng_.chance(0.5)) ? cfg_.gid : rng_.below(t_.g);
                h.vc = cfg_.pc == PORT_TERMINAL ? 0 : rng_.below(RCU_NUM_VCS);
                if (rng_.chance(0.01)) {   // raw field values of the flit format: often out of range
                    h.dst_gid = rng_.chance(0.5) ? rng_.below(2048) : rng_.below(1 << rcu_clog2(t_.g));
                    h.dst_bid = rng_.chance(0.5) ? rng_.below(64) : rng_.below(1 << rcu_clog2(t_.a));
                    h.dst_nid = rng_.chance(0.5) ? rng_.below(64) : rng_.below(1 << rcu_clog2(t_.p));
                    h.src_gid = rng_.below(2048);
                }
            }
            for (int j = 0; j < t_.k; j++)
                if (rng_.chance(dl)) in.cong_local |= 1ull << j;
            for (int j = 0; j < t_.ah; j++)
                if (rng_.chance(dg)) gbm_set(&in.cong_global, j);
            if (rng_.chance(rewrite)) {
                in.tw_valid = 1;
                in.tw_table = rng_.below(3);
                in.tw_addr = rng_.below(depth[in.tw_table]);
                if (rng_.chance(0.05)) {   // any 64-bit pattern: invalid encodings must agree too
                    in.tw_data = rng_.next();
                } else if (rng_.chance(0.5)) {   // a row of another port of the same router and class
                    int other = rng_.below(t_.k);
                    const port_tables *op = tables_port(&ts_, router_, other);
                    const uint64_t *orow[3] = {op->a, op->b, op->c};
                    if (topo_port_class(&t_, other) == cfg_.pc)
                        in.tw_data = orow[in.tw_table][in.tw_addr];
                    else
                        random_row(in.tw_table, in.tw_addr, in.tw_data);
                } else {
                    random_row(in.tw_table, in.tw_addr, in.tw_data);
                }
                cov.rewrites++;
            }
            if (step(in, 0)) mismatches++;
            if (stop_at_ >= 0 && cycle > stop_at_) break;
            if (!o_.quiet && !fst_ && (cycle & 0xffff) == 0 && time(nullptr) - last_report >= 5) {
                last_report = time(nullptr);
                fprintf(stderr, "lockstep rcu: %ld/%ld cycles (%.0f%%), %ld decisions\n", cycle, o_.cycles,
                        100.0 * cycle / o_.cycles, decisions);
            }
        }
        if (stop_at_ >= 0 && cycle > stop_at_) break;
    }
    // Let the replay run two cycles past the mismatch so the waveform shows it.
    if (fst_) {
        rcu_in in;
        memset(&in, 0, sizeof in);
        Mismatch ignore;
        for (int i = 0; i < 2; i++) {
            hist_[cycle & 7] = in;
            apply(in, 0);
            top_->clk = 0;
            top_->eval();
            fst_->dump((uint64_t)sim_time_++);
            top_->clk = 1;
            top_->eval();
            fst_->dump((uint64_t)sim_time_++);
            cycle++;
        }
        fst_->close();
    }
    top_->final();
    rcu_free(&model_);
    if (vec_) fclose(vec_);
    cycles_run_ = cycle;
    return mismatches;
}

void write_gtkw(const std::string &path, const std::string &fst, const topo &t, long start_time) {
    const int GPW = rcu_clog2(t.ah);
    const int TAW = rcu_clog2(t.p + t.a + t.g);
    harness::Gtkw w(path, fst, "rcu", start_time);
    w.begin("Inputs (cycle t)");
    w.sig("clk", 1);
    w.sig("rst", 1);
    w.sig("in_valid", 1);
    w.sig("in_dst_gid", 11);
    w.sig("in_dst_bid", 6);
    w.sig("in_dst_nid", 6);
    w.sig("in_src_gid", 11);
    w.sig("in_vc", 2);
    w.sig("cong_local", t.k);
    w.sig("cong_global", t.ah);
    w.sig("tw_valid", 1);
    w.sig("tw_table", 2);
    w.sig("tw_addr", TAW);
    w.sig("tw_data", 64);
    w.end("Inputs (cycle t)");
    w.begin("Stage 1: zone decode (t+1)");
    w.sig("s1_valid", 1);
    w.sig("s1_rta", 1);
    w.sig("s1_zone", 2);
    w.sig("s1_row_a", TAW);
    w.sig("s1_row_b", TAW);
    w.sig("s1_src_here", 1);
    w.end("Stage 1: zone decode (t+1)");
    w.begin("Stage 2: table read (t+2)");
    w.sig("s2_valid", 1);
    w.sig("s2_rta", 1);
    w.sig("s2_zone", 2);
    w.sig("entry_a", 64);
    w.sig("entry_b", 64);
    w.end("Stage 2: table read (t+2)");
    w.begin("Stage 3: A1/A2/C1/N1/N2/B, S1/S2/F (t+3)");
    w.sig("s3_valid", 1);
    w.sig("s3_rta", 1);
    w.sig("s3_ok_ga", t.ah);
    w.sig("s3_ok_gb", t.ah);
    w.sig("s3_ok_gc", t.ah);
    w.sig("s3_ok_gd", t.ah);
    w.sig("s3_any", t.ah);
    w.sig("s3_s1_ok", t.k);
    w.sig("s3_s2_ok", t.k);
    w.sig("s3_le_lf", t.k);
    w.end("Stage 3: A1/A2/C1/N1/N2/B, S1/S2/F (t+3)");
    w.begin("Stage 4: P1/M/P2, P3, LFSR (t+4)");
    w.sig("ptr_rta", GPW);
    w.sig("ptr_rtb", 6);
    w.sig("lfsr", 32);
    w.sig("dec_class", 4);
    w.sig("dec_port", 6);
    w.end("Stage 4: P1/M/P2, P3, LFSR (t+4)");
    w.begin("Outputs");
    w.sig("out_valid", 1);
    w.sig("out_port", 6);
    w.sig("out_vc", 2);
    w.sig("out_class", 4);
    w.sig("out_gport_valid", 1);
    w.sig("out_gport", GPW);
    w.end("Outputs");
}

// Kept apart from kExitFail so that a short run (coverage holes, every cycle agreed) can serve as
// a smoke test: scripts tell "RTL and C model disagree" from "ran too few cycles" by the code.
const int kExitCoverage = 3;

int usage(FILE *f, int rc) {
    fprintf(f, "usage: rcu_lockstep --config NAME --tables DIR [--seed S] [--cycles N] [--wave-dir DIR]\n"
               "                    [--window W] [--mode lockstep|c|rtl] [--vectors FILE] [--quiet]\n"
               "Lock-steps rtl/rcu.v against csim/rcu.c. Exit 0 only with 0 mismatches and full coverage;\n"
               "1 a mismatch, 2 bad input, 3 no mismatch but coverage holes (run more cycles).\n"
               "--mode c / rtl runs one side alone on the same stimulus and prints its speed (make bench).\n"
               "--vectors FILE writes every cycle's inputs and the C model's outputs for tb/rcu_icarus_tb.v.\n");
    return rc;
}

}   // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "-h" || a == "--help") return usage(stdout, 0);
        bool used = false;
        int r = harness::parse_common("rcu_lockstep", a, v, o, &used);
        if (r < 0) return kExitBadInput;
        if (r > 0) {
            i += used;
            continue;
        }
        if (a == "--vectors" && v) {
            o.vectors = v;
            i++;
            continue;
        }
        fprintf(stderr, "rcu_lockstep: unknown option or missing value '%s'\n", a.c_str());
        return kExitBadInput;
    }
    table_set ts;
    if (harness::load_tables("rcu_lockstep", o, DOAR_P, DOAR_A, DOAR_H, DOAR_G, &ts)) return kExitBadInput;
    if (o.config.empty()) o.config = ts.t.name;
    if (ts.prm.nm_slots != TABLES_PAPER_NM_SLOTS || ts.prm.c_ways != TABLES_PAPER_C_WAYS) {
        fprintf(stderr, "rcu_lockstep: the RTL is built with nm_slots=8, c_ways=6; the images use %d, %d\n",
                ts.prm.nm_slots, ts.prm.c_ways);
        tables_free(&ts);
        return kExitBadInput;
    }

    Coverage cov;
    Mismatch mm;
    long decisions = 0;
    struct timespec ts0, ts1;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    int mismatches;
    long cycles_run;
    {
        Run run(o, ts, -1, -1);
        mismatches = run.go(cov, decisions, mm, nullptr);
        cycles_run = run.cycles_run();
    }
    clock_gettime(CLOCK_MONOTONIC, &ts1);
    double secs = (double)(ts1.tv_sec - ts0.tv_sec) + (ts1.tv_nsec - ts0.tv_nsec) * 1e-9;
    if (mismatches < 0) {
        tables_free(&ts);
        return kExitBadInput;
    }
    int rc = 0;
    if (mismatches) {
        fputs(mm.text, stdout);
        std::string base = o.wave_dir + "/rcu_" + o.config + "_seed" + std::to_string(o.seed);
        std::string fst = base + ".fst", gtkw = base + ".gtkw";
        std::string mk = "mkdir -p '" + o.wave_dir + "'";
        if (system(mk.c_str()) != 0) fprintf(stderr, "rcu_lockstep: cannot create %s\n", o.wave_dir.c_str());
        long from = mm.cycle > o.window ? mm.cycle - o.window : 0;
        Coverage c2;
        Mismatch m2;
        long d2 = 0;
        Run replay(o, ts, from, mm.cycle);
        replay.go(c2, d2, m2, fst.c_str());
        write_gtkw(gtkw, fst, ts.t, 2 * from);
        printf("waveform: %s (cycles %ld..%ld; time = 2*cycle)\nsave file: %s  (gtkwave %s)\n", fst.c_str(), from,
               mm.cycle + 1, gtkw.c_str(), gtkw.c_str());
        rc = kExitFail;
    }
    if (o.mode != 0) {
        printf(
            "bench rcu: config=%s side=%s cycles=%ld decisions=%ld seconds=%.3f cycles_per_s=%.0f decisions_per_s=%.0f\n",
            o.config.c_str(), o.mode == 1 ? "c-model" : "verilator", cycles_run, decisions, secs, cycles_run / secs,
            decisions / secs);
        tables_free(&ts);
        return 0;
    }
    // ---- coverage table ----
    printf("coverage (decisions by class; every row marked * must be non-zero):\n");
    const int must[RCU_NUM_CLASSES] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
    int holes = 0;
    std::string hole_names;   // each zero row by name (issue 21 item 3: a hole says what it is)
    auto hole = [&](const char *name) {
        holes++;
        hole_names += std::string("coverage: hole: ") + name + " is zero\n";
    };
    for (int c = 0; c < RCU_NUM_CLASSES; c++) {
        printf("  %-12s %12ld %s\n", rcu_class_name(c), cov.cls[c], must[c] ? "*" : "");
        if (must[c] && !cov.cls[c]) hole(rcu_class_name(c));
    }
    const char *zn[4] = {"RTB zone N", "RTB zone B", "RTB G source", "RTB G interm."};
    for (int z = 0; z < 4; z++) {
        printf("  %-12s %12ld *\n", zn[z], cov.rtb_zone[z]);
        if (!cov.rtb_zone[z]) hole(zn[z]);
    }
    for (int pc = 0; pc < 3; pc++) {
        printf("  unit %-7s %12ld *\n", pc_name(pc), cov.unit_class[pc]);
        if (!cov.unit_class[pc]) hole((std::string("unit ") + pc_name(pc)).c_str());
    }
    printf("  %-12s %12ld *\n  %-12s %12ld\n", "masked", cov.masked, "masked, none", cov.masked_none);
    if (!cov.masked) hole("masked");
    printf("  %-12s %12ld *\n  %-12s %12ld *\n", "dref keep VC", cov.dref_keep_vc, "dref glob. B", cov.dref_global_lf);
    if (!cov.dref_keep_vc) hole("dref keep VC");
    if (!cov.dref_global_lf) hole("dref glob. B");
    printf("  epochs %ld, table rewrites %ld, %.1f s, %.0f cycles/s\n", cov.epochs, cov.rewrites, secs,
           secs > 0 ? cycles_run / secs : 0.0);
    if (holes && !mismatches) {
        fputs(hole_names.c_str(), stdout);
        printf("coverage: %d hole(s): run more cycles or another seed\n", holes);
        rc = kExitCoverage;
    }
    printf("lockstep rcu: config=%s seed=%" PRIu64 " cycles=%ld decisions=%ld mismatches=%d coverage=%s\n",
           o.config.c_str(), o.seed, cycles_run, decisions, mismatches, holes ? "incomplete" : "full");
    tables_free(&ts);
    return rc;
}
