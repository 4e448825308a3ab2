// alloc_in — stage 1 of router v2's switch allocator (csim/alloc.c alloc_stage1): the input
// arbiters of every crossbar plane. Each proposing VC names the plane it proposes on (its home
// plane (i + v) mod S, the alternate one, or the plane its packet streams on: csim/alloc.h
// "Planes"); per input and plane one VC proposing on the plane is picked, round robin from rr_in
// (the reserved multicast first when it proposes MCAST). Combinational; the router registers the
// picks (stage 2 sees them in the next cycle).
module alloc_in #(
    parameter K = 7,
    parameter KW = 3,              // max(1, clog2(K))
    parameter S = 2,               // planes (internal speed-up): 1, 2 or 4
    parameter QW = 1               // max(1, clog2(S))
) (
    input  wire [K*4*3-1:0] req_kind,    // input i, VC v at (i*4+v)*3: 0 none, else a proposal
    input  wire [K*4*QW-1:0] req_plane,  // input i, VC v at (i*4+v)*QW: the plane it proposes on
    input  wire [K*S*2-1:0] rr_in,       // input i, plane q at (i*S+q)*2: a VC index
    input  wire             prio_valid,  // the reserved multicast
    input  wire [KW-1:0]    prio_in,
    input  wire [1:0]       prio_vc,
    output wire [K*S-1:0]   pick_valid,
    output wire [K*S*2-1:0] pick_vc
);
    localparam [2:0] R_MCAST = 3'd3;
    genvar gi, gq, gv;
    generate
        for (gi = 0; gi < K; gi = gi + 1) begin : g_in
            for (gq = 0; gq < S; gq = gq + 1) begin : g_plane
                wire [3:0] vm;             // the VCs proposing on this plane
                localparam [QW-1:0] Q = gq;
                for (gv = 0; gv < 4; gv = gv + 1) begin : g_vc
                    assign vm[gv] = (S == 1 || req_plane[(gi*4+gv)*QW +: QW] == Q) && req_kind[(gi*4+gv)*3 +: 3] != 3'd0;
                end
                wire found;
                wire [1:0] idx;
                rr_pick #(.W(4), .IW(2)) arb (.req(vm), .start(rr_in[(gi*S+gq)*2 +: 2]), .found(found), .idx(idx), .gnt());
                localparam [KW-1:0] I = gi;
                wire [3:0] mc_vcs;         // the plane's VCs that propose MCAST
                for (gv = 0; gv < 4; gv = gv + 1) begin : g_mc
                    assign mc_vcs[gv] = vm[gv] && req_kind[(gi*4+gv)*3 +: 3] == R_MCAST;
                end
                wire prio = prio_valid && prio_in == I && (mc_vcs & (4'd1 << prio_vc)) != 4'd0;
                assign pick_valid[gi*S+gq] = found;
                assign pick_vc[(gi*S+gq)*2 +: 2] = prio ? prio_vc : idx;
            end
        end
    endgenerate
endmodule
