/*
 * libFuzzer target: doar's option parser (csim/cmd_opts.c cmd_parse_args, with each command's
 * option tables) on any command line. The input is split at newlines into arguments; the first
 * byte picks the command. Only the parser runs (not the command): it must return 0, -1 (help)
 * or 2, and never crash; help is printed from the same tables, so it runs too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const cmd_command *const cmds[] = {&cmd_topo, &cmd_tables, &cmd_check,  &cmd_faults,
                                              &cmd_sim,  &cmd_sweep,  &cmd_configs};
    char buf[1024];
    char *argv[FUZZ_MAX_ARGS];
    int argc = 0;
    if (size < 1 || size >= sizeof buf) return 0;
    memcpy(buf, data + 1, size - 1);
    buf[size - 1] = '\0';
    for (char *p = buf; argc < FUZZ_MAX_ARGS;) {
        argv[argc++] = p;
        char *nl = strchr(p, '\n');
        if (!nl) break;
        *nl = '\0';
        p = nl + 1;
    }
    const cmd_command *cmd = cmds[data[0] % (sizeof cmds / sizeof cmds[0])];
    cli c;
    cmd_cli_init(&c, cmd->name, NULL);
    int rc = cmd_parse_args(&c, argc, argv, cmd);
    if (rc != 0 && rc != -1 && rc != EXIT_BADINPUT) abort();
    return 0;
}
