// A design Yosys and Icarus see differently: Yosys skips what a `synopsys translate_off`
// comment starts, Icarus simulates it; here a latch. Comments reach no tool any more.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
  /* synopsys translate_off */
  reg [3:0] held;
  always @* if (en) held = q;
  /* synopsys translate_on */
endmodule
