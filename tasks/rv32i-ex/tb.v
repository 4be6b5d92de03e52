`timescale 1ns/1ps
// Hidden testbench for `rv32i_ex`: an RV32I execute stage with one cycle of latency.
// Each cycle's inputs are sampled at a rising edge; the model computes what the outputs must be
// right after that edge, and at the following falling edge every specified output is compared.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg valid_in = 1'b0;
  reg [4:0] op = 5'd0;
  reg [31:0] rs1_val = 32'd0;
  reg [31:0] rs2_val = 32'd0;
  reg [31:0] imm = 32'd0;
  reg use_imm = 1'b0;
  reg [31:0] pc = 32'd0;
  wire valid_out;
  wire [31:0] result;
  wire branch_taken;
  wire [31:0] branch_target;

  rv32i_ex dut (.clk(clk), .rst(rst), .valid_in(valid_in), .op(op), .rs1_val(rs1_val),
                .rs2_val(rs2_val), .imm(imm), .use_imm(use_imm), .pc(pc),
                .valid_out(valid_out), .result(result), .branch_taken(branch_taken),
                .branch_target(branch_target));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 20240611;

  integer cycle;             // rising edges seen so far
  // the model's expectation for the outputs after the last rising edge
  reg        e_valid;
  reg        e_taken;
  reg [31:0] e_result;
  reg        e_check_result;  // result is specified (a valid non-branch operation)
  reg [31:0] e_target;
  reg        e_check_target;  // branch_target is specified (a valid branch, JAL or JALR)
  reg [4:0]  e_op;            // for the messages

  reg [31:0] corner [0:15];
  reg [4:0]  legal [0:19];
  integer i, j, k, r;
  reg [31:0] x, y;

  // signed less-than, computed by flipping the sign bits and comparing unsigned
  function slt;
    input [31:0] p, q;
    slt = (p ^ 32'h8000_0000) < (q ^ 32'h8000_0000);
  endfunction

  // arithmetic shift right by s: shift the 64-bit sign extension logically
  function [31:0] sra;
    input [31:0] p;
    input [4:0] s;
    reg [63:0] w;
    begin
      w = {{32{p[31]}}, p} >> s;
      sra = w[31:0];
    end
  endfunction

  // the model: what the outputs show after a rising edge that samples the current inputs
  task model;
    reg [31:0] b;
    begin
      e_op = op;
      e_check_result = 1'b0;
      e_check_target = 1'b0;
      e_taken = 1'b0;
      e_result = 32'd0;
      e_target = 32'd0;
      if (rst) begin
        e_valid = 1'b0;
      end else begin
        e_valid = valid_in;
        if (valid_in) begin
          b = use_imm ? imm : rs2_val;
          e_check_result = 1'b1;
          case (op)
            5'h00: e_result = rs1_val + b;
            5'h08: e_result = rs1_val - b;
            5'h01: e_result = rs1_val << b[4:0];
            5'h02: e_result = slt(rs1_val, b) ? 32'd1 : 32'd0;
            5'h03: e_result = (rs1_val < b) ? 32'd1 : 32'd0;
            5'h04: e_result = rs1_val ^ b;
            5'h05: e_result = rs1_val >> b[4:0];
            5'h0d: e_result = sra(rs1_val, b[4:0]);
            5'h06: e_result = rs1_val | b;
            5'h07: e_result = rs1_val & b;
            5'h18, 5'h19: begin
              e_result = pc + 32'd4;
              e_taken = 1'b1;
              e_check_target = 1'b1;
              e_target = (op == 5'h18) ? pc + imm : ((rs1_val + imm) & 32'hffff_fffe);
            end
            5'h1a: e_result = imm;
            5'h1b: e_result = pc + imm;
            default: begin
              // conditional branches: rs1 against rs2 (never imm); result unspecified
              e_check_result = 1'b0;
              e_check_target = 1'b1;
              e_target = pc + imm;
              case (op)
                5'h10: e_taken = rs1_val == rs2_val;
                5'h11: e_taken = rs1_val != rs2_val;
                5'h14: e_taken = slt(rs1_val, rs2_val);
                5'h15: e_taken = !slt(rs1_val, rs2_val);
                5'h16: e_taken = rs1_val < rs2_val;
                default: e_taken = !(rs1_val < rs2_val);   // 5'h17, BGEU
              endcase
            end
          endcase
        end
      end
    end
  endtask

  // Every specified output against the model; `when` says which check it is, for the message.
  task compare(input integer at, input [8*32-1:0] when);
    begin
      if (valid_out !== e_valid) begin
        $display("FAIL cycle %0d: valid_out%0s got %0d expected %0d", at, when, valid_out, e_valid);
        $finish;
      end
      if (branch_taken !== e_taken) begin
        $display("FAIL cycle %0d: branch_taken (op 0x%02h)%0s got %0d expected %0d", at, e_op, when,
                 branch_taken, e_taken);
        $finish;
      end
      if (e_check_result && result !== e_result) begin
        $display("FAIL cycle %0d: result (op 0x%02h)%0s got %0d expected %0d", at, e_op, when, result,
                 e_result);
        $finish;
      end
      if (e_check_target && branch_target !== e_target) begin
        $display("FAIL cycle %0d: branch_target (op 0x%02h)%0s got %0d expected %0d", at, e_op, when,
                 branch_target, e_target);
        $finish;
      end
    end
  endtask

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model takes
  // the same step, and at the following falling edge the outputs are compared. Every output is
  // registered, so it must also hold while the next cycle's inputs are applied: 1 ns after they
  // change (just after the falling edge) the outputs are compared again with the last edge's
  // expectation (a combinational output computed from the inputs would follow them).
  task step;
    begin
      #1;
      if (cycle > 0) compare(cycle - 1, " (not held to the next edge)");
      @(posedge clk);
      model;
      @(negedge clk);
      compare(cycle, "");
      cycle = cycle + 1;
    end
  endtask

  task drive(input r_, input v_, input [4:0] op_, input [31:0] a_, input [31:0] b_,
             input [31:0] imm_, input ui_, input [31:0] pc_);
    begin
      rst = r_; valid_in = v_; op = op_; rs1_val = a_; rs2_val = b_; imm = imm_;
      use_imm = ui_; pc = pc_;
      step;
    end
  endtask

  // a valid operation with random pc and random values in the inputs it does not use
  task issue(input [4:0] op_, input [31:0] a_, input [31:0] b_, input [31:0] imm_, input ui_);
    begin
      drive(0, 1, op_, a_, b_, imm_, ui_, $random(seed));
    end
  endtask

  // an ALU operation on (p, q), with q in rs2 or in imm; the unused one holds garbage
  task alu2(input [4:0] op_, input [31:0] p, input [31:0] q);
    begin
      issue(op_, p, q, $random(seed), 1'b0);
      issue(op_, p, $random(seed), q, 1'b1);
    end
  endtask

  initial begin
    cycle = 0;
    corner[0]  = 32'h0000_0000; corner[1]  = 32'h0000_0001; corner[2]  = 32'h0000_0002;
    corner[3]  = 32'h0000_001f; corner[4]  = 32'h0000_0020; corner[5]  = 32'h0000_0021;
    corner[6]  = 32'h7fff_fffe; corner[7]  = 32'h7fff_ffff; corner[8]  = 32'h8000_0000;
    corner[9]  = 32'h8000_0001; corner[10] = 32'hffff_ffe1; corner[11] = 32'hffff_fffe;
    corner[12] = 32'hffff_ffff; corner[13] = 32'h1234_5678; corner[14] = 32'hdead_beef;
    corner[15] = 32'h5555_aaaa;
    legal[0]  = 5'h00; legal[1]  = 5'h01; legal[2]  = 5'h02; legal[3]  = 5'h03;
    legal[4]  = 5'h04; legal[5]  = 5'h05; legal[6]  = 5'h06; legal[7]  = 5'h07;
    legal[8]  = 5'h08; legal[9]  = 5'h0d; legal[10] = 5'h10; legal[11] = 5'h11;
    legal[12] = 5'h14; legal[13] = 5'h15; legal[14] = 5'h16; legal[15] = 5'h17;
    legal[16] = 5'h18; legal[17] = 5'h19; legal[18] = 5'h1a; legal[19] = 5'h1b;

    // reset held for the first two rising edges, with a valid JAL on the inputs
    drive(1, 1, 5'h18, 32'd0, 32'd0, 32'h100, 1'b0, 32'h1000);
    drive(1, 1, 5'h18, 32'd0, 32'd0, 32'h100, 1'b0, 32'h1000);

    // every ALU operation on every pair of corner values, second operand from rs2 and from imm
    for (k = 0; k < 10; k = k + 1)
      for (i = 0; i < 16; i = i + 1)
        for (j = 0; j < 16; j = j + 1)
          alu2(legal[k], corner[i], corner[j]);

    // every shift amount, also with bits above the low five set in the amount
    for (k = 0; k < 64; k = k + 1) begin
      x = (k < 32) ? k : ({$random(seed)} & 32'hffff_ffe0) | k[4:0];
      alu2(5'h01, 32'h8000_0001, x);
      alu2(5'h05, 32'h8000_0001, x);
      alu2(5'h0d, 32'h8000_0001, x);
      alu2(5'h0d, 32'h4000_0003, x);
      alu2(5'h0d, 32'hffff_ffff, x);
    end

    // every conditional branch on every pair of corner values; use_imm is random (it must be
    // ignored) and imm differs from rs2
    for (k = 10; k < 16; k = k + 1)
      for (i = 0; i < 16; i = i + 1)
        for (j = 0; j < 16; j = j + 1)
          issue(legal[k], corner[i], corner[j], ~corner[j] ^ (i << 4), $random(seed));

    // jumps, LUI and AUIPC: wrap-around of pc + imm and pc + 4, odd JALR sums, negative offsets
    for (i = 0; i < 16; i = i + 1) begin
      for (k = 16; k < 20; k = k + 1) begin
        drive(0, 1, legal[k], corner[i], $random(seed), corner[15 - i], $random(seed), corner[i]);
        drive(0, 1, legal[k], $random(seed), corner[i], corner[i] | 32'd1, $random(seed), 32'hffff_fffc);
        drive(0, 1, legal[k], corner[i], corner[i], 32'hffff_fff7, $random(seed), $random(seed));
      end
    end

    // bubbles: valid_in low with every op code (legal or not) and operands that would take a
    // branch; valid_out and branch_taken must be 0
    for (k = 0; k < 32; k = k + 1) begin
      drive(0, 0, k, 32'd7, 32'd7, 32'h40, k[0], 32'h2000);
      drive(0, 1, 5'h10, 32'd7, 32'd7, 32'h40, 1'b0, 32'h2000);   // a taken BEQ in between
    end

    // a reset in the middle of the run, with a taken branch on the inputs
    drive(0, 1, 5'h18, 32'd0, 32'd0, 32'h80, 1'b0, 32'h3000);
    drive(1, 1, 5'h19, 32'd5, 32'd0, 32'h80, 1'b0, 32'h3000);
    drive(1, 1, 5'h11, 32'd5, 32'd6, 32'h80, 1'b1, 32'h3000);
    drive(0, 1, 5'h11, 32'd5, 32'd6, 32'h80, 1'b1, 32'h3000);

    // random stimulus: mostly valid; operands from the corners or random; rare resets
    for (i = 0; i < 3000; i = i + 1) begin
      r = $random(seed);
      x = r[4] ? corner[r[8:5]] : $random(seed);
      y = r[9] ? corner[r[13:10]] : $random(seed);
      if (r[19:16] == 4'd0)
        // a bubble with any op code
        drive(r[31:26] == 6'd0, 0, $random(seed), x, y, $random(seed), r[20], $random(seed));
      else
        drive(r[31:26] == 6'd0, 1, legal[{$random(seed)} % 20], x, (r[21] ? x : y),
              (r[22] ? y : $random(seed)), r[20], $random(seed));
    end
    $display("PASS");
    $finish;
  end
endmodule
