// 8-bit binary-to-Gray and Gray-to-binary converters (reflected binary Gray code), two
// independent combinational paths in one module.
module gray (
  input  wire [7:0] bin,
  input  wire [7:0] gray_in,
  output wire [7:0] gray_out,
  output wire [7:0] bin_out
);
  // binary to Gray: each bit XORed with the next higher one
  assign gray_out = bin ^ (bin >> 1);

  // Gray to binary: bit i is the XOR of Gray bits 7 down to i
  genvar i;
  generate
    for (i = 0; i < 8; i = i + 1) begin : g2b
      assign bin_out[i] = ^gray_in[7:i];
    end
  endgenerate
endmodule
