// AXI4-Lite slave with four 32-bit registers (byte addresses 0x0, 0x4, 0x8, 0xC), byte strobes,
// OKAY responses. AW and W are accepted independently, one of each at a time; the write happens
// at the edge of the second handshake. Synchronous active-low reset `aresetn`.
// Requirements on the inputs:
//   - once awvalid is 1 in a cycle in which awready is 0, in the next cycle awvalid is still 1 and awaddr is unchanged (unless aresetn is 0 in that next cycle)
//   - once wvalid is 1 in a cycle in which wready is 0, in the next cycle wvalid is still 1 and wdata and wstrb are unchanged (unless aresetn is 0 in that next cycle)
//   - once arvalid is 1 in a cycle in which arready is 0, in the next cycle arvalid is still 1 and araddr is unchanged (unless aresetn is 0 in that next cycle)
//   These rules do not reach across a reset: a cycle with aresetn 0 and the cycle after it are free.
//   bready and rready may take any value in any cycle.
module axi_lite (
  input  wire        aclk,
  input  wire        aresetn,
  input  wire        awvalid,
  output wire        awready,
  input  wire [3:0]  awaddr,
  input  wire        wvalid,
  output wire        wready,
  input  wire [31:0] wdata,
  input  wire [3:0]  wstrb,
  output wire        bvalid,
  input  wire        bready,
  output wire [1:0]  bresp,
  input  wire        arvalid,
  output wire        arready,
  input  wire [3:0]  araddr,
  output wire        rvalid,
  input  wire        rready,
  output wire [31:0] rdata,
  output wire [1:0]  rresp
);

endmodule
