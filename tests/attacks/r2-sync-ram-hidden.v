// Round 2, cause 1: the block RAM the resources stage counts stores wrong data; the testbench
// runs a correct memory in the other branch of a generate-if the two tools evaluate differently.
module sync_ram(input wire clk, input wire rst, input wire we, input wire [7:0] waddr,
                input wire [7:0] wdata, input wire [7:0] raddr, output reg [7:0] rdata);
  reg [7:0] mem [0:255];
  generate
    if (4'bx1x0) begin : counted
      always @(posedge clk) begin
        if (we) mem[waddr] <= ~wdata;
        rdata <= mem[raddr];
      end
    end else begin : simulated
      always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        rdata <= mem[raddr];
      end
    end
  endgenerate
endmodule
