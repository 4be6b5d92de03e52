// A design Yosys and Icarus see differently: Yosys reads `celldefine and the rest of its line
// as one directive, Icarus compiles what follows it on the line; here a latch only Icarus sees.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
  reg [3:0] held;
`celldefine always @* if (en) held = q;
endmodule
