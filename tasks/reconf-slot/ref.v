// Controller for a reconfigurable slot. state: 0 EMPTY, 1 LOADING, 2 ACTIVE, 3 DRAINING.
module reconf_slot (
  input  wire       clk,
  input  wire       rst,
  input  wire       load_req,
  output reg        load_ack,
  output reg        ld_start,
  input  wire       ld_done,
  input  wire       job_valid,
  output wire       job_ready,
  input  wire       job_done,
  input  wire       unload_req,
  output wire [1:0] state,
  output wire [3:0] jobs_inflight
);

  localparam EMPTY = 2'd0, LOADING = 2'd1, ACTIVE = 2'd2, DRAINING = 2'd3;

  reg [1:0] st;
  reg [3:0] n;                  // jobs in flight, 0..8

  assign state = st;
  assign jobs_inflight = n;
  assign job_ready = (st == ACTIVE) && (n < 4'd8);

  wire take = job_valid && job_ready;

  always @(posedge clk) begin
    if (rst) begin
      st <= EMPTY;
      n <= 4'd0;
      load_ack <= 1'b0;
      ld_start <= 1'b0;
    end else begin
      load_ack <= 1'b0;
      ld_start <= 1'b0;
      n <= n + {3'd0, take} - {3'd0, job_done};
      case (st)
        EMPTY:    if (load_req) begin st <= LOADING; ld_start <= 1'b1; end
        LOADING:  if (ld_done) begin st <= ACTIVE; load_ack <= 1'b1; end
        ACTIVE:   if (unload_req) st <= DRAINING;
        default:  if (n == 4'd0 || (n == 4'd1 && job_done)) st <= EMPTY;   // DRAINING
      endcase
    end
  end

endmodule
