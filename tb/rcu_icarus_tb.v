// rcu_icarus_tb — replays a vector file written by `rcu_lockstep --vectors FILE` (every cycle's
// inputs and the C model's expected outputs) through rtl/rcu.v under Icarus Verilog and counts
// mismatches. The second simulator shows the RTL does not depend on Verilator's semantics.
// Run: vvp rcu_icarus_tb.vvp +vectors=FILE   (parameters P, A, H, G must match the vectors)

module rcu_icarus_tb;
    parameter P = 2;
    parameter A = 4;
    parameter H = 2;
    parameter G = 9;
    localparam K = P + A - 1 + H;
    localparam AH = A * H;
    localparam GW = (G > 1) ? $clog2(G) : 1;
    localparam BW = (A > 1) ? $clog2(A) : 1;
    localparam GPW = (AH > 1) ? $clog2(AH) : 1;
    localparam TAW = (P + A + G > 1) ? $clog2(P + A + G) : 1;

    reg clk = 1'b0;
    reg [1023:0] f_rst, f_gid, f_bid, f_pc, f_wired, f_seed, f_valid, f_dgid, f_dbid, f_dnid, f_sgid,
                 f_vc, f_cl, f_cg, f_inv, f_twv, f_twt, f_twa, f_twd, e_valid, e_port, e_vc, e_class, e_gv, e_gport;
    wire out_valid, out_gport_valid;
    wire [5:0] out_port;
    wire [1:0] out_vc;
    wire [3:0] out_class;
    wire [GPW-1:0] out_gport;
    wire [TAW-1:0] mask_row;   // the vectors carry the masks already read (the harness's RAM)

    rcu #(.P(P), .A(A), .H(H), .G(G)) dut (
        .clk(clk), .rst(f_rst[0]), .cfg_gid(f_gid[GW-1:0]), .cfg_bid(f_bid[BW-1:0]),
        .cfg_port_class(f_pc[1:0]), .cfg_wired(f_wired[AH-1:0]), .cfg_lfsr_seed(f_seed[31:0]),
        .in_valid(f_valid[0]), .in_dst_gid(f_dgid[10:0]), .in_dst_bid(f_dbid[5:0]),
        .in_dst_nid(f_dnid[5:0]), .in_src_gid(f_sgid[10:0]), .in_vc(f_vc[1:0]),
        .cong_local(f_cl[K-1:0]), .cong_global(f_cg[AH-1:0]), .mask_row(mask_row), .opt_invalid(f_inv[K-1:0]),
        .tw_valid(f_twv[0]), .tw_table(f_twt[1:0]),
        .tw_addr(f_twa[TAW-1:0]), .tw_data(f_twd[63:0]), .out_valid(out_valid), .out_port(out_port),
        .out_vc(out_vc), .out_class(out_class), .out_gport_valid(out_gport_valid), .out_gport(out_gport));

    integer fd, n, cycles, mismatches;
    reg started;    // outputs are defined once a reset cycle has been clocked
    reg [8*512-1:0] path;
    initial begin
        cycles = 0;
        mismatches = 0;
        started = 1'b0;
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("rcu_icarus_tb: give +vectors=FILE");
            $finish;
        end
        fd = $fopen(path, "r");
        if (fd == 0) begin
            $display("rcu_icarus_tb: cannot open vectors");
            $finish;
        end
        while (!$feof(fd)) begin
            n = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n",
                        f_rst, f_gid, f_bid, f_pc, f_wired, f_seed, f_valid, f_dgid, f_dbid, f_dnid, f_sgid,
                        f_vc, f_cl, f_cg, f_inv, f_twv, f_twt, f_twa, f_twd, e_valid, e_port, e_vc, e_class, e_gv,
                        e_gport);
            if (n == 25) begin
                #1;
                if (started && (out_valid !== e_valid[0] || out_port !== e_port[5:0] || out_vc !== e_vc[1:0] ||
                    out_class !== e_class[3:0] || out_gport_valid !== e_gv[0] || out_gport !== e_gport[GPW-1:0])) begin
                    if (mismatches < 5)
                        $display("icarus mismatch at cycle %0d: valid %b/%b vc %b/%b gv %b/%b gport %b/%b port %0d/%0d class %0d/%0d", cycles, out_valid, e_valid[0], out_vc, e_vc[1:0], out_gport_valid, e_gv[0], out_gport, e_gport[GPW-1:0], out_port,
                                 e_port[5:0], out_class, e_class[3:0]);
                    mismatches = mismatches + 1;
                end
                #4 clk = 1'b1;
                if (f_rst[0]) started = 1'b1;
                #5 clk = 1'b0;
                cycles = cycles + 1;
            end
        end
        $display("icarus rcu: cycles=%0d mismatches=%0d", cycles, mismatches);
        $finish;
    end
endmodule
