// Traffic-light controller for a main road and a side road.
// Lamp encoding on main and side: 0 = red, 1 = yellow, 2 = green.
// Requirements on the inputs:
//   none
module traffic (
    input  wire       clk,
    input  wire       rst,
    input  wire       car,
    output wire [1:0] main,
    output wire [1:0] side
);

endmodule
