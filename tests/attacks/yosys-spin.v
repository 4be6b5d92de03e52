// A design that keeps Yosys past its time limit: a constant function that loops 2e9 times.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  function [31:0] spin;
    input [31:0] n;
    integer i;
    begin
      spin = 0;
      for (i = 0; i < n; i = i + 1) spin = spin + 1;
    end
  endfunction
  localparam [31:0] K = spin(2000000000);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + K[3:0] + 4'd1;
endmodule
