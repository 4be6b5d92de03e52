// 16-bit barrel rotator: out is data rotated by amt places, left when dir is 0, right when
// dir is 1. Purely combinational.
// Requirements on the inputs:
//   none
module barrel (
  input  wire [15:0] data,
  input  wire [3:0]  amt,
  input  wire        dir,
  output wire [15:0] out
);
endmodule
