/*
 * cmd_opts — doar's option tables read two ways: cmd_parse_args parses a command line with them
 * and cmd_print_help prints --help from them (csim/cmd.h). Values are strict (issue 24): integers
 * decimal only (cli_parse.h), reals digits, '.' and an exponent, a value that is itself an option
 * is a missing value, and every refusal is one line with exit 2.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_parse.h"

/* The one line every refusal prints: the message is formatted first and then every control
 * byte in it (a newline inside a quoted value, say) is escaped, so it stays one line. */
int cmd_bad(const cli *c, const char *fmt, ...) {
    char msg[1024], shown[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_one_line(msg, shown, sizeof shown);
    fprintf(stderr, "doar %s: %s\n", c->cmd, shown);
    return EXIT_BADINPUT;
}

double cmd_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cmd_is_net(const cli *c) { return !strcmp(c->cmd, "sim") || !strcmp(c->cmd, "sweep"); }

void cmd_cli_init(cli *c, const char *cmd, const net_comm *comm) {
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    c->comm = comm;
    c->router = -1;
    c->port = -1;
    c->example = -1;
    tables_default_params(&c->prm);
    check_default_opts(&c->copt);
    c->vc_rule = c->copt.vc_rule == VC_RULE_NONE;
    fault_campaign_default_opts(&c->fopt);
    net_default_params(&c->t, &c->nprm); /* topology-independent defaults; sized again in sim and sweep */
    c->routing = "doar";
    c->traffic = "ur";
    c->sweep_step = 0.05;
    c->sat_latency = 500.0;
    c->series_bin = SERIES_BIN_DEFAULT;
}

/* ---------------- values ---------------- */

/* A real option value: digits, '.', an exponent and nothing else (strtod alone would take
 * leading spaces, hex, "inf" and "nan"), finite and in [lo, hi]. */
static int parse_real(const char *s, double lo, double hi, double *out) {
    if (!s || !*s || strspn(s, "0123456789.eE+-") != strlen(s)) return -1;
    char *end;
    double x = strtod(s, &end);
    if (*end || !isfinite(x) || !(x >= lo && x <= hi)) return -1;
    *out = x;
    return 0;
}

/* --max-memory: a whole number with a binary suffix K, M, G or T (bytes without one), >= 1 MiB. */
static int parse_memory(const char *s, unsigned long long *out) {
    char num[32];
    size_t n = s ? strlen(s) : 0;
    if (!n || n >= sizeof num) return -1;
    memcpy(num, s, n + 1);
    int shift = 0;
    const char *units = "KMGT", *u = strchr(units, num[n - 1] & ~0x20);
    if (num[n - 1] && u && *u) {
        shift = 10 * (int)(u - units + 1);
        num[n - 1] = '\0';
    }
    long v;
    if (cli_parse_long(num, 1, 1L << 40, &v)) return -1;
    if (shift && (unsigned long long)v > (~0ULL >> shift)) return -1;
    *out = (unsigned long long)v << shift;
    return *out < (1ULL << 20) ? -1 : 0;
}

/* "A,B" with both in [lo, hi], each strictly decimal. */
static int parse_pair(const char *s, long lo, long hi, long *a, long *b) {
    const char *comma = s ? strchr(s, ',') : NULL;
    char first[32];
    if (!comma || (size_t)(comma - s) >= sizeof first) return -1;
    memcpy(first, s, (size_t)(comma - s));
    first[comma - s] = '\0';
    return cli_parse_long(first, lo, hi, a) || cli_parse_long(comma + 1, lo, hi, b) ? -1 : 0;
}

static void *field(cli *c, size_t at) { return (char *)c + at - 1; }
static const void *cfield(const cli *c, size_t at) { return (const char *)c + at - 1; }

/* A real as the help and the refusals write it: 1000000, not 1e+06 */
static int put_real(char *out, size_t len, double x) {
    return x == floor(x) && fabs(x) < 1e15 ? snprintf(out, len, "%.0f", x) : snprintf(out, len, "%g", x);
}

/* The allowed values: "1, 2 or 4", "doar or none", "fig8b, fig8c or fig9" */
static int put_choices(char *out, size_t len, const char *const *ch) {
    int n = 0, k = 0;
    while (ch[k]) k++;
    for (int i = 0; i < k && (size_t)n < len; i++)
        n += snprintf(out + n, len - (size_t)n, "%s%s", i == 0 ? "" : i == k - 1 ? " or " : ", ", ch[i]);
    return n;
}

static int put_range(char *out, size_t len, const cmd_opt *o) {
    char a[32], b[32];
    if (o->choices) return put_choices(out, len, o->choices);
    if (o->kind == OPT_REAL || o->kind == OPT_SHARE) {
        put_real(a, sizeof a, o->rlo);
        put_real(b, sizeof b, o->rhi);
        return snprintf(out, len, "%s..%s", a, b);
    }
    return snprintf(out, len, "%ld..%ld", o->lo, o->hi);
}

static int put_default(char *out, size_t len, const cli *c, const cmd_opt *o) {
    const void *f = cfield(c, o->at);
    switch (o->kind) {
        case OPT_INT: return snprintf(out, len, "%d", *(const int *)f);
        case OPT_LONG: return snprintf(out, len, "%ld", *(const long *)f);
        case OPT_U64: return snprintf(out, len, "%llu", *(const unsigned long long *)f);
        case OPT_REAL: return put_real(out, len, *(const double *)f);
        case OPT_SHARE: return snprintf(out, len, "%g", *(const int *)f / 1000.0);
        case OPT_PAIR: return snprintf(out, len, "%d,%d", *(const int *)f, *(const int *)cfield(c, o->at2));
        case OPT_WORD: return snprintf(out, len, "%s", *(const int *)f >= 0 ? o->choices[*(const int *)f] : "none");
        case OPT_TEXT: return snprintf(out, len, "%s", *(const char *const *)f ? *(const char *const *)f : "none");
        default: return snprintf(out, len, "?");
    }
}

/* Text with {range}, {lo}, {hi} and {default} filled in from the option and c. */
static void expand(char *out, size_t len, const cli *c, const cmd_opt *o, const char *text) {
    static const char *const keys[] = {"{range}", "{lo}", "{hi}", "{default}"};
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = text; *p && n + 1 < len;) {
        int key = -1;
        for (int k = 0; k < 4 && key < 0; k++)
            if (!strncmp(p, keys[k], strlen(keys[k]))) key = k;
        if (key < 0) {
            out[n++] = *p++;
            out[n] = '\0';
            continue;
        }
        int w = key == 0   ? put_range(out + n, len - n, o)
                : key == 1 ? snprintf(out + n, len - n, "%ld", o->lo)
                : key == 2 ? snprintf(out + n, len - n, "%ld", o->hi)
                           : put_default(out + n, len - n, c, o);
        n += w > 0 ? (size_t)w : 0;
        if (n >= len) n = len - 1;
        p += strlen(keys[key]);
    }
}

