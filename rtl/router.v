// router — the whole DOAR router (seed 001 Fig. 6 route computation, seed 003 sec. 5.1 Global
// Resource Bulletin). Mirrors csim/router.c; docs/architecture.md "Router" gives the interface
// and the cycle each output appears in.
//   per input port: vcbuf (4 VC FIFOs + route FIFOs), rcu (4-stage route computation), a 4-deep
//   side pipeline carrying VC / multicast facts next to the rcu;
//   alloc: switch allocation with the bulletin; crossbar: output registers;
//   credit counters per output VC (virtual cut-through: a head takes len credits);
//   cong: CongL / CongG / group bitmap / side-band; mcast_table.
module router #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter G = 9,
    parameter NM_SLOTS = 8,
    parameter C_WAYS = 6,
    parameter DEPTH_T = 8,             // input VC depth (flits) by port class
    parameter DEPTH_L = 8,
    parameter DEPTH_G = 16,
    parameter DS_T = 8,                // downstream VC depth by output port class (credits)
    parameter DS_L = 8,
    parameter DS_G = 16,
    parameter MAX_LEN = 4,
    parameter MGROUPS = 16,
    parameter TL = 4 * DS_L * 10 / 32, // seed 001 thresholds relative to its buffers
    parameter TG = 4 * DS_G * 30 / 256,
    parameter HW = 8,
    parameter TPS = 30,
    parameter BULLETIN = 1,
    parameter FAULTS = 1,              // the fault-handling units (csim router_enable_faults)
    parameter CTL_DEPTH = 4,           // FD/FR packets per input port: control credits per link
    parameter CONG_DEMAND = 1,         // congestion of intra-group and global ports counts the flits
                                       // routed to the port and waiting here besides its credit
                                       // occupancy (docs/architecture.md "Congestion")
    parameter SPEEDUP = 2,             // internal speed-up S: crossbar planes, 1, 2 or 4 (seed 003 sec. 4)
    parameter OQ_DEPTH = 2 * MAX_LEN,  // flits per output queue (one per output port and plane)
    // derived — do not override
    parameter K = P + A - 1 + H,
    parameter AH = A * H,
    parameter GW = (G > 1) ? $clog2(G) : 1,
    parameter BW = (A > 1) ? $clog2(A) : 1,
    parameter TAW = (P + A + G > 1) ? $clog2(P + A + G) : 1,
    parameter KW = (K > 1) ? $clog2(K) : 1,
    parameter NW = (P > 1) ? $clog2(P) : 1,
    parameter MW = 6 + GW + BW + NW,   // fault message {kind, prefix, role, g, b, n}
    parameter S = SPEEDUP,
    parameter QW = (S > 1) ? $clog2(S) : 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [GW-1:0]   cfg_gid,
    input  wire [BW-1:0]   cfg_bid,
    input  wire [AH-1:0]   cfg_wired,
    input  wire [31:0]     cfg_seed,
    // links in: flits, credits for our outputs, side-bands
    input  wire [K-1:0]    in_valid,
    input  wire [K-1:0]    in_head,
    input  wire [K-1:0]    in_tail,
    input  wire [K*2-1:0]  in_vc,
    input  wire [K*64-1:0] in_data,
    input  wire [K-1:0]    cr_in_valid,
    input  wire [K*2-1:0]  cr_in_vc,
    input  wire [K-1:0]    sb_in_valid,
    input  wire [K*H-1:0]  sb_in_bits,
    // configuration writes
    input  wire            tw_valid,
    input  wire [5:0]      tw_port,
    input  wire [1:0]      tw_table,
    input  wire [TAW-1:0]  tw_addr,
    input  wire [63:0]     tw_data,
    input  wire            mw_valid,
    input  wire [5:0]      mw_port,
    input  wire [7:0]      mw_group,
    input  wire [K-1:0]    mw_set,
    // fault handling: a local event (1 link down, 2 peer down, 3 up) taken when ev_ready; control
    // credits for our outputs; the units' static route options per (port, entry), written with
    // the tables (csim fault_entry_options)
    input  wire            ev_valid,
    input  wire [1:0]      ev_kind,
    input  wire [5:0]      ev_port,
    output wire            ev_ready,
    input  wire [K-1:0]    ctl_cr_in_valid,
    input  wire            fw_valid,
    input  wire [5:0]      fw_port,
    input  wire [TAW-1:0]  fw_entry,
    input  wire [K-1:0]    fw_src,
    input  wire [K-1:0]    fw_int,
    // links out
    output reg  [K-1:0]    out_valid,
    output reg  [K-1:0]    out_head,
    output reg  [K-1:0]    out_tail,
    output reg  [K*2-1:0]  out_vc,
    output reg  [K*64-1:0] out_data,
    output reg  [K-1:0]    cr_out_valid,
    output reg  [K*2-1:0]  cr_out_vc,
    output wire            sb_out_valid,
    output wire [H-1:0]    sb_out_bits,
    output reg  [K-1:0]    overflow,
    output reg  [K-1:0]    ctl_cr_out_valid,  // an FD/FR packet left our input FIFO of that port
    output reg  [K-1:0]    discard,           // a packet head without a route was dropped
    output reg  [K*4-1:0]  discard_vcs        // per input: the VCs they were in (one per plane)
);
    localparam FIRST_LOCAL = P;
    localparam FIRST_GLOBAL = P + A - 1;
    localparam RW = K + 8;             // route entry {discard, mcast, ovc[1:0], len[3:0], ports}
    localparam CRW = 11;               // credit counters (<= 1024)
    localparam OW = 13;                // port occupancy (4 VCs)
    // demand: flits routed to an intra-group or global port and waiting in this router
    localparam MAX_DEPTH_LG = (DEPTH_G > DEPTH_L) ? DEPTH_G : DEPTH_L;
    localparam MAX_DEPTH = (MAX_DEPTH_LG > DEPTH_T) ? MAX_DEPTH_LG : DEPTH_T;
    localparam DMW = $clog2(K * 4 * MAX_DEPTH + 1);   // >= 4: a len fits
    localparam COW = ((DMW > OW) ? DMW : OW) + 1;   // occupancy as the congestion unit sees it
    // route entry fields
    localparam E_LEN = K, E_OVC = K + 4, E_MCAST = K + 6, E_DISCARD = K + 7;
    localparam [2:0] R_NONE = 3'd0, R_HEAD = 3'd2, R_MCAST = 3'd3, R_ACQ = 3'd4, R_DISCARD = 3'd5;
    localparam [31:0] SEED_STEP = 32'h9E37_79B9;

    function integer depth_of;
        input integer port;
        begin
            depth_of = port < FIRST_LOCAL ? DEPTH_T : port < FIRST_GLOBAL ? DEPTH_L : DEPTH_G;
        end
    endfunction
    function [CRW-1:0] ds_of;
        input integer port;
    /* verilator lint_off UNUSEDSIGNAL */  // whole flits/entries are read, fields used per block
        integer n;
    /* verilator lint_on UNUSEDSIGNAL */
        begin
            n = port < FIRST_LOCAL ? DS_T : port < FIRST_GLOBAL ? DS_L : DS_G;
            ds_of = n[CRW-1:0];
        end
    endfunction

    // ---------------- state ----------------
    localparam OQ_DW = (OQ_DEPTH > 1) ? $clog2(OQ_DEPTH) : 1;
    localparam RMW = $clog2(OQ_DEPTH + 1) + 4;   // room counters (compared with a 4-bit len)
    localparam CPW = $clog2(MAX_DEPTH + 1) + 1;  // credits owed upstream per input VC
    reg [K*4*CRW-1:0] cred;            // output o, VC v at (o*4+v)*CRW
    // router_alloc: output slots (o,q) at o*S+q
    reg [K*S-1:0] locked;              // held by a packet writing through them
    reg [K*S-1:0] grb_free;            // the bulletin: no multicast holds them
    reg res_valid;                     // a waiting multicast has reserved its slots
    reg [KW-1:0] res_in;
    reg [1:0] res_vc;
    reg [K*S-1:0] pk_valid;            // stage-1 picks of input i, plane q at i*S+q
    reg [K*S*2-1:0] pk_vc;
    reg [K*S*2-1:0] rr_in;
    reg [K*S*KW-1:0] rr_out;           // output o, plane q at o*S+q
    reg [KW-1:0] rr_mc;
    // router_input: the packet each input plane (i*S+q) streams, ports acquired (bulletin off),
    // credits owed upstream
    reg [K*S-1:0] in_busy, strm_mcast, strm_disc;
    reg [K*S*2-1:0] strm_vc, strm_ovc;
    reg [K*S*K-1:0] strm_ports;
    reg [K*4*K-1:0] held;             // input i, VC v at (i*4+v)*K: slots acquired (bulletin off)
    reg [K*4*CPW-1:0] crp;
    reg [K*2-1:0] rr_cr;
    // router_output: the link stage
    reg [K-1:0] lk_lock;
    reg [K*QW-1:0] lk_q, rr_link;
    integer q;
    // side pipeline per input: {valid, vc[1:0], mcast, grp[7:0], len[3:0]}
    localparam SW = 16;
    reg [SW-1:0] side [0:K*4-1];       // input i, stage s at i*4+s

    // ---------------- per-input units ----------------
    wire [K*4-1:0] f_valid, e_valid;
    wire [K*4*66-1:0] f_flit;
    wire [K*4*RW-1:0] e_entry;
    wire [K-1:0] push_drop, push_ok, rpush_ok;
    wire [K-1:0] cong_local;
    wire [AH-1:0] cong_group;
    wire [K*K-1:0] mset;
    reg  [K*8-1:0] mgroup_rd;
    reg  [K-1:0] rpush;
    reg  [K*2-1:0] rpush_vc;
    reg  [K*RW-1:0] rpush_entry;

    // FD/FR packets: one flit, head and tail, data bit 63 set (csim/fault.h); they go to the fault
    // unit's input FIFO, never into the VC buffers or the route-compute unit
    wire [K-1:0] is_ctl;
    wire [K*TAW-1:0] rd_entry;
    wire [K*K-1:0] rd_mask;
    genvar gi;
    generate
        for (gi = 0; gi < K; gi = gi + 1) begin : g_ctl
            assign is_ctl[gi] = FAULTS != 0 && in_valid[gi] && in_head[gi] && in_tail[gi] && in_data[gi*64 + 63];
        end
        for (gi = 0; gi < K; gi = gi + 1) begin : g_in
            localparam integer D = depth_of(gi);
            localparam integer DWI = (D > 1) ? $clog2(D) : 1;
            localparam [1:0] PCLASS = gi < FIRST_LOCAL ? 2'd0 : gi < FIRST_GLOBAL ? 2'd1 : 2'd2;
            localparam [31:0] SEED_OFF = SEED_STEP * gi;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [4*(DWI+1)-1:0] counts;
            /* verilator lint_on UNUSEDSIGNAL */
            vcbuf #(.K(K), .DEPTH(D), .DW(DWI)) buffer (
                .clk(clk), .rst(rst),
                .push(in_valid[gi] && !is_ctl[gi]), .push_vc(in_vc[gi*2 +: 2]),
                .push_flit({in_head[gi], in_tail[gi], in_data[gi*64 +: 64]}),
                .pop(pop[gi*4 +: 4]),
                .rpush(rpush[gi]), .rpush_vc(rpush_vc[gi*2 +: 2]), .rpush_entry(rpush_entry[gi*RW +: RW]),
                .rpop(rpop[gi*4 +: 4]),
                .front_valid(f_valid[gi*4 +: 4]), .front_flit(f_flit[gi*4*66 +: 4*66]),
                .rfront_valid(e_valid[gi*4 +: 4]), .rfront(e_entry[gi*4*RW +: 4*RW]),
                .push_drop(push_drop[gi]), .push_ok(push_ok[gi]), .rpush_ok(rpush_ok[gi]), .counts(counts));

            /* verilator lint_off UNUSEDSIGNAL */
            wire [63:0] d = in_data[gi*64 +: 64];    // header fields per csim/flit.h
            wire r_valid, r_gv;                      // decisions are tracked by the side pipeline
            /* verilator lint_on UNUSEDSIGNAL */
            wire hdr_in = in_valid[gi] && !is_ctl[gi] && in_head[gi] && !d[34];
            wire [5:0] r_port;
            wire [1:0] r_vc;
            wire [3:0] r_class;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [((AH > 1) ? $clog2(AH) : 1)-1:0] r_gport;
            /* verilator lint_on UNUSEDSIGNAL */
            wire [TAW-1:0] mask_row;
            assign rd_entry[gi*TAW +: TAW] = mask_row;
            rcu #(.P(P), .A(A), .H(H), .G(G), .NM_SLOTS(NM_SLOTS), .C_WAYS(C_WAYS)) route (
                .clk(clk), .rst(rst), .cfg_gid(cfg_gid), .cfg_bid(cfg_bid), .cfg_port_class(PCLASS),
                .cfg_wired(cfg_wired), .cfg_lfsr_seed(cfg_seed + SEED_OFF),
                .in_valid(hdr_in), .in_dst_gid(d[22:12]), .in_dst_bid(d[11:6]),
                .in_dst_nid(d[5:0]), .in_src_gid(d[33:23]), .in_vc(in_vc[gi*2 +: 2]),
                .cong_local(cong_local), .cong_global(cong_group),
                .mask_row(mask_row), .opt_invalid(FAULTS != 0 ? ~rd_mask[gi*K +: K] : {K{1'b0}}),
                .tw_valid(tw_valid && tw_port == gi[5:0]), .tw_table(tw_table), .tw_addr(tw_addr), .tw_data(tw_data),
                .out_valid(r_valid), .out_port(r_port), .out_vc(r_vc), .out_class(r_class),
                .out_gport_valid(r_gv), .out_gport(r_gport));

            // route completion: the oldest side stage meets the rcu's decision
            wire [SW-1:0] done = side[gi*4 + 3];
            localparam [6:0] K7 = K[6:0];
            wire port_ok = {1'b0, r_port} < K7;
            wire [K-1:0] uport = port_ok ? ({{(K-1){1'b0}}, 1'b1} << r_port) : {K{1'b0}};
            localparam [3:0] MAXLEN4 = MAX_LEN[3:0];
            wire bad_len = done[3:0] == 4'd0 || done[3:0] > MAXLEN4;   // credits cannot cover it
            wire u_discard = r_class == 4'd0 || !port_ok || bad_len;
            wire [K-1:0] mports = mset[gi*K +: K];
            wire m_discard = mports == {K{1'b0}} || bad_len;
            always @* begin
                mgroup_rd[gi*8 +: 8] = done[11:4];
                rpush[gi] = done[15];
                rpush_vc[gi*2 +: 2] = done[14:13];
                if (done[12])
                    rpush_entry[gi*RW +: RW] = {m_discard, 1'b1, done[14:13], done[3:0], m_discard ? {K{1'b0}} : mports};
                else
                    rpush_entry[gi*RW +: RW] = {u_discard, 1'b0, r_vc, done[3:0], u_discard ? {K{1'b0}} : uport};
            end
            always @(posedge clk) begin
                if (rst) begin
                    side[gi*4 + 0] <= {SW{1'b0}};
                    side[gi*4 + 1] <= {SW{1'b0}};
                    side[gi*4 + 2] <= {SW{1'b0}};
                    side[gi*4 + 3] <= {SW{1'b0}};
                end else begin
                    // a head dropped on a full VC (upstream protocol error) gets no route entry
                    side[gi*4 + 0] <= (in_valid[gi] && in_head[gi] && push_ok[gi]) ? {1'b1, in_vc[gi*2 +: 2], d[34], d[42:35], d[46:43]} : {SW{1'b0}};
                    side[gi*4 + 1] <= side[gi*4 + 0];
                    side[gi*4 + 2] <= side[gi*4 + 1];
                    side[gi*4 + 3] <= side[gi*4 + 2];
                end
            end
        end
    endgenerate

    mcast_table #(.K(K), .MGROUPS(MGROUPS)) mtable (
        .clk(clk), .we(mw_valid), .wport(mw_port), .wgroup(mw_group), .wset(mw_set),
        .rgroup(mgroup_rd), .rset(mset));

    // ---------------- occupancy and congestion ----------------
    reg [K*OW-1:0] occ;
    integer o, v, i;
    always @* begin
        for (o = 0; o < K; o = o + 1) begin
            occ[o*OW +: OW] = {OW{1'b0}};
            for (v = 0; v < 4; v = v + 1)
                occ[o*OW +: OW] = occ[o*OW +: OW] + {{(OW-CRW){1'b0}}, ds_of(o)} - {{(OW-CRW){1'b0}}, cred[(o*4+v)*CRW +: CRW]};
        end
    end
    // (the congestion unit itself follows the credits taken by the grants, below)

    // ---------------- fault handling (csim router_enable_faults) ----------------
    localparam CCW = 7;                // control credit counters (CTL_DEPTH <= 64)
    localparam [CCW-1:0] CTL_FULL = CTL_DEPTH[CCW-1:0];
    wire [K-1:0] fu_out_valid, fu_in_ready, fu_in_taken;
    // link state as the events say (taken this cycle, effective from the next): a port whose link
    // is down keeps full credits; the fault unit's own port_down follows when its command runs
    reg  [K-1:0] link_dn;
    wire ev_take = ev_valid && ev_ready && {1'b0, ev_port} < K7P && ev_kind != 2'd0;
    wire [K*MW-1:0] fu_out_msg;
    reg  [K*MW-1:0] fu_in_msg;
    localparam [6:0] K7P = K[6:0];
    reg  [K-1:0] fu_in_valid, ctl_bad, ctl_ports;
    reg  [CCW-1:0] ctl_cred [0:K-1];
    reg  [1:0] ctl_kind;
    integer ci;
    always @* begin
        for (ci = 0; ci < K; ci = ci + 1) begin
            ctl_kind = in_data[ci*64 + 27 +: 2];
            fu_in_msg[ci*MW +: MW] = {ctl_kind, in_data[ci*64 + 25 +: 2], in_data[ci*64 + 23 +: 2],
                                      in_data[ci*64 + 12 +: GW], in_data[ci*64 + 6 +: BW], in_data[ci*64 +: NW]};
            // an FD/FR packet with no free FIFO slot (no credit was free) or no message kind is a
            // protocol error: dropped and flagged on overflow
            fu_in_valid[ci] = is_ctl[ci] && (ctl_kind == 2'd1 || ctl_kind == 2'd2) && fu_in_ready[ci];
            ctl_bad[ci] = is_ctl[ci] && !fu_in_valid[ci];
            // a waiting FD/FR packet leaves on a port no packet holds; no head is granted there
            ctl_ports[ci] = fu_out_valid[ci] && ctl_cred[ci] != {CCW{1'b0}} && !lk_lock[ci];
        end
    end
    generate
        if (FAULTS != 0) begin : g_fault
            /* verilator lint_off UNUSEDSIGNAL */  // observation outputs: compared by the fault lock-step
            wire [2:0] cmd_kind;
            wire [A-1:0] peer_dead;
            wire [K-1:0] out_overflow;
            wire wr_valid;
            wire [TAW-1:0] wr_entry;
            wire [K*K-1:0] wr_mask;
            wire [2*K-1:0] wr_acc;
            wire [K-1:0] port_down;
            /* verilator lint_on UNUSEDSIGNAL */
            fault #(.P(P), .A(A), .H(H), .G(G), .IN_DEPTH(CTL_DEPTH), .IN_AW((CTL_DEPTH > 1) ? $clog2(CTL_DEPTH) : 1)) unit (
                .clk(clk), .rst(rst), .my_gid(cfg_gid), .my_bid(cfg_bid),
                .cfg_we(fw_valid && {1'b0, fw_port} < K7P), .cfg_port(fw_port[KW-1:0]), .cfg_entry(fw_entry),
                .cfg_src(fw_src), .cfg_int(fw_int),
                .ev_valid(ev_valid && {1'b0, ev_port} < K7P && ev_kind != 2'd0), .ev_kind(ev_kind),
                .ev_port(ev_port[KW-1:0]), .ev_ready(ev_ready),
                .in_valid(fu_in_valid), .in_msg(fu_in_msg), .in_ready(fu_in_ready),
                .out_valid(fu_out_valid), .out_msg(fu_out_msg), .out_take(ctl_ports),
                .cmd_kind(cmd_kind), .port_down(port_down), .peer_dead(peer_dead), .out_overflow(out_overflow),
                .wr_valid(wr_valid), .wr_entry(wr_entry), .wr_mask(wr_mask), .wr_acc(wr_acc),
                .in_taken(fu_in_taken), .rd_entry(rd_entry), .rd_mask(rd_mask));
        end else begin : g_no_fault
            assign ev_ready = 1'b0;
            assign fu_in_ready = {K{1'b0}};
            assign fu_out_valid = {K{1'b0}};
            assign fu_out_msg = {K*MW{1'b0}};
            assign fu_in_taken = {K{1'b0}};
            assign rd_mask = {K*K{1'b1}};
            /* verilator lint_off UNUSEDSIGNAL */  // inputs of the units that are not there
            wire unused = &{1'b0, ev_valid, ev_kind, ev_port, fw_valid, fw_port, fw_entry, fw_src, fw_int, rd_entry, fu_in_msg};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    function [63:0] ctl_data;          // the link format of an FD/FR packet (csim fault_msg_pack)
        input [MW-1:0] m;
        begin
            ctl_data = 64'd0;
            ctl_data[63] = 1'b1;
            ctl_data[28:27] = m[MW-1 -: 2];
            ctl_data[26:25] = m[MW-3 -: 2];
            ctl_data[24:23] = m[MW-5 -: 2];
            ctl_data[12 +: GW] = m[BW + NW +: GW];
            ctl_data[6 +: BW] = m[NW +: BW];
            ctl_data[0 +: NW] = m[0 +: NW];
        end
    endfunction

    // ---------------- the reservation ----------------
    /* verilator lint_off UNUSEDSIGNAL */
    reg [RW-1:0] res_entry;
    /* verilator lint_on UNUSEDSIGNAL */
    integer ra, rb;
    always @* begin
        res_entry = {RW{1'b0}};
        for (ra = 0; ra < K; ra = ra + 1)
            for (rb = 0; rb < 4; rb = rb + 1)
                if (res_in == ra[KW-1:0] && res_vc == rb[1:0]) res_entry = res_entry | e_entry[(ra*4+rb)*RW +: RW];
    end
    // the plane of the reserved multicast, (res_in + res_vc) mod S, and its stage-1 pick: selected
    // over constant indices (no divider, no variable part-select)
    reg [QW-1:0] res_plane;
    reg [1:0] res_pick_vc;
    integer rp_i, rp_v, rp_q;
    always @* begin
        res_plane = {QW{1'b0}};
        res_pick_vc = 2'd0;
        for (rp_i = 0; rp_i < K; rp_i = rp_i + 1)
            for (rp_v = 0; rp_v < 4; rp_v = rp_v + 1)
                if (res_in == rp_i[KW-1:0] && res_vc == rp_v[1:0]) res_plane = plane_idx(rp_i, rp_v);
        for (rp_i = 0; rp_i < K; rp_i = rp_i + 1)
            for (rp_q = 0; rp_q < S; rp_q = rp_q + 1)
                if (res_in == rp_i[KW-1:0] && res_plane == rp_q[QW-1:0]) res_pick_vc = pk_vc[(rp_i*S + rp_q)*2 +: 2];
    end

    // ---------------- proposals (csim/router.c propose) ----------------
    function [CRW-1:0] cred_of;        // one output's credit counter of VC vc
        input [4*CRW-1:0] cr4;
        input [1:0] vc;
        begin
            case (vc)
                2'd0: cred_of = cr4[0 +: CRW];
                2'd1: cred_of = cr4[CRW +: CRW];
                2'd2: cred_of = cr4[2*CRW +: CRW];
                default: cred_of = cr4[3*CRW +: CRW];
            endcase
        end
    endfunction
    // stage 1 (req_kind) may look past the packet a VC streams to its next one; stage 2 (req2_kind)
    // proposes only a VC that streams nothing
    reg [K*4*3-1:0] req_kind, req2_kind;
    reg [K*4*K-1:0] req_ports;
    reg [K*4-1:0] vc_active;
    /* verilator lint_off UNUSEDSIGNAL */  // whole flits/entries are read, fields used per block
    reg [65:0] fp;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [RW-1:0] ep;
    reg [K-1:0] ok, bul_eff, grb_q;
    integer pl;
    reg [3:0] kd1;
    always @* begin
        for (i = 0; i < K; i = i + 1)
            for (v = 0; v < 4; v = v + 1) begin
                pl = (i + v) % S;
                fp = f_flit[(i*4+v)*66 +: 66];
                ep = e_entry[(i*4+v)*RW +: RW];
                for (o = 0; o < K; o = o + 1) begin
                    grb_q[o] = grb_free[o*S + pl];
`ifdef PLANT_BUG
                    // planted bug: a head needs one credit more than its length
                    ok[o] = ep[o] && !locked[o*S + pl] && cred_of(cred[o*4*CRW +: 4*CRW], ep[E_OVC +: 2]) > {{(CRW-4){1'b0}}, ep[E_LEN +: 4]} &&
                            oq_room[(o*S + pl)*RMW +: RMW] >= {{(RMW-4){1'b0}}, ep[E_LEN +: 4]};
`else
                    ok[o] = ep[o] && !locked[o*S + pl] && cred_of(cred[o*4*CRW +: 4*CRW], ep[E_OVC +: 2]) >= {{(CRW-4){1'b0}}, ep[E_LEN +: 4]} &&
                            oq_room[(o*S + pl)*RMW +: RMW] >= {{(RMW-4){1'b0}}, ep[E_LEN +: 4]};
`endif
                end
                bul_eff = (BULLETIN != 0) ? (grb_q & ~((res_valid && {{(32-QW){1'b0}}, res_plane} == pl) ? res_entry[K-1:0] : {K{1'b0}})) : {K{1'b1}};
                vc_active[i*4+v] = in_busy[i*S + pl] && strm_vc[(i*S + pl)*2 +: 2] == v[1:0];
                kd1 = {1'b0, R_NONE};
                req_ports[(i*4+v)*K +: K] = {K{1'b0}};
                if (!f_valid[i*4+v]) begin
                    kd1 = {1'b1, R_NONE};      // decided: nothing
                end else if (!vc_active[i*4+v] && !fp[65]) begin
                    kd1 = {1'b1, R_DISCARD};   // a stray body flit
                end
                if (!kd1[3]) begin
                    if (!e_valid[i*4+v]) begin
                        kd1 = {1'b1, R_NONE};
                    end else if (ep[E_DISCARD]) begin
                        kd1 = {1'b1, R_DISCARD};
                    end else if (!ep[E_MCAST]) begin
                        if (ok == ep[K-1:0] && (ep[K-1:0] & ~bul_eff) == {K{1'b0}}) begin
                            kd1 = {1'b1, R_HEAD};
                            req_ports[(i*4+v)*K +: K] = ok;
                        end
                    end else if (BULLETIN != 0) begin
                        if (ok == ep[K-1:0] && (res_valid ? (res_in == i[KW-1:0] && res_vc == v[1:0])
                                                          : (ep[K-1:0] & ~grb_q) == {K{1'b0}})) begin
                            kd1 = {1'b1, R_MCAST};
                            req_ports[(i*4+v)*K +: K] = ok;
                        end
                    end else if ((ok & ~held[(i*4+v)*K +: K]) != {K{1'b0}}) begin
                        kd1 = {1'b1, R_ACQ};
                        req_ports[(i*4+v)*K +: K] = ok & ~held[(i*4+v)*K +: K];
                    end
                end
                req_kind[(i*4+v)*3 +: 3] = kd1[2:0];
                req2_kind[(i*4+v)*3 +: 3] = vc_active[i*4+v] ? R_NONE : kd1[2:0];
            end
    end
    function [QW-1:0] plane_idx;       // (port + vc) mod S
        input integer port;
        input integer vc;
    /* verilator lint_off UNUSEDSIGNAL */
        integer n;
    /* verilator lint_on UNUSEDSIGNAL */
        begin
            n = (port + vc) % S;
            plane_idx = n[QW-1:0];
        end
    endfunction

    // ---------------- router_alloc: stage 1 (picks, registered) and stage 2 ----------------
    wire [K*S-1:0] pick1_valid;
    wire [K*S*2-1:0] pick1_vc;
    alloc_in #(.K(K), .KW(KW), .S(S)) stage1 (
        .req_kind(req_kind), .rr_in(rr_in), .prio_valid(res_valid), .prio_in(res_in), .prio_vc(res_vc),
        .pick_valid(pick1_valid), .pick_vc(pick1_vc));
    // the registered picks propose again on this cycle's state (void on a busy input plane)
    reg [K*S*3-1:0] kind2;
    reg [K*S*K-1:0] ports2;
    reg [1:0] pvc;
    always @* begin
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1) begin
                pvc = pk_vc[(i*S+q)*2 +: 2];
                kind2[(i*S+q)*3 +: 3] = R_NONE;
                ports2[(i*S+q)*K +: K] = {K{1'b0}};
                for (v = 0; v < 4; v = v + 1)
                    if (pk_valid[i*S+q] && !in_busy[i*S+q] && pvc == v[1:0]) begin
                        kind2[(i*S+q)*3 +: 3] = req2_kind[(i*4+v)*3 +: 3];
                        ports2[(i*S+q)*K +: K] = req_ports[(i*4+v)*K +: K];
                    end
            end
    end
    wire [K*S-1:0] go, out_granted;
    wire [K*S*K-1:0] granted;
    wire mc_valid;
    wire [KW-1:0] mc_in;
    wire [QW-1:0] mc_plane;
    wire [K*S*KW-1:0] out_winner;
    alloc_out #(.K(K), .KW(KW), .S(S), .QW(QW), .BULLETIN(BULLETIN)) stage2 (
        .req_kind(kind2), .req_ports(ports2), .rr_out(rr_out), .rr_mc(rr_mc),
        .go(go), .granted(granted), .mc_valid(mc_valid), .mc_in(mc_in), .mc_plane(mc_plane),
        .out_granted(out_granted), .out_winner(out_winner));

    // Credits across planes: a grant stands only if its len, added to what the lower planes granted
    // to the same output VC (before their own cancellations), fits the credits; else it is
    // cancelled whole and its slots grant nothing this cycle (csim/router.c, the same rule).
    reg [K*S-1:0] go_f, out_granted_f;
    reg [K*S*K-1:0] granted_f;
    reg mc_valid_f;
    reg [K*4*CRW-1:0] lower;           // (o,w): what the planes below the current one granted
    reg [K*S-1:0] cancel;
    /* verilator lint_off UNUSEDSIGNAL */  // whole entries are read, fields used per block
    reg [RW-1:0] et;
    /* verilator lint_on UNUSEDSIGNAL */
    integer tv, tw;
    always @* begin
        o = 0;                         // loop variables are assigned on every path (no latch)
        tv = 0;
        tw = 0;
        lower = {K*4*CRW{1'b0}};
        cancel = {K*S{1'b0}};
        et = {RW{1'b0}};
        for (q = 0; q < S; q = q + 1) begin
            for (i = 0; i < K; i = i + 1) begin
                et = {RW{1'b0}};       // the picked VC's route entry (a 4-way selection)
                for (tv = 0; tv < 4; tv = tv + 1)
                    if (pk_vc[(i*S+q)*2 +: 2] == tv[1:0]) et = e_entry[(i*4 + tv)*RW +: RW];
                for (o = 0; o < K; o = o + 1)
                    for (tw = 0; tw < 4; tw = tw + 1)
                        if (go[i*S+q] && kind2[(i*S+q)*3 +: 3] != R_DISCARD && granted[(i*S+q)*K + o] &&
                            et[E_OVC +: 2] == tw[1:0] &&
                            {1'b0, lower[(o*4 + tw)*CRW +: CRW]} + {{(CRW-3){1'b0}}, et[E_LEN +: 4]} >
                            {1'b0, cred[(o*4 + tw)*CRW +: CRW]})
                            cancel[i*S+q] = 1'b1;
            end
            for (i = 0; i < K; i = i + 1) begin   // this plane's tentative grants count for the next
                et = {RW{1'b0}};
                for (tv = 0; tv < 4; tv = tv + 1)
                    if (pk_vc[(i*S+q)*2 +: 2] == tv[1:0]) et = e_entry[(i*4 + tv)*RW +: RW];
                for (o = 0; o < K; o = o + 1)
                    for (tw = 0; tw < 4; tw = tw + 1)
                        if (go[i*S+q] && kind2[(i*S+q)*3 +: 3] != R_DISCARD && granted[(i*S+q)*K + o] &&
                            et[E_OVC +: 2] == tw[1:0])
                            lower[(o*4 + tw)*CRW +: CRW] = lower[(o*4 + tw)*CRW +: CRW] + {{(CRW-4){1'b0}}, et[E_LEN +: 4]};
            end
        end
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

    // ---------------- router_input + router_xbar: streams and grants move flits ----------------
    // per input plane (i,q): the flit that crosses (xv), its ports, output VC and the flit
    reg [K*S-1:0] xv;
    reg [K*S*K-1:0] xports;
    reg [K*S*2-1:0] xovc;
    reg [K*S*66-1:0] xflit;
    reg [K*4-1:0] pop, rpop, disc_vcs;
    reg [K*S-1:0] busy_set, busy_clr;
    reg [K*S*(4+K+2)-1:0] strm_new;    // {vc[1:0], ovc[1:0], mcast, discard, ports} of a stream that starts
    reg [K*S-1:0] set_lock, clr_lock, set_grb, clr_grb;
    reg [K*4-1:0] held_clr;
    reg [K*4*K-1:0] held_or;
    reg [K*S*4-1:0] take_len;          // (i,q): len of the packet granted ports (its credits and room)
    /* verilator lint_off UNUSEDSIGNAL */  // whole flits/entries are read, fields used per block
    reg [65:0] sf, gf;
    reg [RW-1:0] ge;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [1:0] svc, gvc;
    reg [2:0] gk;
    reg sfv, gev, s_pop, g_pop, g_rpop, g_disc, g_hclr;
    reg [K-1:0] gheld, g_hor;
    reg [K-1:0] gp, sports;
    reg complete;
    always @* begin
        xv = {K*S{1'b0}};
        xports = {K*S*K{1'b0}};
        xovc = {K*S*2{1'b0}};
        /* verilator lint_off WIDTHCONCAT */  // wide clears at the 64-port size (tianhe)
        xflit = {K*S*66{1'b0}};
        /* verilator lint_on WIDTHCONCAT */
        pop = {K*4{1'b0}};
        rpop = {K*4{1'b0}};
        disc_vcs = {K*4{1'b0}};
        busy_set = {K*S{1'b0}};
        busy_clr = {K*S{1'b0}};
        /* verilator lint_off WIDTHCONCAT */  // wide clears at the 64-port size (tianhe)
        strm_new = {K*S*(4+K+2){1'b0}};
        /* verilator lint_on WIDTHCONCAT */
        set_lock = {K*S{1'b0}};
        clr_lock = {K*S{1'b0}};
        set_grb = {K*S{1'b0}};
        clr_grb = {K*S{1'b0}};
        held_clr = {K*4{1'b0}};
        /* verilator lint_off WIDTHCONCAT */  // wide clears at the 64-port size (tianhe)
        held_or = {K*4*K{1'b0}};
        /* verilator lint_on WIDTHCONCAT */
        take_len = {K*S*4{1'b0}};
        o = 0;                         // loop variables are assigned on every path (no latch)
        complete = 1'b0;
        tv = 0;                        // the per-plane selections below are set in every iteration
        for (i = 0; i < K; i = i + 1)
            for (q = 0; q < S; q = q + 1) begin
                svc = strm_vc[(i*S+q)*2 +: 2];
                gvc = pk_vc[(i*S+q)*2 +: 2];
                sports = strm_ports[(i*S+q)*K +: K];
                // the stream's VC and the picked VC, selected over constant indices
                sf = 66'd0;
                sfv = 1'b0;
                gf = 66'd0;
                ge = {RW{1'b0}};
                gev = 1'b0;
                gheld = {K{1'b0}};
                for (tv = 0; tv < 4; tv = tv + 1) begin
                    if (svc == tv[1:0]) begin
                        sf = f_flit[(i*4 + tv)*66 +: 66];
                        sfv = f_valid[i*4 + tv];
                    end
                    if (gvc == tv[1:0]) begin
                        gf = f_flit[(i*4 + tv)*66 +: 66];
                        ge = e_entry[(i*4 + tv)*RW +: RW];
                        gev = e_valid[i*4 + tv];
                        gheld = held[(i*4 + tv)*K +: K];
                    end
                end
                gk = kind2[(i*S+q)*3 +: 3];
                gp = granted_f[(i*S+q)*K +: K];
                s_pop = 1'b0;
                g_pop = 1'b0;
                g_rpop = 1'b0;
                g_disc = 1'b0;
                g_hclr = 1'b0;
                g_hor = {K{1'b0}};
                if (in_busy[i*S+q]) begin
                    // the stream's next flit, if it has arrived
                    if (sfv) begin
                        s_pop = 1'b1;
                        if (!strm_disc[i*S+q]) begin
                            xv[i*S+q] = 1'b1;
                            xports[(i*S+q)*K +: K] = sports;
                            xovc[(i*S+q)*2 +: 2] = strm_ovc[(i*S+q)*2 +: 2];
                            xflit[(i*S+q)*66 +: 66] = sf;
                        end
                        if (sf[64]) begin
                            for (o = 0; o < K; o = o + 1)
                                if (sports[o]) begin
                                    clr_lock[o*S+q] = 1'b1;
                                    if (strm_mcast[i*S+q]) set_grb[o*S+q] = 1'b1;
                                end
                            busy_clr[i*S+q] = 1'b1;
                        end
                    end
                end else if (go_f[i*S+q]) begin
                    if (gk == R_DISCARD) begin
                        g_pop = 1'b1;
                        if (gf[65] && gev) begin
                            g_rpop = 1'b1;
                            g_disc = 1'b1;
                            if (!gf[64]) begin
                                busy_set[i*S+q] = 1'b1;
                                strm_new[(i*S+q)*(4+K+2) +: (4+K+2)] = {gvc, 2'b00, 1'b0, 1'b1, {K{1'b0}}};
                            end
                        end
                    end else begin
                        take_len[(i*S+q)*4 +: 4] = ge[E_LEN +: 4];
                        for (o = 0; o < K; o = o + 1)
                            if (gp[o]) begin
                                set_lock[o*S+q] = 1'b1;
                                if (gk == R_MCAST) clr_grb[o*S+q] = 1'b1;
                            end
                        complete = gk != R_ACQ || (gheld | gp) == ge[K-1:0];
                        if (gk == R_ACQ) g_hor = gp;
                        if (complete) begin
                            // the head crosses; the packet streams on from the next cycle
                            xv[i*S+q] = 1'b1;
                            xports[(i*S+q)*K +: K] = ge[K-1:0];
                            xovc[(i*S+q)*2 +: 2] = ge[E_OVC +: 2];
                            xflit[(i*S+q)*66 +: 66] = gf;
                            g_pop = 1'b1;
                            g_rpop = 1'b1;
                            g_hclr = 1'b1;
                            if (gf[64]) begin
                                for (o = 0; o < K; o = o + 1)
                                    if (ge[o]) begin
                                        clr_lock[o*S+q] = 1'b1;
                                        if (ge[E_MCAST]) set_grb[o*S+q] = 1'b1;
                                    end
                            end else begin
                                busy_set[i*S+q] = 1'b1;
                                strm_new[(i*S+q)*(4+K+2) +: (4+K+2)] = {gvc, ge[E_OVC +: 2], ge[E_MCAST], 1'b0, ge[K-1:0]};
                            end
                        end
                    end
                end
                // back to the VCs, over constant indices
                for (tv = 0; tv < 4; tv = tv + 1) begin
                    if (s_pop && svc == tv[1:0]) pop[i*4 + tv] = 1'b1;
                    if (gvc == tv[1:0]) begin
                        if (g_pop) pop[i*4 + tv] = 1'b1;
                        if (g_rpop) rpop[i*4 + tv] = 1'b1;
                        if (g_disc) disc_vcs[i*4 + tv] = 1'b1;
                        if (g_hclr) held_clr[i*4 + tv] = 1'b1;
                        held_or[(i*4 + tv)*K +: K] = held_or[(i*4 + tv)*K +: K] | g_hor;
                    end
                end
            end
    end

    // crossbar: output slot (o,q) takes the flit of the (at most one) input plane sending to it
    reg [K*S-1:0] wr_valid;
    reg [K*S*68-1:0] wr_flit;
    reg [K*S*4-1:0] wr_take;
    /* verilator lint_off UNUSEDSIGNAL */  // whole flits are read, fields used per block
    reg [65:0] fx;
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        wr_valid = {K*S{1'b0}};
        /* verilator lint_off WIDTHCONCAT */  // wide clears at the 64-port size (tianhe)
        wr_flit = {K*S*68{1'b0}};
        /* verilator lint_on WIDTHCONCAT */
        wr_take = {K*S*4{1'b0}};
        fx = 66'd0;
        for (o = 0; o < K; o = o + 1)
            for (q = 0; q < S; q = q + 1)
                for (i = 0; i < K; i = i + 1) begin
                    fx = xflit[(i*S+q)*66 +: 66];
                    if (xv[i*S+q] && xports[(i*S+q)*K + o]) begin
                        wr_valid[o*S+q] = 1'b1;
                        wr_flit[(o*S+q)*68 +: 68] = {fx[65:64], xovc[(i*S+q)*2 +: 2], fx[63:0]};
                    end
                    if (granted_f[(i*S+q)*K + o] && kind2[(i*S+q)*3 +: 3] != R_DISCARD)
                        wr_take[(o*S+q)*4 +: 4] = wr_take[(o*S+q)*4 +: 4] | take_len[(i*S+q)*4 +: 4];
                end
    end

    // ---------------- router_output: output queues and the link stage ----------------
    wire [K*S-1:0] oq_valid;
    wire [K*S*68-1:0] oq_front;
    wire [K*S*RMW-1:0] oq_room;
    reg [K*S-1:0] oq_pop;
    genvar go2;
    generate
        for (go2 = 0; go2 < K*S; go2 = go2 + 1) begin : g_oq
            oq #(.DEPTH(OQ_DEPTH), .DW(OQ_DW), .RMW(RMW)) queue (
                .clk(clk), .rst(rst), .push(wr_valid[go2]), .push_flit(wr_flit[go2*68 +: 68]),
                .pop(oq_pop[go2]), .take(wr_take[go2*4 +: 4]),
                .front_valid(oq_valid[go2]), .front(oq_front[go2*68 +: 68]), .room(oq_room[go2*RMW +: RMW]));
        end
    endgenerate
    // per output: the packet it is sending, else a waiting FD/FR packet, else a queue in round robin
    reg [K-1:0] nx_valid, nx_head, nx_tail, lk_set, lk_clr;
    reg [K*2-1:0] nx_vc;
    reg [K*64-1:0] nx_data;
    reg [K*QW-1:0] lk_q_next, rr_link_next;
    reg [S-1:0] fv;
    reg [QW-1:0] lq;
    reg found_q;
    integer n2;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [67:0] lf;
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        nx_valid = {K{1'b0}};
        nx_head = {K{1'b0}};
        nx_tail = {K{1'b0}};
        nx_vc = {K*2{1'b0}};
        nx_data = {K*64{1'b0}};
        oq_pop = {K*S{1'b0}};
        lk_set = {K{1'b0}};
        lk_clr = {K{1'b0}};
        lk_q_next = lk_q;
        rr_link_next = rr_link;
        lf = 68'd0;
        lq = {QW{1'b0}};
        found_q = 1'b0;
        n2 = 0;
        for (o = 0; o < K; o = o + 1) begin
            fv = oq_valid[o*S +: S];
            found_q = 1'b0;
            lq = {QW{1'b0}};
            if (lk_lock[o]) begin
                lq = lk_q[o*QW +: QW];
                for (n2 = 0; n2 < S; n2 = n2 + 1)
                    if (lq == n2[QW-1:0]) found_q = fv[n2];
            end else if (ctl_ports[o]) begin
                nx_valid[o] = 1'b1;
                nx_head[o] = 1'b1;
                nx_tail[o] = 1'b1;
                nx_data[o*64 +: 64] = ctl_data(fu_out_msg[o*MW +: MW]);
            end else begin
                // round robin over the planes: the first non-empty queue at or after rr_link, else
                // the first one (scanning down, the last hit is the lowest index)
                for (n2 = S - 1; n2 >= 0; n2 = n2 - 1)
                    if (fv[n2]) begin
                        found_q = 1'b1;
                        lq = n2[QW-1:0];
                    end
                for (n2 = S - 1; n2 >= 0; n2 = n2 - 1)
                    if (fv[n2] && n2[QW-1:0] >= rr_link[o*QW +: QW]) lq = n2[QW-1:0];
                if (found_q) begin
                    rr_link_next[o*QW +: QW] = (lq == LAST_Q) ? {QW{1'b0}} : lq + 1'b1;
                end
            end
            if (found_q) begin
                for (n2 = 0; n2 < S; n2 = n2 + 1)
                    if (lq == n2[QW-1:0]) begin
                        lf = oq_front[(o*S + n2)*68 +: 68];
                        oq_pop[o*S + n2] = 1'b1;
                    end
                nx_valid[o] = 1'b1;
                nx_head[o] = lf[67];
                nx_tail[o] = lf[66];
                nx_vc[o*2 +: 2] = lf[65:64];
                nx_data[o*64 +: 64] = lf[63:0];
                if (lf[66]) lk_clr[o] = 1'b1;
                else begin
                    lk_set[o] = 1'b1;
                    lk_q_next[o*QW +: QW] = lq;
                end
            end
        end
    end
    localparam integer S_M1 = S - 1;
    localparam [QW-1:0] LAST_Q = S_M1[QW-1:0];

    // credits taken by this cycle's grants, per output VC (a sum: planes grant in parallel)
    reg [K*4*CRW-1:0] dec;
    /* verilator lint_off UNUSEDSIGNAL */  // whole entries are read, fields used per block
    reg [RW-1:0] ec;
    /* verilator lint_on UNUSEDSIGNAL */
    integer dk;
    always @* begin
        ec = {RW{1'b0}};
        dk = 0;
        for (o = 0; o < K; o = o + 1)
            for (v = 0; v < 4; v = v + 1) begin
                dec[(o*4+v)*CRW +: CRW] = {CRW{1'b0}};
                for (i = 0; i < K; i = i + 1)
                    for (q = 0; q < S; q = q + 1) begin
                        ec = {RW{1'b0}};
                        for (dk = 0; dk < 4; dk = dk + 1)
                            if (pk_vc[(i*S+q)*2 +: 2] == dk[1:0]) ec = e_entry[(i*4 + dk)*RW +: RW];
                        if (granted_f[(i*S+q)*K + o] && kind2[(i*S+q)*3 +: 3] != R_DISCARD && ec[E_OVC +: 2] == v[1:0])
                            dec[(o*4+v)*CRW +: CRW] = dec[(o*4+v)*CRW +: CRW] + {{(CRW-4){1'b0}}, ec[E_LEN +: 4]};
                    end
            end
    end

    // ---------------- congestion (its inputs: occupancy and demand) ----------------
    // Demand of intra-group / global port FIRST_LOCAL + j: + len of every route entry stored for
    // it (discarded entries have no ports), - len when a head takes its credits (the same len moves
    // into the occupancy). A queue here shows at once, not a link round trip later.
    localparam ND = K - FIRST_LOCAL;   // ports with a demand counter
    reg [DMW-1:0] demand [0:ND-1];
    reg [DMW-1:0] demand_next [0:ND-1];
    reg [RW-1:0] dm_entry;
    // a credit decrement (CRW bits) at the counter's width: DMW exceeds CRW from 63 ports on
    // (tianhe: 12 > 11), where a DMW-bit slice of dec would take a bit of the next VC's field
    localparam DXW = (DMW > CRW) ? DMW : CRW;
    /* verilator lint_off UNUSEDSIGNAL */  // bits above DMW when CRW > DMW (small .. paper)
    reg [DXW-1:0] dm_dec;
    /* verilator lint_on UNUSEDSIGNAL */
    integer dj, dv;
    always @* begin
        dm_entry = {RW{1'b0}};
        dm_dec = {DXW{1'b0}};
        for (dj = 0; dj < ND; dj = dj + 1) begin
            demand_next[dj] = demand[dj];
            for (i = 0; i < K; i = i + 1) begin
                dm_entry = rpush_entry[i*RW +: RW];
                if (rpush_ok[i] && dm_entry[FIRST_LOCAL + dj])
                    demand_next[dj] = demand_next[dj] + {{(DMW-4){1'b0}}, dm_entry[E_LEN +: 4]};
            end
            for (dv = 0; dv < 4; dv = dv + 1) begin
                dm_dec = {DXW{1'b0}};
                dm_dec[CRW-1:0] = dec[((FIRST_LOCAL + dj)*4 + dv)*CRW +: CRW];
                demand_next[dj] = demand_next[dj] - dm_dec[DMW-1:0];
            end
        end
    end
    always @(posedge clk)
        for (dj = 0; dj < ND; dj = dj + 1) demand[dj] <= rst ? {DMW{1'b0}} : demand_next[dj];
    reg [K*COW-1:0] occ_cong;
    always @* begin
        for (o = 0; o < K; o = o + 1) begin
            occ_cong[o*COW +: COW] = {{(COW-OW){1'b0}}, occ[o*OW +: OW]};
            if (CONG_DEMAND != 0 && o >= FIRST_LOCAL)
                occ_cong[o*COW +: COW] = occ_cong[o*COW +: COW] + {{(COW-DMW){1'b0}}, demand[o - FIRST_LOCAL]};
        end
    end
    cong #(.P(P), .A(A), .H(H), .BW(BW), .OW(COW), .TL(TL), .TG(TG), .HW(HW), .INTERVAL(MAX_LEN), .TPS(TPS)) congestion (
        .clk(clk), .rst(rst), .bid(cfg_bid), .occ(occ_cong), .sb_in_valid(sb_in_valid), .sb_in_bits(sb_in_bits),
        .cong_local(cong_local), .group(cong_group), .sb_out_valid(sb_out_valid), .sb_out_bits(sb_out_bits));

    // next reservation: cleared when the reserved multicast is granted; otherwise the first waiting
    // (not granted) multicast head, inputs in round-robin order from rr_mc, lowest VC first
    reg n_res_valid;
    reg [KW-1:0] n_res_in;
    reg [1:0] n_res_vc;
    /* verilator lint_off UNUSEDSIGNAL */  // whole flits/entries are read, fields used here
    reg [65:0] fr;
    reg [RW-1:0] er;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [K*4-1:0] res_cand;            // input i, VC v at i*4+v: a multicast head that may reserve
    reg [K-1:0] res_in_cand, res_pick, res_upper, res_from;
    reg [1:0] res_low_vc [0:K-1];      // lowest candidate VC per input
    reg mc_granted_vc;
    integer ri, rv;
    always @* begin
        n_res_valid = res_valid;
        n_res_in = res_in;
        n_res_vc = res_vc;
        fr = 66'd0;
        er = {RW{1'b0}};
        mc_granted_vc = 1'b0;
        for (ri = 0; ri < K; ri = ri + 1) begin
            res_low_vc[ri] = 2'd0;
            for (rv = 3; rv >= 0; rv = rv - 1) begin
                fr = f_flit[(ri*4+rv)*66 +: 66];
                er = e_entry[(ri*4+rv)*RW +: RW];
                mc_granted_vc = mc_valid_f && mc_in == ri[KW-1:0] && mc_plane == plane_idx(ri, rv) &&
                                pk_vc[(ri*S + {{(32-QW){1'b0}}, plane_idx(ri, rv)})*2 +: 2] == rv[1:0];
                res_cand[ri*4+rv] = f_valid[ri*4+rv] && fr[65] && e_valid[ri*4+rv] && er[E_MCAST] &&
                                    !er[E_DISCARD] && !vc_active[ri*4+rv] && !mc_granted_vc;
                if (res_cand[ri*4+rv]) res_low_vc[ri] = rv[1:0];
            end
            res_in_cand[ri] = res_cand[ri*4 +: 4] != 4'd0;
        end
        // round robin from rr_mc: the first candidate input at or after it, else the first one
        res_upper = res_in_cand & ({K{1'b1}} << rr_mc);
        res_from = (res_upper != {K{1'b0}}) ? res_upper : res_in_cand;
        res_pick = res_from & (~res_from + {{(K-1){1'b0}}, 1'b1});
        if (BULLETIN != 0) begin
            if (res_valid && mc_valid_f && mc_in == res_in && mc_plane == res_plane && res_pick_vc == res_vc)
                n_res_valid = 1'b0;
            if (!res_valid && res_pick != {K{1'b0}}) begin
                n_res_valid = 1'b1;
                n_res_in = {KW{1'b0}};
                n_res_vc = 2'd0;
                for (ri = 0; ri < K; ri = ri + 1)
                    if (res_pick[ri]) begin
                        n_res_in = n_res_in | ri[KW-1:0];
                        n_res_vc = n_res_vc | res_low_vc[ri];
                    end
            end
        end
    end

    // credits after this cycle's grants and returns; a credit nobody took saturates at the depth
    reg [CRW-1:0] cred_next [0:K*4-1];
    reg [CRW:0] csum;
    always @* begin
        csum = {(CRW+1){1'b0}};
        for (o = 0; o < K; o = o + 1)
            for (v = 0; v < 4; v = v + 1) begin
                csum = {1'b0, cred[(o*4+v)*CRW +: CRW]} - {1'b0, dec[(o*4+v)*CRW +: CRW]} + {{CRW{1'b0}}, cr_in_valid[o] && cr_in_vc[o*2 +: 2] == v[1:0]};
                cred_next[o*4+v] = (csum > {1'b0, ds_of(o)}) ? ds_of(o) : csum[CRW-1:0];
            end
    end

    // credits upstream: what each input owes per VC, one returned a cycle, round robin over the VCs
    reg [K*4*CPW-1:0] crp_next;
    reg [K-1:0] cr_next_valid;
    reg [K*2-1:0] cr_next_vc;
    reg [3:0] owed;
    reg [4*CPW-1:0] cpv;               // this input's counts after this cycle's pops
    reg [1:0] cstart, cidx;
    reg cfound;
    integer cn;
    always @* begin
        owed = 4'd0;
        cpv = {4*CPW{1'b0}};
        cstart = 2'd0;
        cidx = 2'd0;
        cfound = 1'b0;
        cn = 0;
        for (i = 0; i < K; i = i + 1) begin
            for (v = 0; v < 4; v = v + 1) begin
                cpv[v*CPW +: CPW] = crp[(i*4+v)*CPW +: CPW] + {{(CPW-1){1'b0}}, pop[i*4+v]};
                owed[v] = cpv[v*CPW +: CPW] != {CPW{1'b0}};
            end
            cstart = rr_cr[i*2 +: 2];
            cfound = 1'b0;
            cidx = 2'd0;
            for (cn = 3; cn >= 0; cn = cn - 1)   // the first owed VC at or after rr_cr, else the first
                if (owed[cn]) begin
                    cfound = 1'b1;
                    cidx = cn[1:0];
                end
            for (cn = 3; cn >= 0; cn = cn - 1)
                if (owed[cn] && cn[1:0] >= cstart) cidx = cn[1:0];
            cr_next_valid[i] = cfound;
            cr_next_vc[i*2 +: 2] = cidx;
            for (v = 0; v < 4; v = v + 1)
                crp_next[(i*4+v)*CPW +: CPW] = cpv[v*CPW +: CPW] - {{(CPW-1){1'b0}}, cfound && cidx == v[1:0]};
        end
    end

    // a control credit is taken by a send, then a return counts up to the FIFO depth
    function [CCW-1:0] ctl_cred_next;
        input [CCW-1:0] c;
        input sent;
        input ret;
        reg [CCW-1:0] after;
        begin
            after = c - {{(CCW-1){1'b0}}, sent};
            ctl_cred_next = (ret && after < CTL_FULL) ? after + 1'b1 : after;
        end
    endfunction

    // ---------------- registers ----------------
    localparam integer K_M1 = K - 1;
    localparam [KW-1:0] LAST_IN = K_M1[KW-1:0];
    always @(posedge clk) begin
        if (rst) begin
            for (o = 0; o < K; o = o + 1)
                for (v = 0; v < 4; v = v + 1) cred[(o*4+v)*CRW +: CRW] <= ds_of(o);
            locked <= {K*S{1'b0}};
            grb_free <= {K*S{1'b1}};
            in_busy <= {K*S{1'b0}};
            pk_valid <= {K*S{1'b0}};
            pk_vc <= {K*S*2{1'b0}};
            res_valid <= 1'b0;
            res_in <= {KW{1'b0}};
            res_vc <= 2'd0;
            /* verilator lint_off WIDTHCONCAT */  // wide clears at the 64-port size (tianhe)
            held <= {K*4*K{1'b0}};
            /* verilator lint_on WIDTHCONCAT */
            rr_in <= {K*S*2{1'b0}};
            rr_out <= {K*S*KW{1'b0}};
            rr_mc <= {KW{1'b0}};
            rr_link <= {K*QW{1'b0}};
            lk_lock <= {K{1'b0}};
            lk_q <= {K*QW{1'b0}};
            crp <= {K*4*CPW{1'b0}};
            rr_cr <= {K*2{1'b0}};
            strm_vc <= {K*S*2{1'b0}};
            strm_ovc <= {K*S*2{1'b0}};
            strm_mcast <= {K*S{1'b0}};
            strm_disc <= {K*S{1'b0}};
            strm_ports <= {K*S*K{1'b0}};
            out_valid <= {K{1'b0}};
            out_head <= {K{1'b0}};
            out_tail <= {K{1'b0}};
            out_vc <= {K*2{1'b0}};
            out_data <= {K*64{1'b0}};
            cr_out_valid <= {K{1'b0}};
            cr_out_vc <= {K*2{1'b0}};
            overflow <= {K{1'b0}};
            ctl_cr_out_valid <= {K{1'b0}};
            discard <= {K{1'b0}};
            discard_vcs <= {K*4{1'b0}};
            for (o = 0; o < K; o = o + 1) ctl_cred[o] <= CTL_FULL;
            link_dn <= {K{1'b0}};
        end else begin
            // a link the fault unit knows down swallows flits: nothing waits for its credits
            for (o = 0; o < K; o = o + 1)
                for (v = 0; v < 4; v = v + 1)
                    cred[(o*4+v)*CRW +: CRW] <= link_dn[o] ? ds_of(o) : cred_next[o*4+v];
            for (o = 0; o < K; o = o + 1)
                ctl_cred[o] <= link_dn[o] ? CTL_FULL : ctl_cred_next(ctl_cred[o], ctl_ports[o], ctl_cr_in_valid[o]);
            if (ev_take) link_dn[ev_port[KW-1:0]] <= ev_kind != 2'd3;
            ctl_cr_out_valid <= fu_in_taken;
            for (i = 0; i < K; i = i + 1) discard[i] <= disc_vcs[i*4 +: 4] != 4'd0;
            discard_vcs <= disc_vcs;
            locked <= (locked | set_lock) & ~clr_lock;
            grb_free <= (grb_free & ~clr_grb) | set_grb;
            in_busy <= (in_busy & ~busy_clr) | busy_set;
            for (i = 0; i < K*S; i = i + 1)
                if (busy_set[i]) begin
                    strm_vc[i*2 +: 2] <= strm_new[i*(4+K+2) + K + 4 +: 2];
                    strm_ovc[i*2 +: 2] <= strm_new[i*(4+K+2) + K + 2 +: 2];
                    strm_mcast[i] <= strm_new[i*(4+K+2) + K + 1];
                    strm_disc[i] <= strm_new[i*(4+K+2) + K];
                    strm_ports[i*K +: K] <= strm_new[i*(4+K+2) +: K];
                end
            pk_valid <= pick1_valid;
            pk_vc <= pick1_vc;
            for (i = 0; i < K*S; i = i + 1)
                if (pick1_valid[i]) rr_in[i*2 +: 2] <= pick1_vc[i*2 +: 2] + 2'd1;
            res_valid <= n_res_valid;
            res_in <= n_res_in;
            res_vc <= n_res_vc;
            for (i = 0; i < K*4; i = i + 1)
                held[i*K +: K] <= held_clr[i] ? {K{1'b0}} : held[i*K +: K] | held_or[i*K +: K];
            for (i = 0; i < K*S; i = i + 1)
                if (out_granted_f[i])
                    rr_out[i*KW +: KW] <= (out_winner[i*KW +: KW] == LAST_IN) ? {KW{1'b0}} : out_winner[i*KW +: KW] + 1'b1;
            if (mc_valid_f) rr_mc <= (mc_in == LAST_IN) ? {KW{1'b0}} : mc_in + 1'b1;
            lk_lock <= (lk_lock & ~lk_clr) | lk_set;
            lk_q <= lk_q_next;
            rr_link <= rr_link_next;
            crp <= crp_next;
            for (i = 0; i < K; i = i + 1)
                if (cr_next_valid[i]) rr_cr[i*2 +: 2] <= cr_next_vc[i*2 +: 2] + 2'd1;
            out_valid <= nx_valid;
            out_head <= nx_head;
            out_tail <= nx_tail;
            out_vc <= nx_vc;
            out_data <= nx_data;
            cr_out_valid <= cr_next_valid;
            cr_out_vc <= cr_next_vc;
            overflow <= overflow | push_drop | ctl_bad;
        end
    end
endmodule
