// The Verilog of the extern module `delay` of delay_pair.sysr: a register stage of parameter
// width (its default differs from the sysr declaration's on purpose: every instance sets W).
module delay #(
  parameter W = 1
) (
  input wire clk,
  input wire [W-1:0] d,
  output reg [W-1:0] q
);
  always @(posedge clk) q <= d;
endmodule
