// rcu_pick — the lowest set bit of req at or after index start, wrapping around (a rotating
// priority encoder). Used for round robin inside a class (start = pointer) and for the LFSR
// fallback of Algorithm 1 lines 16/22 (start from the LFSR). Combinational.
module rcu_pick #(
    parameter W = 8,
    parameter IW = 3              // index width, >= 1, 2**IW >= W
) (
    input  wire [W-1:0]  req,
    input  wire [IW-1:0] start,
    output reg           found,
    output reg  [IW-1:0] idx
);
    integer j;
    reg hit_hi;
    always @* begin
        found = 1'b0;
        hit_hi = 1'b0;
        idx = {IW{1'b0}};
        // Scanning downwards, the last hit is the lowest index.
        for (j = W - 1; j >= 0; j = j - 1) begin
            if (req[j] && j >= start) begin
                hit_hi = 1'b1;
                idx = j[IW-1:0];
            end
        end
        if (!hit_hi) begin
            for (j = W - 1; j >= 0; j = j - 1) begin
                if (req[j]) idx = j[IW-1:0];
            end
        end
        found = |req;
    end
endmodule
