// The RTL's source files: the one list every tool reads (issue 23). The Makefile takes it for
// Yosys, Icarus and the dependencies of the Verilator builds; `make lint` hands it to Verilator
// (-f) and checks that it names every rtl/*.v. One path per line; // starts a comment.
// Includes (-Irtl): flit_fields.vh (generated from csim/flit.h), credit_ge.vh; lint waivers: lint.vlt.

// the round-robin pick every arbiter below instantiates (router, fault unit, route compute)
rtl/rr_pick.v
// the router (router v2): a structural top and its units, csim/ file for file
rtl/router.v
rtl/router_input.v
rtl/router_alloc.v
rtl/router_bulletin.v
rtl/router_xbar.v
rtl/router_output.v
rtl/vcbuf.v
rtl/alloc_in.v
rtl/alloc_out.v
rtl/oq.v
rtl/oq_order.v
rtl/cong.v
rtl/mcast_table.v
// the fault-handling units (travel/match, FD/FR packets)
rtl/fault.v
rtl/fault_fifo.v
rtl/fault_port.v
// the route-compute unit (tables A/B/C, Algorithm 1)
rtl/rcu.v
rtl/rcu_c_decode.v
rtl/rcu_decide.v
rtl/rcu_expand.v
rtl/rcu_lfsr.v
rtl/rcu_rtb_filter.v
rtl/rcu_table_ram.v
