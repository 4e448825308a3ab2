// oq_order — the order in which one output port's packets leave (csim/router.h ord, written in
// csim/router_xbar.c, read in csim/router_output.c): the planes of the heads written into the
// port's output queues, in the order they were written. Up to S heads a cycle (one per plane,
// lowest plane first); the link stage starts the packet at the front (pop) when no packet or
// FD/FR packet holds the link. Because each queue is a FIFO, the front names the queue whose
// front flit is that packet's head. Why: a VC's unicast heads may cross on either of two planes
// (csim/alloc.h "Planes"), and its packets to one port must still leave in order.
//   Timing: pushes at the end of the cycle the heads are written (they are in their queues from
//   the next cycle, like the flits); a pop at the end of the cycle the head leaves.
//   Invariant: never more entries than heads in the S queues, so DEPTH = S * the queue depth
//   cannot overflow.
module oq_order #(
    parameter S = 2,                   // crossbar planes (1, 2 or 4)
    parameter QW = 1,                  // max(1, clog2(S))
    parameter DEPTH = 16,              // S * flits per output queue
    parameter AW = 5                   // clog2(DEPTH) + 1: holds 0 .. DEPTH
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [S-1:0]  push,         // plane q wrote a head into the port's queue q now
    input  wire          pop,          // the link stage starts the front's packet now
    output wire          valid,
    output wire [QW-1:0] front
);
    localparam [AW-1:0] DEPTH_A = DEPTH[AW-1:0];
    reg [DEPTH*QW-1:0] ring, ring_n;
    reg [AW-1:0] head, tail, count, head_n, tail_n, count_n;   // tail: the next free entry
    reg [AW-1:0] at;                   // the next free entry while the pushes are placed
    integer q;

    assign valid = count != {AW{1'b0}};
    assign front = ring[head*QW +: QW];

    always @* begin
        ring_n = ring;
        at = tail;
        count_n = count;
        for (q = 0; q < S; q = q + 1)
            if (push[q]) begin
                ring_n[at*QW +: QW] = q[QW-1:0];
                at = (at + 1'b1 == DEPTH_A) ? {AW{1'b0}} : at + 1'b1;
                count_n = count_n + 1'b1;
            end
        tail_n = at;
        head_n = head;
        if (pop) begin
            head_n = (head + 1'b1 == DEPTH_A) ? {AW{1'b0}} : head + 1'b1;
            count_n = count_n - 1'b1;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            ring <= {DEPTH*QW{1'b0}};
            head <= {AW{1'b0}};
            tail <= {AW{1'b0}};
            count <= {AW{1'b0}};
        end else begin
            ring <= ring_n;
            head <= head_n;
            tail <= tail_n;
            count <= count_n;
        end
    end
endmodule
