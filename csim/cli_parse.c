#include "cli_parse.h"

#include <math.h>
#include <string.h>

int cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s) return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return -1; /* would overflow: refused, never wrapped */
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int cli_parse_long(const char *s, long lo, long hi, long *out) {
    uint64_t v;
    /* every integer option is non-negative: a sign is junk like any other */
    if (lo < 0 || cli_parse_u64(s, &v) || v > (uint64_t)hi || v < (uint64_t)lo) return -1;
    *out = (long)v;
    return 0;
}

void cli_one_line(const char *in, char *out, size_t len) {
    size_t n = 0;
    if (!len) return;
    for (const unsigned char *p = (const unsigned char *)(in ? in : ""); *p; p++) {
        char esc[5];
        size_t w;
        if (*p < 0x20 || *p >= 0x7f)
            w = (size_t)snprintf(esc, sizeof esc, "\\x%02x", *p);
        else {
            esc[0] = (char)*p;
            esc[1] = '\0';
            w = 1;
        }
        if (n + w >= len) break; /* cut whole escapes only */
        memcpy(out + n, esc, w);
        n += w;
    }
    out[n] = '\0';
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* One "sweep: rate=..." line; 0 when it is well formed and every value is possible. */
static int parse_load(const char *line, sweep_load *l) {
    int used = 0;
    memset(l, 0, sizeof *l);
    /* %n after the last field: the line must end there (or after " time=..s"), nothing else */
    if (sscanf(line, "sweep: rate=%lf accepted=%lf latency=%lf hops=%lf saturated=%d stopped=%d%n", &l->rate,
               &l->accepted, &l->latency, &l->hops, &l->saturated, &l->stopped, &used) < 6 ||
        !used)
        return -1;
    const char *rest = line + used;
    if (*rest) {
        int more = 0;
        if (sscanf(rest, " time=%lfs%n", &l->seconds, &more) < 1 || !more || rest[more]) return -1;
    }
    if (!isfinite(l->rate) || !(l->rate > 0.0 && l->rate <= 1.0)) return -1;
    /* a node ejects at most one flit per cycle: accepted above 1 is not a measurement */
    if (!isfinite(l->accepted) || !(l->accepted >= 0.0 && l->accepted <= 1.0)) return -1;
    if (!isfinite(l->latency) || l->latency < 0.0 || !isfinite(l->hops) || l->hops < 0.0) return -1;
    if (!isfinite(l->seconds) || l->seconds < 0.0) return -1;
    if ((l->saturated != 0 && l->saturated != 1) || (l->stopped != 0 && l->stopped != 1)) return -1;
    snprintf(l->key, sizeof l->key, "%.4f", l->rate);
    return 0;
}

int sweep_resume_read(FILE *f, const char *path, const char *header, sweep_resumed *res, char err[DOAR_ERRLEN]) {
    char line[1024], seen[1024] = "";
    size_t seen_len = 0;
    int lineno = 0, other = 0, finished = 0;
    res->n = 0;
    while (!other && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        int whole = len && line[len - 1] == '\n';
        if (!whole && !feof(f)) { /* longer than any line a sweep prints: skip the rest */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n') {}
        }
        if (!starts(line, "sweep: ") || starts(line, "sweep: resume: ") || starts(line, "sweep: [")) continue;
        if (finished) {
            other = 1;
            break;
        } /* a second run's lines after a finished one's */
        if (starts(line, "sweep: rate=")) {
            if (strcmp(seen, header)) {
                other = 1;
                break;
            }
            char shown[96];
            if (whole) line[--len] = '\0';
            sweep_load l;
            if (!whole || parse_load(line, &l)) {
                cli_one_line(line, shown, sizeof shown);
                snprintf(err, DOAR_ERRLEN, "--resume %.100s:%d: not a load line of doar sweep: \"%s\"", path, lineno,
                         shown);
                res->n = 0;
                return SWEEP_RESUME_BAD;
            }
            if (res->n < SWEEP_MAX_RESUMED) res->load[res->n++] = l;
            continue;
        }
        if (res->n &&
            (starts(line, "sweep: points=") || (starts(line, "sweep: config=") && strstr(line, " saturation=")))) {
            finished = starts(line, "sweep: config="); /* the very last line */
            continue;
        }
        /* a header line: they all come before the first load */
        if (res->n || seen_len + len >= sizeof seen) {
            other = 1;
            break;
        }
        memcpy(seen + seen_len, line, len + 1);
        seen_len += len;
    }
    if (other || strcmp(seen, header)) {
        res->n = 0;
        return SWEEP_RESUME_OTHER;
    }
    return SWEEP_RESUME_OK;
}
