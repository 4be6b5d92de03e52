// Round-robin arbiter for 4 requesters with a registered one-hot grant.
// Requirements on the inputs:
//   none
module arbiter (
    input  wire       clk,
    input  wire       rst,
    input  wire [3:0] req,
    output reg  [3:0] gnt
);

endmodule
