/*
 * cli_parse — the strict parsers behind doar's command line (issue 24: bad input never gives a
 * wrong answer): decimal numbers, messages safe to print on one line, and the loads a
 * `doar sweep --resume FILE` takes from an earlier run's output.
 *
 * Contract
 *   Numbers : cli_parse_long / cli_parse_u64 take decimal digits only — no sign, no spaces, no
 *             0x, no trailing text; leading zeros are decimal ("010" is ten). A value that does
 *             not fit, or lies outside [lo, hi], is refused (-1); *out is written only on success.
 *   Messages: cli_one_line copies text with every control byte (newline, tab, escape ...) and
 *             every byte >= 0x7f written as \xNN, so a message quoting user input stays one line.
 *   Resume  : sweep_resume_read reads FILE (an earlier `doar sweep`'s stdout, finished or not)
 *             and keeps its load lines only when its header lines equal `header` byte for byte.
 *             Returns SWEEP_RESUME_OK (res->n loads), SWEEP_RESUME_OTHER (header lines differ or
 *             are out of order: a note, every load runs) or SWEEP_RESUME_BAD (a load line of this
 *             sweep that is malformed or impossible — non-finite, negative, accepted > 1,
 *             saturated/stopped not 0|1, text after the fields: err names the line; exit 2).
 *             The trailer lines of a finished sweep (sweep: points=..., sweep: config=...
 *             saturation=...) end the loads; a second run's lines after them are OTHER.
 *   No global state; everything the caller passes is read-only but *res / *out / err.
 */
#ifndef DOAR_CLI_PARSE_H
#define DOAR_CLI_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

int cli_parse_long(const char *s, long lo, long hi, long *out);
int cli_parse_u64(const char *s, uint64_t *out);
void cli_one_line(const char *in, char *out, size_t len);

#define SWEEP_MAX_RESUMED 256
typedef struct {
    double rate, accepted, latency, hops, seconds; /* seconds: 0 from an output without time= */
    int saturated, stopped;
    char key[16]; /* the rate as "%.4f", what a load is found by */
} sweep_load;

typedef struct {
    int n;
    sweep_load load[SWEEP_MAX_RESUMED];
} sweep_resumed;

enum { SWEEP_RESUME_OK = 0, SWEEP_RESUME_OTHER = 1, SWEEP_RESUME_BAD = -1 };
int sweep_resume_read(FILE *f, const char *path, const char *header, sweep_resumed *res, char err[DOAR_ERRLEN]);

#ifdef __cplusplus
}
#endif

#endif
