// The register block of examples/regblock.sysr written by hand, the way an engineer writes it:
// four registers, a write decoder with byte enables, a case for the read mux. The peer that
// benchmarks/area.py compares the lowered sysr against.
module regblock (
  input wire clk,
  input wire rst,
  input wire we,
  input wire [1:0] waddr,
  input wire [3:0] be,
  input wire [31:0] wdata,
  input wire [1:0] raddr,
  output reg [31:0] rdata
);

  reg [31:0] r0, r1, r2, r3;
  integer b;

  always @(posedge clk) begin
    if (rst) begin
      r0 <= 32'd0;
      r1 <= 32'd0;
      r2 <= 32'd0;
      r3 <= 32'd0;
    end else if (we) begin
      for (b = 0; b < 4; b = b + 1) begin
        if (be[b]) begin
          case (waddr)
            2'd0: r0[b*8 +: 8] <= wdata[b*8 +: 8];
            2'd1: r1[b*8 +: 8] <= wdata[b*8 +: 8];
            2'd2: r2[b*8 +: 8] <= wdata[b*8 +: 8];
            default: r3[b*8 +: 8] <= wdata[b*8 +: 8];
          endcase
        end
      end
    end
  end

  always @* begin
    case (raddr)
      2'd0: rdata = r0;
      2'd1: rdata = r1;
      2'd2: rdata = r2;
      default: rdata = r3;
    endcase
  end

endmodule
