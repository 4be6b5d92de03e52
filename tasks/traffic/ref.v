// Traffic-light controller for a main road and a side road (0 red, 1 yellow, 2 green).
// Main green (at least 8 cycles, until a car waits) -> main yellow 2 -> all red 1 ->
// side green 4 -> side yellow 2 -> all red 1 -> main green.
module traffic (
    input  wire       clk,
    input  wire       rst,
    input  wire       car,
    output reg  [1:0] main,
    output reg  [1:0] side
);

    localparam [1:0] RED = 2'd0, YELLOW = 2'd1, GREEN = 2'd2;

    localparam [2:0] MAIN_GREEN  = 3'd0,
                     MAIN_YELLOW = 3'd1,
                     ALL_RED_1   = 3'd2,
                     SIDE_GREEN  = 3'd3,
                     SIDE_YELLOW = 3'd4,
                     ALL_RED_2   = 3'd5;

    reg [2:0] state;
    reg [2:0] timer;   // cycles already spent in this state; saturates at 7 in MAIN_GREEN

    always @(posedge clk) begin
        if (rst) begin
            state <= MAIN_GREEN;
            timer <= 3'd0;
        end else begin
            case (state)
                MAIN_GREEN:
                    if (timer == 3'd7 && car) begin
                        state <= MAIN_YELLOW;
                        timer <= 3'd0;
                    end else if (timer != 3'd7) begin
                        timer <= timer + 3'd1;
                    end
                MAIN_YELLOW:
                    if (timer == 3'd1) begin
                        state <= ALL_RED_1;
                        timer <= 3'd0;
                    end else begin
                        timer <= timer + 3'd1;
                    end
                ALL_RED_1: begin
                    state <= SIDE_GREEN;
                    timer <= 3'd0;
                end
                SIDE_GREEN:
                    if (timer == 3'd3) begin
                        state <= SIDE_YELLOW;
                        timer <= 3'd0;
                    end else begin
                        timer <= timer + 3'd1;
                    end
                SIDE_YELLOW:
                    if (timer == 3'd1) begin
                        state <= ALL_RED_2;
                        timer <= 3'd0;
                    end else begin
                        timer <= timer + 3'd1;
                    end
                default: begin   // ALL_RED_2
                    state <= MAIN_GREEN;
                    timer <= 3'd0;
                end
            endcase
        end
    end

    always @(*) begin
        main = RED;
        side = RED;
        case (state)
            MAIN_GREEN:  main = GREEN;
            MAIN_YELLOW: main = YELLOW;
            SIDE_GREEN:  side = GREEN;
            SIDE_YELLOW: side = YELLOW;
            default: ;
        endcase
    end

endmodule
