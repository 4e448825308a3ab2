// alloc — switch allocator with the Global Resource Bulletin (seed 003 sec. 5.1). Mirrors
// csim/alloc.c; docs/architecture.md "Switch allocation". Combinational.
//   1. each input picks one proposing VC, round robin from rr_in;
//   2. bulletin on: among inputs whose pick is MCAST, one (round robin from rr_mc) wins all its
//      ports at once;
//   3. every other output grants one HEAD or ACQ pick that wants it, round robin from rr_out.
// BODY and DISCARD picks always proceed.
// Every arbiter is the same one-hot round-robin picker (rr_first): the first request at or after
// the pointer, else the first one; all indices are constants, so synthesis sees small AND/OR
// trees instead of shifters over the request vectors.
module alloc #(
    parameter K = 7,
    parameter KW = 3,              // max(1, clog2(K))
    parameter BULLETIN = 1
) (
    input  wire [K*4*3-1:0] req_kind,    // input i, VC v at (i*4+v)*3: 0 none 1 body 2 head 3 mcast 4 acq 5 discard
    input  wire [K*4*K-1:0] req_ports,   // at (i*4+v)*K
    input  wire [K*2-1:0]   rr_in,
    input  wire [K*KW-1:0]  rr_out,
    input  wire [KW-1:0]    rr_mc,
    input  wire             prio_valid,  // the reserved multicast: its input picks it when ready
    input  wire [KW-1:0]    prio_in,
    input  wire [1:0]       prio_vc,
    output reg  [K-1:0]     pick_valid,  // input moves or acquires this cycle
    output reg  [K*2-1:0]   pick_vc,
    output reg  [K*K-1:0]   acq_ports,   // per input: ports granted (head, multicast, acquisition)
    output wire             mc_valid,
    output wire [KW-1:0]    mc_winner,
    output reg  [K-1:0]     out_valid,   // output granted a head or an acquisition
    output reg  [K*KW-1:0]  out_winner
);
    localparam [2:0] R_NONE = 3'd0, R_BODY = 3'd1, R_HEAD = 3'd2, R_MCAST = 3'd3, R_ACQ = 3'd4, R_DISCARD = 3'd5;

    // one-hot: the first set bit of req at or after ptr, else the first set bit (none: 0)
    function [K-1:0] rr_first;
        input [K-1:0] req;
        input [KW-1:0] ptr;
        reg [K-1:0] upper, from;
        begin
            upper = req & ({K{1'b1}} << ptr);
            from = (upper != {K{1'b0}}) ? upper : req;
            rr_first = from & (~from + {{(K-1){1'b0}}, 1'b1});
        end
    endfunction
    function [3:0] rr_first4;
        input [3:0] req;
        input [1:0] ptr;
        reg [3:0] upper, from;
        begin
            upper = req & (4'b1111 << ptr);
            from = (upper != 4'd0) ? upper : req;
            rr_first4 = from & (~from + 4'd1);
        end
    endfunction
    function [KW-1:0] index_of;      // index of the set bit of a one-hot K-bit vector
        input [K-1:0] onehot;
        integer b;
        begin
            index_of = {KW{1'b0}};
            for (b = 0; b < K; b = b + 1)
                if (onehot[b]) index_of = index_of | b[KW-1:0];
        end
    endfunction

    // ---- 1. input stage: one VC per input ----
    wire [K-1:0] has_pick;
    wire [K*2-1:0] pk;
    wire [K*3-1:0] kind_of;
    wire [K*K-1:0] ports_of;
    genvar gi;
    generate
        for (gi = 0; gi < K; gi = gi + 1) begin : g_input
            wire [11:0] kinds = req_kind[gi*4*3 +: 12];
            wire [4*K-1:0] ports = req_ports[gi*4*K +: 4*K];
            wire [3:0] proposing = {kinds[11:9] != R_NONE, kinds[8:6] != R_NONE,
                                    kinds[5:3] != R_NONE, kinds[2:0] != R_NONE};
            wire [2:0] prio_kind = kinds[prio_vc*3 +: 3];
            wire prio_here = prio_valid && prio_in == gi[KW-1:0] && prio_kind == R_MCAST;
            wire [3:0] chosen = prio_here ? (4'd1 << prio_vc) : rr_first4(proposing, rr_in[gi*2 +: 2]);
            assign has_pick[gi] = chosen != 4'd0;
            assign pk[gi*2 +: 2] = {chosen[3] | chosen[2], chosen[3] | chosen[1]};
            assign kind_of[gi*3 +: 3] = ({3{chosen[0]}} & kinds[2:0]) | ({3{chosen[1]}} & kinds[5:3]) |
                                        ({3{chosen[2]}} & kinds[8:6]) | ({3{chosen[3]}} & kinds[11:9]);
            assign ports_of[gi*K +: K] = ({K{chosen[0]}} & ports[0 +: K]) | ({K{chosen[1]}} & ports[K +: K]) |
                                         ({K{chosen[2]}} & ports[2*K +: K]) | ({K{chosen[3]}} & ports[3*K +: K]);
        end
    endgenerate

    // ---- 2. bulletin stage: one multicast wins all its ports ----
    reg [K-1:0] mc_req, mc_grant, taken, moving;
    integer i, o;
    always @* begin
        for (i = 0; i < K; i = i + 1) begin
            mc_req[i] = has_pick[i] && kind_of[i*3 +: 3] == R_MCAST;
            moving[i] = has_pick[i] && (kind_of[i*3 +: 3] == R_BODY || kind_of[i*3 +: 3] == R_DISCARD);
        end
        mc_grant = (BULLETIN != 0) ? rr_first(mc_req, rr_mc) : {K{1'b0}};
        taken = {K{1'b0}};
        for (i = 0; i < K; i = i + 1)
            if (mc_grant[i]) taken = taken | ports_of[i*K +: K];
    end
    assign mc_valid = mc_grant != {K{1'b0}};
    assign mc_winner = index_of(mc_grant);

    // ---- 3. output stage: every output not taken by the multicast grants one head/acquisition ----
    reg [K-1:0] out_req, out_grant;
    always @* begin
        out_valid = {K{1'b0}};
        out_winner = {K*KW{1'b0}};
        for (i = 0; i < K; i = i + 1) begin
            acq_ports[i*K +: K] = mc_grant[i] ? ports_of[i*K +: K] : {K{1'b0}};
            pick_valid[i] = mc_grant[i] | moving[i];
        end
        for (o = 0; o < K; o = o + 1) begin
            for (i = 0; i < K; i = i + 1)
                out_req[i] = has_pick[i] && (kind_of[i*3 +: 3] == R_HEAD || kind_of[i*3 +: 3] == R_ACQ) &&
                             ports_of[i*K + o];
            out_grant = taken[o] ? {K{1'b0}} : rr_first(out_req, rr_out[o*KW +: KW]);
            out_valid[o] = out_grant != {K{1'b0}};
            out_winner[o*KW +: KW] = index_of(out_grant);
            for (i = 0; i < K; i = i + 1)
                if (out_grant[i]) begin
                    acq_ports[i*K + o] = 1'b1;
                    pick_valid[i] = 1'b1;
                end
        end
        for (i = 0; i < K; i = i + 1)
            pick_vc[i*2 +: 2] = pick_valid[i] ? pk[i*2 +: 2] : 2'd0;
    end
endmodule
