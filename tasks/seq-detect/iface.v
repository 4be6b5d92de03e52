// Moore detector for the overlapping serial bit pattern 1011.
// Requirements on the inputs:
//   none
module seq_detect (
    input  wire clk,
    input  wire rst,
    input  wire din,
    output wire found
);

endmodule
