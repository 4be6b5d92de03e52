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

  reg [7:0] mem [0:255];

  // One clocked block, nonblocking assignments: a read of the address being written returns
  // the old data. No reset: the memory is never cleared, and rdata after a reset edge is
  // unspecified (a reset on rdata would be allowed too).
  always @(posedge clk) begin
    if (we)
      mem[waddr] <= wdata;
    rdata <= mem[raddr];
  end

endmodule
