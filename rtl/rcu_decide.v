// rcu_decide — stage 4 (seed 001 Fig. 6): RTA's P1 takes the lowest-hop non-empty class
// (GA, GB, GC, GD), round robin from ptr_rta inside it, and M/P2 map the winning global port to
// a router port through table C; RTB's P3 prefers S1 over S2, round robin from ptr_rtb. When
// nothing is uncongested the LFSR picks (Algorithm 1 lines 16 and 22). The VC rule gives the
// output VC. Combinational; rcu.v registers the result and the pointers.
`include "flit_fields.vh"
module rcu_decide #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter K = P + A - 1 + H,
    parameter AH = A * H,
    parameter GPW = 3,            // index width over AH: max(1, clog2(AH))
    parameter KB = 3              // bits of LFSR for a start over K: max(1, clog2(K))
) (
    input  wire           valid,
    input  wire           bad,          // destination out of range: no route
    input  wire           rta,
    input  wire [AH-1:0]  ok_ga,
    input  wire [AH-1:0]  ok_gb,
    input  wire [AH-1:0]  ok_gc,
    input  wire [AH-1:0]  ok_gd,
    input  wire [AH-1:0]  any,
    input  wire [K-1:0]   s1_ok,
    input  wire [K-1:0]   s2_ok,
    input  wire [K-1:0]   le_lf,
    input  wire [1:0]     in_vc,
    input  wire           keep_vc,      // destination-group refraction: an intra-group hop keeps the VC
    input  wire [1:0]     port_class,   // 0 terminal, 1 intra-group, 2 global
    input  wire [GPW-1:0] ptr_rta,
    input  wire [5:0]     ptr_rtb,
    input  wire [GPW-1:0] rand_ah,      // LFSR low bits for a start over AH
    input  wire [KB-1:0]  rand_k,       // LFSR low bits for a start over K
    input  wire [A-1:0]   row_self,
    input  wire [A*`CITEM_PORT_BITS-1:0] row_port,
    output reg            dec_valid,
    output reg  [5:0]     dec_port,
    output reg  [1:0]     dec_vc,
    output reg  [3:0]     dec_class,
    output reg            dec_gport_valid,
    output reg  [GPW-1:0] dec_gport,
    output reg            upd_rta,
    output reg            upd_rtb
);
    localparam FIRST_GLOBAL = P + A - 1;
    localparam [3:0] CLS_NONE = 4'd0, CLS_GA = 4'd1, CLS_GB = 4'd2, CLS_GC = 4'd3, CLS_GD = 4'd4,
                     CLS_RTA_RAND = 4'd5, CLS_S1 = 4'd6, CLS_S2 = 4'd7, CLS_RTB_RAND = 4'd8;
    localparam [1:0] PC_TERMINAL = 2'd0, PC_LOCAL = 2'd1, PC_GLOBAL = 2'd2;
    localparam [1:0] MAX_VC = 2'd3;

    localparam [GPW:0] AH_W = AH[GPW:0];
    localparam [KB:0]  K_W = K[KB:0];
    localparam [GPW-1:0] AH_T = AH_W[GPW-1:0];   // AH mod 2**GPW
    localparam [KB-1:0]  K_T = K_W[KB-1:0];

    // LFSR start positions in [0, W): the low bits r, or r - W when r >= W (r < 2W always,
    // so the difference fits the index width and no divider is needed).
    wire [GPW-1:0] start_ah = ({1'b0, rand_ah} < AH_W) ? rand_ah : rand_ah - AH_T;
    wire [KB-1:0]  start_kb = ({1'b0, rand_k} < K_W) ? rand_k : rand_k - K_T;
    wire [5:0] start_k;
    generate
        if (KB < 6) begin : g_pad
            assign start_k = {{(6 - KB){1'b0}}, start_kb};
        end else begin : g_nopad
            assign start_k = start_kb;
        end
    endgenerate

    // P1 priority GA > GB > GC > GD. (GB and GC are never both non-empty: GB needs R_d = R_s,
    // which makes G2 = G3 and GC empty.)
    wire [AH-1:0] pri2 = ok_gc, pri3 = ok_gd;
    localparam [3:0] CLS_PRI2 = CLS_GC, CLS_PRI3 = CLS_GD;

    wire f_ga, f_gb, f_p2, f_p3, f_any, f_s1, f_s2, f_lelf;
    wire [GPW-1:0] i_ga, i_gb, i_p2, i_p3, i_any;
    wire [5:0] i_s1, i_s2, i_lelf;
    rr_pick #(.W(AH), .IW(GPW), .GNT(0)) pick_ga  (.req(ok_ga), .start(ptr_rta),  .found(f_ga),  .idx(i_ga), .gnt());
    rr_pick #(.W(AH), .IW(GPW), .GNT(0)) pick_gb  (.req(ok_gb), .start(ptr_rta),  .found(f_gb),  .idx(i_gb), .gnt());
    rr_pick #(.W(AH), .IW(GPW), .GNT(0)) pick_p2  (.req(pri2),  .start(ptr_rta),  .found(f_p2),  .idx(i_p2), .gnt());
    rr_pick #(.W(AH), .IW(GPW), .GNT(0)) pick_p3  (.req(pri3),  .start(ptr_rta),  .found(f_p3),  .idx(i_p3), .gnt());
    rr_pick #(.W(AH), .IW(GPW), .GNT(0)) pick_any (.req(any),   .start(start_ah), .found(f_any), .idx(i_any), .gnt());
    rr_pick #(.W(K), .IW(6), .GNT(0))   pick_s1  (.req(s1_ok), .start(ptr_rtb),  .found(f_s1),  .idx(i_s1), .gnt());
    rr_pick #(.W(K), .IW(6), .GNT(0))   pick_s2  (.req(s2_ok), .start(ptr_rtb),  .found(f_s2),  .idx(i_s2), .gnt());
    rr_pick #(.W(K), .IW(6), .GNT(0))   pick_ll  (.req(le_lf), .start(start_k),  .found(f_lelf), .idx(i_lelf), .gnt());

    // The winning global port g and its class (P1).
    reg [GPW-1:0] g;
    reg [3:0] rta_cls;
    always @* begin
        g = {GPW{1'b0}};
        rta_cls = CLS_NONE;
        if (f_ga)       begin g = i_ga;  rta_cls = CLS_GA; end
        else if (f_gb)  begin g = i_gb;  rta_cls = CLS_GB; end
        else if (f_p2)  begin g = i_p2;  rta_cls = CLS_PRI2; end
        else if (f_p3)  begin g = i_p3;  rta_cls = CLS_PRI3; end
        else if (f_any) begin g = i_any; rta_cls = CLS_RTA_RAND; end
    end

    // M/P2: router x owns g when x*H <= g < (x+1)*H (comparators, no divider); its table C row
    // gives the router port, or "self": the router's own global port g - x*H.
    localparam integer FIRST_GLOBAL_I = FIRST_GLOBAL;
    localparam [5:0] FIRST_GLOBAL_6 = FIRST_GLOBAL_I[5:0];
    localparam [5:0] P_6 = P[5:0];
    wire [15:0] g16 = {{(16 - GPW){1'b0}}, g};
    wire [A-1:0] x_hit;
    wire [A*6-1:0] x_port;
    genvar gx;
    generate
        for (gx = 0; gx < A; gx = gx + 1) begin : g_split
            localparam integer LO_I = gx * H;
            localparam integer HI_I = (gx + 1) * H;
            localparam [15:0] LO = LO_I[15:0];
            localparam [15:0] HI = HI_I[15:0];
            wire [5:0] offset = g16[5:0] - LO[5:0];
            if (gx == 0) begin : g_first
                assign x_hit[gx] = g16 < HI;
            end else begin : g_rest
                assign x_hit[gx] = g16 >= LO && g16 < HI;
            end
            assign x_port[gx * 6 +: 6] = row_self[gx] ? FIRST_GLOBAL_6 + offset : row_port[gx * `CITEM_PORT_BITS +: `CITEM_PORT_BITS];
        end
    endgenerate

    reg [5:0] port;
    reg [3:0] cls;
    reg [1:0] out_class_of_port;
    integer x;
    always @* begin
        x = 0;   // the loop variable is assigned on every path: no latch
        cls = rta_cls;
        port = 6'd0;
        if (!rta) begin
            if (f_s1)        begin port = i_s1;   cls = CLS_S1; end
            else if (f_s2)   begin port = i_s2;   cls = CLS_S2; end
            else if (f_lelf) begin port = i_lelf; cls = CLS_RTB_RAND; end
            else             cls = CLS_NONE;
        end else begin
            for (x = 0; x < A; x = x + 1)
                if (x_hit[x]) port = x_port[x * 6 +: 6];
        end
        if (!valid || bad) cls = CLS_NONE;

        dec_valid = valid;
        dec_class = cls;
        dec_port = (cls == CLS_NONE) ? 6'd0 : port;
        dec_gport_valid = valid && rta && cls != CLS_NONE;
        dec_gport = dec_gport_valid ? g : {GPW{1'b0}};
        upd_rta = dec_gport_valid;
        upd_rtb = valid && !rta && cls != CLS_NONE;

        // VC rule: terminal input -> VC 0; ejection keeps the VC; a destination-group refraction
        // hop to an intra-group port keeps it; otherwise +1 when the output port's level is >= the
        // input's (intra-group < global), saturating at MAX_VC.
        out_class_of_port = (port >= FIRST_GLOBAL_6) ? PC_GLOBAL : (port >= P_6) ? PC_LOCAL : PC_TERMINAL;
        if (port_class == PC_TERMINAL || cls == CLS_NONE) dec_vc = 2'd0;
        else if (out_class_of_port == PC_TERMINAL) dec_vc = in_vc;
        else if (keep_vc && !rta && out_class_of_port == PC_LOCAL) dec_vc = in_vc;
        else if (out_class_of_port >= port_class) dec_vc = (in_vc == MAX_VC) ? MAX_VC : in_vc + 2'd1;
        else dec_vc = in_vc;
    end
endmodule
