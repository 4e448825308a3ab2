# mk/rtl.mk — the RTL (included by the Makefile, which sets the variables): table images for the
# lock-steps, Yosys synthesis of the route-compute unit, the Verilator lock-steps (rcu, router,
# fault), lint, the mutation score, waveforms of named scenarios, SystemC, the Icarus replay.
.PHONY: tables-verify synth-rcu lockstep-rcu lockstep-router lockstep-fault flit-fields flit-fields-check lint \
        mutate mutate-sample mutate-list wave systemc-router icarus-rcu

# ---------------- the RTL files, mutants, Verilator flags; the table images ----------------
# (the harness rules below name their prerequisites by their stem: $$* in a second expansion)
.SECONDEXPANSION:
# tianhe's full table set is 3.1 M files; the lock-step samples routers from a subset.
TABLE_SAMPLE_tianhe := --sample 24

# the RTL's files, listed once in rtl/files.f (make lint checks it names every rtl/*.v)
RTL_SRC := $(shell sed -e 's#//.*##' rtl/files.f)
# the layouts the RTL shares with the C model (scripts/gen_flit_fields.py writes it from csim/)
RTL_HDR := rtl/flit_fields.vh
# the includes the modules read (dependencies of the Verilator builds)
RTL_INC := $(RTL_HDR) rtl/credit_ge.vh rtl/lint.vlt
# Mutants (issue 21): tests/mutants/mutants.txt lists small deliberate bugs in copies of rtl/, kept
# out of the product sources. MUTANT=NAME builds a lock-step from build/mutants/NAME/rtl (rtl/ with
# NAME applied by scripts/mutate.py, which fails when its text is not found exactly once) into
# build/mutants/NAME/<harness>_CONFIG; `make mutate` runs them all. PLANT=1 is the named mutant
# below for each lock-step, built from its copy of rtl/ into <harness>/CONFIG_plant (waveforms in
# build/waves as without PLANT); the product sources carry no planted bug.
PLANT_MUTANT_rcu    := rcu-p1-gd-before-gc
PLANT_MUTANT_fault  := fault-fd-role-swap
PLANT_MUTANT_router := router-head-needs-len-plus-1
# Every harness is built by a pattern rule into a directory named for what it is built from
# (issue 23), so `make -j2 build/router/small/router_lockstep build/router/mid/router_lockstep`
# builds two configurations side by side, with no recursive make:
#   build/<harness>/STEM/            from rtl/; STEM = CONFIG, then '_'-separated flags: plant (from the
#                                    planted mutant's copy of rtl/, PLANT_MUTANT_<harness>), nobulletin
#                                    (the router with BULLETIN=0), s1 / s4 (the router at that SPEEDUP),
#                                    lN (the router at MAX_LEN=N; default 4),
#                                    wN (the router with CONG_RTT=N; default 32)
#   build/mutants/NAME/<harness>_CONFIG/  from mutant NAME's copy of rtl/ (the router at SPEEDUP)
# e.g. build/router/small_plant/, build/router/mid_s1/, build/router/small_nobulletin/. The make
# targets that run a harness (lockstep-router ...) pick the directory from CONFIG, PLANT, MUTANT,
# BULLETIN, SPEEDUP, MAX_LEN and CONG_RTT (*_DIR below).
# SPEEDUP, MAX_LEN and COVERAGE are checked before anything is built (one line, exit 2)
ifeq ($(filter 1 2 4,$(SPEEDUP)),)
$(error SPEEDUP must be 1, 2 or 4, the crossbar planes (got '$(SPEEDUP)'))
endif
ifeq ($(filter 1 2 3 4 5 6 7 8,$(MAX_LEN)),)
$(error MAX_LEN must be 1 .. 8, the longest packet in flits (the input VCs hold 8; got '$(MAX_LEN)'))
endif
ifeq ($(filter required optional,$(COVERAGE)),)
$(error COVERAGE must be required or optional, whether coverage holes fail lockstep-router (got '$(COVERAGE)'))
endif
stem_cfg      = $(firstword $(subst _, ,$(1)))
stem_flag     = $(filter $(2),$(wordlist 2,9,$(subst _, ,$(1))))
stem_bulletin = $(if $(call stem_flag,$(1),nobulletin),0,1)
stem_speedup  = $(or $(patsubst s%,%,$(call stem_flag,$(1),s1 s2 s4)),2)
stem_maxlen   = $(or $(patsubst l%,%,$(filter l%,$(wordlist 2,9,$(subst _, ,$(1))))),4)
stem_congrtt  = $(or $(patsubst w%,%,$(filter w%,$(wordlist 2,9,$(subst _, ,$(1))))),32)
# the RTL a stem of harness H is built from, and what must be made first (a mutant's copy)
stem_rtl      = $(if $(call stem_flag,$(1),plant),$(BUILD)/mutants/$(PLANT_MUTANT_$(2))/rtl,rtl)
stem_dep      = $(if $(call stem_flag,$(1),plant),$(BUILD)/mutants/$(PLANT_MUTANT_$(2))/rtl/.applied)
# (a mutant may leave a signal unused: its warnings do not stop the build)
stem_vflags   = $(if $(call stem_flag,$(1),plant),-Wno-fatal)
# a mutant's stem NAME/<harness>_CONFIG
mut_name      = $(firstword $(subst /, ,$(1)))
mut_cfg       = $(lastword $(subst _, ,$(lastword $(subst /, ,$(1)))))
# the directory of the harness the variables name (a stem above)
run_stem      = $(CONFIG)$(if $(filter 1,$(PLANT)),_plant)
RCU_DIR  = $(if $(MUTANT),$(BUILD)/mutants/$(MUTANT)/rcu_$(CONFIG),$(BUILD)/rcu/$(run_stem))
# every Verilator run reads the project's lint waivers, written once in rtl/lint.vlt
VLT   := rtl/lint.vlt
VLINT := verilator --lint-only -Wall $(VLT) -Irtl -f rtl/files.f
VERILATOR_FLAGS := --cc --exe --build -j 2 -O3 --trace-fst -Wall --x-assign fast --x-initial fast $(VLT)
# the C++ optimisation of the harness builds (the verilated model and its testbench; the C model
# comes from build/libdoar.a at -O2): -O1 builds a router harness in about 70 % of -O2's time and
# runs it about 10 % slower, so make test, which builds a dozen harnesses, is shorter with it
HARNESS_OPT ?= -O1
# A harness verilated and built, written once (the rcu, router and fault lock-steps and the SystemC
# router): $(call VERILATE,TOOL,TOP,RTLDIR,DIR,EXE,SRC,ARGS,CFLAGS,OBJS,CFG) runs TOOL (verilator and
# its flags) on RTLDIR/TOP.v (RTLDIR: rtl, or a mutant's copy) with configuration CFG's P A H G and
# ARGS, and builds the harness SRC into DIR/EXE with HARNESS_OPT, -Icsim, DOAR_P/A/H/G and CFLAGS, linking
# OBJS (paths in the repository). Verilator's output goes to DIR/build.log; on failure its last 30
# lines are shown.
cfg_word = $(word $(1),$(call dfly,$(2)))
define VERILATE
@mkdir -p $(4)
@rm -f $@   # Verilator's own make does not see our libraries change: relink for sure
$(1) -I$(3) $(3)/$(2).v --top-module $(2) \
  -GP=$(call cfg_word,1,$(10)) -GA=$(call cfg_word,2,$(10)) -GH=$(call cfg_word,3,$(10)) -GG=$(call cfg_word,4,$(10)) $(7) \
  -CFLAGS "$(HARNESS_OPT) -I$(CURDIR)/csim -DDOAR_P=$(call cfg_word,1,$(10)) -DDOAR_A=$(call cfg_word,2,$(10)) -DDOAR_H=$(call cfg_word,3,$(10)) -DDOAR_G=$(call cfg_word,4,$(10)) $(8)" \
  -LDFLAGS "$(addprefix $(CURDIR)/,$(9))" \
  --Mdir $(4) -o $(5) $(addprefix $(CURDIR)/,$(6)) > $(4)/build.log 2>&1 \
  || { tail -30 $(4)/build.log; exit 1; }
