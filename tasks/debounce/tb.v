`timescale 1ns/1ps
// Hidden testbench for `debounce`: `clean` takes the value of `noisy` at the 8th consecutive
// rising edge (since the last reset) at which `noisy` is sampled with that value.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg noisy = 1'b0;
  wire clean;

  debounce dut (.clk(clk), .rst(rst), .noisy(noisy), .clean(clean));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 31337;

  integer cycle;          // rising edges seen so far
  // the model: the last sample, how many consecutive edges since the last reset it has been
  // sampled (0 right after a reset), and the expected output
  reg m_last;
  integer m_run;
  reg exp_clean;
  integer i;
  integer r;
  integer len;

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes
  // the same step, and at the following falling edge the output is compared.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        m_last = 1'b0; m_run = 0; exp_clean = 1'b0;
      end else begin
        if (m_run != 0 && noisy == m_last) m_run = m_run + 1;
        else m_run = 1;
        m_last = noisy;
        if (m_run >= 8) exp_clean = m_last;
      end
      @(negedge clk);
      if (clean !== exp_clean) begin
        $display("FAIL cycle %0d: clean got %0d expected %0d", cycle, clean, exp_clean);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  task drive(input r_, input n_);
    begin
      rst = r_; noisy = n_;
      step;
    end
  endtask

  // `n` rising edges with the same value and no reset
  task run(input v, input integer n);
    integer k;
    begin
      for (k = 0; k < n; k = k + 1) drive(0, v);
    end
  endtask

  initial begin
    cycle = 0;
    m_last = 1'b0; m_run = 0; exp_clean = 1'b0;
    // reset held for the first two rising edges with noisy high: the reset edges do not count
    drive(1, 1);
    drive(1, 1);
    run(1, 7);        // 7 edges: not yet
    run(0, 1);        // bounce back: start over
    run(1, 7);        // 7 again: not yet
    run(0, 3);
    run(1, 8);        // the 8th edge: clean rises right after it
    run(1, 4);        // stays
    // falling: 7 then a glitch, then exactly 8
    run(0, 7);
    run(1, 1);
    run(0, 8);
    run(0, 2);
    // a single-cycle glitch while stable at 0 and at 1
    run(1, 1);
    run(0, 3);
    run(1, 9);
    run(0, 1);
    run(1, 3);
    // a reset in the middle of a count: the count starts over after it
    run(0, 5);
    drive(1, 0);
    run(0, 7);        // clean was reset to 0 anyway
    run(1, 5);
    drive(1, 1);      // reset while counting towards 1
    run(1, 7);        // 7 edges after the reset: not yet
    run(1, 1);        // 8th: rises
    // a reset while clean is 1, noisy staying 1: clean is 0 again for 8 edges
    drive(1, 1);
    run(1, 7);
    run(1, 2);
    // alternating every edge: clean never changes
    for (i = 0; i < 20; i = i + 1) drive(0, i[0]);
    // random runs of length 1 to 16 with occasional resets
    for (i = 0; i < 120; i = i + 1) begin
      r = $random(seed);
      len = 1 + r[3:0];
      if (r[9:6] == 4'd0) drive(1, r[10]);
      run(r[4], len);
    end
    $display("PASS");
    $finish;
  end
endmodule
