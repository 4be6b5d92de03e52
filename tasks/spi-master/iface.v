// SPI mode-0 master: 8-bit transfers, MSB first, SCLK period 8 clock cycles (DIV = 4 cycles per
// half period). start is sampled only while idle; done pulses for one cycle at the end.
// Requirements on the inputs:
//   none (start, tx and miso may take any value in any cycle; start is ignored while busy)
module spi_master (
  input  wire       clk,
  input  wire       rst,
  input  wire       start,
  input  wire [7:0] tx,
  input  wire       miso,
  output wire       sclk,
  output wire       mosi,
  output wire       cs_n,
  output wire       busy,
  output wire       done,
  output wire [7:0] rx
);

endmodule
