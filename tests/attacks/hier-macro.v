// Forged PASS for a wrong design (constant output) without any system task: the testbench's
// model register is overwritten through a hierarchical name whose first part a macro supplies
// (`M(tb).exp_q), just after the model steps and before it is compared.
`define M(a) a
module counter(input wire clk, input wire rst, input wire en, input wire up, input wire load,
               input wire [3:0] d, output wire [3:0] q);
  assign q = 4'd0;
`ifndef YOSYS
  always @(posedge clk) #1 `M(tb).exp_q = 4'd0;
`endif
endmodule
