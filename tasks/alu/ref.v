// 8-bit ALU: op selects add, sub, and, or, xor, shift left, logical shift right or signed
// less-than; zero flags a zero result; carry is the carry of add and the borrow of sub.
// Purely combinational.
module alu (
  input  wire [7:0] a,
  input  wire [7:0] b,
  input  wire [2:0] op,
  output reg  [7:0] y,
  output wire       zero,
  output reg        carry
);
  localparam OP_ADD = 3'd0, OP_SUB = 3'd1, OP_AND = 3'd2, OP_OR  = 3'd3,
             OP_XOR = 3'd4, OP_SHL = 3'd5, OP_SHR = 3'd6, OP_SLT = 3'd7;

  always @* begin
    carry = 1'b0;
    case (op)
      OP_ADD:  {carry, y} = {1'b0, a} + {1'b0, b};    // bit 8 is the carry out
      OP_SUB:  {carry, y} = {1'b0, a} - {1'b0, b};    // bit 8 is the borrow (a < b)
      OP_AND:  y = a & b;
      OP_OR:   y = a | b;
      OP_XOR:  y = a ^ b;
      OP_SHL:  y = a << b[2:0];
      OP_SHR:  y = a >> b[2:0];
      default: y = {7'd0, $signed(a) < $signed(b)};  // OP_SLT
    endcase
  end

  assign zero = (y == 8'd0);
endmodule
