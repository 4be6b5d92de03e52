`timescale 1ns/1ps
// Hidden testbench for `axi_lite`: an AXI4-Lite slave with four 32-bit registers. The testbench
// is an AXI master that obeys the VALID/payload hold rules, with directed corner cases (each
// order of AW and W, stalled responses, byte strobes, unaligned addresses, a read and a write
// of one register at the same edge, resets in the middle of transactions) and random traffic
// with random stalls on every channel. Every output is compared with a model after each edge.
module tb;
  reg aclk = 1'b0;
  reg aresetn = 1'b0;
  reg awvalid = 1'b0;
  reg [3:0] awaddr = 4'd0;
  reg wvalid = 1'b0;
  reg [31:0] wdata = 32'd0;
  reg [3:0] wstrb = 4'd0;
  reg bready = 1'b0;
  reg arvalid = 1'b0;
  reg [3:0] araddr = 4'd0;
  reg rready = 1'b0;
  wire awready;
  wire wready;
  wire bvalid;
  wire [1:0] bresp;
  wire arready;
  wire rvalid;
  wire [31:0] rdata;
  wire [1:0] rresp;

  axi_lite dut (.aclk(aclk), .aresetn(aresetn),
                .awvalid(awvalid), .awready(awready), .awaddr(awaddr),
                .wvalid(wvalid), .wready(wready), .wdata(wdata), .wstrb(wstrb),
                .bvalid(bvalid), .bready(bready), .bresp(bresp),
                .arvalid(arvalid), .arready(arready), .araddr(araddr),
                .rvalid(rvalid), .rready(rready), .rdata(rdata), .rresp(rresp));

  always #5 aclk = ~aclk;

  integer seed;
  initial seed = 20240611;

  integer cycle;              // rising edges seen so far

  // The model: the slave as the specification describes it.
  reg [31:0] m_regs [0:3];
  reg        m_awf;           // a write address is held (its data not yet accepted)
  reg [1:0]  m_awidx;
  reg        m_wf;            // write data is held (its address not yet accepted)
  reg [31:0] m_wdata;
  reg [3:0]  m_wstrb;
  reg        m_bvalid;
  reg        m_rvalid;
  reg [31:0] m_rdata;
  // handshakes at the last edge (for the master, which must hold an offer until it is taken)
  reg hs_aw, hs_w, hs_ar, hs_b, hs_r, was_reset;
  reg go;
  reg [1:0]  idx;
  reg [31:0] d;
  reg [3:0]  s;
  reg [31:0] old;

  integer i, k, r, n;
  integer n_writes, n_reads;
  integer p_aw, p_w, p_ar, p_b, p_r;   // probabilities in 1/16ths for the random master

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes the
  // same step, and at the following falling edge every output is compared with the model.
  task step;
    begin
      @(posedge aclk);
      if (!aresetn) begin
        for (k = 0; k < 4; k = k + 1) m_regs[k] = 32'd0;
        m_awf = 1'b0; m_wf = 1'b0; m_bvalid = 1'b0; m_rvalid = 1'b0;
        hs_aw = 1'b0; hs_w = 1'b0; hs_ar = 1'b0; hs_b = 1'b0; hs_r = 1'b0;
        was_reset = 1'b1;
      end else begin
        was_reset = 1'b0;
        hs_aw = awvalid && !m_awf && !m_bvalid;
        hs_w  = wvalid && !m_wf && !m_bvalid;
        hs_ar = arvalid && !m_rvalid;
        hs_b  = m_bvalid && bready;
        hs_r  = m_rvalid && rready;
        // a read sees the contents before this edge's write
        if (hs_ar) begin
          m_rdata = m_regs[araddr[3:2]];
          n_reads = n_reads + 1;
        end
        go = (hs_aw || m_awf) && (hs_w || m_wf);
        if (go) begin
          idx = m_awf ? m_awidx : awaddr[3:2];
          d = m_wf ? m_wdata : wdata;
          s = m_wf ? m_wstrb : wstrb;
          old = m_regs[idx];
          m_regs[idx] = {s[3] ? d[31:24] : old[31:24], s[2] ? d[23:16] : old[23:16],
                         s[1] ? d[15:8] : old[15:8], s[0] ? d[7:0] : old[7:0]};
          m_awf = 1'b0;
          m_wf = 1'b0;
          m_bvalid = 1'b1;
          n_writes = n_writes + 1;
        end else begin
          if (hs_aw) begin m_awf = 1'b1; m_awidx = awaddr[3:2]; end
          if (hs_w) begin m_wf = 1'b1; m_wdata = wdata; m_wstrb = wstrb; end
          if (hs_b) m_bvalid = 1'b0;
        end
        if (hs_ar) m_rvalid = 1'b1;
        else if (hs_r) m_rvalid = 1'b0;
      end
      @(negedge aclk);
      if (awready !== (!m_awf && !m_bvalid)) begin
        $display("FAIL cycle %0d: awready got %0d expected %0d", cycle, awready, !m_awf && !m_bvalid);
        $finish;
      end
      if (wready !== (!m_wf && !m_bvalid)) begin
        $display("FAIL cycle %0d: wready got %0d expected %0d", cycle, wready, !m_wf && !m_bvalid);
        $finish;
      end
      if (bvalid !== m_bvalid) begin
        $display("FAIL cycle %0d: bvalid got %0d expected %0d", cycle, bvalid, m_bvalid);
        $finish;
      end
      if (bresp !== 2'd0) begin
        $display("FAIL cycle %0d: bresp got %0d expected %0d", cycle, bresp, 0);
        $finish;
      end
      if (arready !== !m_rvalid) begin
        $display("FAIL cycle %0d: arready got %0d expected %0d", cycle, arready, !m_rvalid);
        $finish;
      end
      if (rvalid !== m_rvalid) begin
        $display("FAIL cycle %0d: rvalid got %0d expected %0d", cycle, rvalid, m_rvalid);
        $finish;
      end
      // rdata is unspecified while rvalid is 0
      if (m_rvalid && rdata !== m_rdata) begin
        $display("FAIL cycle %0d: rdata got %0d expected %0d", cycle, rdata, m_rdata);
        $finish;
      end
      if (rresp !== 2'd0) begin
        $display("FAIL cycle %0d: rresp got %0d expected %0d", cycle, rresp, 0);
        $finish;
      end
      cycle = cycle + 1;
    end
  endtask

  // The master's hold rule, checked on the testbench's own stimulus: an offer that was not taken
  // at the last edge is still offered, unchanged (unless the reset is applied now). A violation is
  // a testbench bug, not a design failure.
  reg        p_awvalid, p_wvalid, p_arvalid;
  reg [3:0]  p_awaddr, p_araddr, p_wstrb;
  reg [31:0] p_wdata;
  task check_rules;
    begin
      if (aresetn && !was_reset && cycle > 0) begin
        if ((p_awvalid && !hs_aw && !(awvalid && awaddr == p_awaddr)) ||
            (p_wvalid && !hs_w && !(wvalid && wdata == p_wdata && wstrb == p_wstrb)) ||
            (p_arvalid && !hs_ar && !(arvalid && araddr == p_araddr))) begin
          $display("testbench error: hold rule broken at cycle %0d", cycle);
          $finish;
        end
      end
      p_awvalid = awvalid; p_awaddr = awaddr;
      p_wvalid = wvalid; p_wdata = wdata; p_wstrb = wstrb;
      p_arvalid = arvalid; p_araddr = araddr;
    end
  endtask

  // Drive every input for one cycle, then step.
  task drive(input rn, input awv, input [3:0] awa, input wv, input [31:0] wd, input [3:0] ws,
             input br, input arv, input [3:0] ara, input rr);
    begin
      aresetn = rn;
      awvalid = awv; awaddr = awa;
      wvalid = wv; wdata = wd; wstrb = ws;
      bready = br;
      arvalid = arv; araddr = ara;
      rready = rr;
      check_rules;
      step;
    end
  endtask

  // Idle cycles: no offers, both response channels ready.
  task idle(input integer cnt);
    integer j;
    begin
      for (j = 0; j < cnt; j = j + 1) drive(1, 0, 0, 0, 0, 0, 1, 0, 0, 1);
    end
  endtask

  // A read of `a`, rready held high: AR offered until taken, then R taken at once.
  task read(input [3:0] a);
    begin
      drive(1, 0, 0, 0, 0, 0, 1, 1, a, 1);
      while (!hs_ar) drive(1, 0, 0, 0, 0, 0, 1, 1, a, 1);
      drive(1, 0, 0, 0, 0, 0, 1, 0, 0, 1);
    end
  endtask

  // A write with AW and W offered together, bready high.
  task write(input [3:0] a, input [31:0] v, input [3:0] st);
    begin
      drive(1, 1, a, 1, v, st, 1, 0, 0, 1);
      drive(1, 0, 0, 0, 0, 0, 1, 0, 0, 1);
    end
  endtask

  // The random master: each channel offers independently; an offer not yet taken is held.
  task random_cycle(input rn);
    reg n_awv, n_wv, n_arv;
    reg [3:0] n_awa, n_ws, n_ara;
    reg [31:0] n_wd;
    begin
      r = $random(seed);
      if (awvalid && !hs_aw && !was_reset && rn) begin
        n_awv = 1'b1; n_awa = awaddr;
      end else begin
        n_awv = (r[3:0] < p_aw); n_awa = $random(seed);
      end
      if (wvalid && !hs_w && !was_reset && rn) begin
        n_wv = 1'b1; n_wd = wdata; n_ws = wstrb;
      end else begin
        n_wv = (r[7:4] < p_w); n_wd = $random(seed); n_ws = $random(seed);
        if (r[20:19] == 2'd0) n_ws = 4'hf;
      end
      if (arvalid && !hs_ar && !was_reset && rn) begin
        n_arv = 1'b1; n_ara = araddr;
      end else begin
        n_arv = (r[11:8] < p_ar); n_ara = $random(seed);
      end
      drive(rn, n_awv, n_awa, n_wv, n_wd, n_ws, r[15:12] < p_b, n_arv, n_ara, r[31:28] < p_r);
    end
  endtask

  initial begin
    cycle = 0;
    n_writes = 0;
    n_reads = 0;
    for (i = 0; i < 4; i = i + 1) m_regs[i] = 32'd0;
    m_awf = 1'b0; m_awidx = 2'd0; m_wf = 1'b0; m_wdata = 32'd0; m_wstrb = 4'd0;
    m_bvalid = 1'b0; m_rvalid = 1'b0; m_rdata = 32'd0;
    hs_aw = 1'b0; hs_w = 1'b0; hs_ar = 1'b0; hs_b = 1'b0; hs_r = 1'b0; was_reset = 1'b1;

    // reset for the first two rising edges, with every channel offering: nothing is accepted
    drive(0, 1, 4'h4, 1, 32'hdeadbeef, 4'hf, 1, 1, 4'h4, 1);
    drive(0, 1, 4'h8, 1, 32'h12345678, 4'hf, 0, 1, 4'h8, 0);
    idle(2);
    // every register reads 0 after reset
    read(4'h0); read(4'h4); read(4'h8); read(4'hC);
    // AW and W together, every register, all byte lanes
    write(4'h0, 32'h11111111, 4'hf);
    write(4'h4, 32'h22222222, 4'hf);
    write(4'h8, 32'h33333333, 4'hf);
    write(4'hC, 32'h44444444, 4'hf);
    read(4'h0); read(4'h4); read(4'h8); read(4'hC);
    // AW first, W three cycles later; the address bus changes after the AW handshake
    drive(1, 1, 4'h4, 0, 32'h0, 4'h0, 1, 0, 0, 1);
    drive(1, 0, 4'h8, 0, 32'h0, 4'h0, 1, 0, 0, 1);
    drive(1, 0, 4'hC, 0, 32'h0, 4'h0, 1, 0, 0, 1);
    drive(1, 1, 4'h0, 0, 32'h0, 4'h0, 1, 0, 0, 1);          // a second AW waits (held)
    drive(1, 1, 4'h0, 1, 32'hcafef00d, 4'hf, 1, 0, 0, 1);   // W: the write to 0x4 happens
    drive(1, 1, 4'h0, 0, 32'h0, 4'h0, 1, 0, 0, 1);          // B taken; the AW still waits
    drive(1, 1, 4'h0, 0, 32'h0, 4'h0, 1, 0, 0, 1);          // now accepted (held)
    drive(1, 0, 4'h0, 1, 32'h00000abc, 4'h3, 1, 0, 0, 1);   // W with lanes 0, 1: write to 0x0
    idle(1);
    read(4'h4); read(4'h0);
    // W first, AW two cycles later; the data bus changes after the W handshake
    drive(1, 0, 0, 1, 32'h5555aaaa, 4'hf, 1, 0, 0, 1);
    drive(1, 0, 0, 0, 32'hffffffff, 4'hf, 1, 0, 0, 1);
    drive(1, 0, 0, 1, 32'h77777777, 4'hf, 1, 0, 0, 1);      // a second W waits (held)
    drive(1, 1, 4'h8, 1, 32'h77777777, 4'hf, 1, 0, 0, 1);   // AW: the write to 0x8 happens
    drive(1, 0, 0, 1, 32'h77777777, 4'hf, 1, 0, 0, 1);      // B taken; the W still waits
    drive(1, 0, 0, 1, 32'h77777777, 4'hf, 1, 0, 0, 1);      // now accepted (held)
    drive(1, 0, 0, 0, 0, 0, 1, 0, 0, 1);
    drive(1, 1, 4'hC, 0, 0, 0, 1, 0, 0, 1);                 // its AW: write to 0xC
    idle(1);
    read(4'h8); read(4'hC);
    // a response held back: bready low for five cycles while new offers wait on both channels
    drive(1, 1, 4'h0, 1, 32'h01020304, 4'hf, 0, 0, 0, 1);
    for (i = 0; i < 5; i = i + 1) drive(1, 1, 4'h4, 1, 32'h0a0b0c0d, 4'hf, 0, 0, 0, 1);
    drive(1, 1, 4'h4, 1, 32'h0a0b0c0d, 4'hf, 1, 0, 0, 1);   // B taken
    drive(1, 1, 4'h4, 1, 32'h0a0b0c0d, 4'hf, 1, 0, 0, 1);   // both accepted: write to 0x4
    drive(1, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    drive(1, 0, 0, 0, 0, 0, 1, 0, 0, 1);
    read(4'h0); read(4'h4);
    // byte strobes: each single lane, none, and alternating lanes
    write(4'h0, 32'h00000000, 4'hf);
    write(4'h0, 32'haabbccdd, 4'h1); read(4'h0);
    write(4'h0, 32'h11223344, 4'h2); read(4'h0);
    write(4'h0, 32'h55667788, 4'h4); read(4'h0);
    write(4'h0, 32'h99aabbcc, 4'h8); read(4'h0);
    write(4'h0, 32'hffffffff, 4'h0); read(4'h0);            // no lanes: unchanged, still answered
    write(4'h4, 32'hffffffff, 4'hf);
    write(4'h4, 32'h00000000, 4'h5); read(4'h4);
    write(4'h4, 32'h12345678, 4'ha); read(4'h4);
    // unaligned addresses: bits [1:0] are ignored
    write(4'h9, 32'h9999_0001, 4'hf); read(4'h8); read(4'hB);
    write(4'h7, 32'h7777_0002, 4'hf); read(4'h4); read(4'h5);
    write(4'hE, 32'heeee_0003, 4'hc); read(4'hC); read(4'hD);
    write(4'h2, 32'h2222_0004, 4'h3); read(4'h1); read(4'h3);
    // a read and a write of the same register at the same edge: the read sees the old contents
    drive(1, 1, 4'h8, 1, 32'hbead0001, 4'hf, 1, 1, 4'h8, 1);
    read(4'h8);                                             // read again: the new contents
    // the same with AW held first, W and AR at the same edge
    drive(1, 1, 4'hC, 0, 0, 0, 1, 0, 0, 1);
    drive(1, 0, 0, 1, 32'hbead0002, 4'hf, 1, 1, 4'hC, 1);
    read(4'hC);
    // and with W held first, AW and AR at the same edge
    drive(1, 0, 0, 1, 32'hbead0003, 4'hf, 1, 0, 0, 1);
    drive(1, 1, 4'h0, 0, 0, 0, 1, 1, 4'h0, 1);
    read(4'h0);
    // read data held back (rready low) while a write changes that register: rdata stays
    drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h0, 0);
    drive(1, 1, 4'h0, 1, 32'h0badf00d, 4'hf, 1, 1, 4'h4, 0); // AR to 0x4 waits; write to 0x0
    for (i = 0; i < 4; i = i + 1) drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h4, 0);
    drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h4, 1);                 // R taken (old 0x0 contents)
    drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h4, 1);                 // AR to 0x4 accepted
    drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h0, 0);                 // R waits; AR to 0x0 waits
    drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h0, 1);
    drive(1, 0, 0, 0, 0, 0, 1, 1, 4'h0, 1);
    drive(1, 0, 0, 0, 0, 0, 1, 0, 0, 1);
    // back-to-back traffic with every offer always up: one write and one read every two cycles
    // (a new address and data after each handshake)
    k = 0; n = 0;
    for (i = 0; i < 17; i = i + 1) begin
      if (hs_aw) k = k + 1;
      if (hs_ar) n = n + 1;
      drive(1, 1, k[3:0] * 4'd5, 1, {k[7:0], 8'h5a, k[7:0], 8'ha5}, 4'hf, 1, 1, ~n[3:0], 1);
    end
    // resets in the middle of transactions
    drive(1, 1, 4'h0, 0, 0, 0, 1, 0, 0, 1);                 // AW held
    drive(0, 0, 0, 0, 0, 0, 1, 0, 0, 1);                    // reset: the address is forgotten
    drive(1, 0, 0, 1, 32'h13572468, 4'hf, 1, 0, 0, 1);      // W alone: held, no write
    idle(2);
    read(4'h0);
    drive(1, 1, 4'h4, 0, 0, 0, 1, 0, 0, 1);                 // its AW: write to 0x4
    idle(1);
    read(4'h4);
    drive(1, 1, 4'h8, 1, 32'h24681357, 4'hf, 0, 1, 4'h4, 0); // write (B waits), read (R waits)
    drive(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    drive(0, 1, 4'hC, 1, 32'hffffffff, 4'hf, 0, 1, 4'hC, 0); // reset with both responses waiting
    drive(0, 1, 4'hC, 1, 32'hffffffff, 4'hf, 1, 1, 4'hC, 1);
    drive(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    read(4'h8); read(4'h4);
    drive(1, 0, 0, 1, 32'h11112222, 4'hf, 1, 0, 0, 1);      // W held
    drive(0, 1, 4'h0, 0, 0, 0, 1, 0, 0, 1);                 // reset: the data is forgotten
    drive(1, 1, 4'h0, 0, 0, 0, 1, 0, 0, 1);                 // AW alone: held, no write
    idle(1);
    read(4'h0);
    drive(1, 0, 0, 1, 32'h33334444, 4'h6, 1, 0, 0, 1);      // its W
    idle(1);
    read(4'h0);
    // random traffic in phases of different offer and ready rates, with rare resets
    for (n = 0; n < 24; n = n + 1) begin
      case (n % 6)
        0: begin p_aw = 8;  p_w = 8;  p_ar = 8;  p_b = 8;  p_r = 8;  end
        1: begin p_aw = 14; p_w = 3;  p_ar = 6;  p_b = 12; p_r = 4;  end   // AW well before W
        2: begin p_aw = 3;  p_w = 14; p_ar = 12; p_b = 4;  p_r = 12; end   // W well before AW
        3: begin p_aw = 16; p_w = 16; p_ar = 16; p_b = 16; p_r = 16; end   // everything always
        4: begin p_aw = 12; p_w = 12; p_ar = 12; p_b = 2;  p_r = 2;  end   // slow responses
        default: begin p_aw = 4; p_w = 4; p_ar = 4; p_b = 10; p_r = 10; end
      endcase
      for (i = 0; i < 150; i = i + 1)
        random_cycle(($random(seed) & 255) != 0);
    end
    // final reads of every register
    idle(2);
    read(4'h0); read(4'h4); read(4'h8); read(4'hC);
    $display("PASS");
    $finish;
  end
endmodule
