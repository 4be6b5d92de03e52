// Forged PASS for a wrong design (constant output) without any system task or dot: `disable`
// of the testbench's task by its simple name, which Icarus resolves upwards to tb.step.
module counter(input wire clk, input wire rst, input wire en, input wire up, input wire load,
               input wire [3:0] d, output wire [3:0] q);
  assign q = 4'd0;
`ifndef YOSYS
  always @(posedge clk) #1 disable step;
`endif
endmodule
