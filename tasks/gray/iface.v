// 8-bit binary-to-Gray and Gray-to-binary converters (reflected binary Gray code), two
// independent combinational paths in one module.
// Requirements on the inputs:
//   none
module gray (
  input  wire [7:0] bin,
  input  wire [7:0] gray_in,
  output wire [7:0] gray_out,
  output wire [7:0] bin_out
);
endmodule
