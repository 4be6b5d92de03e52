`timescale 1ns/1ps
// Hidden testbench for `mac`: a signed multiply-accumulate unit with a 20-bit accumulator.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg [7:0] a = 8'd0;
  reg [7:0] b = 8'd0;
  reg en = 1'b0;
  reg clr = 1'b0;
  wire [19:0] acc;

  mac dut (.clk(clk), .rst(rst), .a(a), .b(b), .en(en), .clr(clr), .acc(acc));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 271828;

  integer cycle;            // rising edges seen so far
  reg [19:0] m_acc;         // the model's accumulator (two's complement bits)
  integer prod;             // the exact product, as an integer
  integer i;
  integer r;

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes the
  // same step, and at the following falling edge acc is compared (as a signed number).
  task step;
    begin
      @(posedge clk);
      prod = $signed(a) * $signed(b);      // both operands signed: the exact product
      if (rst || clr) m_acc = 20'd0;
      else if (en) m_acc = m_acc + prod;   // modulo 2^20
      @(negedge clk);
      if (acc !== m_acc) begin
        $display("FAIL cycle %0d: acc got %0d expected %0d", cycle, $signed(acc), $signed(m_acc));
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  task drive(input r_, input [7:0] a_, input [7:0] b_, input en_, input clr_);
    begin
      rst = r_; a = a_; b = b_; en = en_; clr = clr_;
      step;
    end
  endtask

  initial begin
    cycle = 0;
    m_acc = 20'd0;

    // reset for the first two rising edges, with en and clr active
    drive(1, 8'd100, 8'd100, 1, 0);
    drive(1, 8'd5, 8'd7, 1, 1);
    // signs: + * +, + * -, - * +, - * -, and zeros; en low holds
    drive(0, 8'd3, 8'd5, 1, 0);              // 15
    drive(0, 8'd7, -8'd2, 1, 0);             // 1
    drive(0, -8'd4, 8'd6, 1, 0);             // -23
    drive(0, -8'd3, -8'd3, 1, 0);            // -14
    drive(0, 8'd0, -8'd128, 1, 0);
    drive(0, -8'd1, -8'd1, 0, 0);            // hold
    drive(0, -8'd1, 8'd1, 1, 0);             // -15
    // the extreme products: 127*127, -128*127, 127*-128, -128*-128
    drive(0, 8'd127, 8'd127, 1, 0);
    drive(0, -8'd128, 8'd127, 1, 0);
    drive(0, 8'd127, -8'd128, 1, 0);
    drive(0, -8'd128, -8'd128, 1, 0);
    // clr has priority over en, and a clr with en low
    drive(0, 8'd9, 8'd9, 1, 1);
    drive(0, 8'd9, 8'd9, 1, 0);
    drive(0, 8'd9, 8'd9, 0, 1);
    // wrap upwards: 16384 * 33 passes 2^19 - 1 and becomes negative
    for (i = 0; i < 40; i = i + 1) drive(0, -8'd128, -8'd128, 1, 0);
    drive(0, 8'd0, 8'd0, 0, 1);
    // wrap downwards: -16256 * 34 passes -2^19
    for (i = 0; i < 40; i = i + 1) drive(0, -8'd128, 8'd127, 1, 0);
    // a reset in the middle, with en and clr low
    drive(1, 8'd1, 8'd1, 0, 0);
    drive(0, 8'd1, 8'd1, 1, 0);
    drive(0, -8'd1, 8'd127, 1, 0);
    // random: en most of the time, clr and reset rare, large operands often
    for (i = 0; i < 3000; i = i + 1) begin
      r = $random(seed);
      drive(r[31:24] == 8'd0, r[7:0], r[15:8], r[18:16] != 3'd0, r[23:19] == 5'd0);
    end
    // long runs of extreme operands without clr, to wrap many times
    for (i = 0; i < 400; i = i + 1) begin
      r = $random(seed);
      drive(0, r[0] ? 8'h80 : 8'h7F, r[1] ? 8'h80 : 8'h7F, 1, 0);
    end
    $display("PASS");
    $finish;
  end
endmodule
