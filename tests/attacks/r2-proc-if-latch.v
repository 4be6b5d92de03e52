// Round 2, cause 1: a procedural `if` on a constant with x bits: Yosys keeps the first branch
// (no latch) and drops the other before any check; Icarus runs the other (a latch on en).
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  reg [3:0] held;
  always @* begin
    if (4'bx1x0) held = q;
    else if (en) held = q;
  end
  always @(posedge clk) q <= rst ? 4'd0 : (en ? held + 4'd1 : q);
endmodule
