// RV32I execute stage: one registered stage (one cycle of latency) with a valid bit.
// op: 0x00 ADD 0x01 SLL 0x02 SLT 0x03 SLTU 0x04 XOR 0x05 SRL 0x06 OR 0x07 AND 0x08 SUB 0x0D SRA
//     0x10 BEQ 0x11 BNE 0x14 BLT 0x15 BGE 0x16 BLTU 0x17 BGEU 0x18 JAL 0x19 JALR 0x1A LUI 0x1B AUIPC
// Requirements on the inputs:
//   - when valid_in is 1, op is one of the 20 encodings above (when valid_in is 0, op may be any value)
module rv32i_ex (
  input  wire        clk,
  input  wire        rst,
  input  wire        valid_in,
  input  wire [4:0]  op,
  input  wire [31:0] rs1_val,
  input  wire [31:0] rs2_val,
  input  wire [31:0] imm,
  input  wire        use_imm,
  input  wire [31:0] pc,
  output reg         valid_out,
  output reg  [31:0] result,
  output reg         branch_taken,
  output reg  [31:0] branch_target
);

endmodule
