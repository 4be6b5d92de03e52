`timescale 1ns/1ps
// Hidden testbench for `reconf_slot`: the controller of a reconfigurable slot (EMPTY, LOADING,
// ACTIVE, DRAINING). The testbench holds a model of the controller and of its environment: a
// user that holds load_req until load_ack, a loader that answers ld_start after 1 to 16 cycles,
// and jobs that complete only while some are in flight.
module tb;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg load_req = 1'b0;
  reg ld_done = 1'b0;
  reg job_valid = 1'b0;
  reg job_done = 1'b0;
  reg unload_req = 1'b0;
  wire load_ack;
  wire ld_start;
  wire job_ready;
  wire [1:0] state;
  wire [3:0] jobs_inflight;

  reconf_slot dut (.clk(clk), .rst(rst), .load_req(load_req), .load_ack(load_ack),
                   .ld_start(ld_start), .ld_done(ld_done), .job_valid(job_valid),
                   .job_ready(job_ready), .job_done(job_done), .unload_req(unload_req),
                   .state(state), .jobs_inflight(jobs_inflight));

  always #5 clk = ~clk;

  integer seed;
  initial seed = 7071;

  integer cycle;              // rising edges seen so far

  localparam EMPTY = 2'd0, LOADING = 2'd1, ACTIVE = 2'd2, DRAINING = 2'd3;

  // the controller model
  reg [1:0] m_st;
  integer   m_n;              // jobs in flight
  reg       exp_ack;
  reg       exp_start;
  reg       n_ack;
  reg       n_start;
  reg       take;
  reg       m_ready;

  // the environment model
  reg       prev_rst;         // rst in the previous cycle
  reg       prev_lreq;        // load_req in the previous cycle
  reg       l_pend;           // a load is outstanding
  integer   l_age;            // cycles since the edge that sampled ld_start (1 in the first)
  integer   l_lat;            // ld_done comes in the cycle where l_age == l_lat (1..16)
  integer   lat_mode;         // 0: random 1..16, 1..16: that latency

  integer i;
  integer j;
  integer r;
  integer phase;
  integer p_load;             // probabilities in 1/16ths, for the random phases
  integer p_job;
  integer p_done;
  integer p_unload;

  task fail(input [8*13-1:0] what, input [31:0] got, input [31:0] expected);
    begin
      $display("FAIL cycle %0d: %0s got %0d expected %0d", cycle, what, got, expected);
      $finish;
    end
  endtask

  // One clock cycle: the inputs set before are sampled at the rising edge, the models take the
  // same step, and at the following falling edge every output is compared with the model.
  task step;
    begin
      @(posedge clk);
      if (rst) begin
        m_st = EMPTY;
        m_n = 0;
        exp_ack = 1'b0;
        exp_start = 1'b0;
        l_pend = 1'b0;                 // a reset cancels the outstanding load
        l_age = 0;
      end else begin
        // the loader sees the ld_start of the cycle that just ended
        if (exp_start) begin
          l_pend = 1'b1;
          l_age = 1;
          l_lat = (lat_mode == 0) ? 1 + ({$random(seed)} % 16) : lat_mode;
        end else if (l_pend && ld_done) begin
          l_pend = 1'b0;
          l_age = 0;
        end else if (l_pend) begin
          l_age = l_age + 1;
        end
        // the controller
        take = job_valid && m_st == ACTIVE && m_n < 8;
        n_ack = 1'b0;
        n_start = 1'b0;
        case (m_st)
          EMPTY:    if (load_req) begin m_st = LOADING; n_start = 1'b1; end
          LOADING:  if (ld_done) begin m_st = ACTIVE; n_ack = 1'b1; end
          ACTIVE:   if (unload_req) m_st = DRAINING;
          default:  if (m_n == 0 || (m_n == 1 && job_done)) m_st = EMPTY;
        endcase
        m_n = m_n + take - job_done;
        exp_ack = n_ack;
        exp_start = n_start;
      end
      prev_rst = rst;
      prev_lreq = load_req;
      @(negedge clk);
      m_ready = m_st == ACTIVE && m_n < 8;
      if (state !== m_st) fail("state", state, m_st);
      if (load_ack !== exp_ack) fail("load_ack", load_ack, exp_ack);
      if (ld_start !== exp_start) fail("ld_start", ld_start, exp_start);
      if (job_ready !== m_ready) fail("job_ready", job_ready, m_ready);
      if (jobs_inflight !== m_n) fail("jobs_inflight", jobs_inflight, m_n);
      cycle = cycle + 1;
    end
  endtask

  // Apply one cycle of inputs, within the requirements: load_req is kept at 1 while a request
  // waits for its load_ack, ld_done comes from the loader model, and job_done is dropped while no
  // job is in flight.
  task drive(input r_, input lreq_, input jv_, input jd_, input unl_);
    begin
      rst = r_;
      load_req = lreq_ || (prev_lreq && !prev_rst && !exp_ack);
      ld_done = l_pend && l_age == l_lat;
      job_valid = jv_;
      job_done = jd_ && m_n != 0;
      unload_req = unl_;
      step;
    end
  endtask

  // cycles with no event from the user and the jobs (a waiting request stays up)
  task idle(input integer n);
    integer k;
    begin
      for (k = 0; k < n; k = k + 1) drive(0, 0, 0, 0, 0);
    end
  endtask

  // a load request, then wait until the slot is ACTIVE
  task load(input integer lat);
    begin
      lat_mode = lat;
      drive(0, 1, 0, 0, 0);
      while (m_st != ACTIVE) drive(0, 0, 0, 0, 0);
    end
  endtask

  initial begin
    cycle = 0;
    m_st = EMPTY;
    m_n = 0;
    exp_ack = 1'b0;
    exp_start = 1'b0;
    prev_rst = 1'b1;
    prev_lreq = 1'b0;
    l_pend = 1'b0;
    l_age = 0;
    l_lat = 1;
    lat_mode = 1;

    // reset held for the first two rising edges, with every request up: all ignored
    drive(1, 1, 1, 0, 1);
    drive(1, 1, 1, 0, 1);
    drive(0, 0, 1, 0, 1);                // EMPTY: jobs and unload are ignored
    idle(1);
    // a load with the shortest latency; the user drops load_req in the load_ack cycle
    load(1);
    drive(0, 0, 0, 0, 0);                // ACTIVE, no job
    // jobs: fill up to 8 in flight (job_ready falls), then done and accept together
    for (i = 0; i < 10; i = i + 1) drive(0, 0, 1, 0, 0);
    drive(0, 0, 1, 1, 0);                // at 8: no accept, one done -> 7
    drive(0, 0, 1, 1, 0);                // at 7: accept and done -> 7
    drive(0, 0, 1, 0, 0);                // -> 8
    drive(0, 0, 0, 1, 0);
    drive(0, 0, 0, 1, 0);
    drive(0, 0, 1, 1, 0);
    // unload at the same edge as a job is accepted: that job must drain too
    drive(0, 0, 1, 0, 1);
    drive(0, 0, 1, 0, 1);                // DRAINING: no accept, unload_req ignored
    drive(0, 1, 1, 1, 0);                // a load request while draining: it waits
    for (i = 0; i < 12; i = i + 1) drive(0, 0, 1, i[0], 0);
    while (m_st != EMPTY) drive(0, 0, 1, 1, 0);
    // the waiting request was taken at the first EMPTY edge
    while (m_st != ACTIVE) drive(0, 0, 0, 0, 0);
    // unload with nothing in flight: one DRAINING cycle, then EMPTY
    drive(0, 0, 0, 0, 1);
    drive(0, 0, 0, 0, 1);
    idle(2);
    // unload with one job whose job_done comes at the same edge
    load(2);
    drive(0, 0, 1, 0, 0);
    drive(0, 0, 0, 1, 1);
    idle(2);
    // draining ends at the edge of the last job_done, not one later; a new load right away
    load(16);                            // the longest latency
    drive(0, 0, 1, 0, 0);
    drive(0, 0, 1, 0, 0);
    drive(0, 0, 1, 0, 1);                // 3 in flight
    drive(0, 0, 0, 1, 0);
    drive(0, 0, 0, 0, 0);
    drive(0, 0, 0, 1, 0);
    drive(0, 1, 0, 1, 0);                // last job done: EMPTY; the request is taken next edge
    drive(0, 1, 0, 0, 0);
    drive(0, 1, 0, 0, 0);
    // load_req kept up in the load_ack cycle and after: a new request, served after the unload
    lat_mode = 3;
    while (!exp_ack) drive(0, 1, 0, 0, 0);
    for (i = 0; i < 4; i = i + 1) drive(0, 1, 1, 0, 0);
    drive(0, 1, 0, 0, 1);
    while (m_st != ACTIVE) drive(0, 0, 0, 1, 0);
    // unload_req while LOADING and EMPTY is ignored
    for (i = 0; i < 3; i = i + 1) drive(0, 0, 0, 0, 1);
    while (m_st != EMPTY) drive(0, 0, 0, 0, 1);
    drive(0, 0, 0, 0, 1);
    lat_mode = 5;
    drive(0, 1, 0, 0, 1);
    for (i = 0; i < 8; i = i + 1) drive(0, 0, 1, 0, 1);
    // every loader latency from 1 to 16
    for (i = 1; i <= 16; i = i + 1) begin
      while (m_st != EMPTY) drive(0, 0, 0, 1, 1);
      load(i);
      drive(0, 0, 1, 0, 0);
      drive(0, 0, 0, 0, 1);
    end
    while (m_st != EMPTY) drive(0, 0, 0, 1, 0);
    // a reset while LOADING (the loader is cancelled too), then a load
    lat_mode = 6;
    drive(0, 1, 0, 0, 0);
    idle(3);
    drive(1, 1, 0, 0, 0);
    idle(20);                            // no ld_done comes: still EMPTY
    load(4);
    // a reset while ACTIVE with jobs in flight; a reset in the cycle of ld_done
    for (i = 0; i < 5; i = i + 1) drive(0, 0, 1, 0, 0);
    drive(1, 0, 1, 1, 1);
    drive(0, 0, 1, 0, 0);
    lat_mode = 3;
    drive(0, 1, 0, 0, 0);
    idle(3);
    drive(1, 0, 0, 0, 0);                // ld_done comes in this reset cycle: ignored
    idle(2);
    // a reset while DRAINING
    load(1);
    for (i = 0; i < 4; i = i + 1) drive(0, 0, 1, 0, 0);
    drive(0, 0, 0, 0, 1);
    drive(0, 0, 0, 1, 0);
    drive(1, 0, 0, 1, 0);
    drive(0, 0, 0, 0, 0);
    // random phases: busy jobs, frequent unloads, long loads, everything at once; rare resets
    for (phase = 0; phase < 16; phase = phase + 1) begin
      case (phase % 4)
        0: begin p_load = 4; p_job = 12; p_done = 6; p_unload = 1; lat_mode = 0; end
        1: begin p_load = 8; p_job = 8; p_done = 10; p_unload = 6; lat_mode = 1; end
        2: begin p_load = 2; p_job = 14; p_done = 14; p_unload = 2; lat_mode = 16; end
        default: begin p_load = 15; p_job = 15; p_done = 8; p_unload = 8; lat_mode = 0; end
      endcase
      for (i = 0; i < 160; i = i + 1) begin
        r = $random(seed);
        drive(r[31:24] == 8'd0, r[3:0] < p_load, r[7:4] < p_job, r[11:8] < p_done,
              r[15:12] < p_unload);
      end
    end
    $display("PASS");
    $finish;
  end
endmodule
