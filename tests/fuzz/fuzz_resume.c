/*
 * libFuzzer target: the `doar sweep --resume` reader (csim/cli_parse.c, sweep_resume_read) on
 * any file contents. The header it compares against is the one `doar sweep tiny --warmup 200
 * --sample 300 --step 0.25` prints, as in the seed corpus. Beyond not crashing, every load it
 * takes must hold possible values only (finite, in range): what issue 24 found it trusting.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char header[] =
    "sweep: config=tiny dfly(1,2,1,3) routing=doar traffic=ur step=0.25 sat_latency=500 warmup=200 sample=300 "
    "seed=0\n"
    "sweep: packet_len=4 latency=10,100 speedup=2 oq_depth=8 thresholds=20,30 threshold_util=80 drain_limit=10000 watchdog=10000 "
    "nm_slots=8 c_ways=6 cong_demand=1 cong_window=1\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!size) return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    sweep_resumed *res = malloc(sizeof *res);
    char err[DOAR_ERRLEN];
    if (!res) abort();
    int rc = sweep_resume_read(f, "fuzz", header, res, err);
    fclose(f);
    if (rc != SWEEP_RESUME_OK && res->n) abort(); /* refused or another sweep's: nothing taken */
    for (int i = 0; i < res->n; i++) {
        const sweep_load *l = &res->load[i];
        if (!(l->rate > 0 && l->rate <= 1) || !(l->accepted >= 0 && l->accepted <= 1) || !(l->latency >= 0) ||
            !isfinite(l->latency) || !(l->hops >= 0) || !isfinite(l->hops) || !(l->seconds >= 0) ||
            !isfinite(l->seconds) || (l->saturated >> 1) || (l->stopped >> 1))
            abort();
    }
    free(res);
    return 0;
}