endef

$(BUILD)/tables/%/manifest.txt: $(BUILD)/doar
	$(BUILD)/doar tables $* --out $(BUILD)/tables/$* $(TABLE_SAMPLE_$*) >/dev/null

# The images above are rebuilt when build/doar changes, but a set edited, truncated or left from
# another run since is not: before a lock-step, `doar tables --load` verifies the set (encoding,
# then the route check, or for a sampled set the generated tables word for word) and a set that
# fails is rebuilt and verified again; one that still fails stops the run (issue 24).
# (the report goes to a file of this make's own: make test's two lanes may verify one set at once)
tables-verify: $(BUILD)/tables/$(CONFIG)/manifest.txt
	@v=$(BUILD)/tables/$(CONFIG).verify.$$$$; \
	$(BUILD)/doar tables --load $(BUILD)/tables/$(CONFIG) $(CONFIG) >$$v 2>&1 || { \
	  echo "tables: $(BUILD)/tables/$(CONFIG) failed verification ($$(tail -n 1 $$v | head -c 300)): rebuilding"; \
	  rm -rf $(BUILD)/tables/$(CONFIG); \
	  $(BUILD)/doar tables $(CONFIG) --out $(BUILD)/tables/$(CONFIG) $(TABLE_SAMPLE_$(CONFIG)) >/dev/null && \
	  $(BUILD)/doar tables --load $(BUILD)/tables/$(CONFIG) $(CONFIG) >/dev/null; }; rc=$$?; rm -f $$v; exit $$rc
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

