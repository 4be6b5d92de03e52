// Round 2, cause 1: `#0` lets a second flip-flop stage read the first one's new value in the
// same edge in Icarus; Yosys ignores the delay and sees a two-stage pipeline.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  reg [3:0] stage;
  always @(posedge clk) stage = rst ? 4'd0 : (en ? q + 4'd1 : q);
  always @(posedge clk) begin
    #0;
    q <= stage;
  end
endmodule
