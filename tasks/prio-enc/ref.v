// 16-input priority encoder: idx is the index of the highest set bit of req (0 when none),
// valid says whether any bit of req is set. Purely combinational.
module prio_enc (
  input  wire [15:0] req,
  output reg  [3:0]  idx,
  output wire        valid
);
  integer i;

  assign valid = |req;

  // Scan upwards: every set bit overrides the index, so the highest one wins.
  always @* begin
    idx = 4'd0;
    for (i = 0; i < 16; i = i + 1)
      if (req[i]) idx = i[3:0];
  end
endmodule
