`timescale 1ns/1ps
// Hidden testbench for prio_enc: directed corner cases, then random vectors of several
// densities. Each vector is applied, and after #1 both outputs are compared with the model.
module tb;
  reg  [15:0] req;
  wire [3:0]  idx;
  wire        valid;

  prio_enc dut (.req(req), .idx(idx), .valid(valid));

  integer seed;
  initial seed = 16180339;

  integer n;          // vector number, from 0
  integer k, j, t;
  reg [15:0] r;
  reg [3:0]  exp_idx;
  reg        exp_valid;

  // Apply one vector, wait, compare every output with the model.
  task apply;
    input [15:0] v;
    begin
      req = v;
      #1;
      exp_valid = (v != 16'd0);
      exp_idx = 4'd0;
      for (j = 0; j < 16; j = j + 1)
        if (v[j]) exp_idx = j;
      if (valid !== exp_valid) begin
        $display("FAIL cycle %0d: valid (req=0x%04h) got %0d expected %0d", n, v, valid, exp_valid);
        $finish;
      end
      if (idx !== exp_idx) begin
        $display("FAIL cycle %0d: idx (req=0x%04h) got %0d expected %0d", n, v, idx, exp_idx);
        $finish;
      end
      n = n + 1;
    end
  endtask

  initial begin
    n = 0;
    // directed corner cases
    apply(16'h0000);
    apply(16'hffff);
    apply(16'h0001);
    apply(16'h8000);
    apply(16'h8001);
    apply(16'h5555);
    apply(16'haaaa);
    for (k = 0; k < 16; k = k + 1) begin
      apply(16'h0001 << k);                 // one bit
      apply((16'h0001 << k) | ((16'h0001 << k) - 16'h0001));  // the bit and every lower one
      apply(~((16'h0001 << k) - 16'h0001)); // the bit and every higher one
      apply((16'h0001 << k) | 16'h0001);    // the bit and bit 0
    end
    // random vectors: dense, sparse, and a random top bit with random bits below it
    for (k = 0; k < 3000; k = k + 1) begin
      r = $random(seed);
      case (k % 4)
        0: apply(r);
        1: apply(r & $random(seed) & $random(seed));
        2: apply(r & $random(seed) & $random(seed) & $random(seed) & $random(seed));
        default: begin
          t = {$random(seed)} % 16;
          apply((16'h0001 << t) | (r & ((16'h0001 << t) - 16'h0001)));
        end
      endcase
    end
    $display("PASS");
    $finish;
  end
endmodule
