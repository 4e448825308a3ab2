// cong — congestion machinery of one router (seed 001 sec. 3.1, Fig. 5). Mirrors csim/cong.c;
// docs/architecture.md "Congestion". All outputs are registers.
//   cong_local[o]: terminal / intra-group ports: occupancy > TL; global ports: own CongG bit.
//   CongG: per global port a counter 0..HW, up while the estimate > TG, down otherwise; set at HW,
//          cleared at 0 (history window against phantom congestion). The estimate is the
//          occupancy less, with RTT > 0, the data flits the port sent in the last RTT cycles
//          (their credits cannot be back: in flight, not queued): a shift register of RTT bits
//          and its count per global port.
//   group: a*h bits; own segment = own CongG, neighbour segments from intra-group side-bands.
//   side-band out: own CongG launched every INTERVAL cycles, out TPS cycles later.
module cong #(
    parameter P = 2,
    parameter A = 4,
    parameter H = 2,
    parameter K = P + A - 1 + H,
    parameter AH = A * H,
    parameter BW = 2,
    parameter OW = 13,                 // occupancy width
    parameter TL = 10,
    parameter TG = 7,
    parameter HW = 8,
    parameter INTERVAL = 4,
    parameter TPS = 30,
    parameter RTT = 0                  // global ports' credit round trip, cycles (0: no window)
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [BW-1:0]   bid,
    input  wire [K*OW-1:0] occ,
    input  wire [K-1:0]    sb_in_valid,
    input  wire [K*H-1:0]  sb_in_bits,
    input  wire [K-1:0]    sent,       // a data flit onto the port's link register this cycle
    output reg  [K-1:0]    cong_local,
    output reg  [AH-1:0]   group,
    output wire            sb_out_valid,
    output wire [H-1:0]    sb_out_bits
);
    localparam FIRST_LOCAL = P;
    localparam FIRST_GLOBAL = P + A - 1;
    localparam HCW = 8;                // history counter width (HW <= 255)
    localparam [HCW-1:0] HW_C = HW[HCW-1:0];
    localparam [OW-1:0] TL_C = TL[OW-1:0];
    localparam ICW = 16;
    localparam [ICW-1:0] LAST_TICK = INTERVAL[ICW-1:0] - 1'b1;
    localparam RCW = $clog2(RTT + 2);  // the window's count, 0..RTT
    localparam EW = (OW > RCW ? OW : RCW) + 1;
    localparam [EW-1:0] TG_E = TG[EW-1:0];

    // in-flight window: flits sent in the last RTT cycles per global port (0 without a window)
    wire [H*RCW-1:0] recent;
    generate
        if (RTT > 0) begin : g_win
            genvar gi;
            for (gi = 0; gi < H; gi = gi + 1) begin : g_port
                reg [RTT-1:0] win;     // win[j]: the send of j + 1 cycles ago
                reg [RCW-1:0] cnt;
                wire [RTT:0] win_d = {win, sent[FIRST_GLOBAL + gi]};  // [RTT] leaves the window
                assign recent[gi*RCW +: RCW] = cnt;
                always @(posedge clk) begin
                    if (rst) begin
                        win <= {RTT{1'b0}};
                        cnt <= {RCW{1'b0}};
                    end else begin
                        // this cycle's send enters, that of RTT cycles ago leaves
                        win <= win_d[RTT-1:0];
                        cnt <= cnt + {{(RCW-1){1'b0}}, win_d[0]} - {{(RCW-1){1'b0}}, win_d[RTT]};
                    end
                end
            end
        end else begin : g_nowin
            assign recent = {H*RCW{1'b0}};
            wire unused_sent = |sent;  // no window: the sends are not needed
        end
    endgenerate

    reg [H-1:0] congg;
    reg [HCW-1:0] hist [0:H-1];
    reg [ICW-1:0] tick;
    reg [TPS-1:0] dl_valid;
    reg [TPS*H-1:0] dl_bits;
    assign sb_out_valid = dl_valid[TPS-1];
    assign sb_out_bits = dl_bits[(TPS-1)*H +: H];

    // next CongL and CongG
    reg [K-1:0] local_d;
    reg [H-1:0] congg_d;
    reg [HCW-1:0] hist_d [0:H-1];
    reg [AH-1:0] group_d;
    integer o, i, x, j;
    wire [31:0] bid32 = {{(32-BW){1'b0}}, bid};
    always @* begin
        local_d = {K{1'b0}};
        for (o = 0; o < K; o = o + 1) begin
            if (o >= FIRST_GLOBAL) local_d[o] = congg[o - FIRST_GLOBAL];
            else local_d[o] = occ[o*OW +: OW] > TL_C;
        end
        congg_d = congg;
        for (i = 0; i < H; i = i + 1) begin
            if ({{(EW-OW){1'b0}}, occ[(FIRST_GLOBAL + i)*OW +: OW]} >
                {{(EW-RCW){1'b0}}, recent[i*RCW +: RCW]} + TG_E) hist_d[i] = (hist[i] == HW_C) ? HW_C : hist[i] + 1'b1;
            else hist_d[i] = (hist[i] == {HCW{1'b0}}) ? {HCW{1'b0}} : hist[i] - 1'b1;
            if (hist_d[i] == HW_C) congg_d[i] = 1'b1;
            if (hist_d[i] == {HCW{1'b0}}) congg_d[i] = 1'b0;
        end
        group_d = group;
        for (x = 0; x < A; x = x + 1)
            if (x[BW-1:0] == bid) group_d[x*H +: H] = congg;
        // the neighbour behind intra-group port o (local index j = o-P) is bid j when j < own
        // bid, else j+1
        for (o = FIRST_LOCAL; o < FIRST_GLOBAL; o = o + 1) begin
            j = o - FIRST_LOCAL;
            for (x = 0; x < A; x = x + 1)
                if (sb_in_valid[o] && ((j < bid32 && x == j) || (j >= bid32 && x == j + 1)))
                    group_d[x*H +: H] = sb_in_bits[o*H +: H];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            congg <= {H{1'b0}};
            cong_local <= {K{1'b0}};
            group <= {AH{1'b0}};
            tick <= {ICW{1'b0}};
            for (i = 0; i < H; i = i + 1) hist[i] <= {HCW{1'b0}};
        end else begin
            congg <= congg_d;
            cong_local <= local_d;
            group <= group_d;
            for (i = 0; i < H; i = i + 1) hist[i] <= hist_d[i];
            tick <= (tick == LAST_TICK) ? {ICW{1'b0}} : tick + 1'b1;
        end
    end

    // side-band delay line: launched when tick is 0, on the links TPS cycles later
    wire launch = tick == {ICW{1'b0}};
    generate
        if (TPS == 1) begin : g_dl1
            always @(posedge clk) begin
                dl_valid <= rst ? 1'b0 : launch;
                dl_bits <= rst ? {H{1'b0}} : (launch ? congg : {H{1'b0}});
            end
        end else begin : g_dln
            always @(posedge clk) begin
                dl_valid <= rst ? {TPS{1'b0}} : {dl_valid[TPS-2:0], launch};
                dl_bits <= rst ? {TPS*H{1'b0}} : {dl_bits[(TPS-1)*H-1:0], launch ? congg : {H{1'b0}}};
            end
        end
    endgenerate
endmodule
