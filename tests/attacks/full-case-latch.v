// A design Yosys and Icarus see differently: `(* full_case *)` tells Yosys an incomplete case
// needs no latch, while Icarus simulates the latch the case describes.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
  reg [3:0] held;
  always @* (* full_case *) case (en) 1'b1: held = q; endcase
endmodule
