// router_alloc — router v3's switch allocation (csim/router_alloc.c) in three stages: stage 1
// (alloc_in, the input arbiters on this cycle's proposals; the picks and their proposals are
// registers), stage 2 (alloc_out, the bulletin's multicast and the output arbiters on the registered
// proposals, masked by what the commit will find: input planes busy then, slots taken by the wins
// committing now, VCs whose win commits now; the wins are registers) and the commit (each win
// checked again on this cycle's state by router_input: kind2 / ports2; the credit check
// across planes that cancels a grant the planes together would overdraw). Also the output slots
// held by a packet (locked), the round-robin pointers and the credits the commits take (dec).
// The commits (go_f, granted_f with won_vc) are registered by router_input (the grant
// stage) and move in the next cycle. docs/architecture.md "Router v3".
`include "flit_fields.vh"
module router_alloc #(
    parameter K = 7,                   // ports
    parameter S = 2,                   // crossbar planes
    parameter BULLETIN = 1,            // Global Resource Bulletin on
    parameter MAX_LEN = 4,             // longest packet
    parameter CRW = 11,                // credit counter width (router_output)
    parameter NT = 9,                  // credit compares per output VC (router.v, rtl/credit_ge.vh)
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
    input  wire [K*S-1:0]     busy_next,      // input planes (i*S+q) busy in the next cycle
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
    // the commit's grants
    output reg  [K*S-1:0]     go_f,           // the win moves (after the checks)
    output reg  [K*S*K-1:0]   granted_f,      // (i,q): ports granted
    output reg                mc_valid_f,     // the bulletin's multicast commits
    output wire [KW-1:0]      mc_in,
    output wire [QW-1:0]      mc_plane,
    output reg  [KW-1:0]      rr_mc,
    output reg  [K*4*CRW-1:0] dec,            // credits taken this cycle per output VC (o*4+v)
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
    integer i, q, v, o;

    // ---------------- stage 1: picks (registered with their proposals) ----------------
    alloc_in #(.K(K), .KW(KW), .S(S), .QW(QW)) stage1 (
        .req_kind(req_kind), .req_plane(req_plane), .rr_in(rr_in), .prio_valid(res_valid), .prio_in(res_in), .prio_vc(res_vc),
        .pick_valid(pick1_valid), .pick_vc(pick1_vc));

    // ---------------- stage 2: the registered proposals, masked (csim router_alloc_arbitrate) ----------------
    // An input plane busy in the next cycle or whose win commits now requests nothing, nor a pick
    // whose VC's win commits now (picked before that win); a slot taken by a win now is not
    // requested (ACQ asks for the others). A slot still held in the next cycle needs no mask:
    // stage 1's look-ahead left out every slot whose last flit would not cross by the commit.
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
                for (v = 0; v < S; v = v + 1)   // a win of input i on some plane, with the pick's VC
                    if (won_valid[i*S+v] && won_vc[(i*S+v)*2 +: 2] == pk_vc[(i*S+q)*2 +: 2]) won_vc_hit[i*S+q] = 1'b1;
                for (o = 0; o < K; o = o + 1) hq[o] = won_slots[o*S+q];
                pa = pk_ports[(i*S+q)*K +: K];
                kind_a[(i*S+q)*3 +: 3] = pk_kind[(i*S+q)*3 +: 3];
                ports_a[(i*S+q)*K +: K] = pa;
                if (pk_kind[(i*S+q)*3 +: 3] == R_ACQ) ports_a[(i*S+q)*K +: K] = pa & ~hq;
                else if (pk_kind[(i*S+q)*3 +: 3] != R_DISCARD && (pa & hq) != {K{1'b0}}) ports_a[(i*S+q)*K +: K] = {K{1'b0}};
                if (!pk_valid[i*S+q] || busy_next[i*S+q] || won_valid[i*S+q] || won_vc_hit[i*S+q] ||
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

    // ---------------- the commit: each win as it proposes now (csim router_alloc_grant) ----------------
    // A win stands if its VC proposes the same kind and ports now (ACQ: some of the slots won).
    // Under the protocol the kind is the one won or NONE; the kind compare stops a drain (no
    // ports) won by a VC that an upstream's protocol error left empty since. What the grant is
    // (multicast, drain) is read from the registered kind won.
    reg [K*S-1:0] go;
    reg [K*S*K-1:0] granted;
    reg mc_valid;
    reg [K*S-1:0] out_granted;         // (o,q): a HEAD / ACQ commit takes the slot
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
    assign mc_in = won_mc_in;
    assign mc_plane = won_mc_plane;
    wire unused_a = &{1'b0, out_granted_a, out_winner_a};

    // Credits across planes: a grant stands only if its len, added to what the lower planes granted
    // to the same output VC (before their own cancellations), fits the credits; else it is
    // cancelled whole and its slots grant nothing this cycle (csim router_alloc_cycle, the same rule).
    // An output slot (o,q) grants at most one pick (the bulletin's winner blocks the arbiters of
    // its slots), so "what the lower planes granted" is a sum over the slots below q, not over
    // inputs, and the compare is a bit of the registered credit compares (cge).
    localparam NTW = 8;                // holds NT (S * MAX_LEN + 1 <= 61)
`include "credit_ge.vh"
    reg [K*S-1:0] out_granted_f;
    wire [K*S*RW-1:0] pe = wn_e;       // (i,q): the route entry registered with the win
    reg [K*S-1:0] sv;                  // (o,q): the slot grants a packet (tentatively)
    reg [K*S*4-1:0] slen;              // (o,q): its len
    reg [K*S*2-1:0] sovc;              // (o,q): its output VC
    reg [K*S-1:0] sbad;                // (o,q): its len and the lower slots' exceed the credits
    reg [K*S-1:0] sbad_sum;            //   as a sum after the arbiters (any S)
    wire [K*S-1:0] sbad_pair;          //   from pairs checked beside the arbiters (S = 2, k <= 16)
    localparam PAIRS = S == 2 && K <= 16;   // k^3 pair checks: not at the 64-port size
    reg [K*S-1:0] cancel;
    reg [NTW-1:0] below;
    reg [RW-1:0] et;
    integer tw;
    always @* begin
        o = 0;                         // loop variables are assigned on every path (no latch)
        tw = 0;
        et = {RW{1'b0}};
        below = {NTW{1'b0}};
        sv = {K*S{1'b0}};
        slen = {K*S*4{1'b0}};
        sovc = {K*S*2{1'b0}};
        for (o = 0; o < K; o = o + 1)
            for (q = 0; q < S; q = q + 1)
                for (i = 0; i < K; i = i + 1)
                    if (granted[(i*S+q)*K + o] && won_kind[(i*S+q)*3 +: 3] != R_DISCARD) begin
                        et = pe[(i*S+q)*RW +: RW];
                        sv[o*S+q] = 1'b1;
                        slen[(o*S+q)*4 +: 4] = slen[(o*S+q)*4 +: 4] | et[E_LEN +: 4];
                        sovc[(o*S+q)*2 +: 2] = sovc[(o*S+q)*2 +: 2] | et[E_OVC +: 2];
                    end
        for (o = 0; o < K; o = o + 1)
            for (q = 0; q < S; q = q + 1) begin
                below = {4'd0, slen[(o*S+q)*4 +: 4]};
                for (tw = 0; tw < q; tw = tw + 1)
                    if (sv[o*S+tw] && sovc[(o*S+tw)*2 +: 2] == sovc[(o*S+q)*2 +: 2])
                        below = below + {4'd0, slen[(o*S+tw)*4 +: 4]};
                sbad_sum[o*S+q] = sv[o*S+q] && !ge_at(cge_of(cge[o*4*NT +: 4*NT], sovc[(o*S+q)*2 +: 2]), below);
            end
        sbad = PAIRS ? sbad_pair : sbad_sum;
        cancel = {K*S{1'b0}};
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                for (o = 0; o < K; o = o + 1)
                    if (granted[(i*S+q)*K + o] && sbad[o*S+q]) cancel[i*S+q] = 1'b1;
        go_f = go & ~cancel;
        granted_f = granted;
        out_granted_f = out_granted;
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                if (cancel[i*S+q]) begin
                    granted_f[(i*S+q)*K +: K] = {K{1'b0}};
                    for (o = 0; o < K; o = o + 1)
                        if (granted[(i*S+q)*K + o]) out_granted_f[o*S+q] = 1'b0;
                end
        mc_valid_f = mc_valid;
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1)
                if (mc_in == i[KW-1:0] && mc_plane == q[QW-1:0] && cancel[i*S+q]) mc_valid_f = 1'b0;
    end

    // S = 2 and k <= 16, the same check without an adder after the arbiters: every pair (a pick of plane 1, a
    // pick of plane 0) is checked against the credits of each output while the arbiters run, and
    // the arbiters' one-hot grants select the pair that happened.
    generate if (PAIRS) begin : g_pair
        reg [K*K*K-1:0] pbad;          // output o, plane-1 pick i, plane-0 pick j at (o*K+i)*K+j
        reg [K*S*K-1:0] obad;          // pick (i,q), output o at (i*S+q)*K+o: its own len does not fit
        reg [RW-1:0] ei, ej;
        reg [NT:0] ci, rem;            // {credits >= NT..1, 1}; the same after len_i: {>= len_i + n}
        reg hit;
        reg [K*S-1:0] sp;
        assign sbad_pair = sp;
        integer po, pi, pj, pq;
        always @* begin
            ei = {RW{1'b0}};
            ej = {RW{1'b0}};
            ci = {(NT+1){1'b0}};
            rem = {(NT+1){1'b0}};
            hit = 1'b0;
            for (po = 0; po < K; po = po + 1)
                for (pi = 0; pi < K; pi = pi + 1)
                    for (pq = 0; pq < S; pq = pq + 1) begin
                        ei = pe[(pi*S+pq)*RW +: RW];
                        ci = {cge_of(cge[po*4*NT +: 4*NT], ei[E_OVC +: 2]), 1'b1};
                        obad[(pi*S+pq)*K + po] = !ge_thermo(ci, ei[E_LEN +: 4]);
                    end
            // credits >= len_i + len_j, as (the compares shifted down by len_i) >= len_j: one shift
            // per (output, plane-1 pick), one selection per pair
            for (po = 0; po < K; po = po + 1)
                for (pi = 0; pi < K; pi = pi + 1) begin
                    ei = pe[(pi*S+1)*RW +: RW];
                    ci = {cge_of(cge[po*4*NT +: 4*NT], ei[E_OVC +: 2]), 1'b1};
                    rem = ci >> ei[E_LEN +: 4];
                    for (pj = 0; pj < K; pj = pj + 1) begin
                        ej = pe[(pj*S+0)*RW +: RW];
                        pbad[(po*K+pi)*K + pj] = ei[E_OVC +: 2] == ej[E_OVC +: 2] && !ge_thermo(rem, ej[E_LEN +: 4]);
                    end
                end
            for (po = 0; po < K; po = po + 1) begin
                sp[po*S+0] = 1'b0;
                sp[po*S+1] = 1'b0;
                for (pj = 0; pj < K; pj = pj + 1)
                    if (granted[(pj*S+0)*K + po] && obad[(pj*S+0)*K + po]) sp[po*S+0] = 1'b1;
                for (pi = 0; pi < K; pi = pi + 1) begin
                    hit = obad[(pi*S+1)*K + po];
                    for (pj = 0; pj < K; pj = pj + 1)
                        if (granted[(pj*S+0)*K + po] && pbad[(po*K+pi)*K + pj]) hit = 1'b1;
                    if (granted[(pi*S+1)*K + po] && hit) sp[po*S+1] = 1'b1;
                end
            end
        end
    end else begin : g_nopair
        assign sbad_pair = {K*S{1'b0}};
    end endgenerate

    // credits taken by this cycle's grants, per output VC: a sum over the output's S slots (each
    // grants at most one packet; planes grant in parallel)
    reg [K*S-1:0] svf;                 // (o,q): the slot's grant stands (not cancelled)
    integer dk;
    always @* begin
        dk = 0;
        svf = {K*S{1'b0}};
        for (o = 0; o < K; o = o + 1)
            for (q = 0; q < S; q = q + 1)
                for (i = 0; i < K; i = i + 1)
                    if (granted_f[(i*S+q)*K + o] && won_kind[(i*S+q)*3 +: 3] != R_DISCARD) svf[o*S+q] = 1'b1;
        for (o = 0; o < K; o = o + 1)
            for (v = 0; v < 4; v = v + 1) begin
                dec[(o*4+v)*CRW +: CRW] = {CRW{1'b0}};
                for (dk = 0; dk < S; dk = dk + 1)
                    if (svf[o*S+dk] && sovc[(o*S+dk)*2 +: 2] == v[1:0])
                        dec[(o*4+v)*CRW +: CRW] = dec[(o*4+v)*CRW +: CRW] + {{(CRW-4){1'b0}}, slen[(o*S+dk)*4 +: 4]};
            end
    end

    // ---------------- registers ----------------
    always @(posedge clk) begin
        if (rst) begin
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
            // stage 2's wins, committed in the next cycle
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
            if (mc_valid_f) rr_mc <= (mc_in == LAST_IN) ? {KW{1'b0}} : mc_in + 1'b1;
        end
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
