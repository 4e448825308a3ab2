// rcu_lfsr — 32-bit Galois LFSR, x^32 + x^22 + x^2 + x + 1 (taps 0x80200003). Steps every
// cycle; reset loads the seed (an all-zero seed is replaced by 1). Same sequence as
// rcu_lfsr_next() in csim/rcu.c.
module rcu_lfsr (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] seed,
    output reg  [31:0] state
);
    localparam [31:0] TAPS = 32'h8020_0003;
    always @(posedge clk) begin
        if (rst) state <= (seed != 32'd0) ? seed : 32'd1;
        else     state <= (state >> 1) ^ (state[0] ? TAPS : 32'd0);
    end
endmodule