# ---------------- the route-compute unit lock-step ----------------
RCU_DEPS := $(RTL_SRC) $(RTL_HDR) tb/rcu_lockstep.cpp tb/harness_common.h $(BUILD)/libdoar.a
$(BUILD)/rcu/%/rcu_lockstep: $(RCU_DEPS) $$(call stem_dep,$$*,rcu)
	$(call VERILATE,verilator $(VERILATOR_FLAGS) $(call stem_vflags,$*),rcu,$(call stem_rtl,$*,rcu),$(@D),rcu_lockstep,\
	  tb/rcu_lockstep.cpp,,,$(BUILD)/libdoar.a,$(call stem_cfg,$*))
$(BUILD)/mutants/%/rcu_lockstep: $(RCU_DEPS) $(BUILD)/mutants/$$(call mut_name,$$*)/rtl/.applied
	$(call VERILATE,verilator $(VERILATOR_FLAGS) -Wno-fatal,rcu,$(BUILD)/mutants/$(call mut_name,$*)/rtl,$(@D),rcu_lockstep,\
	  tb/rcu_lockstep.cpp,,,$(BUILD)/libdoar.a,$(call mut_cfg,$*))

# make lockstep-rcu CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] [REQUIRE_COVERAGE=1]: fails on any
# mismatch (the harness exits 1). Coverage holes (a short run, CYCLES=10000: the harness exits 3 and
# its last line says coverage=incomplete) leave make's status 0, so a short run is a smoke test;
# REQUIRE_COVERAGE=1 fails them too, as tests/lockstep_rcu_test.sh's full runs require.
lockstep-rcu: $(RCU_DIR)/rcu_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(RCU_DIR)/rcu_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves; rc=$$?; \
	  if [ $$rc -eq 3 ] && [ "$(REQUIRE_COVERAGE)" != 1 ]; then exit 0; fi; exit $$rc

# ---------------- the whole router lock-step ----------------
ROUTER_DIR = $(if $(MUTANT),$(BUILD)/mutants/$(MUTANT)/router_$(CONFIG),$(BUILD)/router/$(run_stem)$(if $(filter 0,$(BULLETIN)),_nobulletin,)$(if $(filter-out 2,$(SPEEDUP)),_s$(SPEEDUP),)$(if $(filter-out 4,$(MAX_LEN)),_l$(MAX_LEN),)$(if $(filter-out 32,$(CONG_RTT)),_w$(CONG_RTT),))
# tianhe's verilated router is ~220 MB of C++ (one 0.6-2.5 MB function per file): at Verilator's
# default -Os a file takes minutes, at -O1 ~20 s; the rarely run __Slow files (set-up, trace
# declarations) at -O0. Build ~25 min on 2 cores (docs/RESULTS.md "Router v2").
ROUTER_MAKEFLAGS_tianhe := -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0"

ROUTER_DEPS := $(RTL_SRC) $(RTL_INC) tb/router_lockstep.cpp tb/router_lockstep.vlt tb/harness_common.h tb/router_ports.h \
               $(BUILD)/obj/router_env.o $(BUILD)/libdoar.a
# $(call ROUTER_BUILD,RTLDIR,VFLAGS,CFG,BULLETIN,SPEEDUP,CONG_RTT,MAX_LEN)
ROUTER_BUILD = $(call VERILATE,verilator $(VERILATOR_FLAGS) tb/router_lockstep.vlt $(2),router,$(1),$(@D),router_lockstep,\
  tb/router_lockstep.cpp,-GBULLETIN=$(4) -GSPEEDUP=$(5) -GCONG_RTT=$(6) -GMAX_LEN=$(7) $(ROUTER_MAKEFLAGS_$(3)),\
  -I$(CURDIR)/tb -DDOAR_BULLETIN=$(4) -DDOAR_SPEEDUP=$(5) -DDOAR_CONG_RTT=$(6) -DDOAR_MAX_LEN=$(7),$(BUILD)/obj/router_env.o $(BUILD)/libdoar.a,$(3))
