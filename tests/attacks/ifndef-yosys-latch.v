// A design Yosys and Icarus see differently: the latch under `ifndef YOSYS is simulated by
// Icarus but never shown to Yosys's latch check. Counts as a latch once both see one text.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
`ifndef YOSYS
  reg [3:0] held;
  always @* if (en) held = q;
`endif
endmodule
