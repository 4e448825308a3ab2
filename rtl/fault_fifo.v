// fault_fifo — the message FIFOs of the fault unit (csim/fault.c, fault_fifo): one per input
// port (FD/FR packets waiting for the scheduler), one for local events, one per output port.
// Per cycle, in this order: the head is popped (when visible and pop), then up to two messages
// are written (w0 before w1), each dropped when the FIFO is full (drop0/drop1). Written messages
// become visible to pop only when `commit` is high (output FIFOs: the command's last cycle);
// with COMMIT_ALWAYS every written message is visible from the next cycle (input FIFOs).
module fault_fifo #(
    parameter W = 8,
    parameter DEPTH = 4,               // power of two
    parameter AW = 2,                  // clog2(DEPTH)
    parameter COMMIT_ALWAYS = 1
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         pop,
    input  wire         w0,
    input  wire [W-1:0] d0,
    input  wire         w1,
    input  wire [W-1:0] d1,
    input  wire         commit,
    output wire [W-1:0] head_data,
    output wire         head_valid,    // a visible message is at the head
    output wire         ready,         // count < DEPTH at the start of the cycle
    output wire         drop0,
    output wire         drop1
);
    localparam [AW:0] DEPTH_W = DEPTH[AW:0];

    reg [W-1:0]  mem [0:DEPTH-1];
    reg [AW-1:0] rd;
    reg [AW:0]   count, visible;

    assign head_data = mem[rd];
    assign head_valid = visible != {(AW+1){1'b0}};
    assign ready = count != DEPTH_W;

    wire         do_pop = pop && head_valid;
    wire [AW:0]  after_pop = count - {{AW{1'b0}}, do_pop};
    wire         ok0 = w0 && after_pop != DEPTH_W;
    wire [AW:0]  after0 = after_pop + {{AW{1'b0}}, ok0};
    wire         ok1 = w1 && after0 != DEPTH_W;
    wire [AW:0]  after1 = after0 + {{AW{1'b0}}, ok1};
    wire [AW-1:0] rd_next = rd + {{(AW-1){1'b0}}, do_pop};
    // slot index of the n-th message after the head (mod DEPTH: AW-bit wrap)
    wire [AW-1:0] slot0 = rd_next + after_pop[AW-1:0];
    wire [AW-1:0] slot1 = rd_next + after0[AW-1:0];

    assign drop0 = w0 && !ok0;
    assign drop1 = w1 && !ok1;

    always @(posedge clk) begin
        if (rst) begin
            rd <= {AW{1'b0}};
            count <= {(AW+1){1'b0}};
            visible <= {(AW+1){1'b0}};
        end else begin
            if (ok0) mem[slot0] <= d0;
            if (ok1) mem[slot1] <= d1;
            rd <= rd_next;
            count <= after1;
            if (COMMIT_ALWAYS != 0 || commit) visible <= after1;
            else visible <= visible - {{AW{1'b0}}, do_pop};
        end
    end
endmodule
