`timescale 1ns/1ps
// Hidden testbench for `uart_rx`: an 8N1 UART receiver, 16 clock cycles per bit.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg rx = 1'b1;
  wire [7:0] data;
  wire valid;
  wire frame_err;

  uart_rx dut (.clk(clk), .rst(rst), .rx(rx), .data(data), .valid(valid), .frame_err(frame_err));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 8051;

  integer cycle;            // rising edges seen so far

  // The model: the receiver as the specification describes it.
  reg m_busy;               // a frame is being received
  integer m_t;              // edges since the start bit was detected (edge 0)
  reg m_last;               // rx at the previous edge (1 after reset)
  reg [7:0] m_data;
  reg m_valid;
  reg m_ferr;

  integer i;
  integer r;
  integer n_valid;          // frames seen, for the record
  integer n_ferr;

  // One clock cycle: rst and rx set now are sampled at the next rising edge; the model takes the
  // same step, and at the following falling edge every output is compared with the model.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        m_busy = 1'b0;
        m_last = 1'b1;
        m_valid = 1'b0;
        m_ferr = 1'b0;
      end else begin
        m_valid = 1'b0;
        m_ferr = 1'b0;
        if (!m_busy) begin
          if (m_last && !rx) begin
            m_busy = 1'b1;
            m_t = 1;
          end
        end else begin
          if (m_t == 8) begin
            if (rx) m_busy = 1'b0;                        // false start
          end else if (m_t == 152) begin
            m_busy = 1'b0;
            m_valid = rx;
            m_ferr = !rx;
          end else if (m_t % 16 == 8) begin
            m_data[(m_t - 24) / 16] = rx;                 // data bit, LSB first
          end
          m_t = m_t + 1;
        end
        m_last = rx;
      end
      @(negedge clk);
      if (valid !== m_valid) begin
        $display("FAIL cycle %0d: valid got %0d expected %0d", cycle, valid, m_valid);
        $finish;
      end
      if (frame_err !== m_ferr) begin
        $display("FAIL cycle %0d: frame_err got %0d expected %0d", cycle, frame_err, m_ferr);
        $finish;
      end
      // data is unspecified unless valid is 1
      if (m_valid && data !== m_data) begin
        $display("FAIL cycle %0d: data got %0d expected %0d", cycle, data, m_data);
        $finish;
      end
      if (m_valid) n_valid = n_valid + 1;
      if (m_ferr) n_ferr = n_ferr + 1;
      cycle = cycle + 1;
    end
  endtask

  task line(input v);       // one cycle of rx = v
    begin
      rst = 1'b0;
      rx = v;
      step;
    end
  endtask

  task idle(input integer n);
    integer k;
    begin
      for (k = 0; k < n; k = k + 1) line(1'b1);
    end
  endtask

  // One frame as a transmitter sends it, frame cycle f = 0, 1, ...: the start bit in cycles
  // 0..15, data bit i in cycles 16+16*i .. 31+16*i, then the stop bit value `stopv` for
  // `stoplen` cycles, then `gap` idle cycles. rx is inverted in cycles gpos .. gpos+glen-1
  // (a glitch; gpos < 0 for none), and rst is 1 in cycles rpos and rpos+1 (rpos < 0 for none).
  task send(input [7:0] b, input stopv, input integer stoplen, input integer gpos,
            input integer glen, input integer rpos, input integer gap);
    integer f;
    reg v;
    begin
      for (f = 0; f < 144 + stoplen; f = f + 1) begin
        if (f < 16) v = 1'b0;
        else if (f < 144) v = b[(f - 16) / 16];
        else v = stopv;
        if (gpos >= 0 && f >= gpos && f < gpos + glen) v = !v;
        rx = v;
        rst = (rpos >= 0 && (f == rpos || f == rpos + 1));
        step;
      end
      idle(gap);
    end
  endtask

  initial begin
    cycle = 0;
    n_valid = 0;
    n_ferr = 0;
    m_busy = 1'b0;
    m_t = 0;
    m_last = 1'b1;
    m_data = 8'd0;
    m_valid = 1'b0;
    m_ferr = 1'b0;

    // reset for the first two rising edges, the line idle
    rst = 1'b1; rx = 1'b1; step;
    rst = 1'b1; rx = 1'b1; step;
    idle(20);
    // clean frames, back to back with a full stop bit and no gap
    send(8'h55, 1, 16, -1, 0, -1, 0);
    send(8'hAA, 1, 16, -1, 0, -1, 0);
    send(8'h00, 1, 16, -1, 0, -1, 0);
    send(8'hFF, 1, 16, -1, 0, -1, 0);
    send(8'h01, 1, 16, -1, 0, -1, 0);
    send(8'h80, 1, 16, -1, 0, -1, 5);
    // the earliest next start: the stop bit lasts only up to its sample (frame cycle 152)
    send(8'h3C, 1, 9, -1, 0, -1, 0);
    send(8'hC3, 1, 9, -1, 0, -1, 0);
    send(8'h96, 1, 16, -1, 0, -1, 3);
    // framing error, the line back high at once; then another one held low (a break): a line
    // that stays low starts no frame until it has been high again
    send(8'h5A, 0, 16, -1, 0, -1, 4);
    send(8'h12, 1, 16, -1, 0, -1, 0);
    send(8'hA5, 0, 60, -1, 0, -1, 1);
    send(8'h34, 1, 16, -1, 0, -1, 0);
    send(8'h00, 0, 9, -1, 0, -1, 0);         // error, then high only from frame cycle 153
    send(8'hE7, 1, 16, -1, 0, -1, 2);
    // false starts: low pulses of 1 to 8 cycles in idle; 9 cycles is a real start bit
    for (i = 1; i <= 9; i = i + 1) begin
      rx = 1'b0;
      repeat (i) line(1'b0);
      idle(30 - i);
      if (i == 9) idle(150);
    end
    // a false start followed at once by a frame (the start detected on the very next edge)
    line(1'b0); line(1'b0); line(1'b0);
    send(8'h4D, 1, 16, -1, 0, -1, 0);
    repeat (8) line(1'b0);
    send(8'h4E, 1, 16, -1, 0, -1, 3);
    // glitches next to the sample points do not change what is received
    send(8'h0F, 1, 16, 7, 1, -1, 0);         // just before the start bit's middle
    send(8'hF0, 1, 16, 9, 7, -1, 0);         // just after it, to the end of the start bit
    send(8'h33, 1, 16, 23, 1, -1, 0);        // before data bit 0's sample
    send(8'hCC, 1, 16, 25, 15, -1, 0);       // after it, to just before data bit 1's sample
    send(8'h69, 1, 16, 135, 1, -1, 0);       // before data bit 7's sample
    send(8'h96, 1, 16, 137, 7, -1, 0);       // after data bit 7's sample, to the end of it
    send(8'h5A, 1, 16, 144, 8, -1, 0);       // the stop bit low until just before its sample
    send(8'hA5, 1, 16, 151, 1, -1, 0);       // the stop bit low just before its sample
    send(8'h81, 1, 16, 153, 3, -1, 2);       // the stop bit low just after its sample
    send(8'h7E, 0, 16, 152, 1, -1, 2);       // a stop bit of 0 high only at its sample
    // a glitch on the sample point itself changes the bit
    send(8'h00, 1, 16, 56, 1, -1, 0);        // data bit 2's sample
    send(8'hFF, 1, 16, 152, 1, -1, 2);       // the stop bit's sample: framing error
    send(8'h42, 1, 16, 8, 1, -1, 2);         // the start bit's middle: a false start
    // reset in the middle of frames: the frame is abandoned
    send(8'h99, 1, 16, -1, 0, 60, 20);       // reset while rx is 0 and stays 0 after it
    send(8'h66, 1, 16, -1, 0, 50, 20);       // reset while rx is 1
    send(8'h24, 1, 16, -1, 0, 151, 20);      // reset just before the stop bit's sample
    send(8'h18, 1, 16, -1, 0, 152, 20);      // reset on the stop bit's sample
    // random frames: random bytes, stop bits, gaps, glitches, idle pulses and rare resets
    for (i = 0; i < 90; i = i + 1) begin
      r = $random(seed);
      if (r[31:29] == 3'd0) begin           // a short low pulse on the idle line
        repeat (1 + r[27:25]) line(1'b0);
        idle(r[24:22]);
      end
      r = $random(seed);
      send(r[7:0],
           r[10:8] != 3'd0,                           // a framing error one time in eight
           (r[12:11] == 2'd0) ? 9 + r[15:13] : 16,    // sometimes a short stop bit
           (r[17:16] == 2'd0) ? r[25:18] % 160 : -1,  // sometimes a glitch
           1 + r[27:26],
           (r[31:28] == 4'd0) ? r[25:18] % 160 : -1,  // rarely a reset
           ($random(seed) & 7) * ($random(seed) & 3));
    end
    idle(10);
    $display("PASS");
    $finish;
  end
endmodule
