/*
 * cmd — what the subcommands of `doar` share (internal to the tool: csim/doar.c dispatches,
 * csim/cmd_*.c hold one subcommand or two each, csim/cmd_opts.c the option tables' parser).
 *
 * Contract
 *   cli        : one invocation's settings. cmd_cli_init fills every default (the library's:
 *                tables_default_params, check_default_opts, fault_campaign_default_opts,
 *                net_default_params, and the tool's own: sweep step, series bin ...).
 *   cmd_opt    : one option of a subcommand, declared once: its name, value kind, range or
 *                choices, the field of cli it sets, the refusal when its value is wrong and its
 *                help text. cmd_parse_args parses argv with the command's tables and
 *                cmd_print_help prints its --help from the same tables, so the two cannot
 *                disagree: a range in the help ({range}) and in the refusal is the one parsed,
 *                a default ({default}) is the field's value after cmd_cli_init.
 *   cmd_command: a subcommand: name, synopsis and description for --help, its option tables,
 *                the common ones (CONFIG, --dfly, --seed, -h), and the function that runs it;
 *                no_config: a command that takes no configuration (`doar configs`).
 *   Refusals   : cmd_bad prints "doar CMD: MESSAGE" on one line (control bytes escaped) and
 *                returns 2; every bad input ends there (docs/cli.md).
 *   No global mutable state: the tables are static const.
 */
#ifndef DOAR_CMD_H
#define DOAR_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "check.h"
#include "fault_campaign.h"
#include "net_comm.h"
#include "network.h"
#include "tables.h"
#include "topo.h"

#define EXIT_FAIL 1
#define EXIT_BADINPUT 2
#define SERIES_BIN_DEFAULT 1000 /* cycles per bin of --series-csv */

typedef struct {
    const char *cmd;
    topo t;
    int have_topo;
    unsigned long long seed;
    const char *router_arg, *port_arg; /* --router G,B and --port P, read once CONFIG is known */
    int router;                        /* -1 unless --router G,B */
    int port;                          /* -1 unless --port P */
    const char *out_dir, *load_dir, *tables_dir;
    int dump;
    int make_fragment; /* configs --make */
    int sample;        /* tables --out: N routers spread evenly */
    table_params prm;
    check_opts copt;
    int vc_rule; /* check --vc-rule: index into its choices (0 doar, 1 none) */
    int quiet;
    fault_campaign_opts fopt;
    int example;     /* faults --example: index into its choices; -1: none */
    net_params nprm; /* sim */
    const char *routing, *traffic;
    int have_rate, have_packet_len, have_fault_at, have_repair_at, have_bin;
    int have_faults, have_max_faults; /* doar faults: --faults (exact) and --max-faults were given */
    unsigned long long max_memory;    /* --max-memory (bytes); 0: the machine's memory */
    double sweep_step, sat_latency;   /* doar sweep */
    int full_points;                  /* doar sweep --full-points: saturated loads run to the end */
    double past;                      /* doar sweep --past F (> 1): loads on to F x the saturation load; 0: not given */
    const char *resume;               /* doar sweep --resume FILE: an interrupted run's output */
    const char *csv, *series_csv, *cong_csv;
    long series_bin;
    const net_comm *comm; /* build/doar-mpi: the ranks sim and sweep run on; NULL: this process */
} cli;

/* What an option's value is and how it is stored (the field: `at`, an offset into cli). */
typedef enum {
    OPT_FLAG,   /* no value: int field = 1 */
    OPT_COUNT,  /* no value: int field += 1 */
    OPT_TEXT,   /* const char * field */
    OPT_INT,    /* int field, decimal in lo..hi (and, with choices, one of them) */
    OPT_LONG,   /* long field, decimal in lo..hi */
    OPT_U64,    /* unsigned long long field, decimal 0..2^64-1 */
    OPT_REAL,   /* double field in rlo..rhi (lo_open: above rlo) */
    OPT_SHARE,  /* int field: a real in rlo..rhi stored as thousandths (0.2 -> 200) */
    OPT_PAIR,   /* two int fields (at, at2): "A,B", each decimal in lo..hi; below min: `below` */
    OPT_WORD,   /* int field: the index of the value among choices */
    OPT_MEMORY, /* unsigned long long field: bytes, K/M/G/T suffix, >= 1 MiB */
    OPT_DFLY    /* --dfly p,a,h,g: the configuration */
} cmd_opt_kind;

