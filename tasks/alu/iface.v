// 8-bit ALU: op selects add, sub, and, or, xor, shift left, logical shift right or signed
// less-than; zero flags a zero result; carry is the carry of add and the borrow of sub.
// Purely combinational.
// Requirements on the inputs:
//   none
module alu (
  input  wire [7:0] a,
  input  wire [7:0] b,
  input  wire [2:0] op,
  output wire [7:0] y,
  output wire       zero,
  output wire       carry
);
endmodule