static int refuse(cli *c, const cmd_opt *o, const char *v, const char *expect) {
    char text[512];
    expand(text, sizeof text, c, o, expect);
    if (o->msg == MSG_NAME) return cmd_bad(c, "%s: %s", o->name, text);
    return cmd_bad(c, "%s '%s': %s", o->name, v, text);
}

static int in_choices(const char *const *ch, long n) {
    for (; *ch; ch++) {
        long x;
        if (!cli_parse_long(*ch, 0, 1L << 40, &x) && x == n) return 1;
    }
    return 0;
}

/* Stores one option's value v (NULL for a flag) in c; 0, or 2 with the refusal printed. */
static int set_value(cli *c, const cmd_opt *o, const char *v) {
    void *f = o->at ? field(c, o->at) : NULL;
    char err[DOAR_ERRLEN];
    long n, m;
    double x;
    switch (o->kind) {
        case OPT_FLAG: *(int *)f = 1; break;
        case OPT_COUNT: (*(int *)f)++; break;
        case OPT_TEXT: *(const char **)f = v; break;
        case OPT_INT:
        case OPT_LONG:
            if (cli_parse_long(v, o->lo, o->hi, &n) || (o->choices && !in_choices(o->choices, n)))
                return refuse(c, o, v, o->expect);
            if (o->kind == OPT_INT)
                *(int *)f = (int)n;
            else
                *(long *)f = n;
            break;
        case OPT_U64: {
            uint64_t u;
            if (cli_parse_u64(v, &u)) return refuse(c, o, v, o->expect);
            *(unsigned long long *)f = u;
            break;
        }
        case OPT_REAL:
        case OPT_SHARE:
            if (parse_real(v, o->rlo, o->rhi, &x) || (o->lo_open && !(x > o->rlo))) return refuse(c, o, v, o->expect);
            if (o->kind == OPT_REAL)
                *(double *)f = x;
            else
                *(int *)f = (int)(x * 1000.0 + 0.5);
            break;
        case OPT_PAIR:
            if (parse_pair(v, o->lo, o->hi, &n, &m)) return refuse(c, o, v, o->expect);
            if (o->below && (n < o->min || m < o->min)) return refuse(c, o, v, o->below);
            *(int *)f = (int)n;
            *(int *)field(c, o->at2) = (int)m;
            break;
        case OPT_WORD: {
            int k = 0;
            while (o->choices[k] && strcmp(o->choices[k], v)) k++;
            if (!o->choices[k]) return refuse(c, o, v, o->expect);
            *(int *)f = k;
            break;
        }
        case OPT_MEMORY:
            if (parse_memory(v, (unsigned long long *)f)) return refuse(c, o, v, o->expect);
            break;
        case OPT_DFLY:
            if (c->have_topo) return cmd_bad(c, "give one configuration (%s is the second)", o->name);
            if (topo_parse_dfly(&c->t, v, err)) return cmd_bad(c, "%s", err);
            c->have_topo = 1;
            break;
    }
    if (o->have) *(int *)field(c, o->have) = 1;
    return 0;
}

