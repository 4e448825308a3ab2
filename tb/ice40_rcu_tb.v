// The iCEBreaker board top (fpga/ice40_rcu_top.v) in Icarus: the route-compute unit runs
// CHECK_CYCLES cycles from the tables INIT_A/B/C and compares its signature with EXPECTED; the
// LEDs are printed once it is done. `make fpga-sim-ice40` runs it with the C model's signature
// (green) and with a wrong one (red), setting the parameters with iverilog -Ptb.NAME=VALUE.
module tb;
    parameter CHECK_CYCLES = 20000;
    parameter [31:0] EXPECTED = 32'h0;
    parameter INIT_A = "";
    parameter INIT_B = "";
    parameter INIT_C = "";

    reg clk = 0;
    wire g, r;
    ice40_rcu_top #(.CHECK_CYCLES(CHECK_CYCLES), .EXPECTED(EXPECTED), .INIT_A(INIT_A), .INIT_B(INIT_B),
                    .INIT_C(INIT_C))
        dut(.clk(clk), .led_green_n(g), .led_red_n(r));
    always #1 clk = !clk;
    // two time units a cycle, and 200 more for the check to finish
    initial begin
        #(2 * CHECK_CYCLES + 200);
        $display("fpga-sim: leds green_n=%b red_n=%b", g, r);
        $finish;
    end
endmodule
