`timescale 1ns/1ps
// Hidden testbench for `edge_detect`: registered rising- and falling-edge pulses of `sig`.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg sig = 1'b0;
  wire rise, fall;

  edge_detect dut (.clk(clk), .rst(rst), .sig(sig), .rise(rise), .fall(fall));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 2718;

  integer cycle;          // rising edges seen so far
  reg last;               // the model: sig sampled at the previous edge (0 after a reset)
  reg exp_rise, exp_fall;
  integer i;
  integer r;
  integer hold;

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes
  // the same step, and at the following falling edge both outputs are compared.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        exp_rise = 1'b0; exp_fall = 1'b0; last = 1'b0;
      end else begin
        exp_rise = sig & ~last;
        exp_fall = ~sig & last;
        last = sig;
      end
      @(negedge clk);
      if (rise !== exp_rise) begin
        $display("FAIL cycle %0d: rise got %0d expected %0d", cycle, rise, exp_rise);
        $finish;
      end
      if (fall !== exp_fall) begin
        $display("FAIL cycle %0d: fall got %0d expected %0d", cycle, fall, exp_fall);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  task drive(input r_, input s_);
    begin
      rst = r_; sig = s_;
      step;
    end
  endtask

  initial begin
    cycle = 0;
    last = 1'b0; exp_rise = 1'b0; exp_fall = 1'b0;
    // reset held for the first two rising edges while sig is 1: the first edge after the
    // reset sees a rise (the previous value is taken as 0)
    drive(1, 1);
    drive(1, 1);
    drive(0, 1);     // rise
    drive(0, 1);     // pulse ends although sig stays 1
    drive(0, 1);
    drive(0, 0);     // fall
    drive(0, 0);
    drive(0, 0);
    // toggling every cycle: a pulse in every cycle, alternating
    for (i = 0; i < 8; i = i + 1) drive(0, i[0]);
    // reset while a rise pulse is showing, with sig high: no pulse during and after the reset
    drive(0, 0);
    drive(0, 1);     // rise
    drive(1, 1);     // reset clears the pulse
    drive(0, 1);     // previous value taken as 0: rise again
    drive(0, 1);
    // reset while a fall pulse is showing, with sig low: no fall after the reset
    drive(0, 0);     // fall
    drive(1, 0);
    drive(0, 0);
    drive(0, 1);
    // reset for one cycle with sig high before and low after: no fall (previous value 0)
    drive(1, 1);
    drive(0, 0);
    drive(0, 0);
    // sig changes during a reset cycle only
    drive(0, 1);
    drive(1, 0);
    drive(0, 1);
    drive(0, 0);
    // random stimulus: levels held for random run lengths (1 to 8 cycles), single-cycle
    // glitches, occasional resets
    for (i = 0; i < 300; i = i + 1) begin
      r = $random(seed);
      if (r[3:0] == 4'd0) drive(1, r[4]);
      else begin
        hold = (r[6:5] == 2'd0) ? 1 + r[10:8] : 1;
        repeat (hold) drive(0, r[4]);
        if (r[12]) drive(0, ~r[4]);
      end
    end
    $display("PASS");
    $finish;
  end
endmodule
