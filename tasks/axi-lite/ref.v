// AXI4-Lite slave with four 32-bit registers (byte addresses 0x0, 0x4, 0x8, 0xC), byte strobes,
// OKAY responses. AW and W are accepted independently, one of each at a time; the write happens
// at the edge of the second handshake. Synchronous active-low reset `aresetn`.
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
  output reg         bvalid,
  input  wire        bready,
  output wire [1:0]  bresp,
  input  wire        arvalid,
  output wire        arready,
  input  wire [3:0]  araddr,
  output reg         rvalid,
  input  wire        rready,
  output reg  [31:0] rdata,
  output wire [1:0]  rresp
);

  reg [31:0] regs [0:3];   // the register file
  reg        aw_full;      // a write address is held, waiting for its data
  reg [1:0]  aw_idx;
  reg        w_full;       // write data is held, waiting for its address
  reg [31:0] w_data;
  reg [3:0]  w_strb;

  assign awready = !aw_full && !bvalid;
  assign wready  = !w_full && !bvalid;
  assign arready = !rvalid;
  assign bresp   = 2'b00;
  assign rresp   = 2'b00;

  wire        aw_hs   = awvalid && awready;
  wire        w_hs    = wvalid && wready;
  wire        wr_go   = (aw_hs || aw_full) && (w_hs || w_full);   // the pair is complete
  wire [1:0]  wr_idx  = aw_full ? aw_idx : awaddr[3:2];
  wire [31:0] wr_data = w_full ? w_data : wdata;
  wire [3:0]  wr_strb = w_full ? w_strb : wstrb;
  wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};

  integer i;

  always @(posedge aclk) begin
    if (!aresetn) begin
      for (i = 0; i < 4; i = i + 1) regs[i] <= 32'd0;
      aw_full <= 1'b0;
      aw_idx  <= 2'd0;
      w_full  <= 1'b0;
      w_data  <= 32'd0;
      w_strb  <= 4'd0;
      bvalid  <= 1'b0;
      rvalid  <= 1'b0;
      rdata   <= 32'd0;
    end else begin
      // write channels
      if (wr_go) begin
        regs[wr_idx] <= (regs[wr_idx] & ~wr_mask) | (wr_data & wr_mask);
        aw_full <= 1'b0;
        w_full  <= 1'b0;
        bvalid  <= 1'b1;
      end else begin
        if (aw_hs) begin
          aw_full <= 1'b1;
          aw_idx  <= awaddr[3:2];
        end
        if (w_hs) begin
          w_full <= 1'b1;
          w_data <= wdata;
          w_strb <= wstrb;
        end
        if (bvalid && bready) bvalid <= 1'b0;
      end
      // read channels: the register is read before this edge's write takes effect
      if (arvalid && arready) begin
        rvalid <= 1'b1;
        rdata  <= regs[araddr[3:2]];
      end else if (rvalid && rready) begin
        rvalid <= 1'b0;
      end
    end
  end

endmodule
