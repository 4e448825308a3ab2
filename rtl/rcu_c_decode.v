// rcu_c_decode — table C, one row per router of the group: the first valid route item of each
// row as (has, self, port). Table C is kept in registers because C1 needs every row at once.
module rcu_c_decode #(
    parameter A = 4,
    parameter C_WAYS = 6
) (
    input  wire [A*C_WAYS*8-1:0] c_rows,     // row x at [x*C_WAYS*8 +: C_WAYS*8]
    output reg  [A-1:0]          row_has,
    output reg  [A-1:0]          row_self,
    output reg  [A*6-1:0]        row_port
);
    localparam ITEM_VALID = 7;
    localparam ITEM_SELF = 6;
    integer x, w;
    reg [7:0] item;
    reg taken;
    always @* begin
        row_has = {A{1'b0}};
        row_self = {A{1'b0}};
        row_port = {A*6{1'b0}};
        item = 8'd0;
        for (x = 0; x < A; x = x + 1) begin
            taken = 1'b0;
            for (w = 0; w < C_WAYS; w = w + 1) begin
                item = c_rows[(x * C_WAYS + w) * 8 +: 8];
                if (item[ITEM_VALID] && !taken) begin
                    taken = 1'b1;
                    row_has[x] = 1'b1;
                    row_self[x] = item[ITEM_SELF];
                    row_port[x * 6 +: 6] = item[5:0];
                end
            end
        end
    end
endmodule