/* How a refusal names the bad value: "--rate '1.5': EXPECT" or "--warmup: EXPECT". */
enum { MSG_VALUE = 0, MSG_NAME = 1 };

typedef struct {
    const char *name; /* "--rate" */
    const char *meta; /* the value in the help ("X"); NULL: no value */
    cmd_opt_kind kind;
    size_t at, at2;             /* CLI_AT(field): where the value goes; at2: a pair's second value */
    size_t have;                /* CLI_AT(flag) set to 1 when the option is given; 0: none */
    long lo, hi;                /* OPT_INT, OPT_LONG, OPT_PAIR */
    double rlo, rhi;            /* OPT_REAL, OPT_SHARE */
    int lo_open;                /* OPT_REAL: the value must exceed rlo */
    const char *const *choices; /* OPT_WORD, OPT_INT (allowed values), NULL-terminated */
    long min;                   /* OPT_PAIR: each value at least this, else `below` */
    const char *below;
    int msg;            /* MSG_VALUE or MSG_NAME */
    const char *expect; /* the refusal after "NAME 'VALUE': " ({range} expands) */
    const char *help;   /* the help text ({range}, {default} expand; \n continues) */
} cmd_opt;

/* offsetof + 1, so that 0 means "no field" */
#define CLI_AT(field) (offsetof(cli, field) + 1)

typedef struct cmd_command {
    const char *name;
    const char *synopsis;       /* "usage: ..." lines and the description, before the options */
    const cmd_opt *const *opts; /* NULL-terminated list of NULL-name-terminated tables */
    const cmd_opt *common;      /* after the CONFIG line: --dfly, --seed */
    const char *tail;           /* printed after the options (NULL: nothing) */
    int no_config;              /* 1: the command takes no CONFIG (doar configs) */
    int (*run)(cli *c);
} cmd_command;

__attribute__((format(printf, 2, 3))) int cmd_bad(const cli *c, const char *fmt, ...);
void cmd_cli_init(cli *c, const char *cmd, const net_comm *comm);
/* Parses argv (the options after the command) into c. Returns 0, -1 (--help printed), or 2. */
int cmd_parse_args(cli *c, int argc, char **argv, const cmd_command *cmd);
void cmd_print_help(const cli *c, const cmd_command *cmd, FILE *f);
double cmd_now_s(void);
/* "terminal", "local" or "global" (topo's and tables' port lists) */
const char *cmd_class_word(port_class pc);

/* no common options (a command without CONFIG, --dfly or --seed) */
extern const cmd_opt cmd_no_opts[];
/* the common tables: --dfly and --seed (recorded, or a run's random choices) */
extern const cmd_opt cmd_common_opts[], cmd_seeded_opts[];
/* --nm-slots and --c-ways: every command but topo */
extern const cmd_opt cmd_table_opts[];
/* sim and sweep: the network's settings (csim/cmd_sim.c) */
extern const cmd_opt cmd_net_opts[];

/* Memory (csim/cmd_memory.c): a run's estimate, and the refusal when it cannot fit. */
enum { EST_FAULTS, EST_NET };
double cmd_estimate_bytes(const topo *t, int kind, const net_params *p);
int cmd_check_memory(const cli *c, double need);
int cmd_net_check_memory(const cli *c, double need);
int cmd_is_net(const cli *c);
/* sim and sweep: fault cycles the run never reaches, options that would be ignored */
int cmd_check_fault_cycles(cli *c, long last);

extern const cmd_command cmd_topo, cmd_tables, cmd_check, cmd_faults, cmd_sim, cmd_sweep, cmd_configs;

#endif