$(BUILD)/router/%/router_lockstep: $(ROUTER_DEPS) $$(call stem_dep,$$*,router)
	$(call ROUTER_BUILD,$(call stem_rtl,$*,router),$(call stem_vflags,$*),$(call stem_cfg,$*),$(call stem_bulletin,$*),$(call stem_speedup,$*),$(call stem_congrtt,$*),$(call stem_maxlen,$*))
$(BUILD)/mutants/%/router_lockstep: $(ROUTER_DEPS) $(BUILD)/mutants/$$(call mut_name,$$*)/rtl/.applied
	$(call ROUTER_BUILD,$(BUILD)/mutants/$(call mut_name,$*)/rtl,-Wno-fatal,$(call mut_cfg,$*),$(BULLETIN),$(SPEEDUP),32,$(MAX_LEN))

# make lockstep-router CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1] [BULLETIN=0 SCENARIO=mcast-deadlock]
lockstep-router: $(ROUTER_DIR)/router_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(ROUTER_DIR)/router_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves --scenario $(SCENARIO) $(if $(filter optional,$(COVERAGE)),--coverage-optional)

# ---------------- the fault-handling units lock-step ----------------
FAULT_DIR = $(if $(MUTANT),$(BUILD)/mutants/$(MUTANT)/fault_$(CONFIG),$(BUILD)/fault/$(run_stem))
FAULT_DEPS := $(RTL_SRC) $(RTL_INC) tb/fault_lockstep.cpp tb/harness_common.h $(BUILD)/libdoar.a
$(BUILD)/fault/%/fault_lockstep: $(FAULT_DEPS) $$(call stem_dep,$$*,fault)
	$(call VERILATE,verilator $(VERILATOR_FLAGS) $(call stem_vflags,$*),fault,$(call stem_rtl,$*,fault),$(@D),fault_lockstep,\
	  tb/fault_lockstep.cpp,,-I$(CURDIR)/tb,$(BUILD)/libdoar.a,$(call stem_cfg,$*))
$(BUILD)/mutants/%/fault_lockstep: $(FAULT_DEPS) $(BUILD)/mutants/$$(call mut_name,$$*)/rtl/.applied
	$(call VERILATE,verilator $(VERILATOR_FLAGS) -Wno-fatal,fault,$(BUILD)/mutants/$(call mut_name,$*)/rtl,$(@D),fault_lockstep,\
	  tb/fault_lockstep.cpp,,-I$(CURDIR)/tb,$(BUILD)/libdoar.a,$(call mut_cfg,$*))

# make lockstep-fault CONFIG=small SEED=1 CYCLES=1000000 [PLANT=1]: exit 0 only with 0 mismatches.
lockstep-fault: $(FAULT_DIR)/fault_lockstep $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(FAULT_DIR)/fault_lockstep --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) \
	  --cycles $(CYCLES) --wave-dir $(BUILD)/waves

# ---------------- lint ----------------
# rtl/flit_fields.vh is generated from csim/flit.h, csim/fault.h, csim/tables.h and csim/alloc.h:
# `make flit-fields` rewrites it; flit-fields-check (part of lint) fails when the committed one differs.
flit-fields:
	python3 scripts/gen_flit_fields.py $(RTL_HDR)
flit-fields-check:
	@mkdir -p $(BUILD)
	@python3 scripts/gen_flit_fields.py $(BUILD)/flit_fields.vh
	@diff -u $(RTL_HDR) $(BUILD)/flit_fields.vh >/dev/null || { diff -u $(RTL_HDR) $(BUILD)/flit_fields.vh | head -20; \
	  echo "flit-fields-check: FAIL $(RTL_HDR) differs from csim/flit.h (run make flit-fields)"; exit 1; }
	@echo "flit-fields: $(RTL_HDR) matches csim/flit.h, csim/fault.h, csim/tables.h, csim/alloc.h"

