// oq — one output queue of router v2 (csim/oq.h): the flits one crossbar plane delivered to one
// output port, waiting for the link. A register FIFO of DEPTH flits {head, tail, vc, data} and the
// room counter: a grant takes its packet's len, every flit the link takes gives one back. The
// allocator reads room_ge, the counter's compares with every len 1..MAXL kept as registers (set
// from the next room value), so a proposal selects a bit instead of running a comparator. A push into a queue that is full and not popped in the same cycle is dropped
// (only a packet longer than its len can do that). Pushes and pops take effect at the end of the
// cycle.
`include "flit_fields.vh"
module oq #(
    parameter DEPTH = 8,
    parameter DW = 3,                  // max(1, clog2(DEPTH))
    parameter RMW = 5,                 // room counter width: holds DEPTH
    parameter MAXL = 4                 // longest packet: room_ge has a bit per len 1..MAXL
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           push,
    input  wire [`QFLITW_BITS-1:0] push_flit, // {head, tail, vc, data} (csim/flit.h QFLITW_*)
    input  wire           pop,
    input  wire [3:0]     take,        // len of a packet granted this cycle (0: none)
    output wire           front_valid,
    output wire [`QFLITW_BITS-1:0] front,
    output reg  [MAXL-1:0] room_ge     // bit n-1: room >= n
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
    localparam [RMW-1:0] ROOM_FULL = DEPTH[RMW-1:0];
    reg [RMW-1:0] room;
    wire [RMW-1:0] room_next = room - {{(RMW-4){1'b0}}, take} + {{(RMW-1){1'b0}}, pop};
    function [MAXL-1:0] ge_bits;       // {room >= MAXL, ..., room >= 1}
        input [RMW-1:0] r;
        integer n;
        begin
            for (n = 1; n <= MAXL; n = n + 1) ge_bits[n-1] = r >= n[RMW-1:0];
        end
    endfunction
    always @(posedge clk) begin
        if (rst) begin
            head <= {DW{1'b0}};
            count <= {(DW+1){1'b0}};
            room <= ROOM_FULL;
            room_ge <= ge_bits(ROOM_FULL);
        end else begin
            if (push && !full) ring[at[DW-1:0]] <= push_flit;
            if (pop) head <= (head == LAST) ? {DW{1'b0}} : head + 1'b1;
            count <= count + {{DW{1'b0}}, push && !full} - {{DW{1'b0}}, pop};
            room <= room_next;
            room_ge <= ge_bits(room_next);
        end
    end
endmodule
