// ice40_rcu_top — the route-compute unit of `small` (router (2,1), terminal input port 0) on an
// iCEBreaker (iCE40 UP5K, 12 MHz). An LFSR feeds it one random header per cycle (3 in 4) and
// random CongL/CongG bitmaps; a 32-bit signature register folds in every decision. After
// CHECK_CYCLES cycles the signature is compared with EXPECTED, computed beforehand by the C model
// on the same stimulus (fpga/rcu_signature.c): green LED = the silicon decides exactly as the
// model, red = it does not. Before that both LEDs blink.
module ice40_rcu_top #(
    parameter CHECK_CYCLES = 1048576,
    parameter [31:0] EXPECTED = 32'h0,
    parameter INIT_A = "",
    parameter INIT_B = "",
    parameter INIT_C = ""
) (
    input  wire clk,          // 12 MHz
    output wire led_green_n,  // active low
    output wire led_red_n
);
    // `small` = dfly(2,4,2,9); the unit of router (2,1), input port 0 (terminal)
    localparam P = 2, A = 4, H = 2, G = 9;
    localparam K = P + A - 1 + H, AH = A * H;
    localparam [3:0] MY_GID = 4'd2;
    localparam [1:0] MY_BID = 2'd1;
    localparam [31:0] STIM_SEED = 32'h1234_5678;
    localparam [31:0] RCU_SEED = 32'h0BAD_F00D;
    localparam [31:0] TAPS = 32'h8020_0003;

    // power-on reset: 16 cycles
    reg [4:0] por = 5'd0;
    wire rst = !por[4];
    always @(posedge clk) if (!por[4]) por <= por + 5'd1;

    // stimulus
    reg [31:0] stim;
    always @(posedge clk) stim <= rst ? STIM_SEED : (stim >> 1) ^ (stim[0] ? TAPS : 32'd0);
    wire [3:0] gid_raw = stim[5:2];
    wire [3:0] dst_gid = (gid_raw >= 4'd9) ? gid_raw - 4'd8 : gid_raw;
    wire in_valid = !rst && (stim[0] | stim[1]);
    wire [K-1:0] cong_local = stim[15:9] & stim[22:16];
    wire [AH-1:0] cong_global = stim[30:23] & {stim[31], stim[29:23]};

    wire out_valid, out_gport_valid;
    wire [5:0] out_port;
    wire [1:0] out_vc;
    wire [3:0] out_class;
    wire [2:0] out_gport;
    wire [3:0] mask_row;   // no fault units on this board: every option stays valid
    rcu #(.P(P), .A(A), .H(H), .G(G), .INIT_A(INIT_A), .INIT_B(INIT_B), .INIT_C(INIT_C)) unit (
        .clk(clk), .rst(rst), .cfg_gid(MY_GID), .cfg_bid(MY_BID), .cfg_port_class(2'd0),
        .cfg_wired({AH{1'b1}}), .cfg_lfsr_seed(RCU_SEED),
        .in_valid(in_valid), .in_dst_gid({7'd0, dst_gid}), .in_dst_bid({4'd0, stim[7:6]}),
        .in_dst_nid({5'd0, stim[8]}), .in_src_gid({7'd0, MY_GID}), .in_vc(2'd0), .cong_local(cong_local), .cong_global(cong_global),
        .mask_row(mask_row), .opt_invalid({K{1'b0}}),
        .tw_valid(1'b0), .tw_table(2'd0), .tw_addr(4'd0), .tw_data(64'd0),
        .out_valid(out_valid), .out_port(out_port), .out_vc(out_vc), .out_class(out_class),
        .out_gport_valid(out_gport_valid), .out_gport(out_gport));

    // signature: rotate left, xor the decision
    reg [31:0] sig;
    reg [20:0] count;
    reg done, pass;
    wire [31:0] word = {15'd0, out_valid, out_port, out_vc, out_class, out_gport_valid, out_gport};
    always @(posedge clk) begin
        if (rst) begin
            sig <= 32'd0;
            count <= 21'd0;
            done <= 1'b0;
            pass <= 1'b0;
        end else if (!done) begin
            sig <= {sig[30:0], sig[31]} ^ word;
            count <= count + 21'd1;
            if (count == CHECK_CYCLES[20:0] - 21'd1) begin
                done <= 1'b1;
                pass <= ({sig[30:0], sig[31]} ^ word) == EXPECTED;
            end
        end
    end

    reg [22:0] blink;
    always @(posedge clk) blink <= blink + 23'd1;
    assign led_green_n = done ? !pass : blink[22];
    assign led_red_n = done ? pass : !blink[22];
endmodule
