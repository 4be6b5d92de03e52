// PWM generator, period 200: out = (phase < duty), phase counts 0..199.
module pwm (
    input  wire       clk,
    input  wire       rst,
    input  wire [7:0] duty,
    output wire       out
);

    reg [7:0] phase;

    always @(posedge clk) begin
        if (rst)
            phase <= 8'd0;
        else if (phase == 8'd199)
            phase <= 8'd0;
        else
            phase <= phase + 8'd1;
    end

    assign out = (phase < duty);

endmodule
