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
// bit n of {compares, 1}: counter >= n (n = 0: true; n > NT: false); a shift, so a selection
// by a computed n costs a small mux rather than NT equality compares
function ge_thermo;
    input [NT:0] bits;
    input [3:0] n;
    /* verilator lint_off UNUSEDSIGNAL */  // bit 0 is the answer
    reg [NT+15:0] w;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        w = {15'd0, bits} >> n;
        ge_thermo = w[0];
    end
endfunction
