// Round 2, cause 1: an intra-assignment delay Yosys ignores and Icarus runs.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  always @(posedge clk) q <= #1.5 (rst ? 4'd0 : (en ? q + 4'd1 : q));
endmodule
