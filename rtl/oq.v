// oq — one output queue of router v2 (csim/oq.h): the flits one crossbar plane delivered to one
// output port, waiting for the link. A register FIFO of DEPTH flits {head, tail, vc, data} and the
// room: a grant takes its packet's len, every flit the link takes gives one back. The room is kept
// as a thermometer, rt[j] = (room >= j) for j = 0..DEPTH, so the allocator's room_ge (room >= 1..
// MAXL) is its low bits, a register a proposal selects from, and the next value is a shift of the
// register selected by the cycle's take and pop: no adder or comparator follows the grant (the
// counter form's carry chain closed the FPGA's critical path, docs/fpga.md item 14). room_ge
// leaves out the take of the win checked in the last cycle (wtake) and is itself a register: its
// next value is computed from this cycle's room, take, pop and the next cycle's wtake (wtake_n,
// router_alloc's room_wn), with the pop last, so the proposals read registers and no shift by a
// win's len follows the wins' registers (docs/fpga.md item 26). The room is
// never below a take (a grant needs room_ge[len-1]), as the C model's counter (csim/oq.h). A push
// into a queue that is full and not popped in the same cycle is dropped (only a packet longer than
// its len can do that). Pushes and pops take effect at the end of the cycle.
`include "flit_fields.vh"
module oq #(
    parameter DEPTH = 8,
    parameter DW = 3,                  // max(1, clog2(DEPTH))
    parameter MAXL = 4                 // longest packet: room_ge has a bit per len 1..MAXL
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           push,
    input  wire [`QFLITW_BITS-1:0] push_flit, // {head, tail, vc, data} (csim/flit.h QFLITW_*)
    input  wire           pop,
    input  wire [3:0]     take,        // len of a packet granted this cycle (0: none)
    input  wire [3:0]     wtake_n,     // room_ge leaves out this much in the next cycle (router v5:
                                       // the win checked now, granted then or cancelled)
    output wire           front_valid,
    output wire [`QFLITW_BITS-1:0] front,
    output wire [MAXL-1:0] room_ge     // bit n-1: room >= n
);
    localparam [DW:0] DEPTH_W = DEPTH[DW:0];
    localparam [DW-1:0] LAST = DEPTH_W[DW-1:0] - 1'b1;
    reg [`QFLITW_BITS-1:0] ring [0:DEPTH-1];
    reg [DW-1:0] head;
    reg [DW:0] count;
    wire full = count == DEPTH_W && !pop;
    reg [DW+1:0] at;
    always @* begin
        at = {2'b00, head} + {1'b0, count};
        if (at >= {1'b0, DEPTH_W}) at = at - {1'b0, DEPTH_W};
    end
    assign front_valid = count != {(DW+1){1'b0}};
    assign front = ring[head];
    reg  [DEPTH:0] rt;                 // rt[j]: room >= j, j = 0..DEPTH (rt[0] is always set)
    reg  [MAXL-1:0] ge_r;              // room_ge: bit n-1 = room - wtake >= n
    // up[m]: room + pop >= m (with a pop, room >= m - 1; the room never passes DEPTH, so a pop
    // leaves rt[DEPTH] behind); room + pop - take >= j  <=>  room + pop >= j + take
    wire [DEPTH:0] up = pop ? {rt[DEPTH-1:0], 1'b1} : rt;
    wire [DEPTH:0] rt_next = up >> take;
    // next room - wtake_n >= n  <=>  next room >= n + wtake_n: both pop cases from registers, the
    // pop selecting last (it comes from the link stage of this cycle)
    wire [DEPTH:0] rw_kept = (rt >> take) >> wtake_n;
    wire [DEPTH:0] rw_popd = ({rt[DEPTH-1:0], 1'b1} >> take) >> wtake_n;
    wire [DEPTH:0] rw_next = pop ? rw_popd : rw_kept;
    wire [MAXL-1:0] ge_n;
    wire unused_rw = &{1'b0, rw_next};   // (the bits past MAXL and rw_next[0])
    generate
        if (MAXL <= DEPTH) begin : g_ge
            assign ge_n = rw_next[MAXL:1];
        end else begin : g_ge_short          // a queue shorter than the longest packet
            assign ge_n = {{(MAXL - DEPTH){1'b0}}, rw_next[DEPTH:1]};
        end
    endgenerate
    assign room_ge = ge_r;
    // after reset: room DEPTH, no win
    localparam [MAXL-1:0] GE_RESET = MAXL <= DEPTH ? {MAXL{1'b1}} : {MAXL{1'b1}} >> (MAXL - DEPTH);
    always @(posedge clk) begin
        if (rst) begin
            head <= {DW{1'b0}};
            count <= {(DW+1){1'b0}};
            rt <= {(DEPTH + 1){1'b1}};   // room = DEPTH
            ge_r <= GE_RESET;
        end else begin
            if (push && !full) ring[at[DW-1:0]] <= push_flit;
            if (pop) head <= (head == LAST) ? {DW{1'b0}} : head + 1'b1;
            count <= count + {{DW{1'b0}}, push && !full} - {{DW{1'b0}}, pop};
            rt <= rt_next;
            ge_r <= ge_n;
        end
    end
endmodule
