// Moore detector for the overlapping serial bit pattern 1011 (first bit first).
// The state is the longest prefix of 1011 that ends the bits sampled since reset.
module seq_detect (
    input  wire clk,
    input  wire rst,
    input  wire din,
    output wire found
);

    localparam [2:0] S_IDLE = 3'd0,   // no prefix
                     S_1    = 3'd1,   // "1"
                     S_10   = 3'd2,   // "10"
                     S_101  = 3'd3,   // "101"
                     S_1011 = 3'd4;   // "1011": pattern found

    reg [2:0] state;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
        end else begin
            case (state)
                S_IDLE:  state <= din ? S_1    : S_IDLE;
                S_1:     state <= din ? S_1    : S_10;
                S_10:    state <= din ? S_101  : S_IDLE;
                S_101:   state <= din ? S_1011 : S_10;
                S_1011:  state <= din ? S_1    : S_10;   // overlapping matches
                default: state <= S_IDLE;
            endcase
        end
    end

    assign found = (state == S_1011);

endmodule
