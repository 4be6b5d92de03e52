// 8-entry, 8-bit synchronous FIFO with first-word fall-through.
// Requirements on the inputs:
//   - push is never 1 while full is 1 (not even together with pop)
//   - pop is never 1 while empty is 1 (not even together with push)
module fifo (
  input wire clk,
  input wire rst,
  input wire push,
  input wire [7:0] din,
  input wire pop,
  output wire [7:0] dout,
  output wire full,
  output wire empty,
  output wire [3:0] count
);

  reg [7:0] mem [0:7];
  reg [2:0] wp;      // next slot to write
  reg [2:0] rp;      // slot of the oldest entry
  reg [3:0] n;       // number of entries, 0..8

  assign dout  = mem[rp];
  assign full  = (n == 4'd8);
  assign empty = (n == 4'd0);
  assign count = n;

  always @(posedge clk) begin
    if (rst) begin
      wp <= 3'd0;
      rp <= 3'd0;
      n  <= 4'd0;
    end else begin
      if (push) begin
        mem[wp] <= din;
        wp <= wp + 3'd1;
      end
      if (pop)
        rp <= rp + 3'd1;
      if (push && !pop)
        n <= n + 4'd1;
      else if (pop && !push)
        n <= n - 4'd1;
    end
  end

endmodule
