// 256 x 8 single-clock RAM: one write port, one registered read port (read-first).
// Requirements on the inputs:
//   - we is 0 while rst is 1
module sync_ram (
  input wire clk,
  input wire rst,
  input wire we,
  input wire [7:0] waddr,
  input wire [7:0] wdata,
  input wire [7:0] raddr,
  output reg [7:0] rdata
);

endmodule
