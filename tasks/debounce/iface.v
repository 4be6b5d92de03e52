// Debouncer: `clean` follows `noisy` once it has been stable for 8 consecutive rising edges.
// Requirements on the inputs:
//   none
module debounce (
  input wire clk,
  input wire rst,
  input wire noisy,
  output reg clean
);

endmodule
