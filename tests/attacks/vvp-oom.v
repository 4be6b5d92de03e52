// A design that runs the simulator out of memory: a 2^28-entry array.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  reg [7:0] mem [0:(1 << 28) - 1];
  always @(posedge clk) begin
    if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
    mem[q] <= {4'd0, q};
  end
endmodule