static const cmd_opt *find_opt(const cmd_command *cmd, const char *a) {
    for (const cmd_opt *const *t = cmd->opts; *t; t++)
        for (const cmd_opt *o = *t; o->name; o++)
            if (!strcmp(o->name, a)) return o;
    for (const cmd_opt *o = cmd->common; o->name; o++)
        if (!strcmp(o->name, a)) return o;
    return NULL;
}

static int parse_router(cli *c, const char *s) {
    long g, b;
    if (parse_pair(s, 0, 100000, &g, &b)) return cmd_bad(c, "--router '%s': expected G,B", s ? s : "");
    if (!c->have_topo) return cmd_bad(c, "%s: --router needs CONFIG before it", "--router");
    if (g >= c->t.g || b >= c->t.a)
        return cmd_bad(c, "--router %s: no such router in dfly(%d,%d,%d,%d) (G < %d, B < %d)", s, c->t.p, c->t.a,
                       c->t.h, c->t.g, c->t.g, c->t.a);
    c->router = topo_router(&c->t, (int)g, (int)b);
    return 0;
}

int cmd_parse_args(cli *c, int argc, char **argv, const cmd_command *cmd) {
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            cmd_print_help(c, cmd, stdout);
            return -1;
        }
        const cmd_opt *o = find_opt(cmd, a);
        if (!o) {
            char err[DOAR_ERRLEN];
            if (a[0] == '-') return cmd_bad(c, "unknown option '%s' (see doar %s --help)", a, c->cmd);
            if (cmd->no_config) return cmd_bad(c, "takes no CONFIG ('%s' given; see doar %s --help)", a, c->cmd);
            if (c->have_topo) return cmd_bad(c, "give one configuration ('%s' is the second)", a);
            if (topo_named(&c->t, a, err)) return cmd_bad(c, "%s", err);
            c->have_topo = 1;
            continue;
        }
        if (o->meta) { /* a value that is itself an option ("--resume --quiet") is a missing value */
            if (!v) return cmd_bad(c, "option %s needs a value", a);
            if (!strncmp(v, "--", 2)) return cmd_bad(c, "option %s needs a value (got the option '%s')", a, v);
            i++;
        } else
            v = NULL;
        int rc = set_value(c, o, v);
        if (rc) return rc;
    }
    if (c->router_arg) {
        int rc = parse_router(c, c->router_arg);
        if (rc) return rc;
    }
    if (c->port_arg) {
        long n;
        if (!c->have_topo) return cmd_bad(c, "%s: --port needs CONFIG", "--port");
        if (cli_parse_long(c->port_arg, 0, c->t.k - 1, &n))
            return cmd_bad(c, "--port '%s': expected 0..%d (k=%d)", c->port_arg, c->t.k - 1, c->t.k);
        c->port = (int)n;
    }
    if (c->have_faults && c->have_max_faults)
        return cmd_bad(c, "%s", "give --faults F (exactly F per campaign) or --max-faults F (1..F), not both");
    c->fopt.exact_faults = c->have_faults;
    return 0;
}

