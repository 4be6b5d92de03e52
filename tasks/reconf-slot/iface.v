// Controller for a reconfigurable slot. state: 0 EMPTY, 1 LOADING, 2 ACTIVE, 3 DRAINING.
// EMPTY takes a load request (load_req, held until load_ack) and pulses ld_start; LOADING waits
// for ld_done, then pulses load_ack and goes ACTIVE; ACTIVE accepts jobs (job_valid and
// job_ready, at most 8 in flight) until unload_req; DRAINING accepts none and goes EMPTY at the
// rising edge at which no job is left in flight.
// Requirements on the inputs:
//   - load_req, once 1, stays 1 until a cycle in which load_ack is 1 (it may fall in that cycle; a reset ends this obligation)
//   - ld_done is 1 only while a load is outstanding (from the cycle after the rising edge at which ld_start was 1 up to its ld_done; a reset cancels it)
//   - an outstanding load ends (ld_done 1) at the latest in the 16th cycle after the rising edge at which ld_start was 1
//   - job_done is 1 only while at least one job is in flight (accepted and not yet done)
module reconf_slot (
  input  wire       clk,
  input  wire       rst,
  input  wire       load_req,
  output wire       load_ack,
  output wire       ld_start,
  input  wire       ld_done,
  input  wire       job_valid,
  output wire       job_ready,
  input  wire       job_done,
  input  wire       unload_req,
  output wire [1:0] state,
  output wire [3:0] jobs_inflight
);

endmodule
