# doar — top-level build. `make run` and `make test` install what is missing first.
CC      ?= gcc
CSTD    := -std=c11
# -Wno-format-truncation: error messages that quote long paths may be cut; that is intended.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-format-truncation
CFLAGS  ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
BUILD   := build

CSIM_LIB_SRC := csim/topo.c csim/tables.c csim/tables_image.c csim/check.c csim/rcu.c
CSIM_HDR     := $(wildcard csim/*.h)
TEST_SRC     := $(wildcard tests/test_*.c)
TESTS        := $(patsubst tests/%.c,$(BUILD)/asan/%,$(TEST_SRC))

.PHONY: all build deps run test unit-tests cli-tests valgrind-tests clean help lint lockstep-rcu \
        rcu-lockstep-tests bench

all: build

help:
	@echo "make run    - install deps, build, show the small topology and check its routes"
	@echo "make test   - install deps, build, run every test (sanitizers, valgrind, CLI)"
	@echo "make build  - build build/doar"
	@echo "make clean  - remove build/"

deps:
	@scripts/deps.sh

build: $(BUILD)/doar

$(BUILD)/doar: $(CSIM_LIB_SRC) csim/doar.c $(CSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -o $@ $(CSIM_LIB_SRC) csim/doar.c

$(BUILD)/asan/doar: $(CSIM_LIB_SRC) csim/doar.c $(CSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g $(SAN) -o $@ $(CSIM_LIB_SRC) csim/doar.c

$(BUILD)/asan/test_%: tests/test_%.c tests/testutil.h $(CSIM_LIB_SRC) $(CSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g $(SAN) -Icsim -o $@ $< $(CSIM_LIB_SRC)

run: deps build
	$(BUILD)/doar topo small --router 0,0
	$(BUILD)/doar check small

unit-tests: $(TESTS)
	@for t in $(TESTS); do echo "== $$t"; $$t || exit 1; done

cli-tests: $(BUILD)/doar $(BUILD)/asan/doar
	tests/cli_test.sh $(BUILD)/asan/doar $(BUILD)/doar

valgrind-tests: $(BUILD)/doar
	tests/valgrind_test.sh $(BUILD)/doar

test: deps build
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory cli-tests
	$(MAKE) --no-print-directory valgrind-tests
	@echo "test: all passed"

clean:
	rm -rf $(BUILD)

# ---------------- RTL: lint and the route-compute unit lock-step ----------------
# Named configurations as p a h g (docs/architecture.md); CONFIG picks one.
DFLY_tiny   := 1 2 1 3
DFLY_small  := 2 4 2 9
DFLY_fig8   := 2 4 2 8
DFLY_mid    := 4 8 4 33
DFLY_paper  := 6 12 6 73
DFLY_tianhe := 16 32 16 513
CONFIG ?= small
SEED   ?= 1
CYCLES ?= 1000000
PLANT  ?= 0
# tianhe's full table set is 3.1 M files; the lock-step samples routers from a subset.
TABLE_SAMPLE_tianhe := --sample 24

dfly    = $(or $(DFLY_$(1)),$(error unknown CONFIG '$(1)': use tiny small fig8 mid paper tianhe))
RTL_SRC := $(wildcard rtl/*.v)
PLANT_SUFFIX := $(if $(filter 1,$(PLANT)),_plant,)
RCU_DIR  = $(BUILD)/rcu/$(CONFIG)$(PLANT_SUFFIX)
VERILATOR_FLAGS := --cc --exe --build -j 2 -O3 --trace-fst -Wall --x-assign fast --x-initial fast

$(BUILD)/libdoar.a: $(CSIM_LIB_SRC) $(CSIM_HDR)
	@mkdir -p $(BUILD)/obj
	for f in $(CSIM_LIB_SRC); do $(CC) $(CSTD) $(WARN) $(CFLAGS) -c $$f -o $(BUILD)/obj/$$(basename $$f .c).o || exit 1; done
	ar rcs $@ $(patsubst csim/%.c,$(BUILD)/obj/%.o,$(CSIM_LIB_SRC))

$(BUILD)/tables/%/manifest.txt: $(BUILD)/doar
	$(BUILD)/doar tables $* --out $(BUILD)/tables/$* $(TABLE_SAMPLE_$*) >/dev/null

lint:
	@for c in tiny small fig8 mid paper tianhe; do set -- $$(echo $(DFLY_tiny) | tr ' ' ' '); \
	  d=$$(case $$c in tiny) echo "$(DFLY_tiny)";; small) echo "$(DFLY_small)";; fig8) echo "$(DFLY_fig8)";; \
	       mid) echo "$(DFLY_mid)";; paper) echo "$(DFLY_paper)";; tianhe) echo "$(DFLY_tianhe)";; esac); \
	  set -- $$d; verilator --lint-only -Wall -Irtl rtl/rcu.v --top-module rcu -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 || exit 1; \
	  verilator --lint-only -Wall -Irtl rtl/rcu.v --top-module rcu -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 -DPLANT_BUG || exit 1; \
	  echo "lint: rcu $$c clean"; done

$(RCU_DIR)/rcu_lockstep: $(RTL_SRC) tb/rcu_lockstep.cpp $(BUILD)/libdoar.a
	@mkdir -p $(RCU_DIR)
	$(eval D := $(call dfly,$(CONFIG)))
	verilator $(VERILATOR_FLAGS) -Irtl rtl/rcu.v --top-module rcu \
	  -GP=$(word 1,$(D)) -GA=$(word 2,$(D)) -GH=$(word 3,$(D)) -GG=$(word 4,$(D)) \
	  $(if $(filter 1,$(PLANT)),-DPLANT_BUG,) \
	  -CFLAGS "-O2 -I$(CURDIR)/csim -DDOAR_P=$(word 1,$(D)) -DDOAR_A=$(word 2,$(D)) -DDOAR_H=$(word 3,$(D)) -DDOAR_G=$(word 4,$(D))" \
	  -LDFLAGS "$(CURDIR)/$(BUILD)/libdoar.a" \
	  --Mdir $(RCU_DIR) -o rcu_lockstep $(CURDIR)/tb/rcu_lockstep.cpp > $(RCU_DIR)/build.log 2>&1 \
	  || { tail -30 $(RCU_DIR)/build.log; exit 1; }

# make lockstep-rcu CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1]: exit 0 only with 0 mismatches.
lockstep-rcu: $(RCU_DIR)/rcu_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(RCU_DIR)/rcu_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves
