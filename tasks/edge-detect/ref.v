// Registered rising- and falling-edge detector.
module edge_detect (
  input wire clk,
  input wire rst,
  input wire sig,
  output reg rise,
  output reg fall
);

  reg last;   // sig at the previous rising edge; 0 after a reset

  always @(posedge clk) begin
    if (rst) begin
      last <= 1'b0;
      rise <= 1'b0;
      fall <= 1'b0;
    end else begin
      last <= sig;
      rise <= sig & ~last;
      fall <= ~sig & last;
    end
  end

endmodule
