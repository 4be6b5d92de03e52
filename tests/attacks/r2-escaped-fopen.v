// Round 2, cause 3: `\$fopen ` opens a hidden file past the guard (in the branch Yosys drops).
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  integer f;
  generate
    if (4'bx1x0) begin : checked
    end else begin : run
      initial f = \$fopen ("@REF@", "r");
    end
  endgenerate
  always @(posedge clk) q <= rst ? 4'd0 : (en ? q + 4'd1 : q);
endmodule
