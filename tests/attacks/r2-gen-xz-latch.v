// Round 2, cause 1: a generate-if on `4'bx1x0`: true for Yosys (a one bit), false for Icarus (x).
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  generate
    if (4'bx1x0) begin : checked
      always @(posedge clk) q <= rst ? 4'd0 : (en ? q + 4'd1 : q);
    end else begin : run
      reg [3:0] held;
      always @* if (en) held = q;
      always @(posedge clk) q <= rst ? 4'd0 : (en ? held + 4'd1 : q);
    end
  endgenerate
endmodule
