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

  // The full product of two 8-bit signed numbers fits 16 bits (-16256 .. 16384).
  wire signed [15:0] prod = a * b;

  always @(posedge clk) begin
    if (rst || clr)
      acc <= 20'sd0;
    else if (en)
      acc <= acc + prod;   // both signed: prod is sign-extended to 20 bits; the sum wraps
  end

endmodule