/* ---------------- help ---------------- */

#define HELP_COL 23 /* where an option's text starts */

static void help_line(FILE *f, const char *left, const char *text) {
    int w = fprintf(f, "  %s", left);
    fprintf(f, "%*s", w < HELP_COL ? HELP_COL - w : 1, "");
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n') fprintf(f, "%*s", HELP_COL, "");
    }
    fputc('\n', f);
}

static void help_table(FILE *f, const cli *c, const cmd_opt *t) {
    for (const cmd_opt *o = t; o->name; o++) {
        char left[64], text[2048];
        snprintf(left, sizeof left, "%s%s%s", o->name, o->meta ? " " : "", o->meta ? o->meta : "");
        expand(text, sizeof text, c, o, o->help);
        help_line(f, left, text);
    }
}

void cmd_print_help(const cli *c, const cmd_command *cmd, FILE *f) {
    fputs(cmd->synopsis, f);
    for (const cmd_opt *const *t = cmd->opts; *t; t++) help_table(f, c, *t);
    if (!cmd->no_config) {
        char text[256];
        snprintf(text, sizeof text, "one of: %s", topo_named_list());
        help_line(f, "CONFIG", text);
    }
    help_table(f, c, cmd->common);
    help_line(f, "-h, --help", "this text");
    if (cmd->tail) fputs(cmd->tail, f);
}

/* ---------------- the tables every command shares ---------------- */

#define DFLY_OPT                                                                                                       \
    {                                                                                                                  \
        .name = "--dfly", .meta = "p,a,h,g", .kind = OPT_DFLY,                                                         \
        .help = "any dragonfly instead of a named CONFIG (k = p+a-1+h <= 64, g <= a*h+1)"                              \
    }

const cmd_opt cmd_no_opts[] = {
    {0},
};

const cmd_opt cmd_common_opts[] = {
    DFLY_OPT,
    {.name = "--seed",
     .meta = "N",
     .kind = OPT_U64,
     .at = CLI_AT(seed),
     .expect = "expected a decimal integer 0..2^64-1",
     .help = "run seed, decimal (recorded; this command makes no random choices)"},
    {0},
};

const cmd_opt cmd_seeded_opts[] = {
    DFLY_OPT,
    {.name = "--seed",
     .meta = "N",
     .kind = OPT_U64,
     .at = CLI_AT(seed),
     .expect = "expected a decimal integer 0..2^64-1",
     .help = "run seed, decimal 0..2^64-1 (default {default}): every random choice\n"
             "of the run (traffic, faults, placement) follows from it"},
    {0},
};

const cmd_opt cmd_table_opts[] = {
    {.name = "--nm-slots",
     .meta = "N",
     .kind = OPT_INT,
     .at = CLI_AT(prm.nm_slots),
     .lo = 1,
     .hi = TABLES_MAX_NM_SLOTS,
     .expect = "expected {range}",
     .help = "table B non-minimal router slots, {range} (default {default}, as the paper)"},
    {.name = "--c-ways",
     .meta = "N",
     .kind = OPT_INT,
     .at = CLI_AT(prm.c_ways),
     .lo = 1,
     .hi = TABLES_MAX_C_WAYS,
     .expect = "expected {range}",
     .help = "route items per table C entry, {range} (default {default}, as the paper)"},
    {.name = "--dest-refraction",
     .meta = "0|1",
     .kind = OPT_INT,
     .at = CLI_AT(prm.dest_refraction),
     .lo = 0,
     .hi = 1,
     .expect = "expected 0 or 1",
     .help = "1 (default): a global input whose direct link to a router of its group has\n"
             "failed refracts through a third router of the group instead of reporting the\n"
             "router unreachable; 0: seed 001 Fig. 7(a) as printed (docs/architecture.md)"},
    {0},
};
