// Signed multiply-accumulate unit with a 20-bit accumulator.
// Requirements on the inputs:
//   none
module mac (
  input wire clk,
  input wire rst,
  input wire signed [7:0] a,
  input wire signed [7:0] b,
  input wire en,
  input wire clr,
  output reg signed [19:0] acc
);

endmodule
