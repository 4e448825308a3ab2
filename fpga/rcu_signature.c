/* rcu_signature — the decision signature fpga/ice40_rcu_top.v must reach: the same LFSR stimulus
 * through the C route-compute unit (csim/rcu.c) of `small`, router (2,1), input port 0, folded
 * the same way. Prints the 32-bit signature in hex.
 * Usage: rcu_signature CYCLES */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rcu.h"

#define STIM_SEED 0x12345678u
#define RCU_SEED 0x0BADF00Du
#define POR_CYCLES 16

int main(int argc, char **argv) {
    char err[DOAR_ERRLEN], *end = NULL;
    long cycles = argc == 2 ? strtol(argv[1], &end, 0) : -1;
    if (argc != 2 || !end || *end || cycles < 1 || cycles > (1L << 21)) {
        fprintf(stderr, "usage: rcu_signature CYCLES (1..2097152)\n");
        return 2;
    }
    topo t;
    table_set ts;
    table_params tp;
    rcu r;
    tables_default_params(&tp);
    if (topo_named(&t, "small", err) || tables_generate(&ts, &t, &tp, err) || rcu_init(&r, &t, &tp, err)) {
        fprintf(stderr, "rcu_signature: %s\n", err);
        return 2;
    }
    int router = topo_router(&t, 2, 1);
    rcu_load(&r, tables_port(&ts, router, 0));
    rcu_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gid = 2;
    cfg.bid = 1;
    cfg.pc = PORT_TERMINAL;
    cfg.wired = ts.rcfg[router].wired;
    cfg.lfsr_seed = RCU_SEED;
    uint32_t stim = STIM_SEED, sig = 0;
    rcu_in in;
    rcu_out out;
    /* Reset cycles: the stimulus register and the unit are held in reset. */
    for (int c = 0; c < POR_CYCLES; c++) {
        memset(&in, 0, sizeof in);
        rcu_cycle(&r, &in, &out);
        rcu_reset(&r, &cfg);
        stim = STIM_SEED;
    }
    for (long c = 0; c < cycles; c++) {
        memset(&in, 0, sizeof in);
        unsigned gid_raw = (stim >> 2) & 0xf;
        in.hdr.valid = (stim & 3) != 0;
        in.hdr.dst_gid = (int)(gid_raw >= 9 ? gid_raw - 8 : gid_raw);
        in.hdr.dst_bid = (int)((stim >> 6) & 3);
        in.hdr.dst_nid = (int)((stim >> 8) & 1);
        in.hdr.src_gid = 2;
        in.cong_local = ((stim >> 9) & 0x7f) & ((stim >> 16) & 0x7f);
        uint64_t cg = ((stim >> 23) & 0xff) & ((((stim >> 31) & 1) << 7) | ((stim >> 23) & 0x7f));
        gbm_clear(&in.cong_global);
        in.cong_global.w[0] = cg;
        rcu_cycle(&r, &in, &out);
        uint32_t word = ((uint32_t)out.valid << 16) | ((uint32_t)out.port << 10) | ((uint32_t)out.vc << 8) |
                        ((uint32_t)out.cls << 4) | ((uint32_t)out.gport_valid << 3) | (uint32_t)out.gport;
        sig = ((sig << 1) | (sig >> 31)) ^ word;
        stim = (stim >> 1) ^ ((stim & 1) ? RCU_LFSR_TAPS : 0);
    }
    printf("%08x\n", sig);
    rcu_free(&r);
    tables_free(&ts);
    return 0;
}
