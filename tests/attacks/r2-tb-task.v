// Round 2, cause 2: an undotted task call drives the testbench's own stimulus (its reset).
module calls(input wire [3:0] a, output wire [3:0] y);
  assign y = 4'd0;
  initial #2 hold_zero;
endmodule
