`timescale 1ns/1ps
// Hidden testbench for `sync_ram`: a 256 x 8 RAM with a registered, read-first read port.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg we = 1'b0;
  reg [7:0] waddr = 8'd0;
  reg [7:0] wdata = 8'd0;
  reg [7:0] raddr = 8'd0;
  wire [7:0] rdata;

  sync_ram dut (.clk(clk), .rst(rst), .we(we), .waddr(waddr), .wdata(wdata), .raddr(raddr),
                .rdata(rdata));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 4096;

  integer cycle;            // rising edges seen so far
  reg [7:0] mm [0:255];     // the model's contents
  reg written [0:255];      // whether the address was ever written (else its contents are unknown)
  reg [7:0] exp_rdata;
  reg exp_known;            // whether rdata is specified after this edge
  integer i;
  integer r;
  integer n_checked;

  // One clock cycle: the inputs set now are sampled at the next rising edge; the model reads
  // (the old contents) and then writes, and at the following falling edge rdata is compared.
  // rdata is unspecified after a reset edge and after a read of a never-written address.
  task step;
    begin
      @(posedge clk);
      exp_rdata = mm[raddr];
      exp_known = written[raddr] && !rst;
      if (we) begin
        mm[waddr] = wdata;
        written[waddr] = 1'b1;
      end
      @(negedge clk);
      if (exp_known && rdata !== exp_rdata) begin
        $display("FAIL cycle %0d: rdata got %0d expected %0d", cycle, rdata, exp_rdata);
        $finish;
      end
      if (exp_known) n_checked = n_checked + 1;
      cycle = cycle + 1;
    end
  endtask

  task drive(input r_, input we_, input [7:0] wa, input [7:0] wd, input [7:0] ra);
    begin
      rst = r_;
      we = we_ && !r_;      // the requirement: no write while rst is 1
      waddr = wa;
      wdata = wd;
      raddr = ra;
      step;
    end
  endtask

  initial begin
    cycle = 0;
    n_checked = 0;
    for (i = 0; i < 256; i = i + 1) begin
      mm[i] = 8'd0;
      written[i] = 1'b0;
    end

    // reset for the first two rising edges
    drive(1, 0, 8'd0, 8'd0, 8'd0);
    drive(1, 0, 8'd0, 8'd0, 8'd0);
    // write, then read back on the next edge; the first and last addresses
    drive(0, 1, 8'd0, 8'h5A, 8'd0);        // read-during-write of a never-written address
    drive(0, 0, 8'd0, 8'hFF, 8'd0);
    drive(0, 1, 8'd255, 8'hA5, 8'd0);
    drive(0, 0, 8'd0, 8'h00, 8'd255);
    // read-during-write of the same address returns the old data, then the new
    drive(0, 1, 8'd255, 8'h3C, 8'd255);
    drive(0, 1, 8'd255, 8'hC3, 8'd255);
    drive(0, 0, 8'd7, 8'h00, 8'd255);
    // write one address while reading another that was just written
    drive(0, 1, 8'd1, 8'h11, 8'd0);
    drive(0, 1, 8'd2, 8'h22, 8'd1);
    drive(0, 1, 8'd3, 8'h33, 8'd2);
    drive(0, 0, 8'd3, 8'h44, 8'd3);
    // we is 0: wdata and waddr are ignored
    drive(0, 0, 8'd3, 8'h99, 8'd3);
    // random writes into a partly written memory, reads checked where the contents are known
    for (i = 0; i < 300; i = i + 1) begin
      r = $random(seed);
      drive(0, r[0], r[15:8], r[23:16], r[1] ? r[15:8] : r[31:24]);
    end
    // write every address (a pattern that catches address aliasing), reading the one before
    for (i = 0; i < 256; i = i + 1) drive(0, 1, i, i ^ 8'h6C, i - 1);
    // read every address back, upwards then downwards
    for (i = 0; i < 256; i = i + 1) drive(0, 0, 8'd0, 8'd0, i);
    for (i = 255; i >= 0; i = i - 1) drive(0, 0, 8'd0, 8'd0, i);
    // a reset keeps the contents: reset while reading, then read what was written before it
    drive(1, 0, 8'd0, 8'd0, 8'd10);
    drive(1, 0, 8'd0, 8'd0, 8'd11);
    drive(0, 0, 8'd0, 8'd0, 8'd12);
    drive(0, 1, 8'd12, 8'hEE, 8'd12);
    drive(0, 0, 8'd0, 8'd0, 8'd12);
    // random traffic: writes half the time, reads of the address being written a quarter of
    // the time, the last address written often, and rare resets
    for (i = 0; i < 2500; i = i + 1) begin
      r = $random(seed);
      case (r[25:24])
        2'd0: drive(r[31:26] == 6'd0, r[0], r[15:8], r[23:16], r[15:8]);   // same address
        2'd1: drive(r[31:26] == 6'd0, r[0], r[15:8], r[23:16], waddr);      // last address
        default: drive(r[31:26] == 6'd0, r[0], r[15:8], r[23:16], $random(seed));
      endcase
    end
    $display("PASS");
    $finish;
  end
endmodule
