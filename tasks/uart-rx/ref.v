// 8N1 UART receiver, 16 clock cycles per bit.
// Requirements on the inputs:
//   none (rx may take any value in any cycle)
module uart_rx (
  input wire clk,
  input wire rst,
  input wire rx,
  output wire [7:0] data,
  output reg valid,
  output reg frame_err
);

  reg       busy;    // a frame is being received
  reg [3:0] phase;   // cycle within the current bit, 0..15
  reg [3:0] bitn;    // the current bit: 0 start, 1..8 data, 9 stop
  reg       last;    // rx at the previous edge (1 after reset)
  reg [7:0] sh;      // the data bits received so far

  assign data = sh;

  always @(posedge clk) begin
    if (rst) begin
      busy      <= 1'b0;
      phase     <= 4'd0;
      bitn      <= 4'd0;
      last      <= 1'b1;
      sh        <= 8'd0;
      valid     <= 1'b0;
      frame_err <= 1'b0;
    end else begin
      last      <= rx;
      valid     <= 1'b0;
      frame_err <= 1'b0;
      if (!busy) begin
        if (last && !rx) begin          // falling edge: edge 0 of a frame
          busy  <= 1'b1;
          phase <= 4'd1;
          bitn  <= 4'd0;
        end
      end else begin
        phase <= phase + 4'd1;
        if (phase == 4'd15)
          bitn <= bitn + 4'd1;
        if (phase == 4'd8) begin        // the middle of the bit
          if (bitn == 4'd0) begin
            if (rx)
              busy <= 1'b0;             // false start
          end else if (bitn == 4'd9) begin
            busy      <= 1'b0;
            valid     <= rx;
            frame_err <= !rx;
          end else begin
            sh[bitn - 4'd1] <= rx;      // data bits, LSB first
          end
        end
      end
    end
  end

endmodule
