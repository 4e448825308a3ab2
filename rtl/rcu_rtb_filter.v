// rcu_rtb_filter — stage 3 of the RTB path: LE = table A's LP bitmap, LF = table B's; filter F
// (zone G only) drops intra-group ports in the packet's source group and global ports in an
// intermediate group; S1 = LE & ~CongL, S2 = LF & ~CongL; the line-22 fallback set is LE, or LF
// when LE is empty (docs/architecture.md "Fallback set"). Options through ports the fault units
// invalidated are removed from LE and LF first. A global input's zone B takes LF (destination-
// group refraction) only when LE is empty (docs/architecture.md "Destination-group refraction").
// Combinational.
module rcu_rtb_filter #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter K = P + A - 1 + H
) (
    input  wire [K-1:0] entry_a,       // LP bitmaps (router ports)
    input  wire [K-1:0] entry_b,
    input  wire [1:0]   zone,          // 0 N, 1 B, 2 G
    input  wire         source_group,  // header's source gid == router gid
    input  wire         global_input,  // this unit serves a global input port
    input  wire [K-1:0] cong_local,
    input  wire [K-1:0] opt_invalid,   // fault masks: options through these ports are invalid
    output wire [K-1:0] s1_ok,
    output wire [K-1:0] s2_ok,
    output wire [K-1:0] le_lf
);
    localparam ZONE_N = 2'd0;
    localparam ZONE_B = 2'd1;
    localparam ZONE_G = 2'd2;

    // Constant port-class masks: intra-group ports P..P+A-2, global ports P+A-1..K-1.
    wire [K-1:0] local_mask, global_mask;
    genvar j;
    generate
        for (j = 0; j < K; j = j + 1) begin : g_masks
            assign local_mask[j] = (j >= P) && (j < P + A - 1);
            assign global_mask[j] = (j >= P + A - 1);
        end
    endgenerate

    wire [K-1:0] le = entry_a & ~opt_invalid;
    wire [K-1:0] lf_raw = (zone == ZONE_N) ? {K{1'b0}} : (entry_b & ~opt_invalid);
    wire [K-1:0] lf = (zone == ZONE_B) ? ((global_input && |le) ? {K{1'b0}} : lf_raw)
                    : (zone != ZONE_G) ? lf_raw
                    : source_group ? (lf_raw & ~local_mask) : (lf_raw & ~global_mask);

    assign s1_ok = le & ~cong_local;
    assign s2_ok = lf & ~cong_local;
    assign le_lf = (|le) ? le : lf;   // the fallback set: LE, or LF when LE is empty
endmodule
