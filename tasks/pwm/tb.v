`timescale 1ns/1ps
// Hidden testbench for pwm: a behavioural model of the phase counter inside the testbench;
// out is compared with (phase < duty) at the falling edge after every rising edge.
module tb;
    localparam NCYC = 3000;

    reg        clk = 1'b0;
    reg        rst = 1'b1;
    reg  [7:0] duty = 8'd1;
    wire       out;

    pwm dut (.clk(clk), .rst(rst), .duty(duty), .out(out));

    always #5 clk = ~clk;

    integer seed;
    initial seed = 32'h5eed_0001;

    integer cycle;
    integer phase;       // model phase after the latest rising edge
    integer nphase;      // model phase after the next rising edge (for boundary stimulus)
    integer r;
    integer rst_left;    // cycles of reset still to apply in the random part
    reg     exp_out;

    // duty for the next cycle, clipped to the allowed 0..200
    function [7:0] clip;
        input integer v;
        begin
            if (v < 0) clip = 8'd0;
            else if (v > 200) clip = 8'd200;
            else clip = v;
        end
    endfunction

    initial begin
        phase = 0;
        rst_left = 0;
        for (cycle = 0; cycle < NCYC; cycle = cycle + 1) begin
            @(posedge clk);
            // model: synchronous reset, otherwise count 0..199 and wrap
            if (rst) phase = 0;
            else if (phase == 199) phase = 0;
            else phase = phase + 1;

            @(negedge clk);
            exp_out = (phase < duty);
            if (out !== exp_out) begin
                $display("FAIL cycle %0d: out got %0d expected %0d", cycle, out, exp_out);
                $finish;
            end

            // ---- inputs for the next rising edge (cycle + 1) ----
            rst = 1'b0;
            if (cycle + 1 < 2) begin
                rst = 1'b1;                       // reset held for the first two edges
                duty = 8'd200;
            end else if (cycle + 1 < 402) begin
                duty = 8'd50;                     // two whole periods at a constant duty
            end else if (cycle + 1 < 602) begin
                duty = 8'd0;                      // never high
            end else if (cycle + 1 < 802) begin
                duty = 8'd200;                    // always high
            end else if (cycle + 1 < 1002) begin
                duty = 8'd1;                      // high only at phase 0
            end else if (cycle + 1 < 1202) begin
                duty = 8'd199;                    // low only at phase 199
            end else if (cycle + 1 < 1210) begin
                rst = (cycle + 1 >= 1205);        // reset in the middle of a period, 5 edges
                duty = 8'd3;
            end else if (cycle + 1 < 1420) begin
                duty = 8'd2;
                // reset at the edge where the phase would go from 198 to 199
                if (phase == 198) rst = 1'b1;
            end else begin
                // random: boundary values around the next phase, random values, and
                // occasional resets of 1 to 3 edges
                nphase = (phase == 199) ? 0 : phase + 1;
                if (rst_left > 0) begin
                    rst = 1'b1;
                    rst_left = rst_left - 1;
                end else if (($random(seed) & 127) == 0) begin
                    rst = 1'b1;
                    rst_left = $random(seed) & 1;
                end
                if (rst) nphase = 0;
                r = $random(seed) & 7;
                if (cycle + 1 < 2300) begin
                    // duty changes every cycle, often right at the phase boundary
                    case (r)
                        0, 1: duty = clip(nphase);
                        2, 3: duty = clip(nphase + 1);
                        4:    duty = clip(nphase - 1);
                        5:    duty = ($random(seed) & 1) ? 8'd0 : 8'd200;
                        default: duty = clip(($random(seed) & 255) % 201);
                    endcase
                end else begin
                    // duty held for a while, sometimes changed
                    if (r == 0) duty = clip(($random(seed) & 255) % 201);
                end
            end
        end
        $display("PASS");
        $finish;
    end
endmodule
