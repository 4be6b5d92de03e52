// Behind the guard: the simulation floods its output, forever. The scorer must kill it at the
// output cap and hold no more than that. Scored by the simulation stage alone.
module toy(input wire clk, input wire rst, input wire en, output wire [3:0] q);
  assign q = 4'd0;
  always #1 repeat (1000) $display("flood flood flood flood flood flood flood flood flood flood flood flood");
endmodule
