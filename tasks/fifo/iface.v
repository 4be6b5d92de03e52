// 8-entry, 8-bit synchronous FIFO with first-word fall-through.
// Requirements on the inputs:
//   - push is never 1 while full is 1 (not even together with pop)
//   - pop is never 1 while empty is 1 (not even together with push)
module fifo (
  input wire clk,
  input wire rst,
  input wire push,
  input wire [7:0] din,
  input wire pop,
  output wire [7:0] dout,
  output wire full,
  output wire empty,
  output wire [3:0] count
);

endmodule
