// Direct-mapped instruction cache: 8 lines of one 32-bit word, 8-bit word addresses
// (addr[2:0] line index, addr[7:3] tag), in front of a memory with a latency of 1 to 8 cycles.
// A request is accepted at a rising edge with req and ready both 1; a hit answers with rvalid
// in the next cycle; a miss sends one single-cycle mem_req, refills the line when mem_valid
// comes and answers in the cycle after mem_valid. A reset invalidates every line.
// Requirements on the inputs:
//   - mem_valid is 1 only while a memory request is outstanding (from the cycle after the rising edge at which mem_req was 1 up to its answer; a reset cancels it)
//   - an outstanding memory request is answered (mem_valid 1) at the latest in the 8th cycle after the rising edge at which mem_req was 1
module icache (
  input  wire        clk,
  input  wire        rst,
  input  wire        req,
  input  wire [7:0]  addr,
  output wire        ready,
  output wire        rvalid,
  output wire [31:0] rdata,
  output wire        mem_req,
  output wire [7:0]  mem_addr,
  input  wire        mem_valid,
  input  wire [31:0] mem_rdata
);

endmodule
