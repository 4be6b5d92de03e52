`timescale 1ns/1ps
// Hidden testbench for arbiter: a behavioural model of the round-robin pointer and the
// registered grant inside the testbench; gnt is compared with it after every rising edge.
module tb;
    localparam NCYC = 2400;

    reg        clk = 1'b0;
    reg        rst = 1'b1;
    reg  [3:0] req = 4'b1111;
    wire [3:0] gnt;

    arbiter dut (.clk(clk), .rst(rst), .req(req), .gnt(gnt));

    always #5 clk = ~clk;

    integer seed;
    initial seed = 32'h0a4b_17e2;

    integer   cycle;
    integer   n;          // number of the next rising edge
    integer   ptr;        // model pointer: the requester with the highest priority
    reg [3:0] g;          // model grant
    reg [3:0] hold;       // directed/random clients: requests still waiting
    integer   combo;      // exhaustive part: (pointer, req) combination under test
    integer   i;

    // the first requester at or after p (mod 4), one-hot; 0 when nobody requests
    function [3:0] pick;
        input [3:0] r;
        input integer p;
        integer s, q;
        begin
            pick = 4'b0000;
            for (s = 3; s >= 0; s = s - 1) begin
                q = (p + s) % 4;
                if (r[q]) pick = 4'b0001 << q;
            end
        end
    endfunction

    function integer index_of;
        input [3:0] oh;
        begin
            index_of = oh[3] ? 3 : oh[2] ? 2 : oh[1] ? 1 : 0;
        end
    endfunction

    initial begin
        ptr = 0;
        hold = 4'b0000;
        combo = 0;
        for (cycle = 0; cycle < NCYC; cycle = cycle + 1) begin
            @(posedge clk);
            // model: decide with the requests sampled at this edge; the winner j moves
            // the pointer to j+1
            if (rst) begin
                g = 4'b0000;
                ptr = 0;
            end else begin
                g = pick(req, ptr);
                if (g != 4'b0000) ptr = (index_of(g) + 1) % 4;
            end

            @(negedge clk);
            if (gnt !== g) begin
                $display("FAIL cycle %0d: gnt got %0d expected %0d", cycle, gnt, g);
                $finish;
            end

            // ---- inputs for the next rising edge n = cycle + 1 ----
            n = cycle + 1;
            rst = 1'b0;
            if (n < 2) begin
                rst = 1'b1;                       // reset held for the first two edges
                req = 4'b1111;
            end else if (n < 14) begin
                req = 4'b1111;                    // everyone requests: 0,1,2,3,0,1,...
            end else if (n < 30) begin
                // idle cycles in between: the pointer must hold
                req = (n % 3 == 0) ? 4'b1111 : (n % 3 == 1) ? 4'b0000 : 4'b1010;
            end else if (n < 30 + 128) begin
                // every request pattern with every pointer value: even edges steer the
                // pointer (a single request from pointer-1), odd edges apply the pattern
                if ((n - 30) % 2 == 0) begin
                    req = 4'b0001 << (((combo / 16) + 3) % 4);
                end else begin
                    req = combo % 16;
                    combo = combo + 1;
                end
            end else if (n < 700) begin
                req = $random(seed);              // random requests
            end else if (n < 1300) begin
                // clients hold a request until granted, then drop it for a while
                hold = hold & ~g;
                for (i = 0; i < 4; i = i + 1)
                    if (!hold[i] && (($random(seed) & 3) == 0)) hold[i] = 1'b1;
                req = hold;
                if (($random(seed) & 63) == 0) rst = 1'b1;
            end else if (n < 1700) begin
                // sparse requests: many idle cycles and lone requesters
                req = 4'b0000;
                for (i = 0; i < 4; i = i + 1)
                    if (($random(seed) & 7) == 0) req[i] = 1'b1;
            end else begin
                req = $random(seed);
                if (($random(seed) & 3) == 0) req = req | 4'b1000;
                if (($random(seed) & 31) == 0) rst = 1'b1;
            end
        end
        $display("PASS");
        $finish;
    end
endmodule
