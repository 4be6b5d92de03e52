// 4-bit up/down counter with synchronous load.
// Requirements on the inputs:
//   none
module counter (
  input wire clk,
  input wire rst,
  input wire en,
  input wire up,
  input wire load,
  input wire [3:0] d,
  output reg [3:0] q
);

endmodule
