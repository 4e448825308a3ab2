// router_alloc — router v5's switch allocation (csim/router_alloc.c) in three stages and a grant:
// stage 1 (alloc_in, the input arbiters on this cycle's proposals; the picks and their proposals
// are registers), stage 2 (alloc_out, the bulletin's multicast and the output arbiters on the
// registered proposals, masked by what the check will find: input planes still sending when a win
// would move, input planes and VCs with a win checked now or a decision granted now, slots taken
// by the wins checked now; the wins are registers), the check (each win proposed again on this
// cycle's state by router_input: kind2 / ports2; the credit check across planes from the wins,
// which cancels a decision of a higher plane whose short output VC a lower plane's slot has won)
// and the grant a cycle later: the decisions are registers (go_f, granted_f, mc_valid_f, dc_*),
// and in that cycle they take their slots (router_input), credits (dec) and queue room
// (oq_take), all from registers. Also the output slots held by a packet (locked), the round-robin
// pointers (moved at the check), and the take of the wins checked now (dec_wn, room_wn), by which
// the credit and room compares of the next cycle are shifted. docs/architecture.md "Router v5".
`include "flit_fields.vh"
module router_alloc #(
    parameter K = 7,                   // ports
    parameter S = 2,                   // crossbar planes
    parameter BULLETIN = 1,            // Global Resource Bulletin on
    parameter MAX_LEN = 4,             // longest packet
    parameter CRW = 11,                // credit counter width (router_output)
    parameter NT = 8,                  // credit compares per output VC (router.v, rtl/credit_ge.vh)
    // derived — do not override
    parameter KW = (K > 1) ? $clog2(K) : 1,
    parameter QW = (S > 1) ? $clog2(S) : 1,
    parameter RW = K + `RENTRY_FIELD_BITS
) (
    input  wire               clk,
    input  wire               rst,
    // router_input: stage 1's proposals (input i, VC v at i*4+v) and the input side's look-ahead
    input  wire [K*4*3-1:0]   req_kind,
    input  wire [K*4*K-1:0]   req_ports,
    input  wire [K*4*QW-1:0]  req_plane,
    input  wire [K*S-1:0]     busy_next,      // input planes (i*S+q) still sending three cycles on
    // router_input: each win proposed again now (none: void), and the route entries of the wins
    input  wire [K*S*3-1:0]   kind2,
    input  wire [K*S*K-1:0]   ports2,
    input  wire [K*S*RW-1:0]  wn_e,
    input  wire [K*S-1:0]     set_lock,       // slots (o*S+q) taken / freed this cycle
    input  wire [K*S-1:0]     clr_lock,
    input  wire [K*4*NT-1:0]  cge,            // router_output: credits >= 1..NT, (o*4+v)*NT
    input  wire               res_valid,      // router_bulletin: the reserved multicast goes first
    input  wire [KW-1:0]      res_in,
    input  wire [1:0]         res_vc,
    // stage 1's picks now (router_input registers their route entries) and registered
    output wire [K*S-1:0]     pick1_valid,    // input i, plane q at i*S+q
    output wire [K*S*2-1:0]   pick1_vc,
    output reg  [K*S-1:0]     pk_valid,
    output reg  [K*S*2-1:0]   pk_vc,
    // stage 2's wins now (router_input registers their route entries) and registered
    output wire [K*S-1:0]     win_go,
    output reg  [K*S-1:0]     won_valid,
    output reg  [K*S*2-1:0]   won_vc,
    output reg  [K*S-1:0]     won_slots,      // (o,q): a win of the last cycle took the slot
    // the check's decisions of the last cycle, granted now (registers)
    output reg  [K*S-1:0]     go_f,           // (i,q): a decision
    output reg  [K*S*K-1:0]   granted_f,      // (i,q): its ports
    output reg  [K*S*2-1:0]   dc_vc,          // (i,q): its input VC
    output reg  [K*S-1:0]     dc_slots,       // (o,q): a decision takes the slot (not a DISCARD's)
    output reg                mc_valid_f,     // the bulletin's multicast is among them
    output reg  [KW-1:0]      mc_in,
    output reg  [QW-1:0]      mc_plane,
    output reg  [KW-1:0]      rr_mc,
    output reg  [K*4*CRW-1:0] dec,            // credits the decisions take now per output VC (o*4+v)
    output reg  [K*S*4-1:0]   oq_take,        // room they take now per output queue (o*S+q)
    output reg  [K*4*CRW-1:0] dec_wn,         // credits the wins checked now will take: next cycle's
                                              //   shift of the credit compares (router_output registers it)
    output wire [K*S*4-1:0]   room_wn,        // room the wins checked now will take: next cycle's
                                              //   shift of the room compares (each oq registers it)
    output reg  [K*S-1:0]     locked          // slots held by a packet writing through them
);
    localparam E_LEN = K + `RENTRY_LEN_OFF, E_OVC = K + `RENTRY_OVC_OFF;
    localparam [2:0] R_NONE = `REQ_NONE, R_MCAST = `REQ_MCAST, R_ACQ = `REQ_ACQ, R_DISCARD = `REQ_DISCARD;
    localparam integer K_M1 = K - 1;
    localparam [KW-1:0] LAST_IN = K_M1[KW-1:0];
    reg [K*S*2-1:0] rr_in;
    reg [K*S*KW-1:0] rr_out;           // output o, plane q at o*S+q
    reg [K*S*3-1:0] pk_kind, won_kind; // the picks' proposals in stage 1, what the wins won
    reg [K*S*K-1:0] pk_ports, won_ports;
    reg won_mc;                        // the bulletin's winner of the last cycle
    reg [KW-1:0] won_mc_in;
    reg [QW-1:0] won_mc_plane;
    reg [K*S*4-1:0] ws_len;            // (o,q): the len of the win checked in the last cycle (0: none)
    reg [K*S*2-1:0] ws_ovc;            //   its output VC
    reg [K*S-1:0] ws_dec;              //   its decision stands on the slot
    integer i, q, v, o;

    // ---------------- stage 1: picks (registered with their proposals) ----------------
    alloc_in #(.K(K), .KW(KW), .S(S), .QW(QW)) stage1 (
        .req_kind(req_kind), .req_plane(req_plane), .rr_in(rr_in), .prio_valid(res_valid), .prio_in(res_in), .prio_vc(res_vc),
        .pick_valid(pick1_valid), .pick_vc(pick1_vc));

    // ---------------- stage 2: the registered proposals, masked (csim router_alloc_arbitrate) ----------------
    // An input plane still sending when a win of now would move, or with a win checked now or a
    // decision granted now, requests nothing, nor a pick whose VC has either (picked before them);
    // a slot taken by a win now is not requested (ACQ asks for the others). A slot still held at
    // the check needs no mask: stage 1's look-ahead left out every slot whose last flit would not
    // cross by then.
    reg [K*S*3-1:0] kind_a;
    reg [K*S*K-1:0] ports_a;
    reg [K*S-1:0] won_vc_hit;
    reg [K-1:0] hq, pa;
    always @* begin
        hq = {K{1'b0}};
        pa = {K{1'b0}};
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1) begin
                won_vc_hit[i*S+q] = 1'b0;
                for (v = 0; v < S; v = v + 1)   // a win or a decision of input i on some plane, with the pick's VC
                    if ((won_valid[i*S+v] && won_vc[(i*S+v)*2 +: 2] == pk_vc[(i*S+q)*2 +: 2]) ||
                        (go_f[i*S+v] && dc_vc[(i*S+v)*2 +: 2] == pk_vc[(i*S+q)*2 +: 2])) won_vc_hit[i*S+q] = 1'b1;
                for (o = 0; o < K; o = o + 1) hq[o] = won_slots[o*S+q];
                pa = pk_ports[(i*S+q)*K +: K];
                kind_a[(i*S+q)*3 +: 3] = pk_kind[(i*S+q)*3 +: 3];
                ports_a[(i*S+q)*K +: K] = pa;
                if (pk_kind[(i*S+q)*3 +: 3] == R_ACQ) ports_a[(i*S+q)*K +: K] = pa & ~hq;
                else if (pk_kind[(i*S+q)*3 +: 3] != R_DISCARD && (pa & hq) != {K{1'b0}}) ports_a[(i*S+q)*K +: K] = {K{1'b0}};
                if (!pk_valid[i*S+q] || busy_next[i*S+q] || won_valid[i*S+q] || go_f[i*S+q] || won_vc_hit[i*S+q] ||
                    (pk_kind[(i*S+q)*3 +: 3] != R_DISCARD && ports_a[(i*S+q)*K +: K] == {K{1'b0}})) begin
                    kind_a[(i*S+q)*3 +: 3] = R_NONE;
                    ports_a[(i*S+q)*K +: K] = {K{1'b0}};
                end
            end
    end
    wire [K*S*K-1:0] granted_a;
    wire mc_valid_a;
    wire [KW-1:0] mc_in_a;
    wire [QW-1:0] mc_plane_a;
    wire [K*S-1:0] out_granted_a;
    wire [K*S*KW-1:0] out_winner_a;
    alloc_out #(.K(K), .KW(KW), .S(S), .QW(QW), .BULLETIN(BULLETIN)) stage2 (
        .req_kind(kind_a), .req_ports(ports_a), .rr_out(rr_out), .rr_mc(rr_mc),
        .go(win_go), .granted(granted_a), .mc_valid(mc_valid_a), .mc_in(mc_in_a), .mc_plane(mc_plane_a),
        .out_granted(out_granted_a), .out_winner(out_winner_a));

    // ---------------- the check: each win as it proposes now (csim router_alloc_check) ----------------
    // A win stands if its VC proposes the same kind and ports now (ACQ: some of the slots won).
    // Under the protocol the kind is the one won or NONE; the kind compare stops a drain (no
    // ports) won by a VC that an upstream's protocol error left empty since. What the grant is
    // (multicast, drain) is read from the registered kind won.
    reg [K*S-1:0] go;
    reg [K*S*K-1:0] granted;
    reg mc_valid;
    reg [K*S-1:0] out_granted;         // (o,q): a HEAD / ACQ decision takes the slot
    reg [K*S*KW-1:0] out_winner;       //   from input
    always @* begin
        for (i = 0; i < K*S; i = i + 1) begin
            go[i] = won_valid[i] && kind2[i*3 +: 3] == won_kind[i*3 +: 3] &&
                    (won_kind[i*3 +: 3] == R_ACQ ? (ports2[i*K +: K] & won_ports[i*K +: K]) != {K{1'b0}}
                                              : ports2[i*K +: K] == won_ports[i*K +: K]);
            granted[i*K +: K] = go[i] ? ports2[i*K +: K] & won_ports[i*K +: K] : {K{1'b0}};
        end
        mc_valid = 1'b0;
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                if (won_mc && won_mc_in == i[KW-1:0] && won_mc_plane == q[QW-1:0] && go[i*S+q]) mc_valid = 1'b1;
        out_granted = {K*S{1'b0}};
        out_winner = {K*S*KW{1'b0}};
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                if (won_kind[(i*S+q)*3 +: 3] != R_MCAST)
                    for (o = 0; o < K; o = o + 1)
                        if (granted[(i*S+q)*K + o]) begin
                            out_granted[o*S+q] = 1'b1;
                            out_winner[(o*S+q)*KW +: KW] = i[KW-1:0];
                        end
    end
    wire unused_a = &{1'b0, out_granted_a, out_winner_a};

    // The credit check across planes, from the wins (csim router_alloc_check): an output VC (o,v)
    // is short with fewer than S * MAX_LEN credits; a win of plane q is cancelled whole when one
    // of its short output VCs is won in a slot (o,p) of a lower plane p < q (that win checked now,
    // whether or not it stands). So a short VC keeps one decision at most, and one with S * MAX_LEN
    // credits holds any S packets. From registers (the wins, their route entries, cge), then one
    // AND with the check's go: no sum, no pair of wins.
    localparam NTW = 8;                // holds NT (S * MAX_LEN <= 60)
`include "credit_ge.vh"
    localparam integer SHORT_I = S * MAX_LEN;
    localparam [NTW-1:0] SHORT_AT = SHORT_I[NTW-1:0];
    wire [K*S*RW-1:0] pe = wn_e;       // (i,q): the route entry registered with the win
    reg [K*4-1:0] shrt;                // (o,v): credits < S * MAX_LEN
    reg [K*S*4-1:0] wv;                // (o,p,v): slot (o,p) holds a win for output VC (o,v)
    reg [K*S-1:0] cancel, go_n, out_granted_f;
    reg [K*S*K-1:0] granted_n;
    reg mcv_n;
    reg [RW-1:0] et;
    integer tw;
    always @* begin
        et = {RW{1'b0}};
        tw = 0;
        for (o = 0; o < K; o = o + 1)
            for (v = 0; v < 4; v = v + 1)
                shrt[o*4+v] = S > 1 && !ge_at(cge_of(cge[o*4*NT +: 4*NT], v[1:0]), SHORT_AT);
        wv = {K*S*4{1'b0}};
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1) begin
                et = pe[(i*S+q)*RW +: RW];
                for (o = 0; o < K; o = o + 1)
                    for (v = 0; v < 4; v = v + 1)   // constant indices
                        if (won_valid[i*S+q] && won_kind[(i*S+q)*3 +: 3] != R_DISCARD && won_ports[(i*S+q)*K + o] &&
                            et[E_OVC +: 2] == v[1:0])
                            wv[(o*S+q)*4 + v] = 1'b1;
            end
        cancel = {K*S{1'b0}};
        for (i = 0; i < K; i = i + 1)
            for (q = 1; q < S; q = q + 1) begin
                et = pe[(i*S+q)*RW +: RW];
                for (o = 0; o < K; o = o + 1)
                    for (v = 0; v < 4; v = v + 1)
                        for (tw = 0; tw < q; tw = tw + 1)
                            if (won_kind[(i*S+q)*3 +: 3] != R_DISCARD && won_ports[(i*S+q)*K + o] &&
                                et[E_OVC +: 2] == v[1:0] && shrt[o*4+v] && wv[(o*S+tw)*4+v])
                                cancel[i*S+q] = 1'b1;
            end
        go_n = go & ~cancel;
        granted_n = granted;
        out_granted_f = out_granted;
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                if (cancel[i*S+q]) begin
                    granted_n[(i*S+q)*K +: K] = {K{1'b0}};
                    for (o = 0; o < K; o = o + 1)
                        if (granted[(i*S+q)*K + o]) out_granted_f[o*S+q] = 1'b0;
                end
        mcv_n = mc_valid;
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                if (won_mc_in == i[KW-1:0] && won_mc_plane == q[QW-1:0] && cancel[i*S+q]) mcv_n = 1'b0;
    end

    // The take of the decisions granted now (dec, oq_take), from the slots' registers; the credits
    // and room of the wins checked now (dec_wn, room_wn), from the wins' registers: not the check's
    // result, which only decides whether a win's take is a decision's or the ghost's. Each slot (o,q) holds at most one win (planes decide in
    // parallel: a sum over the output's S slots per VC).
    reg [K*S*4-1:0] wl_n;              // (o,q): the win's len, its output VC, its decision stands
    reg [K*S*2-1:0] wo_n;
    reg [K*S-1:0] wd_n, dslot_n;
    reg [RW-1:0] ew;
    wire unused_ew = &{1'b0, ew, et};
    integer dk;
    always @* begin
        wd_n = {K*S{1'b0}};
        dslot_n = {K*S{1'b0}};
        for (o = 0; o < K; o = o + 1)
            for (q = 0; q < S; q = q + 1)
                for (i = 0; i < K; i = i + 1)
                    if (granted_n[(i*S+q)*K + o] && won_kind[(i*S+q)*3 +: 3] != R_DISCARD) begin
                        wd_n[o*S+q] = 1'b1;
                        dslot_n[o*S+q] = 1'b1;
                    end
    end
    // (apart from the decisions above: the wins' take does not depend on the check)
    integer wi, wq, wo;
    always @* begin
        ew = {RW{1'b0}};
        wl_n = {K*S*4{1'b0}};
        wo_n = {K*S*2{1'b0}};
        for (wo = 0; wo < K; wo = wo + 1)
            for (wq = 0; wq < S; wq = wq + 1)
                for (wi = 0; wi < K; wi = wi + 1)
                    if (won_valid[wi*S+wq] && won_ports[(wi*S+wq)*K + wo] && won_kind[(wi*S+wq)*3 +: 3] != R_DISCARD) begin
                        ew = pe[(wi*S+wq)*RW +: RW];
                        wl_n[(wo*S+wq)*4 +: 4] = wl_n[(wo*S+wq)*4 +: 4] | ew[E_LEN +: 4];
                        wo_n[(wo*S+wq)*2 +: 2] = wo_n[(wo*S+wq)*2 +: 2] | ew[E_OVC +: 2];
                    end
    end
    assign room_wn = wl_n;
    always @* begin
        dk = 0;
        for (o = 0; o < K; o = o + 1)
            for (v = 0; v < 4; v = v + 1) begin
                dec[(o*4+v)*CRW +: CRW] = {CRW{1'b0}};
                dec_wn[(o*4+v)*CRW +: CRW] = {CRW{1'b0}};
                for (dk = 0; dk < S; dk = dk + 1)
                    if (ws_ovc[(o*S+dk)*2 +: 2] == v[1:0] && ws_dec[o*S+dk])
                        dec[(o*4+v)*CRW +: CRW] = dec[(o*4+v)*CRW +: CRW] + {{(CRW-4){1'b0}}, ws_len[(o*S+dk)*4 +: 4]};
                for (q = 0; q < S; q = q + 1)
                    if (wo_n[(o*S+q)*2 +: 2] == v[1:0])
                        dec_wn[(o*4+v)*CRW +: CRW] = dec_wn[(o*4+v)*CRW +: CRW] + {{(CRW-4){1'b0}}, wl_n[(o*S+q)*4 +: 4]};
            end
        for (o = 0; o < K*S; o = o + 1) oq_take[o*4 +: 4] = ws_dec[o] ? ws_len[o*4 +: 4] : 4'd0;
    end

    // ---------------- registers ----------------
    always @(posedge clk) begin
        if (rst) begin
            go_f <= {K*S{1'b0}};
            granted_f <= {K*S*K{1'b0}};
            dc_vc <= {K*S*2{1'b0}};
            dc_slots <= {K*S{1'b0}};
            mc_valid_f <= 1'b0;
            mc_in <= {KW{1'b0}};
            mc_plane <= {QW{1'b0}};
            ws_len <= {K*S*4{1'b0}};
            ws_ovc <= {K*S*2{1'b0}};
            ws_dec <= {K*S{1'b0}};
            locked <= {K*S{1'b0}};
            pk_valid <= {K*S{1'b0}};
            pk_vc <= {K*S*2{1'b0}};
            rr_in <= {K*S*2{1'b0}};
            rr_out <= {K*S*KW{1'b0}};
            rr_mc <= {KW{1'b0}};
            pk_kind <= {K*S*3{1'b0}};
            pk_ports <= {K*S*K{1'b0}};
            won_valid <= {K*S{1'b0}};
            won_vc <= {K*S*2{1'b0}};
            won_kind <= {K*S*3{1'b0}};
            won_ports <= {K*S*K{1'b0}};
            won_slots <= {K*S{1'b0}};
            won_mc <= 1'b0;
            won_mc_in <= {KW{1'b0}};
            won_mc_plane <= {QW{1'b0}};
        end else begin
            // a slot whose last flit crosses now may be taken by a grant now, from any input (set wins)
            locked <= (locked & ~clr_lock) | set_lock;
            // the check's decisions, granted in the next cycle
            go_f <= go_n;
            granted_f <= granted_n;
            dc_vc <= won_vc;
            dc_slots <= dslot_n;
            mc_valid_f <= mcv_n;
            mc_in <= won_mc_in;
            mc_plane <= won_mc_plane;
            ws_len <= wl_n;
            ws_ovc <= wo_n;
            ws_dec <= wd_n;
            pk_valid <= pick1_valid;
            pk_vc <= pick1_vc;
            // a pick takes its VC's proposal with it (over constant indices)
            for (i = 0; i < K; i = i + 1)
                for (q = 0; q < S; q = q + 1)
                    for (v = 0; v < 4; v = v + 1)
                        if (pick1_valid[i*S+q] && pick1_vc[(i*S+q)*2 +: 2] == v[1:0]) begin
                            pk_kind[(i*S+q)*3 +: 3] <= req_kind[(i*4+v)*3 +: 3];
                            pk_ports[(i*S+q)*K +: K] <= req_ports[(i*4+v)*K +: K];
                        end
            // stage 2's wins, checked in the next cycle
            won_valid <= win_go;
            won_vc <= pk_vc;
            won_kind <= kind_a;
            won_ports <= granted_a;
            won_mc <= mc_valid_a;
            won_mc_in <= mc_in_a;
            won_mc_plane <= mc_plane_a;
            for (o = 0; o < K; o = o + 1)
                for (q = 0; q < S; q = q + 1) begin
                    won_slots[o*S+q] <= 1'b0;
                    for (i = 0; i < K; i = i + 1)
                        if (win_go[i*S+q] && kind_a[(i*S+q)*3 +: 3] != R_DISCARD && granted_a[(i*S+q)*K + o])
                            won_slots[o*S+q] <= 1'b1;
                end
            for (i = 0; i < K*S; i = i + 1)
                if (pick1_valid[i]) rr_in[i*2 +: 2] <= pick1_vc[i*2 +: 2] + 2'd1;
            for (i = 0; i < K*S; i = i + 1)
                if (out_granted_f[i])
                    rr_out[i*KW +: KW] <= (out_winner[i*KW +: KW] == LAST_IN) ? {KW{1'b0}} : out_winner[i*KW +: KW] + 1'b1;
            if (mcv_n) rr_mc <= (won_mc_in == LAST_IN) ? {KW{1'b0}} : won_mc_in + 1'b1;
        end
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
