// Round 2, cause 2: an undotted call resolves upward, in Icarus, to the testbench's own model.
module calls(input wire [3:0] a, output wire [3:0] y);
  assign y = model(a);
endmodule