# verilator -Wall lint and Icarus elaboration, every config; every mutant still applies; the router's
# port list (tb/router_ports.h) agrees with rtl/router.v and the ECP5 board top; the FPGA cone
# counter (scripts/fpga_cones.py) counts a hand-made netlist right.
lint: flit-fields-check format-check
	@python3 scripts/mutate.py check
	@python3 scripts/check_router_ports.py --configs-mk $(BUILD)/configs.mk
	@out=$$(tests/router_ports_test.sh $(BUILD)/configs.mk) || { echo "$$out"; exit 1; }; echo "$$out" | tail -1
	@out=$$(tests/fpga_cones_test.sh) || { echo "$$out"; exit 1; }; echo "$$out" | tail -1
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
	  for w in 0 1; do $(VLINT) --top-module router -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 -GCONG_RTT=$$w || exit 1; done; \
	  iverilog -g2005 -Wall -Wno-sensitivity-entire-array -Irtl -o /dev/null -s router -Prouter.P=$$1 -Prouter.A=$$2 -Prouter.H=$$3 -Prouter.G=$$4 $(RTL_SRC) || exit 1; \
	  echo "lint: router $(c) clean (verilator -Wall, iverilog)";)
	@$(foreach c,$(CONFIGS),set -- $(DFLY_$(c)); \
	  $(VLINT) --top-module fault -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 || exit 1; \
	  iverilog -g2005 -Wall -Irtl -o /dev/null -s fault -Pfault.P=$$1 -Pfault.A=$$2 -Pfault.H=$$3 -Pfault.G=$$4 $(RTL_SRC) || exit 1; \
	  echo "lint: fault $(c) clean (verilator -Wall, iverilog)";)
	@set -- $(DFLY_tianhe); $(VLINT) --top-module router -GP=$$1 -GA=$$2 -GH=$$3 -GG=$$4 \
	  && echo "lint: router tianhe (64-port size, S=2) elaborates clean (verilator -Wall)"
	@$(VLINT) fpga/ecp5_router_top.v --top-module ecp5_router_top && echo "lint: ecp5 board top clean"

# ---------------- mutation score of the lock-steps (issue 21) ----------------
# make mutate [MUTANTS=a,b] [MUTATE_SAMPLE=N [MUTATE_SEED=S]]: every mutant of tests/mutants/mutants.txt
# (or the named ones, or N of them rotating by day, S reproducing a day's) built from a copy of rtl/,
# run through the lock-step that covers its unit, classified killed or survived; last line
# `mutate: killed=K total=N survived=NAMES`. make mutate-sample is the share `make test` runs.
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

# ---------------- waveforms of named scenarios ----------------
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
$(BUILD)/systemc/%/router_sc: $(RTL_SRC) $(RTL_INC) tb/router_sc_main.cpp tb/harness_common.h tb/router_ports.h $(BUILD)/obj/router_env.o $(BUILD)/libdoar.a
	$(call VERILATE,$(SYSTEMC_ENV) verilator --sc --exe --build -j 2 -O2 -Wall $(VLT),router,rtl,$(@D),router_sc,\
	  tb/router_sc_main.cpp,,-I$(CURDIR)/tb,$(BUILD)/obj/router_env.o $(BUILD)/libdoar.a,$*)

# make systemc-router [CONFIG=small CYCLES=20000]: packets in, delivery checked, in SystemC.
systemc-router: $(SC_DIR)/router_sc $(BUILD)/tables/$(CONFIG)/manifest.txt
	$(SC_DIR)/router_sc --config $(CONFIG) --tables $(BUILD)/tables/$(CONFIG) --seed $(SEED) --cycles $(SC_CYCLES)

# ---------------- Icarus ----------------
# The same RTL under Icarus Verilog, replaying vectors the lock-step harness wrote (small).
icarus-rcu: $(BUILD)/rcu/small/rcu_lockstep $(BUILD)/tables/small/manifest.txt
	@mkdir -p $(BUILD)/icarus
	$(BUILD)/rcu/small/rcu_lockstep --tables $(BUILD)/tables/small --seed $(SEED) --cycles 30000 --quiet \
	  --vectors $(BUILD)/icarus/rcu_small.vec | tail -n 1
	iverilog -g2005 -Wall -Irtl -o $(BUILD)/icarus/rcu_tb.vvp -s rcu_icarus_tb $(RTL_SRC) tb/rcu_icarus_tb.v
	vvp -n $(BUILD)/icarus/rcu_tb.vvp +vectors=$(BUILD)/icarus/rcu_small.vec | tee $(BUILD)/icarus/result.txt
	@grep -qE "icarus rcu: cycles=[1-9][0-9]* mismatches=0" $(BUILD)/icarus/result.txt
