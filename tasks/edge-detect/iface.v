// Registered rising- and falling-edge detector.
// Requirements on the inputs:
//   none
module edge_detect (
  input wire clk,
  input wire rst,
  input wire sig,
  output reg rise,
  output reg fall
);

endmodule
