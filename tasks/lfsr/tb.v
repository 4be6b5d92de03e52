`timescale 1ns/1ps
// Hidden testbench for `lfsr`: 16-bit Fibonacci LFSR, x^16 + x^14 + x^13 + x^11 + 1, shifting
// left with the feedback (bits 15 ^ 13 ^ 12 ^ 10) entering bit 0; load of a nonzero seed.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg load = 1'b0;
  reg [15:0] seed = 16'd0;
  wire [15:0] state;

  lfsr dut (.clk(clk), .rst(rst), .load(load), .seed(seed), .state(state));

  always #5 clk = ~clk;

  integer seed_;
  initial seed_ = 4242;

  integer cycle;          // rising edges seen so far
  reg [15:0] exp_state;   // the model
  integer i;
  integer r;
  reg [15:0] v;

  function [15:0] next_state(input [15:0] s);
    next_state = {s[14:0], s[15] ^ s[13] ^ s[12] ^ s[10]};
  endfunction

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes
  // the same step, and at the following falling edge the output is compared.
  task step;
    begin
      @(posedge clk);
      if (rst) exp_state = 16'hACE1;
      else if (load) exp_state = seed;
      else exp_state = next_state(exp_state);
      @(negedge clk);
      if (state !== exp_state) begin
        $display("FAIL cycle %0d: state got %0d expected %0d", cycle, state, exp_state);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  // seed must be nonzero whenever load is 1
  task drive(input r_, input l_, input [15:0] s_);
    begin
      rst = r_; load = l_; seed = s_;
      step;
    end
  endtask

  initial begin
    cycle = 0;
    exp_state = 16'hACE1;
    // reset held for the first two rising edges, once with a load request
    drive(1, 0, 16'h0000);
    drive(1, 1, 16'h1234);
    // free-running from 0xACE1; seed is 0 while not loading
    for (i = 0; i < 40; i = i + 1) drive(0, 0, 16'h0000);
    // seeds that exercise each tap and the top bit alone
    drive(0, 1, 16'h8000);
    for (i = 0; i < 20; i = i + 1) drive(0, 0, 16'h0000);
    drive(0, 1, 16'h0001);
    for (i = 0; i < 20; i = i + 1) drive(0, 0, 16'hFFFF);
    drive(0, 1, 16'hFFFF);
    for (i = 0; i < 20; i = i + 1) drive(0, 0, 16'h0000);
    drive(0, 1, 16'h2000);
    drive(0, 0, 16'h0000);
    drive(0, 1, 16'h1000);
    drive(0, 0, 16'h0000);
    drive(0, 1, 16'h0400);
    drive(0, 0, 16'h0000);
    drive(0, 1, 16'h4000);
    drive(0, 0, 16'h0000);
    drive(0, 1, 16'h0800);
    drive(0, 0, 16'h0000);
    // back-to-back loads, then loading the value the register already holds
    drive(0, 1, 16'hACE1);
    drive(0, 1, 16'h5A5A);
    drive(0, 1, 16'h5A5A);
    drive(0, 0, 16'h0000);
    // reset in the middle of the run, with a load requested: reset wins
    drive(0, 0, 16'h0000);
    drive(1, 1, 16'h0F0F);
    for (i = 0; i < 10; i = i + 1) drive(0, 0, 16'h0000);
    // random stimulus: occasional loads of random nonzero seeds, rare resets
    for (i = 0; i < 3000; i = i + 1) begin
      r = $random(seed_);
      v = $random(seed_);
      if (v == 16'd0) v = 16'h0001;
      if (r[11:4] == 8'd0) drive(1, r[0], v);
      else if (r[3:0] == 4'd0) drive(0, 1, v);
      else drive(0, 0, r[31:16]);
    end
    // a reset, then a free run through the whole period of 65535 steps (back to 0xACE1)
    drive(1, 0, 16'h0000);
    for (i = 0; i < 65535; i = i + 1) drive(0, 0, r[31:16] ^ i[15:0]);
    $display("PASS");
    $finish;
  end
endmodule
