`timescale 1ns/1ps
// Hidden testbench for `counter`: a 4-bit up/down counter with synchronous load.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg en = 1'b0;
  reg up = 1'b0;
  reg load = 1'b0;
  reg [3:0] d = 4'd0;
  wire [3:0] q;

  counter dut (.clk(clk), .rst(rst), .en(en), .up(up), .load(load), .d(d), .q(q));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 1103;

  integer cycle;          // rising edges seen so far
  reg [3:0] exp_q;        // the model's count
  integer i;
  integer r;

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes
  // the same step, and at the following falling edge the output is compared.
  task step;
    begin
      @(posedge clk);
      if (rst) exp_q = 4'd0;
      else if (load) exp_q = d;
      else if (en) exp_q = up ? exp_q + 4'd1 : exp_q - 4'd1;
      @(negedge clk);
      if (q !== exp_q) begin
        $display("FAIL cycle %0d: q got %0d expected %0d", cycle, q, exp_q);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  task drive(input r_, input en_, input up_, input load_, input [3:0] d_);
    begin
      rst = r_; en = en_; up = up_; load = load_; d = d_;
      step;
    end
  endtask

  initial begin
    cycle = 0;
    exp_q = 4'd0;
    // reset held for the first two rising edges, with other inputs active
    drive(1, 1, 1, 0, 4'd0);
    drive(1, 1, 0, 1, 4'd9);
    // count up from 0 through the wrap 15 -> 0
    for (i = 0; i < 18; i = i + 1) drive(0, 1, 1, 0, 4'd3);
    // hold: en low, up and d toggling
    drive(0, 0, 1, 0, 4'd7);
    drive(0, 0, 0, 0, 4'd12);
    // count down through the wrap 0 -> 15
    drive(0, 0, 0, 1, 4'd1);
    for (i = 0; i < 4; i = i + 1) drive(0, 1, 0, 0, 4'd5);
    // load has priority over counting, in both directions and when en is low
    drive(0, 1, 1, 1, 4'd15);
    drive(0, 1, 1, 0, 4'd0);     // 15 -> 0
    drive(0, 1, 0, 1, 4'd0);
    drive(0, 1, 0, 0, 4'd6);     // 0 -> 15
    drive(0, 0, 0, 1, 4'd10);
    drive(0, 1, 1, 1, 4'd10);    // load the value already held
    drive(0, 1, 0, 1, 4'd4);
    // back-to-back loads of every value
    for (i = 0; i < 16; i = i + 1) drive(0, i[0], i[1], 1, i[3:0]);
    // reset wins over load and counting, then a second reset cycle
    drive(0, 1, 1, 1, 4'd13);
    drive(1, 1, 1, 1, 4'd11);
    drive(1, 1, 0, 0, 4'd2);
    drive(0, 1, 0, 0, 4'd2);     // 0 -> 15 right after reset
    // random stimulus: loads are rare so that long counting runs happen
    for (i = 0; i < 400; i = i + 1) begin
      r = $random(seed);
      drive((r[15:8] == 8'd0),            // rare reset
            (r[2:0] != 3'd0),             // enable most of the time
            r[20],                        // direction changes often
            (r[7:4] == 4'd0),             // load about 1 in 16
            r[27:24]);
      if (i == 200) drive(1, 1, 1, 1, 4'd5);   // a reset in the middle of the run
    end
    $display("PASS");
    $finish;
  end
endmodule
