// SPI mode-0 master: 8-bit transfers, MSB first, SCLK period 8 clock cycles (DIV = 4 cycles per
// half period). start is sampled only while idle; done pulses for one cycle at the end.
module spi_master (
  input  wire       clk,
  input  wire       rst,
  input  wire       start,
  input  wire [7:0] tx,
  input  wire       miso,
  output reg        sclk,
  output wire       mosi,
  output wire       cs_n,
  output reg        busy,
  output reg        done,
  output reg  [7:0] rx
);

  localparam DIV = 4;          // clock cycles per half period of sclk

  reg [2:0] cnt;               // cycle within the current half period, 0..DIV-1
  reg [2:0] nbit;              // the bit being transferred, 0..7 (0 is the MSB)
  reg [7:0] txsh;              // the bits still to send, the current one in bit 7
  reg [7:0] rxsh;              // the bits received, shifted in at the LSB

  assign mosi = txsh[7];
  assign cs_n = !busy;

  always @(posedge clk) begin
    if (rst) begin
      sclk <= 1'b0;
      busy <= 1'b0;
      done <= 1'b0;
      rx   <= 8'd0;
      cnt  <= 3'd0;
      nbit <= 3'd0;
      txsh <= 8'd0;
      rxsh <= 8'd0;
    end else begin
      done <= 1'b0;
      if (!busy) begin
        if (start) begin
          busy <= 1'b1;
          txsh <= tx;
          cnt  <= 3'd0;
          nbit <= 3'd0;
        end
      end else if (cnt != DIV - 1) begin
        cnt <= cnt + 3'd1;
      end else begin
        cnt <= 3'd0;
        if (!sclk) begin
          sclk <= 1'b1;                    // rising edge of sclk: sample miso
          rxsh <= {rxsh[6:0], miso};
        end else begin
          sclk <= 1'b0;                    // falling edge of sclk
          if (nbit == 3'd7) begin
            busy <= 1'b0;                  // the 8th: the transfer ends
            done <= 1'b1;
            rx   <= rxsh;
          end else begin
            nbit <= nbit + 3'd1;
            txsh <= {txsh[6:0], 1'b0};     // mosi moves to the next bit
          end
        end
      end
    end
  end

endmodule
