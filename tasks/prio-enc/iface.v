// 16-input priority encoder: idx is the index of the highest set bit of req (0 when none),
// valid says whether any bit of req is set. Purely combinational.
// Requirements on the inputs:
//   none
module prio_enc (
  input  wire [15:0] req,
  output wire [3:0]  idx,
  output wire        valid
);
endmodule
