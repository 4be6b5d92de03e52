// Round-robin arbiter for 4 requesters with a registered one-hot grant. At each clock edge
// the grant goes to the first requester at or after the priority pointer (order ptr,
// ptr+1, ptr+2, ptr+3, mod 4) and shows on gnt in the next cycle. A grant to j moves the
// pointer to j+1 (mod 4); without a grant the pointer holds.
module arbiter (
    input  wire       clk,
    input  wire       rst,
    input  wire [3:0] req,
    output reg  [3:0] gnt
);

    reg [1:0] ptr;       // requester with the highest priority
    reg [3:0] pick;      // this cycle's decision
    reg [1:0] idx;
    integer   k;

    // Scan from the lowest priority up; the last requester found (closest to ptr) wins.
    always @(*) begin
        pick = 4'b0000;
        for (k = 3; k >= 0; k = k - 1) begin
            idx = ptr + k[1:0];
            if (req[idx])
                pick = 4'b0001 << idx;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            gnt <= 4'b0000;
            ptr <= 2'd0;
        end else begin
            gnt <= pick;
            case (pick)
                4'b0001: ptr <= 2'd1;
                4'b0010: ptr <= 2'd2;
                4'b0100: ptr <= 2'd3;
                4'b1000: ptr <= 2'd0;
                default: ;           // no request: the pointer holds
            endcase
        end
    end

endmodule
