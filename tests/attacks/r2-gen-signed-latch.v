// Round 2, cause 1: a generate-if on `'sh8000_0000 < 0`. Yosys sizes the literal past 32 bits
// (false: the clean branch), Icarus reads a negative 32-bit number (true: the branch with a latch).
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  generate
    if ('sh8000_0000 < 0) begin : run
      reg [3:0] held;
      always @* if (en) held = q;  // a latch, which no Yosys stage is shown
      always @(posedge clk) q <= rst ? 4'd0 : (en ? held + 4'd1 : q);
    end else begin : checked
      always @(posedge clk) q <= rst ? 4'd0 : (en ? q + 4'd1 : q);
    end
  endgenerate
endmodule
