/* The strict command-line parsers (csim/cli_parse.h, issue 24): number boundaries (the largest
 * value taken, the next one refused), one-line messages, and the --resume reader on a finished,
 * an interrupted, another sweep's and a damaged output. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "testutil.h"

static void test_numbers(test_ctx *c) {
    long v = -7;
    uint64_t u = 7;
    EXPECT(c, cli_parse_long("010", 0, 100, &v) == 0 && v == 10, "010 -> %ld (decimal, not octal)", v);
    EXPECT(c, cli_parse_long("08", 0, 100, &v) == 0 && v == 8, "08 -> %ld", v);
    EXPECT(c, cli_parse_long("100", 0, 100, &v) == 0 && v == 100, "hi itself");
    EXPECT(c, cli_parse_long("101", 0, 100, &v) != 0, "above hi taken");
    EXPECT(c, cli_parse_long("0", 1, 100, &v) != 0, "below lo taken");
    const char *junk[] = {"", " 5", "5 ", "+5", "-5", "5x", "0x5", "5.0", "1e3", "\n5"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        v = -7;
        EXPECT(c, cli_parse_long(junk[i], 0, 1000, &v) != 0 && v == -7, "'%s' taken as %ld", junk[i], v);
    }
    EXPECT(c, cli_parse_long("9223372036854775807", 0, 9223372036854775807L, &v) == 0 && v == 9223372036854775807L,
           "LONG_MAX");
    EXPECT(c, cli_parse_long("9223372036854775808", 0, 9223372036854775807L, &v) != 0, "LONG_MAX + 1 taken");
    EXPECT(c, cli_parse_u64("18446744073709551615", &u) == 0 && u == UINT64_MAX, "UINT64_MAX");
    EXPECT(c, cli_parse_u64("18446744073709551616", &u) != 0, "UINT64_MAX + 1 taken (wrapped?)");
    EXPECT(c, cli_parse_u64("99999999999999999999", &u) != 0, "twenty nines taken");
}

static void test_one_line(test_ctx *c) {
    char out[32];
    cli_one_line("ur\nx\t\x1b", out, sizeof out);
    EXPECT(c, !strcmp(out, "ur\\x0ax\\x09\\x1b"), "escaped: %s", out);
    cli_one_line("abcdefgh\n", out, 11); /* room for 10: the escape is not cut in half */
    EXPECT(c, !strcmp(out, "abcdefgh"), "cut: %s", out);
    cli_one_line(NULL, out, sizeof out);
    EXPECT(c, !strcmp(out, ""), "NULL: %s", out);
}

static const char header[] = "sweep: config=tiny x\nsweep: packet_len=4 y\n";

/* Reads `text` as a --resume file; returns the reader's result. */
static int read_text(const char *text, sweep_resumed *res, char err[DOAR_ERRLEN]) {
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f) return -99;
    err[0] = '\0';
    int rc = sweep_resume_read(f, "r.txt", header, res, err);
    fclose(f);
    return rc;
}

static void test_resume(test_ctx *c) {
    sweep_resumed *res = malloc(sizeof *res);
    char err[DOAR_ERRLEN];
    if (!res) {
        EXPECT(c, 0, "out of memory");
        return;
    }
    const char *load1 = "sweep: rate=0.2500 accepted=0.2444 latency=112.0 hops=1.793 saturated=0 stopped=0 time=0.5s\n";
    const char *load2 = "sweep: rate=0.5000 accepted=0.4700 latency=116.3 hops=1.858 saturated=1 stopped=1\n";
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s", header, load1, load2);
    EXPECT(c, read_text(text, res, err) == SWEEP_RESUME_OK && res->n == 2, "interrupted: rc/n %d", res->n);
    EXPECT(c, !strcmp(res->load[0].key, "0.2500") && res->load[0].seconds == 0.5 && res->load[1].saturated == 1,
           "fields: %s %g %d", res->load[0].key, res->load[0].seconds, res->load[1].saturated);
    /* a finished run: notes and progress lines skipped, the trailer ends the loads */
    snprintf(text, sizeof text,
             "%ssweep: resume: a note\n%ssweep: [###] progress\n%ssweep: points=2 highest_unsaturated=0.25\n"
             "sweep: config=tiny routing=doar traffic=ur saturation=0.2444\n",
             header, load1, load2);
    EXPECT(c, read_text(text, res, err) == SWEEP_RESUME_OK && res->n == 2, "finished: n=%d", res->n);
    /* a second run appended after a finished one: not this sweep's output */
    size_t len = strlen(text);
    snprintf(text + len, sizeof text - len, "%s%s", header, load1);
    EXPECT(c, read_text(text, res, err) == SWEEP_RESUME_OTHER && res->n == 0, "appended run: n=%d", res->n);
    /* another sweep's header */
    snprintf(text, sizeof text, "sweep: config=small x\nsweep: packet_len=4 y\n%s", load1);
    EXPECT(c, read_text(text, res, err) == SWEEP_RESUME_OTHER && res->n == 0, "other sweep: n=%d", res->n);
    /* damaged load lines of this sweep: refused, naming the line */
    const char *damaged[] = {
        "sweep: rate=0.2500 accepted=nan latency=112.0 hops=1.793 saturated=0 stopped=0\n",
        "sweep: rate=0.2500 accepted=0.2 latency=-1.0 hops=1.793 saturated=0 stopped=0\n",
        "sweep: rate=0.2500 accepted=0.2 latency=inf hops=1.793 saturated=0 stopped=0\n",
        "sweep: rate=0.2500 accepted=1.5 latency=1.0 hops=1.793 saturated=0 stopped=0\n",
        "sweep: rate=0.2500 accepted=0.2 latency=1.0 hops=-2 saturated=0 stopped=0\n",
        "sweep: rate=0.2500 accepted=0.2 latency=1.0 hops=2 saturated=2 stopped=0\n",
        "sweep: rate=0.2500 accepted=0.2 latency=1.0 hops=2 saturated=0 stopped=-1\n",
        "sweep: rate=0.2500 accepted=0.2 latency=1.0 hops=2 saturated=0 stopped=0 time=-1.0s\n",
        "sweep: rate=0.2500 accepted=0.2 latency=1.0 hops=2 saturated=0 stopped=0 junk\n",
        "sweep: rate=0.2500 accepted=0.2 latency=1.0 hops=2 saturated=0\n",
        "sweep: rate=0 accepted=0.2 latency=1.0 hops=2 saturated=0 stopped=0\n",
    };
    for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
        snprintf(text, sizeof text, "%s%s%s", header, load1, damaged[i]);
        int rc = read_text(text, res, err);
        EXPECT(c, rc == SWEEP_RESUME_BAD && res->n == 0 && strstr(err, "r.txt:4:") && !strchr(err, '\n'),
               "damaged line %zu: rc %d n %d err '%s'", i, rc, res->n, err);
    }
    free(res);
}

int main(void) {
    test_ctx c = {0, 0, "test_cli_parse"};
    test_numbers(&c);
    test_one_line(&c);
    test_resume(&c);
    return test_finish(&c);
}
