// router_xbar — the S crossbar planes (seed 003 sec. 4, parallel switching; csim/router_xbar.c):
// output slot (o,q) takes the flit of the (at most one) input plane (i,q) sending to it, with the
// output VC applied (the room a granted packet reserves comes from router_alloc: oq_take).
// Router v6: the selection ends in a register (the write register), so no path runs from the
// grant stage and the streams in router_input into the output queues and their send order in
// router_output (docs/fpga.md item 31): a flit sent in cycle t is on wr_* in t+1, and the output
// queues store it at the edge ending t+1.
`include "flit_fields.vh"
module router_xbar #(
    parameter K = 7,                   // ports
    parameter S = 2                    // crossbar planes
) (
    input  wire               clk,
    input  wire               rst,
    input  wire [K*S-1:0]     xv,          // router_input: input plane (i*S+q) sends xflit
    input  wire [K*S*K-1:0]   xports,      //   to these output ports
    input  wire [K*S*2-1:0]   xovc,        //   on this output VC
    input  wire [K*S*`FLITW_BITS-1:0] xflit,
    input  wire [K*S-1:0]     xstart,      //   the first flit of a granted packet
    output reg  [K*S-1:0]     wr_valid,    // output queue (o*S+q) stores wr_flit (what was sent
    output reg  [K*S*`QFLITW_BITS-1:0] wr_flit, //   last cycle)
    output reg  [K*S-1:0]     wr_start     //   it is a packet's first flit (router_output's oq_order)
);
    localparam FW = `FLITW_BITS, QFW = `QFLITW_BITS;
    reg [K*S-1:0] wr_valid_n, wr_start_n;   // the selection; registered below
    reg [K*S*QFW-1:0] wr_flit_n;
    reg [FW-1:0] fx;
    reg sel;
    integer i, o, q;
    // At most one input plane sends to a slot in a cycle (a slot is held by one packet from its
    // grant to its tail), so the selection is an AND-OR over one-hot selects rather than a
    // priority chain: the same result, about a quarter fewer LUTs (issue 18, docs/fpga.md).
    always @* begin
        wr_valid_n = {K*S{1'b0}};
        wr_start_n = {K*S{1'b0}};
        wr_flit_n = {K*S*QFW{1'b0}};
        fx = {FW{1'b0}};
        sel = 1'b0;
        for (o = 0; o < K; o = o + 1)
            for (q = 0; q < S; q = q + 1)
                for (i = 0; i < K; i = i + 1) begin
                    fx = xflit[(i*S+q)*FW +: FW];
                    sel = xv[i*S+q] && xports[(i*S+q)*K + o];
                    wr_valid_n[o*S+q] = wr_valid_n[o*S+q] | sel;
                    wr_start_n[o*S+q] = wr_start_n[o*S+q] | (sel && xstart[i*S+q]);
                    wr_flit_n[(o*S+q)*QFW +: QFW] = wr_flit_n[(o*S+q)*QFW +: QFW] | ({QFW{sel}} &
                        {fx[`FLITW_HEAD_BIT], fx[`FLITW_TAIL_BIT], xovc[(i*S+q)*2 +: 2], fx[0 +: `FLIT_DATA_BITS]});
                end
    end
    // The flit needs no reset: wr_valid qualifies it.
    always @(posedge clk) begin
        wr_valid <= rst ? {K*S{1'b0}} : wr_valid_n;
        wr_start <= rst ? {K*S{1'b0}} : wr_start_n;
        wr_flit <= wr_flit_n;
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
