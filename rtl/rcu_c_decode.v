// rcu_c_decode — table C, one row per router of the group: the first valid route item of each
// row as (has, self, port). Table C is kept in registers because C1 needs every row at once.
`include "flit_fields.vh"
module rcu_c_decode #(
    parameter A = 4,
    parameter C_WAYS = 6
) (
    input  wire [A*C_WAYS*`CITEM_BITS-1:0] c_rows, // row x: C_WAYS items (csim/tables.h CITEM_*)
    output reg  [A-1:0]          row_has,
    output reg  [A-1:0]          row_self,
    output reg  [A*`CITEM_PORT_BITS-1:0] row_port
);
    integer x, w;
    reg [`CITEM_BITS-1:0] item;
    reg taken;
    always @* begin
        row_has = {A{1'b0}};
        row_self = {A{1'b0}};
        row_port = {A*`CITEM_PORT_BITS{1'b0}};
        item = {`CITEM_BITS{1'b0}};
        for (x = 0; x < A; x = x + 1) begin
            taken = 1'b0;
            for (w = 0; w < C_WAYS; w = w + 1) begin
                item = c_rows[(x * C_WAYS + w) * `CITEM_BITS +: `CITEM_BITS];
                if (item[`CITEM_VALID_BIT] && !taken) begin
                    taken = 1'b1;
                    row_has[x] = 1'b1;
                    row_self[x] = item[`CITEM_SELF_BIT];
                    row_port[x * `CITEM_PORT_BITS +: `CITEM_PORT_BITS] = item[`CITEM_PORT_BITS-1:0];
                end
            end
        end
    end
endmodule
