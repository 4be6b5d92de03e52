// A small interrupt controller for 4 level-triggered sources (ids 0 to 3): pending bits latched
// from the lines, in-service bits set by a claim and cleared by a completion, and a combinational
// choice of the highest-priority pending enabled source above the threshold (lowest id on ties).
module plic_lite (
  input  wire       clk,
  input  wire       rst,
  input  wire [3:0] src,
  input  wire [3:0] enable,
  input  wire [7:0] prio,
  input  wire [1:0] threshold,
  input  wire       claim,
  input  wire       complete,
  input  wire [1:0] complete_id,
  output reg        irq,
  output reg  [1:0] claim_id
);
  reg [3:0] pending;
  reg [3:0] active;      // in service

  // pick the candidate with the highest priority; scanning from id 0 upwards with a strict
  // comparison keeps the lowest id among equal priorities
  reg [1:0] best;
  reg [1:0] p;
  integer i;
  always @* begin
    irq = 1'b0;
    claim_id = 2'd0;
    best = 2'd0;
    for (i = 0; i < 4; i = i + 1) begin
      p = prio[2*i +: 2];
      if (pending[i] && enable[i] && p > threshold && (!irq || p > best)) begin
        irq = 1'b1;
        claim_id = i;
        best = p;
      end
    end
  end

  // the in-service bits after this edge: a claim sets one, a completion clears one
  wire [3:0] claimed = claim ? (4'b0001 << claim_id) : 4'b0000;
  wire [3:0] done = complete ? (4'b0001 << complete_id) : 4'b0000;
  wire [3:0] active_next = (active & ~done) | claimed;

  always @(posedge clk) begin
    if (rst) begin
      pending <= 4'b0000;
      active <= 4'b0000;
    end else begin
      active <= active_next;
      // a line high at this edge sets its pending bit unless the source is in service after it
      pending <= (pending | src) & ~active_next;
    end
  end
endmodule
