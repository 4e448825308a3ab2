// router_bulletin — the Global Resource Bulletin (seed 003 sec. 5.1; csim/router_bulletin.c):
// per plane the output slots no multicast holds (grb_free), and the reservation of one waiting
// multicast head, whose slots unicast heads stop starting on until it has them all. A reservation
// is cleared when its multicast's decision is granted; a new one goes to the first waiting
// multicast head with no win checked now, no decision granted now and not moving last cycle's
// grant, inputs round robin from rr_mc, lowest VC first. From registers only (router v5: no
// decision of this cycle on its path). State changes at the edge.
`include "flit_fields.vh"
module router_bulletin #(
    parameter K = 7,                   // ports
    parameter S = 2,                   // crossbar planes
    parameter BULLETIN = 1,            // 0: no reservations (the deadlock demonstration)
    // derived — do not override
    parameter KW = (K > 1) ? $clog2(K) : 1,
    parameter QW = (S > 1) ? $clog2(S) : 1,
    parameter RW = K + `RENTRY_FIELD_BITS
) (
    input  wire              clk,
    input  wire              rst,
    // router_input: the VC fronts
    input  wire [K*4-1:0]    f_valid,        // input i, VC v at i*4+v
    input  wire [K*4*2-1:0]  f_ht,           //   the front's {head, tail} bits
    input  wire [K*4-1:0]    e_valid,
    input  wire [K*4*RW-1:0] e_entry,
    input  wire [K*4-1:0]    vc_active,
    input  wire [K*4-1:0]    vc_pend,        // the VC moves last cycle's grant (router_input)
    input  wire [K*4-1:0]    vc_held,        //   it has a win checked now or a decision granted now
    input  wire [K*S-1:0]    set_grb,        // slots (o*S+q) a multicast tail frees / a head takes
    input  wire [K*S-1:0]    clr_grb,
    // router_alloc: the decisions granted this cycle (registers): their VCs, the multicast
    input  wire [K*S*2-1:0]  dc_vc,
    input  wire              mc_valid_f,
    input  wire [KW-1:0]     mc_in,
    input  wire [QW-1:0]     mc_plane,
    input  wire [KW-1:0]     rr_mc,
    output reg  [K*S-1:0]    grb_free,
    output reg               res_valid,
    output reg  [KW-1:0]     res_in,
    output reg  [1:0]        res_vc,
    output reg  [QW-1:0]     res_plane,      // (res_in + res_vc) mod S
    output wire [K-1:0]      res_ports       // the reserved multicast's port set
);
    localparam E_MCAST = K + `RENTRY_MCAST_OFF, E_DISCARD = K + `RENTRY_DISCARD_OFF;

    function [QW-1:0] plane_idx;       // (port + vc) mod S
        input integer port;
        input integer vc;
        integer n;
        begin
            n = (port + vc) % S;
            plane_idx = n[QW-1:0];
        end
    endfunction

    // the reserved multicast's entry, its plane and the VC granted on that plane: selected over
    // constant indices (no divider, no variable part-select)
    reg [RW-1:0] res_entry;
    reg [1:0] res_won_vc;
    integer ra, rb, rq;
    always @* begin
        res_entry = {RW{1'b0}};
        for (ra = 0; ra < K; ra = ra + 1)
            for (rb = 0; rb < 4; rb = rb + 1)
                if (res_in == ra[KW-1:0] && res_vc == rb[1:0]) res_entry = res_entry | e_entry[(ra*4+rb)*RW +: RW];
        res_plane = {QW{1'b0}};
        res_won_vc = 2'd0;
        for (ra = 0; ra < K; ra = ra + 1)
            for (rb = 0; rb < 4; rb = rb + 1)
                if (res_in == ra[KW-1:0] && res_vc == rb[1:0]) res_plane = plane_idx(ra, rb);
        for (ra = 0; ra < K; ra = ra + 1)
            for (rq = 0; rq < S; rq = rq + 1)
                if (res_in == ra[KW-1:0] && res_plane == rq[QW-1:0]) res_won_vc = dc_vc[(ra*S + rq)*2 +: 2];
    end
    assign res_ports = res_entry[K-1:0];

    // next reservation
    reg n_res_valid;
    reg [KW-1:0] n_res_in;
    reg [1:0] n_res_vc;
    reg [RW-1:0] er;
    reg [K*4-1:0] res_cand;            // input i, VC v at i*4+v: a multicast head that may reserve
    reg [K-1:0] res_in_cand;
    wire res_found;                    // some input has a candidate
    wire [KW-1:0] res_pick_in;         // the input the round robin picks
    reg [1:0] res_low_vc [0:K-1];      // lowest candidate VC per input
    integer ri, rv;
    always @* begin
        er = {RW{1'b0}};
        for (ri = 0; ri < K; ri = ri + 1) begin
            res_low_vc[ri] = 2'd0;
            for (rv = 3; rv >= 0; rv = rv - 1) begin
                er = e_entry[(ri*4+rv)*RW +: RW];
                res_cand[ri*4+rv] = f_valid[ri*4+rv] && f_ht[(ri*4+rv)*2 + 1] && e_valid[ri*4+rv] && er[E_MCAST] &&
                                    !er[E_DISCARD] && !vc_active[ri*4+rv] && !vc_pend[ri*4+rv] && !vc_held[ri*4+rv];
                if (res_cand[ri*4+rv]) res_low_vc[ri] = rv[1:0];
            end
            res_in_cand[ri] = res_cand[ri*4 +: 4] != 4'd0;
        end
    end

    // inputs round robin from rr_mc: the first input with a candidate at or after it, else the
    // first one
    rr_pick #(.W(K), .IW(KW)) res_arb (.req(res_in_cand), .start(rr_mc), .found(res_found), .idx(res_pick_in), .gnt());

    integer rp;
    always @* begin
        n_res_valid = res_valid;
        n_res_in = res_in;
        n_res_vc = res_vc;
        if (BULLETIN != 0) begin
            if (res_valid && mc_valid_f && mc_in == res_in && mc_plane == res_plane && res_won_vc == res_vc)
                n_res_valid = 1'b0;
            if (!res_valid && res_found) begin
                n_res_valid = 1'b1;
                n_res_in = res_pick_in;
                n_res_vc = 2'd0;
                for (rp = 0; rp < K; rp = rp + 1)
                    if (res_pick_in == rp[KW-1:0]) n_res_vc = res_low_vc[rp];
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            grb_free <= {K*S{1'b1}};
            res_valid <= 1'b0;
            res_in <= {KW{1'b0}};
            res_vc <= 2'd0;
        end else begin
            // a multicast tail may return a slot that a grant takes now (the reserved multicast,
            // on a slot freed in the cycle its last flit crosses): the grant wins
            grb_free <= (grb_free | set_grb) & ~clr_grb;
            res_valid <= n_res_valid;
            res_in <= n_res_in;
            res_vc <= n_res_vc;
        end
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
