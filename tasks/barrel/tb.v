`timescale 1ns/1ps
// Hidden testbench for barrel: every amount in both directions on directed data patterns,
// then random vectors. Each vector is applied, and after #1 the output is compared with the model.
module tb;
  reg  [15:0] data;
  reg  [3:0]  amt;
  reg         dir;
  wire [15:0] out;

  barrel dut (.data(data), .amt(amt), .dir(dir), .out(out));

  integer seed;
  initial seed = 17320508;

  integer n;          // vector number, from 0
  integer k, p, i;
  reg [15:0] exp_out;
  reg [15:0] pattern [0:11];

  // Apply one vector, wait, compare the output with the model.
  task apply;
    input [15:0] vd;
    input [3:0]  va;
    input        vdir;
    begin
      data = vd;
      amt = va;
      dir = vdir;
      #1;
      // model: a left rotation moves bit i to bit (i + amt) mod 16, a right one the other way
      for (i = 0; i < 16; i = i + 1)
        if (vdir)
          exp_out[i] = vd[(i + va) % 16];
        else
          exp_out[(i + va) % 16] = vd[i];
      if (out !== exp_out) begin
        $display("FAIL cycle %0d: out (data=0x%04h amt=%0d dir=%0d) got 0x%04h expected 0x%04h", n, vd, va, vdir, out, exp_out);
        $finish;
      end
      n = n + 1;
    end
  endtask

  initial begin
    n = 0;
    pattern[0]  = 16'h0001; pattern[1]  = 16'h8000; pattern[2]  = 16'h0000; pattern[3]  = 16'hffff;
    pattern[4]  = 16'h1234; pattern[5]  = 16'hfffe; pattern[6]  = 16'h7fff; pattern[7]  = 16'h00ff;
    pattern[8]  = 16'hf000; pattern[9]  = 16'h8001; pattern[10] = 16'ha5c3; pattern[11] = 16'h0180;
    // every amount, both directions, on each pattern
    for (p = 0; p < 12; p = p + 1)
      for (k = 0; k < 32; k = k + 1)
        apply(pattern[p], k[3:0], k[4]);
    // random vectors
    for (k = 0; k < 4000; k = k + 1)
      apply($random(seed), $random(seed), $random(seed));
    $display("PASS");
    $finish;
  end
endmodule
