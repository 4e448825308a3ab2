// rcu_expand — stage 3 of the RTA path (seed 001 Fig. 6): A1 and A2 expand the table A and B
// rows into a*h-bit requests, C1 gives each global port the congestion of the local port table C
// maps it to, N1/N2 drop ports congested globally (CongG) or locally (CongL), and B splits the
// requests into GA, GB = G2&G3, GC = (G2|G3)&~GB, GD (Algorithm 1 lines 2-7); any, the line-16
// fallback set, is the first of them with a mapped port (docs/architecture.md "Fallback set").
// Combinational.
`include "flit_fields.vh"
module rcu_expand #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter K = P + A - 1 + H,
    parameter AH = A * H,
    parameter NM_SLOTS = 8,
    parameter BW = 2
) (
    input  wire [63:0]   entry_a,      // global configuration: {GP, lpc0}
    input  wire [63:0]   entry_b,      // global configuration: lpc1..lpcN
    input  wire [BW-1:0] own_bid,
    input  wire [BW-1:0] dst_bid,
    input  wire [AH-1:0] wired,
    input  wire [K-1:0]  cong_local,
    input  wire [AH-1:0] cong_global,
    input  wire [K-1:0]  opt_invalid,  // fault masks: options through these ports are invalid
    input  wire [A-1:0]  row_has,
    input  wire [A-1:0]  row_self,
    input  wire [A*`CITEM_PORT_BITS-1:0] row_port,
    output wire [AH-1:0] ok_ga,
    output wire [AH-1:0] ok_gb,
    output wire [AH-1:0] ok_gc,
    output wire [AH-1:0] ok_gd,
    output wire [AH-1:0] any
);
    localparam FIRST_GLOBAL = P + A - 1;

    // CongL and the invalid mask widened to 64 ports so that any 6-bit table C port indexes them
    // safely (ports beyond K are neither congested nor invalid).
    wire [63:0] cong_local64, invalid64;
    genvar j;
    generate
        for (j = 0; j < 64; j = j + 1) begin : g_cl64
            if (j < K) begin : g_in
                assign cong_local64[j] = cong_local[j];
                assign invalid64[j] = opt_invalid[j];
            end else begin : g_out
                assign cong_local64[j] = 1'b0;
                assign invalid64[j] = 1'b0;
            end
        end
    endgenerate

    reg [AH-1:0] ga, nm, own_m, dst_m, map, clc;
    reg sel;
    integer x, i, s;
    always @* begin
        ga = {AH{1'b0}};
        nm = {AH{1'b0}};
        own_m = {AH{1'b0}};
        dst_m = {AH{1'b0}};
        map = {AH{1'b0}};
        clc = {AH{1'b0}};
        sel = 1'b0;
        for (x = 0; x < A; x = x + 1) begin
            // A2: is router x named by a valid non-minimal slot?
            sel = 1'b0;
            for (s = 0; s < NM_SLOTS; s = s + 1)
                if (entry_b[s * `LPC_BITS + `LPC_VALID_BIT] && entry_b[s * `LPC_BITS +: `LPC_BID_BITS] == x[`LPC_BID_BITS-1:0])
                    sel = 1'b1;
            for (i = 0; i < H; i = i + 1) begin
                // A1: lpc0 names router x and GP selects its port i.
                ga[x * H + i] = entry_a[`LPC_VALID_BIT] && entry_a[`LPC_BID_BITS-1:0] == x[`LPC_BID_BITS-1:0] &&
                                entry_a[`GLOBAL_A_GP_SHIFT + i];
                nm[x * H + i] = sel && wired[x * H + i];
                own_m[x * H + i] = own_bid == x[BW-1:0];
                dst_m[x * H + i] = dst_bid == x[BW-1:0];
                // C1: the local port of global port x*h+i is the router's own global port i
                // (self) or the intra-group port toward router x.
                // A global port whose local port is invalid (fault masks) is mapped nowhere.
                map[x * H + i] = row_has[x] && !(row_self[x] ? invalid64[FIRST_GLOBAL + i]
                                                             : invalid64[row_port[x * `CITEM_PORT_BITS +: `CITEM_PORT_BITS]]);
                clc[x * H + i] = row_self[x] ? cong_local64[FIRST_GLOBAL + i]
                                             : cong_local64[row_port[x * `CITEM_PORT_BITS +: `CITEM_PORT_BITS]];
            end
        end
        nm = nm & ~ga;
    end

    wire [AH-1:0] g2 = nm & own_m;
    wire [AH-1:0] g3 = nm & dst_m;
    wire [AH-1:0] gb = g2 & g3;
    wire [AH-1:0] gc = (g2 | g3) & ~gb;
    wire [AH-1:0] gd = nm & ~(g2 | g3);
    // N1/N2: neither the global port nor its local port may be congested.
    wire [AH-1:0] free_m = map & ~clc & ~cong_global;

    assign ok_ga = ga & free_m;
    assign ok_gb = gb & free_m;
    assign ok_gc = gc & free_m;
    assign ok_gd = gd & free_m;
    // The fallback set (every candidate congested): the fewest-hop class with a mapped port, in
    // P1's order (docs/architecture.md "Fallback").
    wire [AH-1:0] ga_m = ga & map, gb_m = gb & map, gc_m = gc & map, gd_m = gd & map;
    assign any = (|ga_m) ? ga_m : (|gb_m) ? gb_m : (|gc_m) ? gc_m : gd_m;
endmodule
