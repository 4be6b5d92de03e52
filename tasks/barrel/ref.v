// 16-bit barrel rotator: out is data rotated by amt places, left when dir is 0, right when
// dir is 1. Purely combinational.
module barrel (
  input  wire [15:0] data,
  input  wire [3:0]  amt,
  input  wire        dir,
  output wire [15:0] out
);
  // Shift two copies of data side by side: the bits that leave one copy enter the other.
  wire [31:0] l = {data, data} << amt;  // upper half: data rotated left by amt
  wire [31:0] r = {data, data} >> amt;  // lower half: data rotated right by amt

  assign out = dir ? r[15:0] : l[31:16];
endmodule
