`timescale 1ns/1ps
// Hidden testbench for `icache`: a direct-mapped instruction cache of 8 one-word lines in front
// of a memory with a latency of 1 to 8 cycles. The testbench holds a model of the cache and a
// model of the memory; the memory answers only the requests the specification says the cache
// makes, with the latency chosen by the testbench.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg req = 1'b0;
  reg [7:0] addr = 8'd0;
  reg mem_valid = 1'b0;
  reg [31:0] mem_rdata = 32'd0;
  wire ready;
  wire rvalid;
  wire [31:0] rdata;
  wire mem_req;
  wire [7:0] mem_addr;

  icache dut (.clk(clk), .rst(rst), .req(req), .addr(addr), .ready(ready), .rvalid(rvalid),
              .rdata(rdata), .mem_req(mem_req), .mem_addr(mem_addr), .mem_valid(mem_valid),
              .mem_rdata(mem_rdata));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 20240611;

  integer cycle;              // rising edges seen so far

  // the cache model
  reg        m_valid [0:7];
  reg [4:0]  m_tag   [0:7];
  reg [31:0] m_data  [0:7];
  reg        m_busy;          // a miss is in progress
  reg [7:0]  m_addr;          // its address
  reg        exp_rvalid;
  reg [31:0] exp_rdata;
  reg        exp_mreq;
  reg        n_rvalid;
  reg        n_mreq;

  // the memory model: its contents and the one outstanding request
  reg [31:0] mem_word [0:255];
  reg        p_pend;          // a request is outstanding
  reg [7:0]  p_addr;
  integer    p_age;           // cycles since the edge that issued it (1 in the first cycle)
  integer    p_lat;           // mem_valid comes in the cycle where p_age == p_lat (1..8)
  integer    lat_mode;        // 0: random 1..8, 1..8: that latency

  integer i;
  integer j;
  integer k;
  integer r;
  integer phase;
  integer p_req;              // request probability in 1/16ths, for the random phases
  integer span;               // address mask for the random phases ...
  reg [7:0] base;             // ... and the fixed bits of their addresses

  task fail(input [8*12-1:0] what, input [31:0] got, input [31:0] expected);
    begin
      $display("FAIL cycle %0d: %0s got %0d expected %0d", cycle, what, got, expected);
      $finish;
    end
  endtask

  // One clock cycle: the inputs set before are sampled at the rising edge, the models take the
  // same step, and at the following falling edge every output is compared with the model. Then
  // the memory model drives mem_valid and mem_rdata for the next cycle.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        for (k = 0; k < 8; k = k + 1) m_valid[k] = 1'b0;
        m_busy = 1'b0;
        exp_rvalid = 1'b0;
        exp_mreq = 1'b0;
        p_pend = 1'b0;                 // a reset cancels the outstanding memory request
        p_age = 0;
      end else begin
        // the memory sees the request the cache showed in the cycle that just ended
        if (exp_mreq) begin
          p_pend = 1'b1;
          p_addr = m_addr;
          p_age = 1;
          p_lat = (lat_mode == 0) ? 1 + ({$random(seed)} % 8) : lat_mode;
        end else if (p_pend && mem_valid) begin
          p_pend = 1'b0;
          p_age = 0;
        end else if (p_pend) begin
          p_age = p_age + 1;
        end
        // the cache
        n_rvalid = 1'b0;
        n_mreq = 1'b0;
        if (m_busy) begin
          if (mem_valid) begin
            m_valid[m_addr[2:0]] = 1'b1;
            m_tag[m_addr[2:0]] = m_addr[7:3];
            m_data[m_addr[2:0]] = mem_rdata;
            n_rvalid = 1'b1;
            exp_rdata = mem_rdata;
            m_busy = 1'b0;
          end
        end else if (req) begin
          if (m_valid[addr[2:0]] && m_tag[addr[2:0]] == addr[7:3]) begin
            n_rvalid = 1'b1;
            exp_rdata = m_data[addr[2:0]];
          end else begin
            n_mreq = 1'b1;
            m_addr = addr;
            m_busy = 1'b1;
          end
        end
        exp_rvalid = n_rvalid;
        exp_mreq = n_mreq;
      end
      @(negedge clk);
      if (ready !== !m_busy) fail("ready", ready, !m_busy);
      if (rvalid !== exp_rvalid) fail("rvalid", rvalid, exp_rvalid);
      // rdata is unspecified while rvalid is 0
      if (exp_rvalid && rdata !== exp_rdata) fail("rdata", rdata, exp_rdata);
      if (mem_req !== exp_mreq) fail("mem_req", mem_req, exp_mreq);
      // mem_addr is unspecified while mem_req is 0
      if (exp_mreq && mem_addr !== m_addr) fail("mem_addr", mem_addr, m_addr);
      cycle = cycle + 1;
    end
  endtask

  // Apply one cycle of CPU inputs (and the reset); the memory drives its side by the model.
  task drive(input r_, input req_, input [7:0] a_);
    begin
      rst = r_;
      req = req_;
      addr = a_;
      if (p_pend && p_age == p_lat) begin
        mem_valid = 1'b1;
        mem_rdata = mem_word[p_addr];
      end else begin
        mem_valid = 1'b0;
        mem_rdata = $random(seed);     // garbage while mem_valid is 0
      end
      step;
    end
  endtask

  // One request for `a`, then wait until the cache is ready again; while it waits, the CPU
  // keeps req at `busy_req` with random addresses (requests that must be ignored).
  task access(input [7:0] a, input busy_req);
    begin
      drive(0, 1, a);
      while (m_busy) drive(0, busy_req, $random(seed));
    end
  endtask

  initial begin
    cycle = 0;
    m_busy = 1'b0;
    m_addr = 8'd0;
    exp_rvalid = 1'b0;
    exp_rdata = 32'd0;
    exp_mreq = 1'b0;
    p_pend = 1'b0;
    p_addr = 8'd0;
    p_age = 0;
    p_lat = 1;
    lat_mode = 1;
    for (i = 0; i < 8; i = i + 1) begin
      m_valid[i] = 1'b0; m_tag[i] = 5'd0; m_data[i] = 32'd0;
    end
    for (i = 0; i < 256; i = i + 1) mem_word[i] = $random(seed);
    mem_word[8'h00] = 32'h0000_0000;     // a word of 0 and a word of all ones
    mem_word[8'hff] = 32'hffff_ffff;

    // reset held for the first two rising edges, with a request: it is ignored
    drive(1, 1, 8'h00);
    drive(1, 1, 8'h00);
    drive(0, 0, 8'h00);                  // idle
    // a cold miss with latency 1, then hits on it, back to back
    lat_mode = 1;
    access(8'h00, 0);
    drive(0, 1, 8'h00);
    drive(0, 1, 8'h00);
    drive(0, 0, 8'h00);
    // fill every line (tag 1) with latency 1, holding req with the next address as soon as ready
    for (i = 0; i < 8; i = i + 1) access(8'h08 + i, 0);
    // hit on all eight lines back to back, twice, then the same line repeatedly
    for (j = 0; j < 2; j = j + 1)
      for (i = 0; i < 8; i = i + 1) drive(0, 1, 8'h08 + i);
    for (i = 0; i < 3; i = i + 1) drive(0, 1, 8'h0d);
    // same index, different tags (conflict misses), the longest latency, req held high
    lat_mode = 8;
    access(8'h10, 1);
    access(8'h08, 1);
    access(8'h10, 1);
    drive(0, 1, 8'h10);                  // hit
    drive(0, 1, 8'h08);                  // evicted: miss
    while (m_busy) drive(0, 1, 8'h10);   // the CPU asks for another address while waiting
    drive(0, 1, 8'h10);                  // evicted by the refill of 0x08: miss
    while (m_busy) drive(0, 1, 8'h08);
    drive(0, 1, 8'h08);                  // miss again (0x10 replaced it)
    while (m_busy) drive(0, 0, 8'h08);
    // the address changes while a miss waits: the refill is for the address of the request
    lat_mode = 3;
    drive(0, 1, 8'hf8);
    drive(0, 0, 8'h20);
    drive(0, 1, 8'h28);
    while (m_busy) drive(0, 1, 8'h30);
    drive(0, 1, 8'hf8);                  // hit
    drive(0, 1, 8'h30);                  // miss
    while (m_busy) drive(0, 1, 8'hf8);
    drive(0, 1, 8'hf8);                  // evicted by 0x30: miss
    while (m_busy) drive(0, 1, 8'h38);
    // the next request in the very cycle the miss is answered: accepted at once
    lat_mode = 2;
    access(8'hff, 0);
    drive(0, 1, 8'hff);
    drive(0, 1, 8'h07);                  // a miss right after a hit
    while (m_busy) drive(0, 0, 8'h00);
    drive(0, 1, 8'h1f);                  // miss on the line just refilled, in its answer cycle
    while (m_busy) drive(0, 0, 8'h00);
    drive(0, 1, 8'h07);                  // evicted: miss
    while (m_busy) drive(0, 0, 8'h00);
    drive(0, 1, 8'h1f);
    while (m_busy) drive(0, 0, 8'h00);
    // the memory changes under a cached line: a hit still gives the word of the last refill
    access(8'h0a, 0);
    mem_word[8'h0a] = 32'hdead_beef;
    drive(0, 1, 8'h0a);                  // hit: the old word
    access(8'h12, 0);                    // evict it
    access(8'h0a, 0);                    // refetch: the new word
    drive(0, 1, 8'h0a);
    // every latency from 1 to 8
    for (i = 1; i <= 8; i = i + 1) begin
      lat_mode = i;
      access(8'h40 + 8 * i, 1);
      drive(0, 1, 8'h40 + 8 * i);
    end
    // a reset invalidates every line: the same addresses miss afterwards
    lat_mode = 1;
    for (i = 0; i < 8; i = i + 1) access(8'h00 + i, 0);
    drive(1, 1, 8'h00);
    for (i = 0; i < 8; i = i + 1) begin
      drive(0, 1, 8'h00 + i);            // miss
      while (m_busy) drive(0, 0, 8'h00);
    end
    // a reset while a request is outstanding (the memory cancels it), then the same address
    lat_mode = 6;
    drive(0, 1, 8'h55);
    drive(0, 0, 8'h55);
    drive(0, 0, 8'h55);
    drive(1, 0, 8'h55);
    for (i = 0; i < 8; i = i + 1) drive(0, 0, 8'h55);
    access(8'h55, 0);
    // a reset in the cycle of mem_req, and a reset in the cycle of mem_valid (not refilled)
    drive(0, 1, 8'h66);
    drive(1, 1, 8'h66);
    drive(0, 1, 8'h66);                  // miss
    for (i = 0; i < 5; i = i + 1) drive(0, 1, 8'h66);
    drive(1, 1, 8'h66);                  // mem_valid comes in this reset cycle
    drive(0, 1, 8'h66);                  // still a miss
    while (m_busy) drive(0, 0, 8'h66);
    drive(0, 1, 8'h66);                  // now a hit
    // random phases: varying request rates, working sets, latencies; rare resets and memory
    // changes
    for (phase = 0; phase < 16; phase = phase + 1) begin
      case (phase % 4)
        0: begin p_req = 15; span = 8'h07; lat_mode = 0; end   // one address per line: mostly hits
        1: begin p_req = 12; span = 8'hff; lat_mode = 0; end   // everything: mostly misses
        2: begin p_req = 8;  span = 8'h0f; lat_mode = 1; end   // two addresses per line
        default: begin p_req = 14; span = 8'h1f; lat_mode = 8; end
      endcase
      base = $random(seed);
      base = base & ~span;
      for (i = 0; i < 150; i = i + 1) begin
        r = $random(seed);
        if (r[27:22] == 6'd0) mem_word[base | (r[15:8] & span)] = $random(seed);
        drive(r[31:24] == 8'd0, r[3:0] < p_req, base | (r[15:8] & span));
      end
    end
    // let the last miss finish
    while (m_busy) drive(0, 0, 8'h00);
    drive(0, 0, 8'h00);
    $display("PASS");
    $finish;
  end
endmodule
