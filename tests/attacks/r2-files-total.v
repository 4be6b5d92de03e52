// Round 2, cause 7 (via the simulation alone): five files of 60 MiB each, every one under the
// per-file cap, 300 MiB in all.
module toy(input wire clk, input wire rst, input wire en, output reg [3:0] q);
  integer f, i, n;
  initial begin
    for (n = 0; n < 5; n = n + 1) begin
      f = $fopen({"out", "0" + n[7:0], ".txt"}, "w");
      for (i = 0; i < 60 * 1024; i = i + 1)
        $fwrite(f, "%01023d\n", i);
      $fclose(f);
    end
  end
  always @(posedge clk) q <= rst ? 4'd0 : (en ? q + 4'd1 : q);
endmodule
