/*
 * doar_main — the `doar` command line (csim/doar.c; its commands in csim/cmd_*.c) as a function,
 * so that build/doar's main and build/doar-mpi's (csim/net_mpi.c) run the same code.
 *
 * Contract: argv as main's; comm NULL runs everything in this process, else `sim` and `sweep`
 * split the network over comm's ranks with the same results and only rank 0 writes files.
 * Returns the exit status (0 ok, 1 a check or run failed, 2 bad input).
 */
#ifndef DOAR_MAIN_H
#define DOAR_MAIN_H

#include "net_comm.h"

int doar_main(int argc, char **argv, const net_comm *comm);

#endif
