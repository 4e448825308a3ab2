// The ULX3S board top (fpga/ecp5_router_top.v: the whole router of `small` with LFSR traffic and
// a self-check) in Icarus: RUN_CYCLES cycles of traffic, a drain, then the counters are printed.
// `make fpga-sim-ecp5` runs it as it is (all traffic must come out: pass) and with PLANT_LOSS=1
// (the sink forgets one flit: fail), setting the parameters with iverilog -Ptb.NAME=VALUE.
module tb;
    parameter TABLES = "tables.hex";
    parameter [23:0] RUN_CYCLES = 24'd6000;
    parameter PLANT_LOSS = 0;

    reg clk = 0;
    wire [7:0] led;
    wire tx;
    ecp5_router_top #(.TABLES(TABLES), .RUN_CYCLES(RUN_CYCLES), .DRAIN_CYCLES(16'd1000), .REPORT_CYCLES(100),
                      .PLANT_LOSS(PLANT_LOSS))
        dut(.clk_25mhz(clk), .led(led), .ftdi_rxd(tx));
    always #1 clk = !clk;
    // two time units a cycle: the traffic, then 1,600 cycles for the drain and the report
    initial begin
        #(2 * (RUN_CYCLES + 1600));
        $display("fpga-sim: ecp5 plant=%0d pass=%b fail=%b flits_in=%0d flits_out=%0d heads_in=%0d heads_out=%0d",
                 PLANT_LOSS, dut.pass, dut.fail, dut.flits_in, dut.flits_out, dut.heads_in, dut.heads_out);
        $finish;
    end
endmodule
