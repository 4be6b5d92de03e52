`timescale 1ns/1ps
// Hidden testbench for `fifo`: an 8-entry, 8-bit FIFO with first-word fall-through.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg push = 1'b0;
  reg [7:0] din = 8'd0;
  reg pop = 1'b0;
  wire [7:0] dout;
  wire full;
  wire empty;
  wire [3:0] count;

  fifo dut (.clk(clk), .rst(rst), .push(push), .din(din), .pop(pop),
            .dout(dout), .full(full), .empty(empty), .count(count));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 31337;

  integer cycle;            // rising edges seen so far
  reg [7:0] mq [0:7];       // the model: a circular buffer ...
  integer mhead;            // ... with its oldest entry at mhead
  integer mn;               // ... holding mn entries (0..8)
  integer i;
  integer j;
  integer r;
  integer phase;
  integer p_push;           // push probability in 1/16ths, for the random phases
  integer p_pop;

  // One clock cycle: the inputs set now are sampled at the next rising edge, the model takes the
  // same step, and at the following falling edge every output is compared with the model.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        mn = 0;
        mhead = 0;
      end else begin
        if (push) mq[(mhead + mn) % 8] = din;
        if (pop) mhead = (mhead + 1) % 8;
        mn = mn + push - pop;
      end
      @(negedge clk);
      if (count !== mn) begin
        $display("FAIL cycle %0d: count got %0d expected %0d", cycle, count, mn);
        $finish;
      end
      if (full !== (mn == 8)) begin
        $display("FAIL cycle %0d: full got %0d expected %0d", cycle, full, mn == 8);
        $finish;
      end
      if (empty !== (mn == 0)) begin
        $display("FAIL cycle %0d: empty got %0d expected %0d", cycle, empty, mn == 0);
        $finish;
      end
      // dout is unspecified while the FIFO is empty
      if (mn != 0 && dout !== mq[mhead]) begin
        $display("FAIL cycle %0d: dout got %0d expected %0d", cycle, dout, mq[mhead]);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  // Apply one cycle of inputs. A push is dropped when the model is full and a pop when it is
  // empty, so the requirements always hold.
  task drive(input r_, input push_, input pop_, input [7:0] d_);
    begin
      rst = r_;
      push = push_ && mn != 8;
      pop = pop_ && mn != 0;
      din = d_;
      step;
    end
  endtask

  initial begin
    cycle = 0;
    mn = 0;
    mhead = 0;
    for (i = 0; i < 8; i = i + 1) mq[i] = 8'd0;

    // reset for the first two rising edges
    drive(1, 0, 0, 8'd0);
    drive(1, 0, 0, 8'd0);
    drive(0, 0, 0, 8'd77);                 // idle while empty
    // one byte in and out; then a push into an empty FIFO and push+pop with one entry
    drive(0, 1, 0, 8'hA5);
    drive(0, 0, 1, 8'h00);
    drive(0, 1, 0, 8'h3C);
    drive(0, 1, 1, 8'hC3);                 // count stays 1, the new byte is now the oldest
    drive(0, 1, 1, 8'hFF);
    drive(0, 0, 1, 8'h00);
    // fill to full with distinct bytes, hold, then drain in order
    for (i = 0; i < 8; i = i + 1) drive(0, 1, 0, 8'h10 + i);
    drive(0, 0, 0, 8'h99);
    drive(0, 0, 0, 8'h98);
    drive(0, 0, 1, 8'h00);                 // pop at full
    drive(0, 1, 0, 8'hE0);                 // back to full
    for (i = 0; i < 8; i = i + 1) drive(0, 0, 1, 8'h55);
    drive(0, 0, 0, 8'h00);                 // idle while empty
    // push and pop together at every count from 1 to 7, across the pointer wrap
    for (i = 1; i < 8; i = i + 1) begin
      drive(0, 1, 0, 8'h20 + i);
      for (j = 0; j < 3; j = j + 1) drive(0, 1, 1, 8'h40 + 8 * i + j);
    end
    drive(0, 1, 0, 8'h7E);                 // full
    for (i = 0; i < 8; i = i + 1) drive(0, 0, 1, 8'h00);
    // reset while full, with pop requested: the FIFO is empty afterwards
    for (i = 0; i < 8; i = i + 1) drive(0, 1, 0, 8'h80 + i);
    drive(1, 0, 1, 8'h00);
    drive(0, 0, 0, 8'h00);
    drive(0, 1, 0, 8'h5A);                 // the first byte after a reset is at the head
    drive(0, 1, 0, 8'h6B);
    drive(0, 0, 1, 8'h00);
    drive(0, 0, 1, 8'h00);
    // reset with a push requested, while three entries are held: the push is ignored
    drive(0, 1, 0, 8'h01);
    drive(0, 1, 0, 8'h02);
    drive(0, 1, 0, 8'h03);
    drive(1, 1, 1, 8'h04);
    drive(1, 1, 0, 8'h05);
    drive(0, 1, 1, 8'h06);                 // pop dropped: the FIFO is empty
    drive(0, 0, 1, 8'h00);
    // random phases: push-heavy, pop-heavy, balanced and busy, with rare resets
    for (phase = 0; phase < 16; phase = phase + 1) begin
      case (phase % 4)
        0: begin p_push = 12; p_pop = 4; end
        1: begin p_push = 4; p_pop = 12; end
        2: begin p_push = 8; p_pop = 8; end
        default: begin p_push = 15; p_pop = 15; end
      endcase
      for (i = 0; i < 120; i = i + 1) begin
        r = $random(seed);
        drive(r[31:24] == 8'd0, r[3:0] < p_push, r[7:4] < p_pop, r[15:8]);
      end
    end
    // drain what is left
    for (i = 0; i < 8; i = i + 1) drive(0, 0, 1, 8'h00);
    $display("PASS");
    $finish;
  end
endmodule
