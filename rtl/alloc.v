// alloc — switch allocator with the Global Resource Bulletin (seed 003 sec. 5.1). Mirrors
// csim/alloc.c; docs/architecture.md "Switch allocation". Combinational.
//   1. each input picks one proposing VC, round robin from rr_in;
//   2. bulletin on: among inputs whose pick is MCAST, one (round robin from rr_mc) wins all its
//      ports at once;
//   3. every other output grants one HEAD or ACQ pick that wants it, round robin from rr_out.
// BODY and DISCARD picks always proceed.
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
    output reg              mc_valid,
    output reg  [KW-1:0]    mc_winner,
    output reg  [K-1:0]     out_valid,   // output granted a head or an acquisition
    output reg  [K*KW-1:0]  out_winner
);
    localparam [2:0] R_NONE = 3'd0, R_BODY = 3'd1, R_HEAD = 3'd2, R_MCAST = 3'd3, R_ACQ = 3'd4, R_DISCARD = 3'd5;

    integer i, v, n, o, c;
    reg [K-1:0] has_pick;
    reg [1:0] pk [0:K-1];
    reg [2:0] kind_of [0:K-1];
    reg [K-1:0] ports_of [0:K-1];
    reg [K-1:0] taken;
    reg done;

    always @* begin
        pick_valid = {K{1'b0}};
        pick_vc = {K*2{1'b0}};
        acq_ports = {K*K{1'b0}};
        mc_valid = 1'b0;
        mc_winner = {KW{1'b0}};
        out_valid = {K{1'b0}};
        out_winner = {K*KW{1'b0}};
        has_pick = {K{1'b0}};
        taken = {K{1'b0}};
        done = 1'b0;
        // 1. input stage
        for (i = 0; i < K; i = i + 1) begin
            pk[i] = 2'd0;
            kind_of[i] = R_NONE;
            ports_of[i] = {K{1'b0}};
            done = 1'b0;
            if (prio_valid && prio_in == i[KW-1:0] && req_kind[(i*4 + {30'd0, prio_vc})*3 +: 3] == R_MCAST) begin
                done = 1'b1;
                has_pick[i] = 1'b1;
                pk[i] = prio_vc;
                kind_of[i] = R_MCAST;
                ports_of[i] = req_ports[(i*4 + {30'd0, prio_vc})*K +: K];
            end
            for (n = 0; n < 4; n = n + 1) begin
                v = ({30'd0, rr_in[i*2 +: 2]} + n) % 4;
                if (!done && req_kind[(i*4+v)*3 +: 3] != R_NONE) begin
                    done = 1'b1;
                    has_pick[i] = 1'b1;
                    pk[i] = v[1:0];
                    kind_of[i] = req_kind[(i*4+v)*3 +: 3];
                    ports_of[i] = req_ports[(i*4+v)*K +: K];
                end
            end
        end
        // 2. bulletin stage
        done = 1'b0;
        if (BULLETIN != 0) begin
            for (n = 0; n < K; n = n + 1) begin
                c = ({{(32-KW){1'b0}}, rr_mc} + n) % K;
                if (!done && has_pick[c] && kind_of[c] == R_MCAST) begin
                    done = 1'b1;
                    mc_valid = 1'b1;
                    mc_winner = c[KW-1:0];
                    taken = ports_of[c];
                    acq_ports[c*K +: K] = ports_of[c];
                    pick_valid[c] = 1'b1;
                    pick_vc[c*2 +: 2] = pk[c];
                end
            end
        end
        // 3. output stage
        for (o = 0; o < K; o = o + 1) begin
            done = taken[o];
            for (n = 0; n < K; n = n + 1) begin
                c = ({{(32-KW){1'b0}}, rr_out[o*KW +: KW]} + n) % K;
                if (!done && has_pick[c] && (kind_of[c] == R_HEAD || kind_of[c] == R_ACQ) && ports_of[c][o]) begin
                    done = 1'b1;
                    acq_ports[c*K + o] = 1'b1;
                    pick_valid[c] = 1'b1;
                    pick_vc[c*2 +: 2] = pk[c];
                    out_valid[o] = 1'b1;
                    out_winner[o*KW +: KW] = c[KW-1:0];
                end
            end
        end
        // bodies and discards move
        for (i = 0; i < K; i = i + 1) begin
            if (has_pick[i] && (kind_of[i] == R_BODY || kind_of[i] == R_DISCARD)) begin
                pick_valid[i] = 1'b1;
                pick_vc[i*2 +: 2] = pk[i];
            end
        end
    end
endmodule
