# mk/c.mk — the C model (included by the Makefile, which sets the variables): objects, libraries,
# build/doar, the unit tests (ASan/UBSan), the CLI, Valgrind and fault tests, build/doar-mpi and
# its tests, the planted-bug check of the blocked simulator, and the libFuzzer targets.
.PHONY: mpi mpi-tests unit-tests cli-tests plant-block valgrind-tests faults-tests fuzz fuzz-smoke

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

# build/doar, the tool users run, is compiled as one program: every source in one command with
# SIM_OPT's link-time optimisation, so the compiler inlines across the units' files (router_input.c,
# router_xbar.c, vcbuf.c, ...) the calls that one file per unit costs (docs/network.md "Whole-program build").
# The same sources and results as libdoar.a's objects, which the harnesses and tests link.
$(BUILD)/doar: $(CSIM_LIB_SRC) csim/doar.c $(CSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(SIM_OPT) $(C_INC) -o $@ $(CSIM_LIB_SRC) csim/doar.c

$(BUILD)/asan/doar: $(BUILD)/asan/obj/csim/doar.o $(BUILD)/asan/libdoar.a
	$(CC) -O1 -g $(SAN) -o $@ $^

$(BUILD)/asan/test_%: $(BUILD)/asan/obj/tests/test_%.o $(BUILD)/asan/obj/tb/router_env.o $(BUILD)/asan/libdoar.a
	$(CC) -O1 -g $(SAN) -o $@ $^
# objects reached only through a pattern are kept (make would delete them as intermediates)
.SECONDARY: $(patsubst tests/%.c,$(BUILD)/asan/obj/tests/%.o,$(TEST_SRC)) $(BUILD)/asan/obj/tb/router_env.o

# the lock-step harnesses' traffic sources, sinks and conservation ledger (tb/router_env.c)
$(BUILD)/obj/router_env.o: tb/router_env.c tb/router_env.h $(CSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Icsim -c $< -o $@

# ---------------- MPI ----------------
# build/doar-mpi: the network simulator split by groups over MPI ranks (docs/network.md "Beyond one
# machine"); the same command line as build/doar. Needs Open MPI (scripts/deps.sh installs it);
# build/doar never needs it.
mpi: $(BUILD)/doar-mpi

$(BUILD)/doar-mpi: $(CSIM_LIB_SRC) csim/doar.c csim/net_mpi.c $(CSIM_HDR)
	@command -v $(MPICC) >/dev/null 2>&1 || { echo "make mpi: $(MPICC) not found (scripts/deps.sh installs Open MPI)" >&2; exit 2; }
	@mkdir -p $(@D)
	$(MPICC) $(CSTD) $(WARN) $(CFLAGS) $(SIM_OPT) -DDOAR_MPI -Icsim -o $@ $(CSIM_LIB_SRC) csim/doar.c csim/net_mpi.c

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

# ---------------- tests of the C model and the tool ----------------
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

# ---------------- fuzzing (issue 24): libFuzzer targets under ASan+UBSan ----------------
# tests/fuzz/fuzz_T.c for T in FUZZ_TARGETS, seed corpora from real files in tests/fuzz/corpus/T.
# `make fuzz` runs each target FUZZ_SECONDS (new inputs kept in build/fuzz/corpus/T, a crash in
# build/fuzz/crash-*); `make test` runs each FUZZ_SMOKE_SECONDS on its corpus (fuzz-smoke), so a
# regression that crashes on a known input fails CI. clang and its runtime: scripts/deps.sh.
FUZZ_TARGETS       := tables_image resume traffic options
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

# ---------------- the C sources' layout (.clang-format) ----------------
# make format rewrites every C and C++ source of the project in the layout .clang-format defines;
# format-check (part of make lint) fails, naming the first differences, when one does not follow it.
FORMAT_SRC := $(sort $(wildcard csim/*.c csim/*.h tests/*.c tests/*.h tests/fuzz/*.c tb/*.c tb/*.h tb/*.cpp fpga/*.c))
.PHONY: format format-check
format:
	clang-format -i $(FORMAT_SRC)
format-check:
	@out=$$(clang-format --dry-run -Werror $(FORMAT_SRC) 2>&1) || { printf '%s\n' "$$out" | head -30; \
	  echo "format-check: FAIL: these sources differ from .clang-format (make format rewrites them)"; exit 1; }; \
	 echo "format-check: $(words $(FORMAT_SRC)) C/C++ sources follow .clang-format ($$(clang-format --version | grep -o 'version [0-9.]*'))"
