// Forged PASS for a wrong design: the escaped identifiers `\q"` and `\r"` are read by a naive
// scan as the quotes of string literals, pairing with the real ones so that every system task
// on the line is inside a "string"; `ifndef YOSYS keeps them from Yosys. It reads the nonce back
// from tb.v (its name in a register, as a literal with a dot would show).
module toy(input wire clk, input wire rst, input wire en, output wire [3:0] q);
  assign q = 4'd0;
`ifndef YOSYS
  integer f, c, i;
  reg [39:0] last;
  reg [127:0] nonce;
  reg [31:0] fn;
  wire \q" ; initial begin fn = 32'h74622e76; f = $fopen(fn, "r"); last = 0; if (f != 0) begin while (last != "PASS#" && !$feof(f)) begin c = $fgetc(f); last = {last[31:0], c[7:0]}; end for (i = 0; i < 16; i = i + 1) begin c = $fgetc(f); nonce = {nonce[119:0], c[7:0]}; end $display("PASS#%s", nonce); $finish; end end wire \r" ;
`endif
endmodule
