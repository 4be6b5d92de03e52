`timescale 1ns/1ps
// Hidden testbench for `spi_master`: an SPI mode-0 master, 8-bit transfers MSB first, SCLK
// period 8 clock cycles. Directed cases (start held high, start while busy and at the last busy
// edge, tx changing during a transfer, resets at every phase of a transfer) and random traffic,
// with miso driven either like a mode-0 slave or randomly in every cycle (which pins down the
// sample point). Every output is compared with a model after each edge.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg start = 1'b0;
  reg [7:0] tx = 8'd0;
  reg miso = 1'b0;
  wire sclk;
  wire mosi;
  wire cs_n;
  wire busy;
  wire done;
  wire [7:0] rx;

  spi_master dut (.clk(clk), .rst(rst), .start(start), .tx(tx), .miso(miso),
                  .sclk(sclk), .mosi(mosi), .cs_n(cs_n), .busy(busy), .done(done), .rx(rx));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 5150;

  integer cycle;            // rising edges seen so far

  // The model: t is 0 while idle and k+1 in the cycle after edge k of a transfer (edge 0 sampled
  // start), so 1..64 while busy.
  integer m_t;
  reg [7:0] m_tx;           // tx sampled at edge 0
  reg [7:0] m_sh;           // miso sampled at the edges where sclk rises
  reg [7:0] m_rx;
  reg m_done;
  reg e_sclk;
  reg e_mosi;

  integer i, j, r;
  integer n_done;
  reg [7:0] sbyte;          // what the slave-like miso driver sends
  reg slave_mode;           // 1: miso like a mode-0 slave; 0: random in every cycle

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes the
  // same step, and at the following falling edge every output is compared with the model.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        m_t = 0;
        m_done = 1'b0;
        m_rx = 8'd0;
      end else begin
        m_done = 1'b0;
        if (m_t == 0) begin
          if (start) begin
            m_t = 1;
            m_tx = tx;
          end
        end else begin
          if (m_t % 8 == 4) m_sh = {m_sh[6:0], miso};    // sclk rises at this edge
          if (m_t == 64) begin
            m_t = 0;                                      // the 8th falling edge: the end
            m_done = 1'b1;
            m_rx = m_sh;
            n_done = n_done + 1;
          end else begin
            m_t = m_t + 1;
          end
        end
      end
      @(negedge clk);
      e_sclk = (m_t != 0) && ((m_t - 1) % 8 >= 4);
      e_mosi = (m_t != 0) ? m_tx[7 - (m_t - 1) / 8] : 1'b0;
      if (sclk !== e_sclk) begin
        $display("FAIL cycle %0d: sclk got %0d expected %0d", cycle, sclk, e_sclk);
        $finish;
      end
      // mosi is unspecified while no transfer runs
      if (m_t != 0 && mosi !== e_mosi) begin
        $display("FAIL cycle %0d: mosi got %0d expected %0d", cycle, mosi, e_mosi);
        $finish;
      end
      if (cs_n !== (m_t == 0)) begin
        $display("FAIL cycle %0d: cs_n got %0d expected %0d", cycle, cs_n, m_t == 0);
        $finish;
      end
      if (busy !== (m_t != 0)) begin
        $display("FAIL cycle %0d: busy got %0d expected %0d", cycle, busy, m_t != 0);
        $finish;
      end
      if (done !== m_done) begin
        $display("FAIL cycle %0d: done got %0d expected %0d", cycle, done, m_done);
        $finish;
      end
      if (rx !== m_rx) begin
        $display("FAIL cycle %0d: rx got %0d expected %0d", cycle, rx, m_rx);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  // miso for the coming cycle: like a mode-0 slave sending `sbyte` (bit 7-j during the j-th
  // sclk period, changing only after falling edges of sclk), or random.
  task set_miso;
    begin
      if (slave_mode) miso = (m_t != 0) ? sbyte[7 - (m_t - 1) / 8] : $random(seed);
      else miso = $random(seed);
    end
  endtask

  // One cycle with the given rst, start and tx.
  task drive(input r_, input s_, input [7:0] t_);
    begin
      rst = r_; start = s_; tx = t_;
      set_miso;
      step;
    end
  endtask

  // A transfer of `b` with the slave sending `sb`: start for one cycle, then wait for done.
  task xfer(input [7:0] b, input [7:0] sb);
    begin
      sbyte = sb;
      slave_mode = 1'b1;
      drive(0, 1, b);
      while (!m_done) drive(0, 0, $random(seed));
    end
  endtask

  initial begin
    cycle = 0;
    n_done = 0;
    m_t = 0; m_tx = 8'd0; m_sh = 8'd0; m_rx = 8'd0; m_done = 1'b0;
    sbyte = 8'd0; slave_mode = 1'b0;

    // reset for the first two rising edges, with start high: nothing starts
    drive(1, 1, 8'hff);
    drive(1, 1, 8'h0f);
    drive(0, 0, 8'h00);
    drive(0, 0, 8'h00);
    // single transfers, the slave answering
    xfer(8'hA5, 8'h3C);
    drive(0, 0, 8'h00);
    xfer(8'h00, 8'hFF);
    xfer(8'hFF, 8'h00);                     // start in the done cycle: back to back
    xfer(8'h80, 8'h01);
    xfer(8'h01, 8'h80);
    drive(0, 0, 8'h00);
    drive(0, 0, 8'h00);
    // start held high for three transfers: one idle (done) cycle between them; tx changes
    // every cycle while busy and must not affect the byte being sent
    sbyte = 8'h96; slave_mode = 1'b1;
    for (i = 0; i < 3 * 65 + 2; i = i + 1) drive(0, 1, $random(seed));
    while (m_t != 0) drive(0, 0, 8'h00);    // let the fourth one finish
    drive(0, 0, 8'h00);
    // start pulses while busy are ignored, including at the last busy edge (edge 64)
    sbyte = 8'h5A;
    drive(0, 1, 8'hC3);
    for (i = 1; i < 64; i = i + 1) drive(0, (i % 7) == 0, 8'h18);
    drive(0, 1, 8'h7E);                     // edge 64: busy is still 1, ignored
    drive(0, 0, 8'h00);                     // the done cycle
    drive(0, 0, 8'h00);
    drive(0, 0, 8'h00);
    // miso random in every cycle: only the value at the edges where sclk rises counts
    slave_mode = 1'b0;
    for (j = 0; j < 6; j = j + 1) begin
      drive(0, 1, $random(seed));
      while (!m_done) drive(0, 0, $random(seed));
    end
    // resets in every phase of a transfer: sclk low, just before and after it rises, sclk high,
    // just before the last falling edge, at the last edge, in the done cycle; start high in the
    // reset cycle is ignored, the transfer is abandoned, rx and done are cleared
    for (j = 0; j < 9; j = j + 1) begin
      sbyte = 8'hC0 + j;
      slave_mode = 1'b1;
      drive(0, 1, 8'h3C + j);
      case (j)
        0: r = 1;  1: r = 3;  2: r = 4;  3: r = 6;  4: r = 29;
        5: r = 63; 6: r = 64; 7: r = 65; default: r = 40;
      endcase
      for (i = 1; i < r; i = i + 1) drive(0, 0, 8'h00);
      drive(1, j[0], 8'hAA);
      if (j == 8) drive(1, 1, 8'h55);       // a two-cycle reset
      drive(0, 0, 8'h00);
      drive(0, 0, 8'h00);
      xfer(8'h69 ^ j, 8'h96 ^ j);           // a whole transfer afterwards
    end
    // random traffic: random start (often while busy), tx and miso in every cycle, rare resets
    for (j = 0; j < 40; j = j + 1) begin
      r = $random(seed);
      slave_mode = r[0];
      sbyte = r[15:8];
      for (i = 0; i < 100; i = i + 1) begin
        r = $random(seed);
        drive(r[11:0] == 12'd0 || (r[20:16] == 5'd0 && m_t == r[29:24]),
              r[3:0] < 4'd3, r[31:24]);
      end
    end
    while (m_t != 0) drive(0, 0, 8'h00);
    drive(0, 0, 8'h00);
    $display("PASS");
    $finish;
  end
endmodule
