// rcu — the DOAR route-compute unit of one input port (seed 001 sec. 3.2, Fig. 6, Algorithm 1).
// A 4-stage pipeline: one header in per cycle, its decision on the outputs 4 cycles later.
// csim/rcu.c is the cycle-accurate model; docs/architecture.md ("RCU pipeline") gives the cycle
// each signal is valid in. Table rows use the formats of docs/architecture.md sec. 2.
//
//   cycle t   stage 1  zone decode (N/B/G), row addresses                -> s1_*
//   cycle t+1 stage 2  table A/B RAM read                                -> s2_*, entry_a/b
//   cycle t+2 stage 3  RTA: A1/A2/C1/N1/N2/B   RTB: S1/S2/F (CongL/CongG of this cycle) -> s3_*
//   cycle t+3 stage 4  P1/M/P2 or P3, LFSR fallback, VC rule               -> out_*
//   cycle t+4          decision on out_*
`include "flit_fields.vh"
module rcu #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter G = 9,
    parameter NM_SLOTS = 8,            // table B non-minimal router slots (seed 001: 8)
    parameter C_WAYS = 6,              // table C route items per row (seed 001: 6)
    // derived — do not override
    parameter K = P + A - 1 + H,
    parameter AH = A * H,
    parameter DEPTH_A = P + A + G,
    parameter DEPTH_B = A + G,
    parameter GW = (G > 1) ? $clog2(G) : 1,
    parameter BW = (A > 1) ? $clog2(A) : 1,
    parameter NW = (P > 1) ? $clog2(P) : 1,
    parameter GPW = (AH > 1) ? $clog2(AH) : 1,
    parameter KB = (K > 1) ? $clog2(K) : 1,
    parameter TAW = (DEPTH_A > 1) ? $clog2(DEPTH_A) : 1,
    // optional $readmemh images of this port's tables (FPGA builds)
    parameter INIT_A = "",
    parameter INIT_B = "",
    parameter INIT_C = ""
) (
    input  wire           clk,
    input  wire           rst,              // synchronous; tables keep their contents
    // static configuration: change only while rst is high
    input  wire [GW-1:0]  cfg_gid,
    input  wire [BW-1:0]  cfg_bid,
    input  wire [1:0]     cfg_port_class,   // 0 terminal, 1 intra-group, 2 global
    input  wire [AH-1:0]  cfg_wired,
    input  wire [31:0]    cfg_lfsr_seed,
    // header (cycle t): the full fields of the flit format (csim/flit.h); values out of range
    // (gid >= G, bid >= A, nid >= P) give the decision "none"
    input  wire           in_valid,
    input  wire [10:0]    in_dst_gid,
    input  wire [5:0]     in_dst_bid,
    input  wire [5:0]     in_dst_nid,
    input  wire [10:0]    in_src_gid,
    input  wire [1:0]     in_vc,
    // congestion, used by stage 3 in the cycle it is presented
    input  wire [K-1:0]   cong_local,
    input  wire [AH-1:0]  cong_global,
    // fault masks (csim/fault.h): mask_row is the entry stage 2 reads this cycle; the caller's
    // synchronous read of its valid mask comes back on opt_invalid in the next cycle (stage 3):
    // bit j set = options through port j are invalid
    output wire [TAW-1:0] mask_row,
    input  wire [K-1:0]   opt_invalid,
    // table write port (takes effect at the end of the cycle)
    input  wire           tw_valid,
    input  wire [1:0]     tw_table,         // 0 A, 1 B, 2 C
    input  wire [TAW-1:0] tw_addr,
    input  wire [63:0]    tw_data,
    // decision (cycle t+4)
    output reg            out_valid,
    output reg  [5:0]     out_port,
    output reg  [1:0]     out_vc,
    output reg  [3:0]     out_class,
    output reg            out_gport_valid,
    output reg  [GPW-1:0] out_gport
);
    localparam CW = C_WAYS * `CITEM_BITS;
    localparam [1:0] ZONE_N = 2'd0, ZONE_B = 2'd1, ZONE_G = 2'd2;
    localparam [1:0] TW_A = 2'd0, TW_B = 2'd1, TW_C = 2'd2;
    localparam [1:0] PC_TERMINAL = 2'd0, PC_GLOBAL = 2'd2;
    localparam integer P_PLUS_A = P + A;
    localparam [TAW-1:0] BASE_B = P[TAW-1:0];            // table A rows: N zone, then B, then G
    localparam [TAW-1:0] BASE_G_A = P_PLUS_A[TAW-1:0];
    localparam [TAW-1:0] BASE_G_B = A[TAW-1:0];          // table B rows: B zone, then G

    // ---------------- stage 1: zone decode ----------------
    reg [1:0] zone_d;
    reg [TAW-1:0] row_a_d, row_b_d;
    always @* begin
        if (in_dst_gid != own_gid) begin
            zone_d = ZONE_G;
            row_a_d = BASE_G_A + {{(TAW-GW){1'b0}}, in_dst_gid[GW-1:0]};
            row_b_d = BASE_G_B + {{(TAW-GW){1'b0}}, in_dst_gid[GW-1:0]};
        end else if (in_dst_bid != own_bid) begin
            zone_d = ZONE_B;
            row_a_d = BASE_B + {{(TAW-BW){1'b0}}, in_dst_bid[BW-1:0]};
            row_b_d = {{(TAW-BW){1'b0}}, in_dst_bid[BW-1:0]};
        end else begin
            zone_d = ZONE_N;
            row_a_d = {{(TAW-NW){1'b0}}, in_dst_nid[NW-1:0]};
            row_b_d = {TAW{1'b0}};
        end
    end

    // A destination field out of range gives the decision "none".
    localparam [10:0] G_LIM = G[10:0];
    localparam [5:0] A_LIM = A[5:0];
    localparam [5:0] P_LIM = P[5:0];
    wire hdr_bad = in_dst_gid >= G_LIM || in_dst_bid >= A_LIM || in_dst_nid >= P_LIM;
    wire [10:0] own_gid = {{(11-GW){1'b0}}, cfg_gid};
    wire [5:0] own_bid = {{(6-BW){1'b0}}, cfg_bid};

    reg           s1_valid, s1_rta, s1_src_here, s1_bad;
    reg [1:0]     s1_zone, s1_vc;
    reg [BW-1:0]  s1_dst_bid;      // in range whenever the header is not bad
    reg [TAW-1:0] s1_row_a, s1_row_b;
    always @(posedge clk) begin
        s1_valid <= in_valid && !rst;
        s1_rta <= cfg_port_class == PC_TERMINAL && zone_d == ZONE_G;
        s1_src_here <= in_src_gid == own_gid;
        s1_zone <= zone_d;
        s1_vc <= in_vc;
        s1_dst_bid <= in_dst_bid[BW-1:0];
        s1_bad <= hdr_bad;
        s1_row_a <= (in_valid && !hdr_bad) ? row_a_d : {TAW{1'b0}};
        s1_row_b <= (in_valid && !hdr_bad) ? row_b_d : {TAW{1'b0}};
    end

    // ---------------- stage 2: table RAM read ----------------
    assign mask_row = s1_row_a;
    wire [63:0] entry_a, entry_b;
    rcu_table_ram #(.DEPTH(DEPTH_A), .AW(TAW), .W(64), .INIT_FILE(INIT_A)) table_a (
        .clk(clk), .we(tw_valid && tw_table == TW_A), .waddr(tw_addr), .wdata(tw_data),
        .raddr(s1_row_a), .rdata(entry_a));
    rcu_table_ram #(.DEPTH(DEPTH_B), .AW(TAW), .W(64), .INIT_FILE(INIT_B)) table_b (
        .clk(clk), .we(tw_valid && tw_table == TW_B), .waddr(tw_addr), .wdata(tw_data),
        .raddr(s1_row_b), .rdata(entry_b));

    reg           s2_valid, s2_rta, s2_src_here, s2_bad;
    reg [1:0]     s2_zone, s2_vc;
    reg [BW-1:0]  s2_dst_bid;
    always @(posedge clk) begin
        s2_valid <= s1_valid && !rst;
        s2_rta <= s1_rta;
        s2_src_here <= s1_src_here;
        s2_zone <= s1_zone;
        s2_vc <= s1_vc;
        s2_dst_bid <= s1_dst_bid;
        s2_bad <= s1_bad;
    end

    // Table C in registers: C1 reads every row at once.
    reg [CW-1:0] table_c [0:A-1];
    initial begin
        if (INIT_C != "") $readmemh(INIT_C, table_c);
    end
    localparam [TAW:0] A_W = A[TAW:0];
    always @(posedge clk) begin
        if (tw_valid && tw_table == TW_C && {1'b0, tw_addr} < A_W) table_c[tw_addr[BW-1:0]] <= tw_data[CW-1:0];
    end
    wire [A*CW-1:0] c_rows;
    genvar cx;
    generate
        for (cx = 0; cx < A; cx = cx + 1) begin : g_c_rows
            assign c_rows[cx * CW +: CW] = table_c[cx];
        end
    endgenerate
    wire [A-1:0] row_has, row_self;
    wire [A*`CITEM_PORT_BITS-1:0] row_port;
    rcu_c_decode #(.A(A), .C_WAYS(C_WAYS)) c_decode (
        .c_rows(c_rows), .row_has(row_has), .row_self(row_self), .row_port(row_port));

    // ---------------- stage 3: candidate sets ----------------
    wire [AH-1:0] ok_ga_d, ok_gb_d, ok_gc_d, ok_gd_d, any_d;
    rcu_expand #(.P(P), .A(A), .H(H), .NM_SLOTS(NM_SLOTS), .BW(BW)) expand (
        .entry_a(entry_a), .entry_b(entry_b), .own_bid(cfg_bid), .dst_bid(s2_dst_bid),
        .wired(cfg_wired), .cong_local(cong_local), .cong_global(cong_global), .opt_invalid(opt_invalid),
        .row_has(row_has), .row_self(row_self), .row_port(row_port),
        .ok_ga(ok_ga_d), .ok_gb(ok_gb_d), .ok_gc(ok_gc_d), .ok_gd(ok_gd_d), .any(any_d));
    wire [K-1:0] s1_ok_d, s2_ok_d, le_lf_d;
    rcu_rtb_filter #(.P(P), .A(A), .H(H)) rtb_filter (
        .entry_a(entry_a[K-1:0]), .entry_b(entry_b[K-1:0]), .zone(s2_zone), .source_group(s2_src_here),
        .global_input(cfg_port_class == PC_GLOBAL), .cong_local(cong_local), .opt_invalid(opt_invalid),
        .s1_ok(s1_ok_d), .s2_ok(s2_ok_d), .le_lf(le_lf_d));

    reg           s3_valid, s3_rta, s3_bad;
    reg [A-1:0]   s3_row_self;      // table C as C1 saw it: M/P2 map with the same rows
    reg [A*`CITEM_PORT_BITS-1:0] s3_row_port;
    reg [1:0]     s3_vc;
    reg           s3_keep_vc;       // zone N or B outside the source group: an intra-group hop keeps the VC
    reg [AH-1:0]  s3_ok_ga, s3_ok_gb, s3_ok_gc, s3_ok_gd, s3_any;
    reg [K-1:0]   s3_s1_ok, s3_s2_ok, s3_le_lf;
    always @(posedge clk) begin
        s3_valid <= s2_valid && !rst;
        s3_rta <= s2_rta;
        s3_bad <= s2_bad;
        s3_row_self <= row_self;
        s3_row_port <= row_port;
        s3_vc <= s2_vc;
        s3_keep_vc <= s2_zone != ZONE_G && !s2_src_here;
        s3_ok_ga <= ok_ga_d;
        s3_ok_gb <= ok_gb_d;
        s3_ok_gc <= ok_gc_d;
        s3_ok_gd <= ok_gd_d;
        s3_any <= any_d;
        s3_s1_ok <= s1_ok_d;
        s3_s2_ok <= s2_ok_d;
        s3_le_lf <= le_lf_d;
    end

    // ---------------- stage 4: decision ----------------
    // The LFSR is 32 bits for its period; stage 4 uses only its low bits.
    wire [31:0] lfsr;
    rcu_lfsr lfsr_gen (.clk(clk), .rst(rst), .seed(cfg_lfsr_seed), .state(lfsr));
    reg [GPW-1:0] ptr_rta;
    reg [5:0] ptr_rtb;

    wire dec_valid, dec_gport_valid, upd_rta, upd_rtb;
    wire [5:0] dec_port;
    wire [1:0] dec_vc;
    wire [3:0] dec_class;
    wire [GPW-1:0] dec_gport;
    rcu_decide #(.P(P), .A(A), .H(H), .GPW(GPW), .KB(KB)) decide (
        .valid(s3_valid), .bad(s3_bad), .rta(s3_rta), .ok_ga(s3_ok_ga), .ok_gb(s3_ok_gb), .ok_gc(s3_ok_gc),
        .ok_gd(s3_ok_gd), .any(s3_any), .s1_ok(s3_s1_ok), .s2_ok(s3_s2_ok), .le_lf(s3_le_lf),
        .in_vc(s3_vc), .keep_vc(s3_keep_vc), .port_class(cfg_port_class), .ptr_rta(ptr_rta), .ptr_rtb(ptr_rtb),
        .rand_ah(lfsr[GPW-1:0]), .rand_k(lfsr[KB-1:0]),
        .row_self(s3_row_self), .row_port(s3_row_port),
        .dec_valid(dec_valid), .dec_port(dec_port), .dec_vc(dec_vc), .dec_class(dec_class),
        .dec_gport_valid(dec_gport_valid), .dec_gport(dec_gport), .upd_rta(upd_rta), .upd_rtb(upd_rtb));

    localparam integer AH_M1 = AH - 1;
    localparam integer K_M1 = K - 1;
    localparam [GPW-1:0] LAST_GPORT = AH_M1[GPW-1:0];
    localparam [5:0] LAST_PORT = K_M1[5:0];
    always @(posedge clk) begin
        if (rst) begin
            ptr_rta <= {GPW{1'b0}};
            ptr_rtb <= 6'd0;
            out_valid <= 1'b0;
            out_port <= 6'd0;
            out_vc <= 2'd0;
            out_class <= 4'd0;
            out_gport_valid <= 1'b0;
            out_gport <= {GPW{1'b0}};
        end else begin
            if (upd_rta) ptr_rta <= (dec_gport == LAST_GPORT) ? {GPW{1'b0}} : dec_gport + 1'b1;
            if (upd_rtb) ptr_rtb <= (dec_port == LAST_PORT) ? 6'd0 : dec_port + 6'd1;
            out_valid <= dec_valid;
            out_port <= dec_port;
            out_vc <= dec_vc;
            out_class <= dec_class;
            out_gport_valid <= dec_gport_valid;
            out_gport <= dec_gport;
        end
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
