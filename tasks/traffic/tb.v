`timescale 1ns/1ps
// Hidden testbench for traffic: a behavioural model of the light sequence inside the
// testbench; main and side are compared with it after every rising edge.
module tb;
    localparam NCYC = 2500;
    localparam RED = 0, YELLOW = 1, GREEN = 2;
    // model states
    localparam MG = 0, MY = 1, AR1 = 2, SG = 3, SY = 4, AR2 = 5;

    reg        clk = 1'b0;
    reg        rst = 1'b1;
    reg        car = 1'b0;
    wire [1:0] main;
    wire [1:0] side;

    traffic dut (.clk(clk), .rst(rst), .car(car), .main(main), .side(side));

    always #5 clk = ~clk;

    integer seed;
    initial seed = 32'h7a_ff1c;

    integer cycle;
    integer st;         // model state
    integer cnt;        // cycles in the model state, 1 in its first cycle
    integer exp_main, exp_side;
    integer n;          // next edge number
    integer density;    // random part: car = 1 with probability density/8
    integer rst_target; // directed part: reset when the model reaches this state
    integer rst_cnt;    // directed part: ... at this count in that state

    initial begin
        st = MG;
        cnt = 1;
        density = 4;
        rst_target = MG;
        for (cycle = 0; cycle < NCYC; cycle = cycle + 1) begin
            @(posedge clk);
            // model: state changes at this edge, with the inputs applied before it
            if (rst) begin
                st = MG; cnt = 1;
            end else begin
                case (st)
                    MG:  if (cnt >= 8 && car) begin st = MY; cnt = 1; end else cnt = cnt + 1;
                    MY:  if (cnt == 2) begin st = AR1; cnt = 1; end else cnt = cnt + 1;
                    AR1: begin st = SG; cnt = 1; end
                    SG:  if (cnt == 4) begin st = SY; cnt = 1; end else cnt = cnt + 1;
                    SY:  if (cnt == 2) begin st = AR2; cnt = 1; end else cnt = cnt + 1;
                    default: begin st = MG; cnt = 1; end
                endcase
            end

            @(negedge clk);
            exp_main = (st == MG) ? GREEN : (st == MY) ? YELLOW : RED;
            exp_side = (st == SG) ? GREEN : (st == SY) ? YELLOW : RED;
            if (main !== exp_main) begin
                $display("FAIL cycle %0d: main got %0d expected %0d", cycle, main, exp_main);
                $finish;
            end
            if (side !== exp_side) begin
                $display("FAIL cycle %0d: side got %0d expected %0d", cycle, side, exp_side);
                $finish;
            end

            // ---- inputs for the next rising edge n = cycle + 1 ----
            n = cycle + 1;
            rst = 1'b0;
            if (n < 2) begin
                rst = 1'b1;                           // reset held for the first two edges
                car = 1'b1;
            end else if (n < 40) begin
                car = 1'b0;                           // no car: main stays green
            end else if (n < 120) begin
                car = 1'b1;                           // a car always waiting: full rounds
            end else if (n < 180) begin
                // one-cycle car pulses: at the edge ending main-green cycle 7 (too early:
                // ignored), then at the one ending cycle 20
                car = (st == MG && (cnt == 7 || cnt == 20));
            end else if (n < 300) begin
                // one-cycle car pulse exactly at the edge ending main-green cycle 8
                car = (st == MG && cnt == 8);
            end else if (n < 360) begin
                car = (st != MG);                     // car only while main is not green
            end else if (n < 700) begin
                // reset once in each state (early in it), driven from the model
                car = 1'b1;
                case (rst_target)
                    MG, SG:  rst_cnt = 3;
                    MY:      rst_cnt = 2;
                    default: rst_cnt = 1;
                endcase
                if (st == rst_target && cnt == rst_cnt) begin
                    rst = 1'b1;
                    rst_target = (rst_target + 1) % 6;
                end
            end else begin
                if ((n % 50) == 0) density = $random(seed) & 7;
                car = (($random(seed) & 7) < density);
                if ((($random(seed) & 127) == 0)) rst = 1'b1;
                if (density == 7 && (($random(seed) & 3) == 0)) car = 1'b1;
            end
        end
        $display("PASS");
        $finish;
    end
endmodule
