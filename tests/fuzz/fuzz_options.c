/*
 * libFuzzer target: doar's option parser (csim/doar.c parse_args) on any command line. The input
 * is split at newlines into arguments; the first picks the command. Only the parser runs (not
 * the command): it must return 0, -1 (help) or 2, and never crash. doar.c is included whole so
 * that its static parser is reachable, without its main (DOAR_NO_MAIN).
 */
#define DOAR_NO_MAIN
#include "../../csim/doar.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const cmds[] = {"topo", "tables", "check", "faults", "sim", "sweep"};
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
    void (*usages[])(FILE *) = {usage_topo, usage_tables, usage_check, usage_faults, usage_sim, usage_sweep};
    int which = data[0] % 6;
    cli c;
    memset(&c, 0, sizeof c);
    c.cmd = cmds[which];
    c.router = -1;
    c.port = -1;
    tables_default_params(&c.prm);
    check_default_opts(&c.copt);
    fault_campaign_default_opts(&c.fopt);
    net_default_params(&c.t, &c.nprm);
    int rc = parse_args(&c, argc, argv, usages[which]);
    if (rc != 0 && rc != -1 && rc != EXIT_BADINPUT) abort();
    return 0;
}
