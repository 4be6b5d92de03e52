// PWM generator with a fixed period of 200 clock cycles.
// Requirements on the inputs:
//   - duty <= 200 in every cycle
module pwm (
    input  wire       clk,
    input  wire       rst,
    input  wire [7:0] duty,
    output wire       out
);

endmodule
