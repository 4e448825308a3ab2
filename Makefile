# doar — top-level build. `make run` and `make test` install what is missing first.
CC      ?= gcc
CSTD    := -std=c11
# -Wno-format-truncation: error messages that quote long paths may be cut; that is intended.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-format-truncation
CFLAGS  ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
BUILD   := build

CSIM_LIB_SRC := csim/topo.c csim/tables.c csim/tables_image.c csim/check.c
CSIM_HDR     := $(wildcard csim/*.h)
TEST_SRC     := $(wildcard tests/test_*.c)
TESTS        := $(patsubst tests/%.c,$(BUILD)/asan/%,$(TEST_SRC))

.PHONY: all build deps run test unit-tests cli-tests valgrind-tests clean help

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
