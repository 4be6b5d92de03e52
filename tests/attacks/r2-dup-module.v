// Round 2, cause 5: a module named like one of the testbench's: the compile with the testbench
// fails, and its messages must not name the testbench's lines.
module TopModule(input clk, input [3:0] a, output [3:0] y);
  assign y = a ^ 4'd5;
endmodule
module RefModule(input clk, input [3:0] a, output [3:0] y);
  assign y = 4'd0;
endmodule
