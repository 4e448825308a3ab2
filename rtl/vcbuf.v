// vcbuf — the input unit of one router port: a flit FIFO per VC and a route FIFO per VC (one
// entry per packet). Mirrors the storage of csim/vcbuf.c. Pushes and pops take effect at the end
// of the cycle; a push into a VC that is full and not popped in the same cycle is dropped and
// reported on push_drop (the router keeps the sticky overflow flag).
//   The flits themselves sit in one memory with a write port and S synchronous read ports, one
// per crossbar plane (block RAM on an FPGA: docs/fpga.md item 23). Plane q names in a cycle the
// VC it sends from in the next one (rd_vc); in that next cycle rd_flit holds that VC's front
// flit as of the cycle's start (the flit pushed at the edge into an emptied VC comes from a
// bypass register, so the memory's read-during-write behaviour never matters). Everything the
// router decides on reads registers instead: the fronts' {head, tail} bits (front_ht, kept in
// flip-flops beside the memory) and the counts' compares >= 2, 3, 4, 5 (count_ge). Router v7's
// look-past one packet deeper reads the route FIFO's second entry (rsecond) and, per VC, whether
// the flit peek_off deep is a head (peek_head; the head bits are flip-flops) and whether peek_off
// flits are here (peek_all).
`include "flit_fields.vh"
module vcbuf #(
    parameter K = 7,
    parameter DEPTH = 8,
    parameter DW = 3,                  // max(1, clog2(DEPTH))
    parameter S = 2                    // crossbar planes: the memory's read ports
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              push,
    input  wire [1:0]        push_vc,
    input  wire [`FLITW_BITS-1:0] push_flit, // {head, tail, data} (csim/flit.h FLITW_*)
    input  wire [3:0]        pop,          // per VC: its front flit leaves (router v2: one per plane)
    input  wire              rpush,
    input  wire [1:0]        rpush_vc,
    input  wire [RW-1:0]     rpush_entry, // {discard, mcast, ovc[1:0], len[3:0], ports[K-1:0]}
    input  wire [3:0]        rpop,         // per VC: its front route entry leaves
    input  wire [S*2-1:0]    rd_vc,        // per plane: the VC it sends from in the next cycle
    input  wire [4*5-1:0]    peek_off,     // per VC: a depth in flits (0: the front)
    output wire [S*`FLITW_BITS-1:0] rd_flit, // per plane: the front flit of last cycle's rd_vc
    output wire [3:0]        front_valid,
    output wire [4*2-1:0]    front_ht,     // per VC: the front flit's {head, tail} bits (registers)
    output wire [3:0]        rfront_valid,
    output wire [4*RW-1:0]   rfront,
    output wire [3:0]        rsecond_valid, // per VC: the route FIFO holds two entries or more
    output wire [4*RW-1:0]   rsecond,       //   the second
    output wire [3:0]        peek_all,     // per VC: count >= peek_off
    output wire [3:0]        peek_head,    // per VC: count > peek_off and the flit peek_off deep is a head
    output wire              push_drop,
    output wire              push_ok,      // the flit of push was stored
    output wire              rpush_ok,     // the route entry of rpush was stored
    output wire [4*4-1:0]    count_ge      // per VC: {count >= 5, >= 4, >= 3, >= 2} (registers)
);
    localparam RW = K + 8;
    localparam [DW:0] DEPTH_W = DEPTH[DW:0];
    localparam [DW-1:0] LAST = DEPTH_W[DW-1:0] - 1'b1;

    localparam FW = `FLITW_BITS;
    localparam AW = $clog2(4 * DEPTH);
    localparam [AW-1:0] DEPTH_A = DEPTH[AW-1:0];   // VC v's flits at v * DEPTH ..
    (* ram_style = "block" *)
    reg [FW-1:0] fifo [0:4*DEPTH-1];
    // the {head, tail} bits again, in flip-flops, so the front's bits can be registers: the
    // allocator reads them first in its cycle (is a packet ending?) and a RAM read there is slow
    reg [1:0]    htm   [0:4*DEPTH-1];
    reg [RW-1:0] rfifo [0:4*DEPTH-1];
    reg [DW-1:0] head [0:3], rhead [0:3];
    reg [DW:0]   count [0:3], rcount [0:3];

    wire full_push  = count[push_vc] == DEPTH_W && !pop[push_vc];
    // a route FIFO full at the start of the cycle refuses the entry even when a grant pops one now
    // (keeps the grant off the route-push path; reachable only after an upstream protocol error)
    wire rfull_push = rcount[rpush_vc] == DEPTH_W;
    assign push_drop = (push && full_push) || (rpush && rfull_push);
    assign push_ok = push && !full_push;
    assign rpush_ok = rpush && !rfull_push;

    // slot (head + count) mod DEPTH, after this cycle's pop of the same VC
    function [DW-1:0] wrap_add;
        input [DW-1:0] base;
        input [DW:0] off;
        reg [DW+1:0] sum;
        begin
            sum = {2'b00, base} + {1'b0, off};
            if (sum >= {1'b0, DEPTH_W}) sum = sum - {1'b0, DEPTH_W};
            wrap_add = sum[DW-1:0];
        end
    endfunction

    wire [4*DW-1:0] slot_of;           // per VC: where its next flit goes
    wire [4*DW-1:0] head_next_of;      // per VC: its front's slot after this edge
    wire [3:0] front_pushed;           // per VC: the flit pushed now is its front after this edge

    // the flit memory: one write port, one synchronous read port per plane
    reg [FW-1:0] push_q;               // the flit pushed at the last edge (the bypass)
    reg [AW-1:0] wa;                   // the write address (selected over constant indices)
    integer wv;
    always @* begin
        wa = {AW{1'b0}};
        for (wv = 0; wv < 4; wv = wv + 1)
            if (push_vc == wv[1:0]) wa = DEPTH_A * wv[AW-1:0] + {{(AW-DW){1'b0}}, slot_of[wv*DW +: DW]};
    end
    always @(posedge clk) begin
        if (push_ok) fifo[wa] <= push_flit;
        push_q <= push_flit;
    end
    genvar gq;
    generate
        for (gq = 0; gq < S; gq = gq + 1) begin : g_rd
            reg [AW-1:0] ra;               // the read address, and whether the front is pushed now
            reg byp;
            integer rv;
            always @* begin
                ra = {AW{1'b0}};
                byp = 1'b0;
                for (rv = 0; rv < 4; rv = rv + 1)
                    if (rd_vc[gq*2 +: 2] == rv[1:0]) begin
                        ra = DEPTH_A * rv[AW-1:0] + {{(AW-DW){1'b0}}, head_next_of[rv*DW +: DW]};
                        byp = front_pushed[rv];
                    end
            end
            reg [FW-1:0] rd_q;
            reg byp_q;
            always @(posedge clk) begin
                rd_q <= fifo[ra];
                byp_q <= byp;
            end
            assign rd_flit[gq*FW +: FW] = byp_q ? push_q : rd_q;
        end
    endgenerate

    genvar gv;
    generate
        for (gv = 0; gv < 4; gv = gv + 1) begin : g_front
            assign front_valid[gv] = count[gv] != {(DW+1){1'b0}};
            assign rfront_valid[gv] = rcount[gv] != {(DW+1){1'b0}};
            assign rfront[gv*RW +: RW] = rfifo[gv * DEPTH + {{(31-DW){1'b0}}, rhead[gv]}];
            assign rsecond_valid[gv] = rcount[gv] >= 2;
            assign rsecond[gv*RW +: RW] = rfifo[gv * DEPTH + {{(31-DW){1'b0}}, (rhead[gv] == LAST) ? {DW{1'b0}} : rhead[gv] + 1'b1}];
            // (an offset of DEPTH or more is never here: the slot read is then any)
            wire [31:0] off = {27'd0, peek_off[gv*5 +: 5]};
            wire [31:0] cnt = {{(31-DW){1'b0}}, count[gv]};
            wire [DW-1:0] at = wrap_add(head[gv], off[DW:0]);
            assign peek_all[gv] = cnt >= off;
            assign peek_head[gv] = cnt > off && htm[gv * DEPTH + {{(31-DW){1'b0}}, at}][1];
        end
    endgenerate

    generate
        for (gv = 0; gv < 4; gv = gv + 1) begin : g_vc
            localparam [1:0] VC = gv;
            wire pop_here = pop[gv];
            wire push_here = push && push_vc == VC && !full_push;
            wire rpop_here = rpop[gv];
            wire rpush_here = rpush && rpush_vc == VC && !rfull_push;
            // C pops before it pushes: the slot after a pop of the same VC is still head+count.
            wire [DW-1:0] slot = wrap_add(head[gv], count[gv]);
            wire [DW-1:0] rslot = wrap_add(rhead[gv], rcount[gv]);
            reg [1:0] ht_q;                // this VC's front {head, tail}
            assign front_ht[gv*2 +: 2] = ht_q;
            // the allocator asks whether the flits of a packet's end are here: the compares are
            // set from the next count at the same edge, so no carry chain starts its cycle
            reg [3:0] ge_q;
            assign count_ge[gv*4 +: 4] = ge_q;
            assign slot_of[gv*DW +: DW] = slot;
            wire [DW-1:0] head_next = !pop_here ? head[gv] : (head[gv] == LAST) ? {DW{1'b0}} : head[gv] + 1'b1;
            wire [DW:0] count_next = count[gv] + {{DW{1'b0}}, push_here} - {{DW{1'b0}}, pop_here};
            // the front after this edge: the flit pushed now into an empty VC, else the stored
            // flit at the new head
            wire [1:0] ht_next = (push_here && count[gv] == {{DW{1'b0}}, pop_here}) ? {push_flit[`FLITW_HEAD_BIT], push_flit[`FLITW_TAIL_BIT]}
                                                                                   : htm[gv * DEPTH + {{(31-DW){1'b0}}, head_next}];
            assign head_next_of[gv*DW +: DW] = head_next;
            assign front_pushed[gv] = push_here && count[gv] == {{DW{1'b0}}, pop_here};
            always @(posedge clk) begin
                if (rst) begin
                    head[gv] <= {DW{1'b0}};
                    count[gv] <= {(DW+1){1'b0}};
                    ge_q <= 4'b0000;
                    ht_q <= 2'b00;
                    rhead[gv] <= {DW{1'b0}};
                    rcount[gv] <= {(DW+1){1'b0}};
                end else begin
                    if (push_here)
                        htm[gv * DEPTH + {{(31-DW){1'b0}}, slot}] <= {push_flit[`FLITW_HEAD_BIT], push_flit[`FLITW_TAIL_BIT]};
                    ht_q <= ht_next;
                    head[gv] <= head_next;
                    count[gv] <= count_next;
                    ge_q <= {count_next >= 5, count_next >= 4, count_next >= 3, count_next >= 2};
                    if (rpush_here) rfifo[gv * DEPTH + {{(31-DW){1'b0}}, rslot}] <= rpush_entry;
                    if (rpop_here) rhead[gv] <= (rhead[gv] == LAST) ? {DW{1'b0}} : rhead[gv] + 1'b1;
                    rcount[gv] <= rcount[gv] + {{DW{1'b0}}, rpush_here} - {{DW{1'b0}}, rpop_here};
                end
            end
        end
    endgenerate
endmodule
