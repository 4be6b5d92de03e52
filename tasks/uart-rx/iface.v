// 8N1 UART receiver, 16 clock cycles per bit.
// Requirements on the inputs:
//   none (rx may take any value in any cycle)
module uart_rx (
  input wire clk,
  input wire rst,
  input wire rx,
  output wire [7:0] data,
  output wire valid,
  output wire frame_err
);

endmodule
