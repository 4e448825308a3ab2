/*
 * doar — the project's one command-line tool. Subcommands: topo, tables, check, faults, sim,
 * sweep, configs, one file or two each (csim/cmd_*.c, csim/cmd.h); here: the dispatch and main.
 * Exit status: 0 ok, 1 a check failed, 2 bad input (one-line message on stderr).
 */
#include <stdio.h>
#include <string.h>

#include "cli_parse.h"
#include "cmd.h"
#include "doar_main.h"

static void usage_main(FILE *f) {
    fprintf(f, "usage: doar <command> [options]\n"
               "\n"
               "doar: an open, verified model of the DOAR dragonfly router (seed 001).\n"
               "\n"
               "commands:\n"
               "  topo     print a dragonfly's size, links and the wiring of a router\n"
               "  tables   build, dump, write and validate the routing tables A/B/C\n"
               "  check    prove the tables' routes correct and deadlock-free\n"
               "  faults   fault diagnosis/recovery campaigns against the oracle; seed 001's examples\n"
               "  sim      cycle-level network simulation: latency and throughput under synthetic traffic\n"
               "  sweep    doar sim at rising loads up to saturation (CSV, progress bar)\n"
               "  configs  the named configurations (--make: as a Makefile fragment)\n"
               "\n"
               "'doar <command> --help' describes a command. Exit status: 0 ok, 1 check failed,\n"
               "2 bad input.\n");
}

int doar_main(int argc, char **argv, const net_comm *comm) {
    static const cmd_command *const commands[] = {&cmd_topo, &cmd_tables, &cmd_check,  &cmd_faults,
                                                  &cmd_sim,  &cmd_sweep,  &cmd_configs};
    if (argc < 2) { /* one line, like every other refusal; the usage is one --help away */
        fprintf(stderr,
                "doar: missing command (commands: topo tables check faults sim sweep configs; see doar --help)\n");
        return EXIT_BADINPUT;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
        usage_main(stdout);
        return 0;
    }
    const cmd_command *cmd = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0] && !cmd; i++)
        if (!strcmp(name, commands[i]->name)) cmd = commands[i];
    if (!cmd) {
        char shown[256];
        cli_one_line(name, shown, sizeof shown);
        fprintf(stderr,
                "doar: unknown command '%s' (commands: topo tables check faults sim sweep configs; see doar --help)\n",
                shown);
        return EXIT_BADINPUT;
    }
    if (comm && comm->size > 1 && cmd != &cmd_sim && cmd != &cmd_sweep) { /* the others would run R times */
        if (comm->rank == 0)
            fprintf(stderr, "doar-mpi: '%s' does not run split over ranks (sim and sweep do): use build/doar %s\n",
                    name, name);
        return EXIT_BADINPUT;
    }
    cli c;
    cmd_cli_init(&c, cmd->name, comm);
    int rc = cmd_parse_args(&c, argc - 2, argv + 2, cmd);
    if (rc == -1) return 0;
    if (rc) return rc;
    return cmd->run(&c);
}

#ifndef DOAR_MPI /* build/doar-mpi's main is in csim/net_mpi.c */
int main(int argc, char **argv) { return doar_main(argc, argv, NULL); }
#endif
