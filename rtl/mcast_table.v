// mcast_table — multicast output-port sets per (input port, group). Mirrors csim/mcast.c.
// K read ports (one per input, read in the cycle a route entry is written); one write port
// (takes effect at the end of the cycle; out-of-range port or group is ignored).
module mcast_table #(
    parameter K = 7,
    parameter MGROUPS = 16
) (
    input  wire             clk,
    input  wire             we,
    input  wire [5:0]       wport,
    input  wire [7:0]       wgroup,
    input  wire [K-1:0]     wset,
    input  wire [K*8-1:0]   rgroup,     // per input port
    output wire [K*K-1:0]   rset
);
    reg [K-1:0] sets [0:K*MGROUPS-1];
    localparam [6:0] K_W = K[6:0];
    localparam [8:0] MG_W = MGROUPS[8:0];

    always @(posedge clk) begin
        if (we && {1'b0, wport} < K_W && {1'b0, wgroup} < MG_W)
            sets[{{(26){1'b0}}, wport} * MGROUPS + {{(24){1'b0}}, wgroup}] <= wset;
    end

    genvar i;
    generate
        for (i = 0; i < K; i = i + 1) begin : g_read
            wire [7:0] grp = rgroup[i*8 +: 8];
            assign rset[i*K +: K] = ({1'b0, grp} < MG_W) ? sets[i * MGROUPS + {{24{1'b0}}, grp}] : {K{1'b0}};
        end
    endgenerate
endmodule
