`timescale 1ns/1ps
// Hidden testbench for `plic_lite`: a 4-source interrupt controller. The testbench keeps a model
// of the pending and in-service bits. At each falling edge it applies the next inputs (a CPU
// that claims only while irq is 1 and completes only sources in service), waits 1 ns for the
// combinational outputs to settle, and compares irq and claim_id with the model; at the rising
// edge the model takes the same step as the design.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg [3:0] src = 4'd0;
  reg [3:0] enable = 4'd0;
  reg [7:0] prio = 8'd0;
  reg [1:0] threshold = 2'd0;
  reg claim = 1'b0;
  reg complete = 1'b0;
  reg [1:0] complete_id = 2'd0;
  wire irq;
  wire [1:0] claim_id;

  plic_lite dut (.clk(clk), .rst(rst), .src(src), .enable(enable), .prio(prio),
                 .threshold(threshold), .claim(claim), .complete(complete),
                 .complete_id(complete_id), .irq(irq), .claim_id(claim_id));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 7340033;

  integer cycle;           // index of the last rising edge (-1 before the first)
  reg [3:0] m_pend;        // the model: pending bits ...
  reg [3:0] m_serv;        // ... and in-service bits
  reg       e_irq;         // expected outputs for the current state and configuration
  reg [1:0] e_id;
  // the configuration the directed phases keep applying
  reg [3:0] c_en;
  reg [7:0] c_prio;
  reg [1:0] c_thr;
  integer i, j, k, r, n;
  reg [1:0] id;

  // expected outputs: the highest-priority candidate, lowest id among equals (0 if none)
  task expect_outputs;
    integer q;
    reg [1:0] pq, best;
    begin
      e_irq = 1'b0; e_id = 2'd0; best = 2'd0;
      for (q = 0; q < 4; q = q + 1) begin
        pq = (prio >> (2 * q)) & 8'd3;
        if (m_pend[q] && enable[q] && pq > threshold && (!e_irq || pq > best)) begin
          e_irq = 1'b1; e_id = q; best = pq;
        end
      end
    end
  endtask

  // One cycle. Called at a falling edge (or at time 0): applies the inputs (a claim only while
  // the model says irq, a completion only of a source in service), checks the outputs after
  // 1 ns, then lets the rising edge happen, updates the model and returns at the falling edge.
  task cyc(input r_, input [3:0] s_, input [3:0] en_, input [7:0] p_, input [1:0] t_,
           input cl_, input co_, input [1:0] cid_);
    reg [3:0] ns;
    begin
      rst = r_; src = s_; enable = en_; prio = p_; threshold = t_;
      expect_outputs;
      claim = cl_ && e_irq;
      complete = co_ && m_serv[cid_];
      complete_id = cid_;
      #1;
      if (cycle >= 0) begin
        if (irq !== e_irq) begin
          $display("FAIL cycle %0d: irq got %0d expected %0d", cycle, irq, e_irq);
          $finish;
        end
        if (claim_id !== e_id) begin
          $display("FAIL cycle %0d: claim_id got %0d expected %0d", cycle, claim_id, e_id);
          $finish;
        end
      end
      @(posedge clk);
      cycle = cycle + 1;
      if (rst) begin
        m_pend = 4'd0; m_serv = 4'd0;
      end else begin
        ns = m_serv;
        if (complete) ns[complete_id] = 1'b0;
        if (claim) ns[e_id] = 1'b1;
        m_pend = (m_pend | src) & ~ns;
        m_serv = ns;
      end
      @(negedge clk);
    end
  endtask

  // the checks of the outputs after the last edge, applying the current inputs once more
  task final_check;
    begin
      expect_outputs;
      claim = 1'b0;
      complete = 1'b0;
      #1;
      if (irq !== e_irq) begin
        $display("FAIL cycle %0d: irq got %0d expected %0d", cycle, irq, e_irq);
        $finish;
      end
      if (claim_id !== e_id) begin
        $display("FAIL cycle %0d: claim_id got %0d expected %0d", cycle, claim_id, e_id);
        $finish;
      end
    end
  endtask

  // a cycle with the current configuration
  task tick(input [3:0] s_, input cl_, input co_, input [1:0] cid_);
    begin
      cyc(1'b0, s_, c_en, c_prio, c_thr, cl_, co_, cid_);
    end
  endtask

  // claim everything claimable, one claim per cycle, then complete everything in service
  task drain;
    integer q;
    begin
      for (q = 0; q < 4; q = q + 1) tick(4'd0, 1'b1, 1'b0, 2'd0);
      for (q = 0; q < 4; q = q + 1) tick(4'd0, 1'b0, 1'b1, q);
    end
  endtask

  // the id of a random source in service, searching upwards from a random start (m_serv != 0)
  function [1:0] some_served;
    input [1:0] start;
    integer q;
    begin
      some_served = start;
      for (q = 3; q >= 0; q = q - 1)
        if (m_serv[(start + q) % 4]) some_served = (start + q) % 4;
    end
  endfunction

  initial begin
    cycle = -1;
    m_pend = 4'd0; m_serv = 4'd0;
    c_en = 4'b1111; c_prio = 8'b01_01_01_01; c_thr = 2'd0;

    // reset held for the first two rising edges, lines high: nothing becomes pending
    cyc(1'b1, 4'b1111, 4'b1111, 8'hff, 2'd0, 1'b0, 1'b0, 2'd0);
    cyc(1'b1, 4'b1111, 4'b1111, 8'hff, 2'd0, 1'b1, 1'b0, 2'd0);

    // one source: a one-cycle pulse is latched; irq stays up after the line drops
    c_prio = 8'b00_01_00_00;
    tick(4'b0100, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    // claim it while its line is high again: it does not stay pending
    tick(4'b0100, 1'b1, 1'b0, 2'd0);
    // while in service the line cannot make it pending again
    tick(4'b0100, 1'b0, 1'b0, 2'd0);
    tick(4'b0100, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    // complete with the line low: not pending
    tick(4'b0000, 1'b0, 1'b1, 2'd2);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    // raise, claim, then complete at an edge where the line is high, then drop the line:
    // it is pending again from the completing edge
    tick(4'b0100, 1'b0, 1'b0, 2'd0);
    tick(4'b0100, 1'b1, 1'b0, 2'd0);
    tick(4'b0100, 1'b0, 1'b0, 2'd0);
    tick(4'b0100, 1'b0, 1'b1, 2'd2);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b1, 1'b0, 2'd0);
    tick(4'b0000, 1'b0, 1'b1, 2'd2);

    // claim and complete in the same cycle, nested service
    c_prio = 8'b11_10_01_01;
    tick(4'b0001, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b1, 1'b0, 2'd0);          // claim 0 (priority 1)
    tick(4'b1000, 1'b0, 1'b0, 2'd0);          // 3 arrives (priority 3)
    tick(4'b0010, 1'b1, 1'b0, 2'd0);          // claim 3 while 0 is in service; 1 arrives
    tick(4'b0000, 1'b1, 1'b1, 2'd3);          // claim 1 and complete 3 together
    tick(4'b1001, 1'b0, 1'b1, 2'd0);          // complete 0 with its line high; 3 again
    tick(4'b0000, 1'b1, 1'b1, 2'd1);          // claim 3, complete 1
    tick(4'b0000, 1'b1, 1'b1, 2'd3);          // claim 0, complete 3
    tick(4'b0000, 1'b0, 1'b1, 2'd0);

    // enable, priority 0 and threshold gate candidacy, not pending: a source raised while
    // disabled, at priority 0 or at or below the threshold becomes claimable when that changes
    c_en = 4'b0000; c_prio = 8'b00_00_00_00; c_thr = 2'd3;
    tick(4'b1111, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    c_en = 4'b1111;
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    c_prio = 8'b11_10_01_00;
    tick(4'b0000, 1'b0, 1'b0, 2'd0);          // threshold 3: nothing
    for (k = 2; k >= 0; k = k - 1) begin
      c_thr = k;
      tick(4'b0000, 1'b0, 1'b0, 2'd0);
    end
    c_prio = 8'b00_01_10_11;                  // reversed: 0 now highest
    for (k = 0; k < 4; k = k + 1) begin
      c_thr = k;
      tick(4'b0000, 1'b0, 1'b0, 2'd0);
    end
    c_thr = 2'd0;
    for (k = 0; k < 16; k = k + 1) begin     // every enable mask, no claim
      c_en = k;
      tick(4'b0000, 1'b0, 1'b0, 2'd0);
    end
    c_en = 4'b1111;
    drain;

    // every priority assignment: all four pending at threshold 0, claimed one per cycle
    // (priority order, lowest id first among equals, priority 0 never), then completed
    for (k = 0; k < 256; k = k + 1) begin
      c_prio = k;
      c_thr = 2'd0;
      tick(4'b1111, 1'b0, 1'b0, 2'd0);
      drain;
    end
    // every priority assignment at threshold 1 and 2 with random enables, one claim each
    for (k = 0; k < 256; k = k + 1) begin
      c_prio = k;
      c_thr = 2'd1 + k[0];
      c_en = $random(seed);
      tick(4'b1111, 1'b0, 1'b0, 2'd0);
      tick(4'b0000, 1'b1, 1'b0, 2'd0);
      c_en = 4'b1111; c_thr = 2'd0;
      drain;
    end

    // a reset while sources are pending and in service: all of it is forgotten
    c_prio = 8'b01_10_11_01;
    tick(4'b1111, 1'b0, 1'b0, 2'd0);
    tick(4'b0000, 1'b1, 1'b0, 2'd0);
    tick(4'b0000, 1'b1, 1'b0, 2'd0);
    cyc(1'b1, 4'b1111, c_en, c_prio, c_thr, 1'b1, 1'b1, 2'd1);
    tick(4'b0000, 1'b0, 1'b0, 2'd0);
    tick(4'b0011, 1'b0, 1'b0, 2'd0);
    drain;

    // random: a CPU that claims and completes at random, lines with random activity, the
    // configuration changing now and then (in the last part every cycle), rare resets
    for (n = 0; n < 6000; n = n + 1) begin
      r = $random(seed);
      if (n < 4000 ? (r[27:23] == 5'd0) : 1'b1) begin
        c_en = (r[13:12] == 2'd0) ? $random(seed) : 4'b1111;
        c_prio = $random(seed);
        c_thr = (r[15:14] == 2'd0) ? $random(seed) : 2'd0;
      end
      id = (m_serv != 4'd0) ? some_served($random(seed)) : $random(seed);
      cyc(r[31:25] == 7'd0,
          (n % 1000 < 500) ? ($random(seed) & $random(seed) & $random(seed)) : $random(seed),
          c_en, c_prio, c_thr,
          r[1:0] != 2'd0, r[4:2] == 3'd0, id);
    end
    final_check;
    $display("PASS");
    $finish;
  end
endmodule
