// Round 2, cause 5: a call to the testbench's function with the wrong arguments: the compile
// errors named the testbench's function, its argument count and its scope.
module calls(input wire [3:0] a, output wire [3:0] y);
  assign y = model(a, 4'd1);
endmodule
