// Interrupt controller for 4 level-triggered sources (ids 0 to 3): pending bits latched from the
// lines, claim/complete by the CPU, irq and claim_id name the highest-priority pending enabled
// source above the threshold (lowest id among equal priorities).
// Requirements on the inputs:
//   - claim is 1 only in a cycle in which irq is 1
//   - complete is 1 only when complete_id names a source in service (claimed at an earlier rising edge, not completed since, no reset since)
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
  output wire       irq,
  output wire [1:0] claim_id
);

endmodule
