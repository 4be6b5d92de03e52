// 4-bit up/down counter with synchronous load.
module counter (
  input wire clk,
  input wire rst,
  input wire en,
  input wire up,
  input wire load,
  input wire [3:0] d,
  output reg [3:0] q
);

  always @(posedge clk) begin
    if (rst) begin
      q <= 4'd0;
    end else if (load) begin
      q <= d;
    end else if (en) begin
      if (up) q <= q + 4'd1;
      else    q <= q - 4'd1;
    end
  end

endmodule
