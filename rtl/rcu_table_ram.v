// rcu_table_ram — one routing table (A or B) of one input port: synchronous read, one write
// port. A read in the cycle of a write to the same row returns the old row (read-first), which
// csim/rcu.c models by reading before applying the cycle's write. Yosys infers block RAM.
module rcu_table_ram #(
    parameter DEPTH = 16,
    parameter AW = 4,
    parameter W = 64,
    parameter INIT_FILE = ""      // optional $readmemh image (doar tables --out)
) (
    input  wire          clk,
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [W-1:0]  wdata,
    input  wire [AW-1:0] raddr,
    output reg  [W-1:0]  rdata
);
    localparam [AW:0] DEPTH_W = DEPTH[AW:0];
    reg [W-1:0] mem [0:DEPTH-1];

    initial begin
        if (INIT_FILE != "") $readmemh(INIT_FILE, mem);
    end

    always @(posedge clk) begin
        if (we && {1'b0, waddr} < DEPTH_W) mem[waddr] <= wdata;
        rdata <= mem[raddr];
    end
endmodule
