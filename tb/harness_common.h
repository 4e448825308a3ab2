// harness_common — what every Verilator lock-step harness of doar shares: command-line options,
// moving bit vectors of any width into and out of Verilator signals, loading the table images
// a build was made for, and writing GTKWave save files.
#ifndef DOAR_HARNESS_COMMON_H
#define DOAR_HARNESS_COMMON_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "verilated.h"
#include "tables_image.h"

namespace harness {

const int kExitFail = 1, kExitBadInput = 2;

struct Options {
    std::string config, tables_dir, wave_dir = "build/waves";
    uint64_t seed = 1;
    long cycles = 100000;
    int window = 200;   // cycles kept in the FST before a mismatch
    bool quiet = false;
    int mode = 0;   // 0 lock-step, 1 C model only, 2 RTL only (make bench)
};

// Parses one option shared by every harness. Returns 1 if it took `a` (and `v` when it needs a
// value: *used_value is set), 0 if the option is not a shared one, -1 on a bad value (message
// printed).
inline int parse_common(const char *prog, const std::string &a, const char *v, Options &o, bool *used_value) {
    char *end = nullptr;
    *used_value = false;
    if (a == "--quiet") {
        o.quiet = true;
        return 1;
    }
    bool known = a == "--config" || a == "--tables" || a == "--wave-dir" || a == "--seed" || a == "--cycles" ||
                 a == "--window" || a == "--mode";
    if (!known) return 0;
    if (!v) {
        fprintf(stderr, "%s: option %s needs a value\n", prog, a.c_str());
        return -1;
    }
    *used_value = true;
    if (a == "--config")
        o.config = v;
    else if (a == "--tables")
        o.tables_dir = v;
    else if (a == "--wave-dir")
        o.wave_dir = v;
    else if (a == "--seed") {
        o.seed = strtoull(v, &end, 0);
        if (!*v || *v == '-' || *end) {
            fprintf(stderr, "%s: --seed '%s': not a number\n", prog, v);
            return -1;
        }
    } else if (a == "--cycles") {
        o.cycles = strtol(v, &end, 0);
        if (!*v || *end || o.cycles < 1) {
            fprintf(stderr, "%s: --cycles '%s': not a positive number\n", prog, v);
            return -1;
        }
    } else if (a == "--window") {
        o.window = (int)strtol(v, &end, 0);
        if (!*v || *end || o.window < 1) {
            fprintf(stderr, "%s: --window '%s': not a positive number\n", prog, v);
            return -1;
        }
    } else {
        std::string m = v;
        if (m == "lockstep")
            o.mode = 0;
        else if (m == "c")
            o.mode = 1;
        else if (m == "rtl")
            o.mode = 2;
        else {
            fprintf(stderr, "%s: --mode '%s': expected lockstep, c or rtl\n", prog, v);
            return -1;
        }
    }
    return 1;
}

// Loads the images of --tables and checks they are for the dfly this binary was built for.
inline int load_tables(const char *prog, const Options &o, int p, int a, int h, int g, table_set *ts) {
    char err[DOAR_ERRLEN];
    if (o.tables_dir.empty()) {
        fprintf(stderr, "%s: --tables DIR is required (doar tables CONFIG --out DIR)\n", prog);
        return -1;
    }
    if (tables_load_images(ts, o.tables_dir.c_str(), err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return -1;
    }
    if (ts->t.p != p || ts->t.a != a || ts->t.h != h || ts->t.g != g) {
        fprintf(stderr, "%s: tables are dfly(%d,%d,%d,%d) but this build is dfly(%d,%d,%d,%d)\n", prog, ts->t.p,
                ts->t.a, ts->t.h, ts->t.g, p, a, h, g);
        tables_free(ts);
        return -1;
    }
    return 0;
}

// The deterministic stimulus PRNG of the harnesses (xorshift64*), one per run, seeded by --seed.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {
        if (!s) s = 1;
    }
    uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    int below(int n) { return (int)(next() % (uint64_t)n); }
    bool chance(double p) { return (double)(next() >> 11) * (1.0 / 9007199254740992.0) < p; }
};

