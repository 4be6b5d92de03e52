// Debouncer: `clean` follows `noisy` once it has been stable for 8 consecutive rising edges.
module debounce (
  input wire clk,
  input wire rst,
  input wire noisy,
  output reg clean
);

  // consecutive rising edges, ending with the last one, at which noisy differed from clean
  reg [2:0] cnt;

  always @(posedge clk) begin
    if (rst) begin
      cnt <= 3'd0;
      clean <= 1'b0;
    end else if (noisy == clean) begin
      cnt <= 3'd0;
    end else if (cnt == 3'd7) begin
      clean <= noisy;
      cnt <= 3'd0;
    end else begin
      cnt <= cnt + 3'd1;
    end
  end

endmodule
