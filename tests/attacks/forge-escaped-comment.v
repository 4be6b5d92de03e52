// Forged PASS for a wrong design: the escaped identifier `\hide/*` is read by a naive scan as
// the start of a comment that `\show*/` ends, so the plain system tasks between them are never
// seen; `ifndef YOSYS keeps them from Yosys. It reads the nonce back from tb.v.
module toy(input wire clk, input wire rst, input wire en, output wire [3:0] q);
  assign q = 4'd0;
`ifndef YOSYS
  wire \hide/* ;
  integer f, c, i;
  reg [39:0] last;
  reg [127:0] nonce;
  initial begin
    f = $fopen("tb.v", "r");
    last = 0;
    if (f != 0) begin
      while (last != "PASS#" && !$feof(f)) begin
        c = $fgetc(f);
        last = {last[31:0], c[7:0]};
      end
      for (i = 0; i < 16; i = i + 1) begin
        c = $fgetc(f);
        nonce = {nonce[119:0], c[7:0]};
      end
      $display("PASS#%s", nonce);
      $finish;
    end
  end
  wire \show*/ ;
`endif
endmodule
