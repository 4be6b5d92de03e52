// A design that crashes Icarus's preprocessor (a segmentation fault): a macro whose body is a
// backtick followed by its argument, given a directive's name. The crash counts against the
// design, since the same preprocessor runs the task's reference fine.
`define A(x) `x
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
endmodule
`A(include) "tb.v"
