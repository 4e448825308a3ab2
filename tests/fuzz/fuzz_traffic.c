/*
 * libFuzzer target: the --traffic and --dfly parsers (csim/traffic.c traffic_parse, csim/topo.c
 * topo_parse_dfly) on any string. A pattern the parser accepts is initialised on `small` and
 * asked for destinations, which must be real nodes other than the source; a dfly it accepts must
 * satisfy the topology's own limits.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "traffic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char s[256], err[DOAR_ERRLEN];
    if (size >= sizeof s) return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    topo t;
    if (topo_parse_dfly(&t, s, err) == 0 &&
        (t.k > DOAR_MAX_RADIX || t.g > t.a * t.h + 1 || t.p < 1 || t.a < 1 || t.h < 1 || t.g < 1))
        abort();
    if (topo_named(&t, "small", err)) abort();
    traffic_spec spec;
    if (traffic_parse(s, &t, &spec, err)) return 0;
    traffic tr;
    if (traffic_init(&tr, &t, &spec, 1, err)) return 0;
    prng rng;
    prng_seed(&rng, 1, 0, 0);
    for (int src = 0; src < t.n_nodes; src++) {
        int dst = traffic_dest(&tr, src, &rng, src * 977L);
        if (dst < 0 || dst >= t.n_nodes || dst == src) abort();
    }
    traffic_free(&tr);
    return 0;
}
