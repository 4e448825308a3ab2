// alloc_out — stage 2 of router v2's switch allocator (csim/alloc.c alloc_stage2): the Global
// Resource Bulletin and the output arbiters of every plane. Inputs are the proposals, on this
// cycle's state, of the VCs stage 1 picked (none where there is no pick or it is void).
//   DISCARD picks go. Bulletin on: among the MCAST picks one wins all its slots, inputs round robin
//   from rr_mc, the lowest plane first. Every output slot (o,q) grants one HEAD or ACQ pick of plane
//   q that wants o, round robin from rr_out, unless an MCAST pick of plane q wants o (taken from the
//   picks, not from the bulletin's result: one arbitration level). Combinational.
module alloc_out #(
    parameter K = 7,
    parameter KW = 3,              // max(1, clog2(K))
    parameter S = 2,               // planes
    parameter QW = 1,              // max(1, clog2(S))
    parameter BULLETIN = 1
) (
    input  wire [K*S*3-1:0]  req_kind,     // input i, plane q at (i*S+q)*3
    input  wire [K*S*K-1:0]  req_ports,    // at (i*S+q)*K
    input  wire [K*S*KW-1:0] rr_out,       // output o, plane q at (o*S+q)*KW
    input  wire [KW-1:0]     rr_mc,
    output wire [K*S-1:0]    go,           // (i,q): the pick moves (discard or granted ports)
    output wire [K*S*K-1:0]  granted,      // (i,q): ports granted
    output wire              mc_valid,
    output wire [KW-1:0]     mc_in,
    output wire [QW-1:0]     mc_plane,
    output wire [K*S-1:0]    out_granted,  // (o,q) at o*S+q
    output wire [K*S*KW-1:0] out_winner
);
    localparam [2:0] R_HEAD = 3'd2, R_MCAST = 3'd3, R_ACQ = 3'd4, R_DISCARD = 3'd5;
    genvar gi, gq, go_;

    // ---- the bulletin ----
    wire [K-1:0] mc_inputs;
    wire [K*S-1:0] is_mc;
    generate
        for (gi = 0; gi < K; gi = gi + 1) begin : g_mc
            for (gq = 0; gq < S; gq = gq + 1) begin : g_q
                assign is_mc[gi*S+gq] = BULLETIN != 0 && req_kind[(gi*S+gq)*3 +: 3] == R_MCAST;
            end
            assign mc_inputs[gi] = |is_mc[gi*S +: S];
        end
    endgenerate
    wire mc_found;
    wire [KW-1:0] mc_idx;
    wire [K-1:0] mc_gnt;
    rr_pick #(.W(K), .IW(KW)) mc_arb (.req(mc_inputs), .start(rr_mc), .found(mc_found), .idx(mc_idx), .gnt(mc_gnt));
    reg [QW-1:0] mc_q;
    reg [S-1:0] mc_row;
    integer a, b;
    always @* begin
        mc_row = {S{1'b0}};
        for (a = 0; a < K; a = a + 1)
            if (mc_idx == a[KW-1:0]) mc_row = is_mc[a*S +: S];
        mc_q = {QW{1'b0}};
        for (b = S - 1; b >= 0; b = b - 1)
            if (mc_row[b]) mc_q = b[QW-1:0];
    end
    assign mc_valid = mc_found;
    assign mc_in = mc_idx;
    assign mc_plane = mc_q;

    // ---- the output arbiters, per plane ----
    wire [K*S*K-1:0] out_gnt;              // (o,q): its winner, one-hot (rr_pick gnt)
    generate
        for (gq = 0; gq < S; gq = gq + 1) begin : g_plane
            wire [K-1:0] block;            // ports MCAST picks of this plane want
            wire [K*K-1:0] mcp;
            for (gi = 0; gi < K; gi = gi + 1) begin : g_blk
                assign mcp[gi*K +: K] = is_mc[gi*S+gq] ? req_ports[(gi*S+gq)*K +: K] : {K{1'b0}};
            end
            reg [K-1:0] blk;
            integer c;
            always @* begin
                blk = {K{1'b0}};
                for (c = 0; c < K; c = c + 1) blk = blk | mcp[c*K +: K];
            end
            assign block = blk;
            for (go_ = 0; go_ < K; go_ = go_ + 1) begin : g_out
                wire [K-1:0] cand;
                for (gi = 0; gi < K; gi = gi + 1) begin : g_c
                    wire [2:0] kd = req_kind[(gi*S+gq)*3 +: 3];
                    assign cand[gi] = (kd == R_HEAD || kd == R_ACQ) && req_ports[(gi*S+gq)*K + go_] && !block[go_];
                end
                wire found;
                wire [KW-1:0] idx;
                wire [K-1:0] gnt;
                rr_pick #(.W(K), .IW(KW)) arb (.req(cand), .start(rr_out[(go_*S+gq)*KW +: KW]), .found(found), .idx(idx), .gnt(gnt));
                assign out_gnt[(go_*S+gq)*K +: K] = gnt;
                assign out_granted[go_*S+gq] = found;
                assign out_winner[(go_*S+gq)*KW +: KW] = idx;
            end
        end
    endgenerate

    // ---- what each pick got ----
    generate
        for (gi = 0; gi < K; gi = gi + 1) begin : g_res
            for (gq = 0; gq < S; gq = gq + 1) begin : g_q
                wire [K-1:0] from_out;
                for (go_ = 0; go_ < K; go_ = go_ + 1) begin : g_o
                    assign from_out[go_] = out_gnt[(go_*S+gq)*K + gi];
                end
                wire [S-1:0] row = is_mc[gi*S +: S];
                wire lowest = row[gq] && (gq == 0 || (row & ((1 << gq) - 1)) == {S{1'b0}});
                wire won_mc = mc_gnt[gi] && lowest;
                assign granted[(gi*S+gq)*K +: K] = (won_mc ? req_ports[(gi*S+gq)*K +: K] : {K{1'b0}}) | from_out;
                assign go[gi*S+gq] = req_kind[(gi*S+gq)*3 +: 3] == R_DISCARD || won_mc || from_out != {K{1'b0}};
            end
        end
    endgenerate
endmodule
