// 16-bit maximal-length Fibonacci LFSR (x^16 + x^14 + x^13 + x^11 + 1) with synchronous load.
// Requirements on the inputs:
//   - when load is 1, seed is not 0
module lfsr (
  input wire clk,
  input wire rst,
  input wire load,
  input wire [15:0] seed,
  output reg [15:0] state
);

endmodule
