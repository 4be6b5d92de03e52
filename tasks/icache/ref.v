// Direct-mapped instruction cache: 8 lines of one 32-bit word, in front of a memory with a
// latency of 1 to 8 cycles. addr[2:0] is the line index, addr[7:3] the tag.
module icache (
  input  wire        clk,
  input  wire        rst,
  input  wire        req,
  input  wire [7:0]  addr,
  output wire        ready,
  output reg         rvalid,
  output reg  [31:0] rdata,
  output reg         mem_req,
  output reg  [7:0]  mem_addr,
  input  wire        mem_valid,
  input  wire [31:0] mem_rdata
);

  reg  [7:0]  valid;             // line valid bits, cleared by every reset
  reg  [4:0]  tags  [0:7];       // meaningful only where the valid bit is set
  reg  [31:0] words [0:7];
  reg         busy;              // a miss is in progress; mem_addr holds its address

  wire [2:0] idx = addr[2:0];
  wire       hit = valid[idx] && tags[idx] == addr[7:3];

  assign ready = !busy;

  always @(posedge clk) begin
    if (rst) begin
      valid    <= 8'd0;
      busy     <= 1'b0;
      rvalid   <= 1'b0;
      rdata    <= 32'd0;
      mem_req  <= 1'b0;
      mem_addr <= 8'd0;
    end else begin
      rvalid  <= 1'b0;
      mem_req <= 1'b0;
      if (busy) begin
        if (mem_valid) begin
          // refill the line of the missed address and answer with the memory's word
          valid[mem_addr[2:0]] <= 1'b1;
          tags[mem_addr[2:0]]  <= mem_addr[7:3];
          words[mem_addr[2:0]] <= mem_rdata;
          rvalid <= 1'b1;
          rdata  <= mem_rdata;
          busy   <= 1'b0;
        end
      end else if (req) begin
        if (hit) begin
          rvalid <= 1'b1;
          rdata  <= words[idx];
        end else begin
          mem_req  <= 1'b1;        // one request, for one cycle
          mem_addr <= addr;
          busy     <= 1'b1;
        end
      end
    end
  end

endmodule