// A flat little-endian bit vector, moved into and out of Verilator signals of any width.
struct Bits {
    std::vector<uint64_t> w;
    explicit Bits(int nbits) : w((size_t)(nbits + 63) / 64 + 1, 0) {}
    void set(int pos, int width, uint64_t v) {
        for (int b = 0; b < width; b++) {
            int p = pos + b;
            w[p / 64] = (w[p / 64] & ~(1ull << (p % 64))) | (((v >> b) & 1) << (p % 64));
        }
    }
    uint64_t get(int pos, int width) const {
        uint64_t v = 0;
        for (int b = 0; b < width; b++) {
            int p = pos + b;
            v |= ((w[p / 64] >> (p % 64)) & 1) << b;
        }
        return v;
    }
};
template <typename T> void put(T &sig, const uint64_t *w, int width) {
    uint64_t v = w[0];
    if (width < 64) v &= (1ull << width) - 1;
    sig = (T)v;
}
template <std::size_t N> void put(VlWide<N> &sig, const uint64_t *w, int width) {
    for (std::size_t i = 0; i < N; i++) {
        uint32_t word = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
        int lo = (int)i * 32;
        if (lo + 32 > width) word &= width > lo ? ((1u << (width - lo)) - 1u) : 0u;
        sig[i] = word;
    }
}
template <typename T> void put(T &sig, const Bits &b, int width) { put(sig, b.w.data(), width); }
inline void harness_put_int_impl(CData &sig, uint64_t v) { sig = (CData)v; }
inline void harness_put_int_impl(SData &sig, uint64_t v) { sig = (SData)v; }
inline void harness_put_int_impl(IData &sig, uint64_t v) { sig = (IData)v; }
inline void harness_put_int_impl(QData &sig, uint64_t v) { sig = (QData)v; }
template <typename T> void get(const T &sig, Bits &b) { b.w[0] = (uint64_t)sig; }
template <std::size_t N> void get(const VlWide<N> &sig, Bits &b) {
    for (std::size_t i = 0; i < N; i++) {
        if (i % 2 == 0) b.w[i / 2] = 0;
        b.w[i / 2] |= (uint64_t)sig[i] << (32 * (i % 2));
    }
}

// A GTKWave save file: groups of signals under TOP.<top>.
class Gtkw {
  public:
    Gtkw(const std::string &path, const std::string &fst, const char *top, long start_time) : top_(top) {
        f_ = fopen(path.c_str(), "w");
        if (!f_) return;
        fprintf(f_, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] %ld\n[size] 1600 1000\n[pos] -1 -1\n",
                fst.c_str(), path.c_str(), start_time);
        fprintf(f_, "*-4.000000 %ld\n[treeopen] TOP.\n[treeopen] TOP.%s.\n[sst_width] 260\n[signals_width] 300\n",
                start_time, top);
    }
    ~Gtkw() {
        if (f_) fclose(f_);
    }
    void sig(const char *name, int width) {
        if (!f_) return;
        if (width == 1)
            fprintf(f_, "@28\nTOP.%s.%s\n", top_, name);
        else
            fprintf(f_, "@22\nTOP.%s.%s[%d:0]\n", top_, name, width - 1);
    }
    void begin(const char *group) {
        if (f_) fprintf(f_, "@800200\n-%s\n", group);
    }
    void end(const char *group) {
        if (f_) fprintf(f_, "@1000200\n-%s\n", group);
    }

  private:
    FILE *f_;
    const char *top_;
};

// A coverage row: what a harness counted, and whether a passing run must have reached it (rows
// that a configuration cannot reach are printed "n/a" with the reason, never silently dropped).
struct CovRow {
    std::string name;
    long count;
    const char *na = nullptr;   // non-null: unreachable here, and why (printed instead of a count)
};

// Prints the rows under `title` and one line "coverage: hole: NAME is zero" per zero row that is
// required; returns the number of such holes. A harness fails (non-zero exit) when it is not 0:
// a row the stimulus never reached proves nothing about the logic behind it.
inline int report_coverage(const char *prefix, const std::vector<CovRow> &rows) {
    int holes = 0;
    for (const CovRow &r : rows) {
        if (r.na)
            printf("%s  %-34s %12s (%s)\n", prefix, r.name.c_str(), "n/a", r.na);
        else
            printf("%s  %-34s %12ld\n", prefix, r.name.c_str(), r.count);
    }
    for (const CovRow &r : rows)
        if (!r.na && r.count == 0) {
            printf("%scoverage: hole: %s is zero\n", prefix, r.name.c_str());
            holes++;
        }
    return holes;
}

}   // namespace harness

// A scalar signal of up to 64 bits, whatever C type Verilator chose for its width.
template <typename T> void harness_put_int(T &sig, uint64_t v) { harness::harness_put_int_impl(sig, v); }

#endif
