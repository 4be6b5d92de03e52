`timescale 1ns/1ps
// Hidden testbench for gray: directed corner cases, then every pair of input values
// (bin, gray_in) in a scrambled order, then random pairs. Each vector is applied, and after #1
// both outputs are compared with the model.
module tb;
  reg  [7:0] bin;
  reg  [7:0] gray_in;
  wire [7:0] gray_out;
  wire [7:0] bin_out;

  gray dut (.bin(bin), .gray_in(gray_in), .gray_out(gray_out), .bin_out(bin_out));

  integer seed;
  initial seed = 27182818;

  integer n;          // vector number, from 0
  integer k, j;
  reg [7:0] exp_gray;
  reg [7:0] exp_bin;

  // Apply one vector, wait, compare every output with the model.
  task apply;
    input [7:0] b;
    input [7:0] g;
    begin
      bin = b;
      gray_in = g;
      #1;
      exp_gray = b ^ (b >> 1);
      exp_bin[7] = g[7];
      for (j = 6; j >= 0; j = j - 1)
        exp_bin[j] = exp_bin[j + 1] ^ g[j];
      if (gray_out !== exp_gray) begin
        $display("FAIL cycle %0d: gray_out (bin=0x%02h) got 0x%02h expected 0x%02h", n, b, gray_out, exp_gray);
        $finish;
      end
      if (bin_out !== exp_bin) begin
        $display("FAIL cycle %0d: bin_out (gray_in=0x%02h) got 0x%02h expected 0x%02h", n, g, bin_out, exp_bin);
        $finish;
      end
      n = n + 1;
    end
  endtask

  initial begin
    n = 0;
    // directed corner cases
    apply(8'h00, 8'h00);
    apply(8'hff, 8'hff);
    apply(8'h80, 8'h80);
    apply(8'h01, 8'h01);
    apply(8'h7f, 8'h40);    // 127 -> 0x40 and 0x40 -> 127 (the code of 127)
    apply(8'h55, 8'haa);
    apply(8'haa, 8'h55);
    for (k = 0; k < 8; k = k + 1)
      apply(8'h01 << k, 8'h01 << k);   // single bits both ways
    // every pair of values; gray_in runs through a scrambled order against bin
    for (k = 0; k < 65536; k = k + 1)
      apply(k[7:0], k[15:8] ^ (k[7:0] * 8'd37));
    // random pairs
    for (k = 0; k < 2000; k = k + 1)
      apply($random(seed), $random(seed));
    $display("PASS");
    $finish;
  end
endmodule
