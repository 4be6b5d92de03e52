`timescale 1ns/1ps
// Hidden testbench for seq_detect: the model keeps the last four bits sampled since the
// last reset; found must be 1 exactly when they are 1,0,1,1 (oldest first).
module tb;
    localparam NCYC = 2000;
    // Directed part, one character per rising edge after the initial reset:
    // '1'/'0' = din with rst low, 'R' = rst high (din random).
    localparam DLEN = 86;
    localparam [8*DLEN-1:0] DIR =
        "1011011010111011010101111010110000111110110R10R11101R1011R1011R1R011101101101100101101";

    reg  clk = 1'b0;
    reg  rst = 1'b1;
    reg  din = 1'b0;
    wire found;

    seq_detect dut (.clk(clk), .rst(rst), .din(din), .found(found));

    always #5 clk = ~clk;

    integer seed;
    initial seed = 32'h1011_2024;

    integer   cycle;
    integer   k;          // index into the directed part
    integer   nbits;      // bits sampled since the last reset edge (saturates at 4)
    reg [3:0] hist;       // last four sampled bits, bit 0 the newest
    reg       exp_found;
    reg [7:0] ch;
    integer   mode;       // random part: 0 random bits, 1 mostly ones, 2 pattern chunks
    reg [3:0] chunk;      // random part: bits still to send in mode 2, newest last
    integer   chunk_len;
    integer   r;

    initial begin
        nbits = 0;
        hist = 4'b0000;
        chunk = 4'b0000;
        chunk_len = 0;
        mode = 0;
        for (cycle = 0; cycle < NCYC; cycle = cycle + 1) begin
            @(posedge clk);
            // model
            if (rst) begin
                nbits = 0;
                hist = 4'b0000;
            end else begin
                hist = {hist[2:0], din};
                if (nbits < 4) nbits = nbits + 1;
            end

            @(negedge clk);
            exp_found = (nbits == 4) && (hist == 4'b1011);
            if (found !== exp_found) begin
                $display("FAIL cycle %0d: found got %0d expected %0d", cycle, found, exp_found);
                $finish;
            end

            // ---- inputs for the next rising edge (cycle + 1) ----
            rst = 1'b0;
            din = $random(seed);
            k = cycle + 1 - 2;
            if (cycle + 1 < 2) begin
                rst = 1'b1;                    // reset held for the first two edges
            end else if (k < DLEN) begin
                ch = DIR[8*(DLEN-1-k) +: 8];
                if (ch == "R") rst = 1'b1;
                else din = (ch == "1");
            end else begin
                if ((cycle & 31) == 0) mode = $random(seed) & 3;
                if (($random(seed) & 63) == 0) begin
                    rst = 1'b1;
                    chunk_len = 0;
                end else if (mode == 1) begin
                    din = (($random(seed) & 3) != 0);
                end else if (mode >= 2) begin
                    if (chunk_len == 0) begin
                        r = $random(seed) & 3;
                        case (r)
                            0: begin chunk = 4'b1011; chunk_len = 4; end
                            1: begin chunk = 4'b0011; chunk_len = 3; end   // 0,1,1
                            2: begin chunk = 4'b0010; chunk_len = 2; end   // 1,0
                            default: begin chunk = {3'b000, $random(seed)}; chunk_len = 1; end
                        endcase
                    end
                    din = chunk[chunk_len - 1];
                    chunk_len = chunk_len - 1;
                end
            end
        end
        $display("PASS");
        $finish;
    end
endmodule
