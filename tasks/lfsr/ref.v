// 16-bit maximal-length Fibonacci LFSR (x^16 + x^14 + x^13 + x^11 + 1) with synchronous load.
module lfsr (
  input wire clk,
  input wire rst,
  input wire load,
  input wire [15:0] seed,
  output reg [15:0] state
);

  wire feedback = state[15] ^ state[13] ^ state[12] ^ state[10];

  always @(posedge clk) begin
    if (rst)
      state <= 16'hACE1;
    else if (load)
      state <= seed;
    else
      state <= {state[14:0], feedback};
  end

endmodule
