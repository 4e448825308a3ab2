// fault — the fault-handling hardware of one router (seed 001 sec. 4.2, Fig. 8a): the global
// scheduler and one fault_port (travel/match/action unit) per port. Mirrors csim/fault.c cycle
// for cycle (docs/architecture.md sec. 7).
//
// Timing: inputs (events, FD/FR packets) written in cycle t are seen by the scheduler from t+1.
// The scheduler starts one command at a time — events first, then packets in round-robin over
// the input ports — and a command started in cycle s occupies s .. s+T-1:
//   local fault (Travel_FD)     T = t_ld = T1 + T2 + 2*ET_NUM
//   FD or FR packet (Match)     T = t_gd = T1 + T2 + 2
//   local recovery (Travel_FR)  T = t_r  = T1 + T2 + 3*ET_NUM
// Phase 0 fetches (t1), phase 1 broadcasts (t2: event state, Aim); then each entry takes a
// read cycle and a write cycle; Travel_FR ends with one check cycle per entry. The messages a
// command produces become visible on out_* from the cycle after its last one.
module fault #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter G = 9,
    parameter K = P + A - 1 + H,
    parameter ET_NUM = P + A + G,
    parameter EW = (ET_NUM > 1) ? $clog2(ET_NUM) : 1,
    parameter KB = (K > 1) ? $clog2(K) : 1,
    parameter GW = (G > 1) ? $clog2(G) : 1,
    parameter BW = (A > 1) ? $clog2(A) : 1,
    parameter NW = (P > 1) ? $clog2(P) : 1,
    parameter MW = 6 + GW + BW + NW,
    parameter IN_DEPTH = 4, parameter IN_AW = 2,      // per input port, power of two
    parameter EV_DEPTH = 8, parameter EV_AW = 3,      // csim FAULT_EV_DEPTH
    parameter OUT_DEPTH = 64, parameter OUT_AW = 6    // per output port, power of two
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [GW-1:0]     my_gid,
    input  wire [BW-1:0]     my_bid,
    // configuration: the route options of (port, entry) per role
    input  wire              cfg_we,
    input  wire [KB-1:0]     cfg_port,
    input  wire [EW-1:0]     cfg_entry,
    input  wire [K-1:0]      cfg_src,
    input  wire [K-1:0]      cfg_int,
    // local events: 1 link down, 2 peer router down, 3 link up
    input  wire              ev_valid,
    input  wire [1:0]        ev_kind,
    input  wire [KB-1:0]     ev_port,
    output wire              ev_ready,
    // FD/FR packets arriving per input port: {kind(1 FD, 2 FR), prefix, role, g, b, n}
    input  wire [K-1:0]      in_valid,
    input  wire [K*MW-1:0]   in_msg,
    output wire [K-1:0]      in_ready,
    // FD/FR packets to send per output port
    output wire [K-1:0]      out_valid,
    output wire [K*MW-1:0]   out_msg,
    input  wire [K-1:0]      out_take,
    // observation (compared every cycle by tb/fault_lockstep.cpp)
    output wire [2:0]        cmd_kind,     // 0 idle, 1 Travel_FD, 2 Match_FD, 3 Travel_FR, 4 Match_FR
    output reg  [K-1:0]      port_down,
    output reg  [A-1:0]      peer_dead,
    output reg  [K-1:0]      out_overflow,
    output wire              wr_valid,     // an entry is written this cycle (all ports)
    output wire [EW-1:0]     wr_entry,
    output wire [K*K-1:0]    wr_mask,
    output wire [2*K-1:0]    wr_acc,
    // inside the router: the input FIFO the scheduler fetched from this cycle (a control credit),
    // and per port a read port of the valid masks for the route-compute unit
    output wire [K-1:0]      in_taken,
    input  wire [K*EW-1:0]   rd_entry,
    output wire [K*K-1:0]    rd_mask
);
    localparam T1 = 1, T2 = 1;
    localparam T_LD = T1 + T2 + 2 * ET_NUM, T_GD = T1 + T2 + 2, T_R = T1 + T2 + 3 * ET_NUM;
    localparam PHW = $clog2(T_R + 1);
    localparam [2:0] C_NONE = 3'd0, C_TFD = 3'd1, C_MFD = 3'd2, C_TFR = 3'd3, C_MFR = 3'd4;
    localparam [1:0] EV_LINK_DOWN = 2'd1, EV_PEER_DOWN = 2'd2, EV_UP = 2'd3;
    localparam [EW-1:0] FIRST_B = P[EW-1:0];
    localparam [EW-1:0] FIRST_G = P[EW-1:0] + A[EW-1:0];
    localparam integer VALIDATE_END_I = T1 + T2 + 2 * ET_NUM;
    localparam integer FIRST_LOCAL = P, FIRST_GLOBAL = P + A - 1;
    localparam [PHW-1:0] FIRST_OP = T1 + T2;
    localparam [PHW-1:0] VALIDATE_END = VALIDATE_END_I[PHW-1:0];

    // ---- FIFOs ----
    // unused FIFO status (inputs are offered only when ready; outputs never back-pressure)
    wire [1:0] ev_drop;
    wire [K-1:0] in_drop0, in_drop1, out_ready;
    wire [1+KB:0] ev_head;
    wire ev_has;
    reg  ev_pop;
    fault_fifo #(.W(2 + KB), .DEPTH(EV_DEPTH), .AW(EV_AW), .COMMIT_ALWAYS(1)) u_ev (
        .clk(clk), .rst(rst), .pop(ev_pop), .w0(ev_valid), .d0({ev_kind, ev_port}), .w1(1'b0),
        .d1({(2 + KB){1'b0}}), .commit(1'b1), .head_data(ev_head), .head_valid(ev_has), .ready(ev_ready),
        .drop0(ev_drop[0]), .drop1(ev_drop[1]));

    wire [K*MW-1:0] in_head;
    wire [K-1:0] in_has;
    reg  [K-1:0] in_pop;
    assign in_taken = in_pop;
    wire [K-1:0] msg0_v, msg1_v, drop0, drop1;
    wire [K*MW-1:0] msg0, msg1;
    reg  commit;

    genvar gc;
    generate
        for (gc = 0; gc < K; gc = gc + 1) begin : g_fifo
            fault_fifo #(.W(MW), .DEPTH(IN_DEPTH), .AW(IN_AW), .COMMIT_ALWAYS(1)) u_in (
                .clk(clk), .rst(rst), .pop(in_pop[gc]), .w0(in_valid[gc]), .d0(in_msg[gc*MW +: MW]),
                .w1(1'b0), .d1({MW{1'b0}}), .commit(1'b1), .head_data(in_head[gc*MW +: MW]),
                .head_valid(in_has[gc]), .ready(in_ready[gc]), .drop0(in_drop0[gc]), .drop1(in_drop1[gc]));
            fault_fifo #(.W(MW), .DEPTH(OUT_DEPTH), .AW(OUT_AW), .COMMIT_ALWAYS(0)) u_out (
                .clk(clk), .rst(rst), .pop(out_take[gc]), .w0(msg0_v[gc]), .d0(msg0[gc*MW +: MW]),
                .w1(msg1_v[gc]), .d1(msg1[gc*MW +: MW]), .commit(commit),
                .head_data(out_msg[gc*MW +: MW]), .head_valid(out_valid[gc]), .ready(out_ready[gc]),
                .drop0(drop0[gc]), .drop1(drop1[gc]));
        end
    endgenerate

    // ---- scheduler state ----
    reg [2:0]     cmd;
    reg [PHW-1:0] phase, len;
    reg [KB-1:0]  fp;
    reg [1:0]     cmd_event;
    reg [MW-1:0]  cmd_msg;
    reg [EW-1:0]  cmd_entry;
    reg           cmd_entry_ok;
    reg           nd_valid, na_valid;
    reg [BW-1:0]  nd_bid, na_bid;
    reg [KB-1:0]  rr;
    assign cmd_kind = cmd;

    // message fields
    wire [1:0]    m_prefix = cmd_msg[MW-3 -: 2];
    wire [1:0]    m_role   = cmd_msg[MW-5 -: 2];
    wire [GW-1:0] m_g      = cmd_msg[BW + NW +: GW];
    wire [BW-1:0] m_b      = cmd_msg[NW +: BW];
    wire [NW-1:0] m_n      = cmd_msg[0 +: NW];

    // round robin pick over the input FIFOs: the first non-empty port at or after rr (the port
    // after the last one served), wrapping
    wire [KB-1:0] pick_port;
    wire          pick_ok;
    rr_pick #(.W(K), .IW(KB)) in_arb (.req(in_has), .start(rr), .found(pick_ok), .idx(pick_port), .gnt());

    // the entry and operation of this cycle, broadcast to every port
    wire [PHW-1:0] q = phase - FIRST_OP;
    wire [PHW-1:0] q_check = phase - VALIDATE_END;   // < ET_NUM during the check pass
    reg  [EW-1:0]  op_entry;
    reg            op_read, op_write, op_check_pass;
    always @* begin
        op_entry = cmd_entry;
        op_read = 1'b0;
        op_write = 1'b0;
        op_check_pass = 1'b0;
        if (cmd != C_NONE && phase >= FIRST_OP) begin
            case (cmd)
                C_TFD: begin
                    op_entry = q[EW:1];
                    op_read = !q[0];
                    op_write = q[0];
                end
                C_MFD, C_MFR: begin
                    op_read = q == {PHW{1'b0}} && (cmd == C_MFD || cmd_entry_ok);
                    op_write = q == {{(PHW-1){1'b0}}, 1'b1} && (cmd == C_MFD || cmd_entry_ok);
                end
                C_TFR: begin
                    if (phase < VALIDATE_END) begin
                        op_entry = q[EW:1];
                        op_read = !q[0];
                        op_write = q[0];
                    end else begin
                        op_entry = q_check[EW-1:0];
                        op_check_pass = 1'b1;
                    end
                end
                default: ;
            endcase
        end
    end
    wire op_rel = cmd == C_TFD && nd_valid && op_entry == FIRST_B + {{(EW-BW){1'b0}}, nd_bid};
    wire op_alive = cmd == C_TFD && na_valid && op_entry == FIRST_B + {{(EW-BW){1'b0}}, na_bid};

    assign wr_valid = op_write;
    assign wr_entry = op_entry;

    generate
        for (gc = 0; gc < K; gc = gc + 1) begin : g_port
            localparam TERMINAL = gc < P;
            wire applies = (cmd == C_TFD || cmd == C_TFR) ? 1'b1 : (TERMINAL ? m_role[0] : m_role[1]);
            fault_port #(.P(P), .A(A), .G(G), .K(K), .PORT(gc), .ET_NUM(ET_NUM), .EW(EW), .KB(KB), .GW(GW),
                         .BW(BW), .NW(NW), .MW(MW)) u_port (
                .clk(clk), .rst(rst),
                .cfg_we(cfg_we && cfg_port == gc[KB-1:0]), .cfg_entry(cfg_entry), .cfg_src(cfg_src), .cfg_int(cfg_int),
                .my_gid(my_gid), .my_bid(my_bid), .peer_dead(peer_dead),
                .op_entry(op_entry), .op_read(op_read),
                .op_fd(op_write && applies && (cmd == C_TFD || cmd == C_MFD)),
                .op_fr(op_write && applies && (cmd == C_TFR || cmd == C_MFR)),
                .op_check(op_check_pass && fp == gc[KB-1:0]),
                .op_rel(op_write && op_rel), .op_alive(op_write && op_alive),
                .op_fp(fp), .op_use_addr(cmd == C_MFD), .op_addr(cmd_msg),
                .msg0_v(msg0_v[gc]), .msg0(msg0[gc*MW +: MW]), .msg1_v(msg1_v[gc]), .msg1(msg1[gc*MW +: MW]),
                .wr_mask(wr_mask[gc*K +: K]), .wr_acc(wr_acc[gc*2 +: 2]),
                .rd_entry(rd_entry[gc*EW +: EW]), .rd_mask(rd_mask[gc*K +: K]));
        end
    endgenerate

    // ---- Aim() for FD (Algorithm 2) and for FR (docs/architecture.md sec. 7) ----
    reg [EW-1:0] aim_entry;
    reg          aim_ok;
    always @* begin
        aim_ok = 1'b1;
        if (cmd == C_MFD) begin
            if (m_prefix == 2'd1 || m_g != my_gid) aim_entry = FIRST_G + {{(EW-GW){1'b0}}, m_g};
            else if (m_prefix == 2'd2 || m_b != my_bid) aim_entry = FIRST_B + {{(EW-BW){1'b0}}, m_b};
            else aim_entry = {{(EW-NW){1'b0}}, m_n};
        end else begin
            aim_entry = FIRST_B + {{(EW-BW){1'b0}}, m_b};
            if (m_g == my_gid) aim_ok = !(m_prefix == 2'd1 || m_b == my_bid);
            else begin
                aim_ok = m_prefix == 2'd1;
                aim_entry = FIRST_G + {{(EW-GW){1'b0}}, m_g};
            end
        end
    end

    // intra-group neighbour reached through port fp
    wire [KB-1:0] fp_local = fp - P[KB-1:0];   // < A-1 when fp is an intra-group port
    wire [BW-1:0] fp_nb = (fp_local[BW-1:0] < my_bid) ? fp_local[BW-1:0] : fp_local[BW-1:0] + 1'b1;
    wire          fp_is_local = fp >= FIRST_LOCAL[KB-1:0] && fp < FIRST_GLOBAL[KB-1:0];

    always @* begin
        ev_pop = 1'b0;
        in_pop = {K{1'b0}};
        commit = 1'b0;
        if (cmd == C_NONE) begin
            if (ev_has) ev_pop = 1'b1;
            else if (pick_ok) in_pop[pick_port] = 1'b1;
        end else if (phase == len - 1'b1) begin
            commit = 1'b1;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            cmd <= C_NONE;
            phase <= {PHW{1'b0}};
            len <= {PHW{1'b0}};
            rr <= {KB{1'b0}};
            port_down <= {K{1'b0}};
            peer_dead <= {A{1'b0}};
            out_overflow <= {K{1'b0}};
            nd_valid <= 1'b0;
            na_valid <= 1'b0;
            cmd_entry_ok <= 1'b0;
            fp <= {KB{1'b0}};
            cmd_event <= 2'd0;
            cmd_msg <= {MW{1'b0}};
            cmd_entry <= {EW{1'b0}};
            nd_bid <= {BW{1'b0}};
            na_bid <= {BW{1'b0}};
        end else begin
            out_overflow <= out_overflow | drop0 | drop1;
            if (cmd == C_NONE) begin
                if (ev_has) begin
                    cmd <= ev_head[KB +: 2] == EV_UP ? C_TFR : C_TFD;
                    len <= ev_head[KB +: 2] == EV_UP ? T_R[PHW-1:0] : T_LD[PHW-1:0];
                    cmd_event <= ev_head[KB +: 2];
                    fp <= ev_head[KB-1:0];
                    phase <= {{(PHW-1){1'b0}}, 1'b1};
                    nd_valid <= 1'b0;
                    na_valid <= 1'b0;
                end else if (pick_ok) begin
                    cmd <= in_head[pick_port*MW + MW - 2 +: 2] == 2'd2 ? C_MFR : C_MFD;
                    len <= T_GD[PHW-1:0];
                    cmd_event <= 2'd0;
                    cmd_msg <= in_head[pick_port*MW +: MW];
                    fp <= pick_port;
                    rr <= (pick_port == K[KB-1:0] - 1'b1) ? {KB{1'b0}} : pick_port + 1'b1;
                    phase <= {{(PHW-1){1'b0}}, 1'b1};
                    nd_valid <= 1'b0;
                    na_valid <= 1'b0;
                end
            end else begin
                if (phase == T1[PHW-1:0]) begin
                    if (cmd_event != 2'd0) begin
                        port_down[fp] <= cmd_event != EV_UP;
                        if (fp_is_local) begin
                            if (cmd_event == EV_LINK_DOWN && peer_dead[fp_nb]) begin
                                peer_dead[fp_nb] <= 1'b0;
                                na_valid <= 1'b1;
                                na_bid <= fp_nb;
                            end
                            if (cmd_event == EV_PEER_DOWN && !peer_dead[fp_nb]) begin
                                peer_dead[fp_nb] <= 1'b1;
                                nd_valid <= 1'b1;
                                nd_bid <= fp_nb;
                            end
                            if (cmd_event == EV_UP) peer_dead[fp_nb] <= 1'b0;
                        end
                    end else begin
                        cmd_entry <= aim_entry;
                        cmd_entry_ok <= aim_ok;
                    end
                end
                if (phase == len - 1'b1) cmd <= C_NONE;
                else phase <= phase + 1'b1;
            end
        end
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
