// rr_pick — the one round-robin (rotating priority) pick of the RTL; every arbiter instantiates
// it (rcu_decide: the classes and the LFSR fallback; alloc_in, alloc_out: the allocator;
// router_bulletin: the reservation; router_output: the planes of a link; router_input: the
// credits upstream; fault: the scheduler's input FIFOs). Its C twin is rr_pick() in csim/rr.h,
// so the two models cannot drift apart one arbiter at a time.
//
// Contract (combinational, no state):
//   req    W request bits, index 0 .. W-1
//   start  the index the scan begins at: the pointer of the arbiter, which holds the index after
//          its last winner ("next to try"). start >= W finds nothing at or after it, so it acts
//          as 0
//   found  = |req
//   idx    found: the lowest index j with req[j] and j >= start, else (wrapping) the lowest j
//          with req[j]; not found: 0
//   gnt    idx one-hot (0 when not found), computed beside idx rather than decoded from it: a
//          grant that selects per requester (alloc_out) then needs no compare after the arbiter;
//          with GNT = 0 always 0 (not computed)
// Invariant: found implies req[idx]; an arbiter that moves its pointer to idx + 1 (wrapping at
// W) serves every requester within W picks.
module rr_pick #(
    parameter W = 8,
    parameter IW = 3,             // index width, >= 1, 2**IW >= W
    parameter GNT = 1             // 0: gnt not computed, for an arbiter whose one-hot grant no one
                                  // reads: synthesis drops it anyway, but a simulator would run its
                                  // W * W loop every cycle (rcu_decide's W = a * h is 512 on tianhe)
) (
    input  wire [W-1:0]  req,
    input  wire [IW-1:0] start,
    output reg           found,
    output reg  [IW-1:0] idx,
    output wire [W-1:0]  gnt          // idx one-hot
);
    integer j;
    reg hit_hi;
    always @* begin
        found = 1'b0;
        hit_hi = 1'b0;
        idx = {IW{1'b0}};
        // Scanning downwards, the last hit is the lowest index.
        for (j = W - 1; j >= 0; j = j - 1) begin
            if (req[j] && j >= start) begin
                hit_hi = 1'b1;
                idx = j[IW-1:0];
            end
        end
        if (!hit_hi) begin
            for (j = W - 1; j >= 0; j = j - 1) begin
                if (req[j]) idx = j[IW-1:0];
            end
        end
        found = |req;
    end
    generate
        if (GNT != 0) begin : g_gnt
            reg [W-1:0] one_hot;
            integer g, h;
            reg before_hi, before_lo;
            always @* begin
                one_hot = {W{1'b0}};
                for (g = 0; g < W; g = g + 1) begin
                    before_hi = 1'b0;
                    before_lo = 1'b0;
                    for (h = 0; h < g; h = h + 1) begin
                        if (req[h] && h >= start) before_hi = 1'b1;
                        if (req[h]) before_lo = 1'b1;
                    end
                    one_hot[g] = req[g] && (g >= start ? !before_hi : (!hit_hi && !before_lo));
                end
            end
            assign gnt = one_hot;
        end else begin : g_no_gnt
            assign gnt = {W{1'b0}};
        end
    endgenerate
endmodule
