// credit_ge.vh — counters read as registered compares (router v2 for FPGA clocks). A credit or
// room counter c is kept beside its compares with every small constant, bit n-1 = c >= n, set
// from the counter's next value at the same edge; the allocator selects a bit instead of running
// a comparator per proposal. Behaviour is the counter's (csim/router_*.c compare counters).
// Included inside a module that defines NT (bits per counter), NTW (index width) and MAX_LEN.

// counter >= n, from its compares (n = 0: true; n > NT: false)
function ge_at;
    input [NT-1:0] bits;
    input [NTW-1:0] n;
    integer b;
    begin
        ge_at = n == {NTW{1'b0}};
        for (b = 1; b <= NT; b = b + 1)
            if (n == b[NTW-1:0]) ge_at = bits[b-1];
    end
endfunction
// an output queue's room >= len, from its MAX_LEN compares (len 0: true; > MAX_LEN: false — a
// route entry with such a len is a discard and asks for no port)
function room_at;
    input [MAX_LEN-1:0] bits;
    input [3:0] len;
    integer b;
    begin
        room_at = len == 4'd0;
        for (b = 1; b <= MAX_LEN; b = b + 1)
            if (len == b[3:0]) room_at = bits[b-1];
    end
endfunction
// one output's compares of VC vc
function [NT-1:0] cge_of;
    input [4*NT-1:0] c4;
    input [1:0] vc;
    begin
        case (vc)
            2'd0: cge_of = c4[0 +: NT];
            2'd1: cge_of = c4[NT +: NT];
            2'd2: cge_of = c4[2*NT +: NT];
            default: cge_of = c4[3*NT +: NT];
        endcase
    end
endfunction
// output VC vc's credits >= len, for a route entry's len: 0 true, 1..MAX_LEN from the compares,
// above MAX_LEN false. Only MAX_LEN of the NT compares per VC can be asked for, so this is a
// 4 * MAX_LEN-way selection rather than ge_at's 4 * NT-way one: an entry longer than MAX_LEN is
// a discard (csim router_input_route), and no decision reads a discard's credit compares.
function cr_at;
    /* verilator lint_off UNUSEDSIGNAL */  // the compares above MAX_LEN serve the planes' sums only
    input [4*NT-1:0] c4;
    /* verilator lint_on UNUSEDSIGNAL */
    input [1:0] vc;
    input [3:0] len;
    begin
        case (vc)
            2'd0: cr_at = room_at(c4[0 +: MAX_LEN], len);
            2'd1: cr_at = room_at(c4[NT +: MAX_LEN], len);
            2'd2: cr_at = room_at(c4[2*NT +: MAX_LEN], len);
            default: cr_at = room_at(c4[3*NT +: MAX_LEN], len);
        endcase
    end
endfunction
