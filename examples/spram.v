// The Verilog of the extern module `spram` of echo_ram.sysr: a 16 x 8 single-port RAM with a
// registered read that returns the word stored before the same edge's write (read first).
module spram (
  input wire clk,
  input wire we,
  input wire [3:0] addr,
  input wire [7:0] wdata,
  output reg [7:0] rdata
);
  reg [7:0] mem [0:15];
  always @(posedge clk) begin
    if (we) mem[addr] <= wdata;
    rdata <= mem[addr];
  end
endmodule
