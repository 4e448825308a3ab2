// fault_port — the travel/match/action unit of one input port (seed 001 Fig. 8a; csim/fault.c
// fd_act, fr_act, fr_announce, fr_check). Holds the port's valid masks (a RAM with a "fresh"
// bit per entry, so a reset needs no sweep), the accessibility bits per role, and the static
// route options per entry and role (configuration, written with the tables).
//
// Timing: the scheduler broadcasts one operation on one entry per cycle. op_read registers the
// entry's mask and options (the first of FD_act's two cycles); op_fd / op_fr act in the next
// cycle on the registered values and write the entry back at the clock edge; op_check reads
// only the accessibility bits. Up to two messages leave per cycle (msg0 before msg1).
module fault_port #(
    parameter P = 2,
    parameter A = 4,
    parameter G = 9,
    parameter K = 7,
    parameter PORT = 0,                // this port's number
    parameter ET_NUM = P + A + G,
    parameter EW = 4,                  // clog2(ET_NUM)
    parameter KB = 3,                  // max(1, clog2(K))
    parameter GW = 4, parameter BW = 2, parameter NW = 1,
    parameter MW = 6 + GW + BW + NW    // message {kind, prefix, role, g, b, n}
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          cfg_we,
    input  wire [EW-1:0] cfg_entry,
    input  wire [K-1:0]  cfg_src,
    input  wire [K-1:0]  cfg_int,
    input  wire [GW-1:0] my_gid,
    input  wire [BW-1:0] my_bid,
    input  wire [A-1:0]  peer_dead,
    input  wire [EW-1:0] op_entry,
    input  wire          op_read,
    input  wire          op_fd,        // FD_act with failed port op_fp
    input  wire          op_fr,        // FR_act
    input  wire          op_check,     // Travel_FR check pass (only sent to port op_fp)
    input  wire          op_rel,       // after op_fd: withdraw a newly dead router's entry
    input  wire          op_alive,     // after op_fd: re-announce a revived router's entry
    input  wire [KB-1:0] op_fp,
    input  wire          op_use_addr,  // FD address: op_addr (Match_FD) or the entry's own
    input  wire [MW-1:0] op_addr,
    output reg           msg0_v,
    output reg  [MW-1:0] msg0,
    output reg           msg1_v,
    output reg  [MW-1:0] msg1,
    output reg  [K-1:0]  wr_mask,      // the entry's mask after this cycle (op_fd / op_fr)
    output reg  [1:0]    wr_acc,
    // the route-compute unit's read port: rd_mask is entry rd_entry's mask as it was before this
    // cycle's write, from the next cycle on (all ones after a reset and beyond ET_NUM; all zeros
    // for a zone-B entry whose router is in peer_dead as it was before this cycle's write)
    input  wire [EW-1:0] rd_entry,
    output reg  [K-1:0]  rd_mask
);
    localparam [1:0] KIND_FD = 2'd1, KIND_FR = 2'd2;
    localparam [1:0] PFX_GROUP = 2'd1, PFX_ROUTER = 2'd2, PFX_NODE = 2'd3;
    localparam TERMINAL = PORT < P;

    reg [K-1:0] mask_mem [0:ET_NUM-1];
    reg [K-1:0] src_mem [0:ET_NUM-1];
    reg [K-1:0] int_mem [0:ET_NUM-1];
    reg [ET_NUM-1:0] fresh;
    reg [2*ET_NUM-1:0] acc_v, roles_v;   // 2 bits per entry: {transit, source}

    reg [K-1:0] mask_q, src_q, int_q;
    reg         fresh_q;

    always @(posedge clk) begin
        if (op_read) begin
            mask_q <= mask_mem[op_entry];
            src_q <= src_mem[op_entry];
            int_q <= int_mem[op_entry];
            fresh_q <= fresh[op_entry];
        end
        if (cfg_we) begin
            src_mem[cfg_entry] <= cfg_src;
            int_mem[cfg_entry] <= cfg_int;
        end
    end

    // ---- the entry's own address and zone ----
    localparam [EW-1:0] FIRST_B = P[EW-1:0];
    localparam [EW-1:0] FIRST_G = P[EW-1:0] + A[EW-1:0];
    wire in_b = op_entry >= FIRST_B && op_entry < FIRST_G;
    wire in_g = op_entry >= FIRST_G;
    wire [EW-1:0] b_index = op_entry - FIRST_B;   // < A in zone B
    wire [EW-1:0] g_index = op_entry - FIRST_G;   // < G in zone G
    wire [MW-1:0] et_addr =
        in_g ? {2'd0, PFX_GROUP, 2'd0, g_index[GW-1:0], {BW{1'b0}}, {NW{1'b0}}} :
        in_b ? {2'd0, PFX_ROUTER, 2'd0, my_gid, b_index[BW-1:0], {NW{1'b0}}} :
               {2'd0, PFX_NODE, 2'd0, my_gid, my_bid, op_entry[NW-1:0]};
    wire dead = in_b && peer_dead[b_index[BW-1:0]];

    function [MW-1:0] with_kind_role;
        input [MW-1:0] addr;
        input [1:0] kind;
        input [1:0] role;
        begin
            with_kind_role = addr;
            with_kind_role[MW-1 -: 2] = kind;
            with_kind_role[MW-5 -: 2] = role;
        end
    endfunction

    // ---- the action (FD_act / FR_act) on the registered entry ----
    wire [K-1:0] mask_old = fresh_q ? {K{1'b1}} : mask_q;
    wire [K-1:0] fp_bit = {{(K-1){1'b0}}, 1'b1} << op_fp;
    wire         has_fp = ((src_q | int_q) & fp_bit) != {K{1'b0}};
    wire         fp_valid = (mask_old & fp_bit) != {K{1'b0}};
    wire         fd_hit = op_fd && has_fp && fp_valid;
    wire         fr_hit = op_fr && has_fp && !fp_valid;
    wire [K-1:0] mask_new = fd_hit ? (mask_old & ~fp_bit) : fr_hit ? (mask_old | fp_bit) : mask_old;
    wire [1:0]   acc_old = acc_v[2*op_entry +: 2];
    wire [1:0]   acc_now = {(int_q & mask_new) != {K{1'b0}}, (src_q & mask_new) != {K{1'b0}}};
    wire [1:0]   acc_new = (fd_hit || fr_hit) ? acc_now : acc_old;
    wire [1:0]   lost = acc_old & ~acc_new;
    wire [1:0]   gained = acc_new & ~acc_old;
    wire [1:0]   roles_e = roles_v[2*op_entry +: 2];
    wire [1:0]   missing = roles_e & ~acc_new;

    // every live router of the group reachable from this port, in the roles of `r`, once this
    // entry holds acc_new (fr_announce's group FR)
    reg [1:0] whole;
    integer d;
    always @* begin
        whole = 2'b11;
        for (d = 0; d < A; d = d + 1) begin
            if (d[BW-1:0] != my_bid && !peer_dead[d]) begin
                if ((FIRST_B + d[EW-1:0]) == op_entry) whole = whole & (acc_new | ~roles_e);
                else whole = whole & (acc_v[2*(P+d) +: 2] | ~roles_v[2*(P+d) +: 2]);
            end
        end
    end
    wire [MW-1:0] group_addr = {2'd0, PFX_GROUP, 2'd0, my_gid, {BW{1'b0}}, {NW{1'b0}}};

    // ---- messages ----
    always @* begin
        msg0_v = 1'b0;
        msg0 = {MW{1'b0}};
        msg1_v = 1'b0;
        msg1 = {MW{1'b0}};
        if (!TERMINAL) begin
            if (op_fd) begin
                if (lost != 2'b00 && !dead) begin
                    msg0_v = 1'b1;
                    msg0 = with_kind_role(op_use_addr ? op_addr : et_addr, KIND_FD, lost);
                end
                if (op_rel && missing != 2'b00) begin
                    // withdraw: an FR for the dead router's entry, and the group if complete
                    msg0_v = 1'b1;
                    msg0 = with_kind_role(et_addr, KIND_FR, missing);
                    if ((missing & whole) != 2'b00) begin
                        msg1_v = 1'b1;
                        msg1 = with_kind_role(group_addr, KIND_FR, missing & whole);
                    end
                end else if (op_alive && missing != 2'b00) begin
                    if (msg0_v) begin
                        msg1_v = 1'b1;
                        msg1 = with_kind_role(et_addr, KIND_FD, missing);
                    end else begin
                        msg0_v = 1'b1;
                        msg0 = with_kind_role(et_addr, KIND_FD, missing);
                    end
                end
            end
            if (op_fr && gained != 2'b00 && !dead) begin
                msg0_v = 1'b1;
                msg0 = with_kind_role(et_addr, KIND_FR, gained);
                if (in_b && (gained & whole) != 2'b00) begin
                    msg1_v = 1'b1;
                    msg1 = with_kind_role(group_addr, KIND_FR, gained & whole);
                end
            end
            if (op_check && missing != 2'b00 && !dead) begin
                msg0_v = 1'b1;
                msg0 = with_kind_role(et_addr, KIND_FD, missing);
            end
        end
        wr_mask = mask_new;
        wr_acc = acc_new;
    end

    // An entry whose region is a router of this group known dead reads every option invalid, so
    // the route-compute unit discards a packet for it where it is (csim/fault.h fault_read_mask).
    localparam [EW:0] ET_NUM_W = ET_NUM[EW:0];
    wire          rd_in_b = rd_entry >= FIRST_B && rd_entry < FIRST_G;
    wire [EW-1:0] rd_b_index = rd_entry - FIRST_B;
    wire          rd_dead = rd_in_b && peer_dead[rd_b_index[BW-1:0]];
    always @(posedge clk) begin
        if (rst || {1'b0, rd_entry} >= ET_NUM_W) rd_mask <= {K{1'b1}};
        else if (rd_dead) rd_mask <= {K{1'b0}};
        else if (fresh[rd_entry]) rd_mask <= {K{1'b1}};
        else rd_mask <= mask_mem[rd_entry];
    end

    always @(posedge clk) begin
        if (fd_hit || fr_hit) mask_mem[op_entry] <= mask_new;
        if (rst) begin
            fresh <= {ET_NUM{1'b1}};
            acc_v <= roles_v;
        end else begin
            if (cfg_we) begin
                roles_v[2*cfg_entry +: 2] <= {cfg_int != {K{1'b0}}, cfg_src != {K{1'b0}}};
                acc_v[2*cfg_entry +: 2] <= {cfg_int != {K{1'b0}}, cfg_src != {K{1'b0}}};
            end
            if (fd_hit || fr_hit) begin
                fresh[op_entry] <= 1'b0;
                acc_v[2*op_entry +: 2] <= acc_new;
            end
        end
    end
endmodule

// The project's lint waivers (rtl/lint.vlt, each with its reason), so that a bare Verilator run
// over this file needs no extra argument; Icarus and Yosys never see them.
`ifdef VERILATOR
`include "lint.vlt"
`endif
