# mk/sim.mk — the long runs (included by the Makefile, which sets REPRO_* and the rest):
# reproduce / reproduce-save (seed 001's evaluation), bench, bench-mpi.
.PHONY: reproduce reproduce-save bench bench-mpi

# Longer runs than `make test` allows: the fault campaigns on the paper's network, then seed 001's
# evaluation (sec. 5) on REPRO_CONFIG (default paper: about 6 h on this machine's two cores before the past-saturation loads of 2026-11-26,
# see docs/RESULTS.md; REPRO_CONFIG=small about 10 minutes) into docs/reproduce/REPRO_CONFIG.md
# with its plots. Phases 10,000 warm-up + 5,000 sample cycles and a 0.1 sweep step by default
# (REPRO_PHASES="--warmup 30000 --sample 10000" REPRO_STEP=0.05: the paper's, about three times
# longer); REPRO_JOBS runs at a time (default: the cores). Rerunning resumes an interrupted one;
# `make reproduce-save` keeps what has run so far in docs/reproduce/REPRO_CONFIG/runs and
# REPRO_RESUME=docs/reproduce/REPRO_CONFIG/runs goes on from there on another machine. Only runs of
# the build's router are kept or taken (each run's header names it); others run again.
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
	scripts/reproduce_save.sh $(BUILD)/reproduce/$(REPRO_CONFIG) $(REPRO_SAVE)

# make bench-mpi: the simulator over 1, 2 and 4 MPI ranks on mid, paper and a tianhe slice: speed,
# communication per exchange, memory per rank (scripts/bench_mpi.sh; a few minutes).
bench-mpi: build mpi
	@scripts/bench_mpi.sh $(BUILD)/doar $(BUILD)/doar-mpi

# make bench: speeds, each measured in this run.
# (the harnesses it times are its prerequisites: built, side by side under -j, before any timing)
bench: build $(foreach c,small mid,$(BUILD)/router/$(c)/router_lockstep $(BUILD)/tables/$(c)/manifest.txt) \
       $(foreach c,$(CONFIGS),$(BUILD)/rcu/$(c)/rcu_lockstep $(BUILD)/tables/$(c)/manifest.txt)
	@echo "== network simulator: router-cycles per second, one core, UR 0.3 (doar sim), cycle by cycle and in blocks; target mid 1.3 M, paper 750 k; then S=1 vs S=2"
	@BENCH_BASELINE="$(BENCH_BASELINE)" scripts/bench_sim.sh $(BUILD)/doar
	@echo "== static checker"
	@for c in mid paper; do $(BUILD)/doar check $$c --quiet | grep -E "time=|^check: ok"; done
	@echo "== router: C model alone, Verilator alone (router-cycles per second, same stimulus)"
	@for c in small mid; do \
	  for m in c rtl; do $(BUILD)/router/$$c/router_lockstep --tables $(BUILD)/tables/$$c --cycles 300000 --mode $$m --quiet | tail -n 1; done; \
	done
	@echo "== route-compute unit: C model alone, Verilator alone, lock-step (same stimulus)"
	@for c in $(CONFIGS); do \
	  n=1000000; [ $$c = tianhe ] && n=100000; \
	  $(BUILD)/rcu/$$c/rcu_lockstep --tables $(BUILD)/tables/$$c --cycles $$n --mode c --quiet | tail -n 1; \
	  $(BUILD)/rcu/$$c/rcu_lockstep --tables $(BUILD)/tables/$$c --cycles $$n --mode rtl --quiet | tail -n 1; \
	  $(BUILD)/rcu/$$c/rcu_lockstep --tables $(BUILD)/tables/$$c --cycles $$n --quiet | grep cycles/s; \
	done
