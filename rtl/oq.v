// oq — one output queue of router v2 (csim/oq.h): the flits one crossbar plane delivered to one
// output port, waiting for the link. A register FIFO of DEPTH flits {head, tail, vc, data} and the
// room counter the allocator reads: a grant takes its packet's len, every flit the link takes
// gives one back. A push into a queue that is full and not popped in the same cycle is dropped
// (only a packet longer than its len can do that). Pushes and pops take effect at the end of the
// cycle.
module oq #(
    parameter DEPTH = 8,
    parameter DW = 3,                  // max(1, clog2(DEPTH))
    parameter RMW = 5                  // room counter width: holds DEPTH
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           push,
    input  wire [67:0]    push_flit,   // {head, tail, vc[1:0], data[63:0]}
    input  wire           pop,
    input  wire [3:0]     take,        // len of a packet granted this cycle (0: none)
    output wire           front_valid,
    output wire [67:0]    front,
    output reg  [RMW-1:0] room
);
    localparam [DW:0] DEPTH_W = DEPTH[DW:0];
    localparam [DW-1:0] LAST = DEPTH_W[DW-1:0] - 1'b1;
    reg [67:0] ring [0:DEPTH-1];
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
    always @(posedge clk) begin
        if (rst) begin
            head <= {DW{1'b0}};
            count <= {(DW+1){1'b0}};
            room <= ROOM_FULL;
        end else begin
            if (push && !full) ring[at[DW-1:0]] <= push_flit;
            if (pop) head <= (head == LAST) ? {DW{1'b0}} : head + 1'b1;
            count <= count + {{DW{1'b0}}, push && !full} - {{DW{1'b0}}, pop};
            room <= room - {{(RMW-4){1'b0}}, take} + {{(RMW-1){1'b0}}, pop};
        end
    end
endmodule
