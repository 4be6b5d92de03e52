// RV32I execute stage: one registered stage with a valid bit.
// op: 0x00 ADD 0x01 SLL 0x02 SLT 0x03 SLTU 0x04 XOR 0x05 SRL 0x06 OR 0x07 AND 0x08 SUB 0x0D SRA
//     0x10 BEQ 0x11 BNE 0x14 BLT 0x15 BGE 0x16 BLTU 0x17 BGEU 0x18 JAL 0x19 JALR 0x1A LUI 0x1B AUIPC
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
  localparam OP_ADD  = 5'h00, OP_SLL  = 5'h01, OP_SLT  = 5'h02, OP_SLTU = 5'h03,
             OP_XOR  = 5'h04, OP_SRL  = 5'h05, OP_OR   = 5'h06, OP_AND  = 5'h07,
             OP_SUB  = 5'h08, OP_SRA  = 5'h0d,
             OP_BEQ  = 5'h10, OP_BNE  = 5'h11, OP_BLT  = 5'h14, OP_BGE  = 5'h15,
             OP_BLTU = 5'h16, OP_BGEU = 5'h17,
             OP_JAL  = 5'h18, OP_JALR = 5'h19, OP_LUI  = 5'h1a, OP_AUIPC = 5'h1b;

  // ALU operands: the second is imm only for ALU operations with use_imm set
  wire [31:0] a = rs1_val;
  wire [31:0] b = (use_imm && !op[4]) ? imm : rs2_val;
  wire [4:0]  shamt = b[4:0];

  // comparisons of rs1 with rs2, for the branches
  wire br_eq  = rs1_val == rs2_val;
  wire br_lt  = $signed(rs1_val) < $signed(rs2_val);
  wire br_ltu = rs1_val < rs2_val;

  wire [31:0] jalr_sum = rs1_val + imm;

  reg [31:0] res;
  reg        taken;
  reg [31:0] target;

  always @* begin
    res = 32'd0;
    taken = 1'b0;
    target = pc + imm;
    case (op)
      OP_ADD:   res = a + b;
      OP_SUB:   res = a - b;
      OP_SLL:   res = a << shamt;
      OP_SLT:   res = {31'd0, $signed(a) < $signed(b)};
      OP_SLTU:  res = {31'd0, a < b};
      OP_XOR:   res = a ^ b;
      OP_SRL:   res = a >> shamt;
      OP_SRA:   res = $signed(a) >>> shamt;
      OP_OR:    res = a | b;
      OP_AND:   res = a & b;
      OP_BEQ:   taken = br_eq;
      OP_BNE:   taken = !br_eq;
      OP_BLT:   taken = br_lt;
      OP_BGE:   taken = !br_lt;
      OP_BLTU:  taken = br_ltu;
      OP_BGEU:  taken = !br_ltu;
      OP_JAL:   begin res = pc + 32'd4; taken = 1'b1; end
      OP_JALR:  begin res = pc + 32'd4; taken = 1'b1; target = {jalr_sum[31:1], 1'b0}; end
      OP_LUI:   res = imm;
      OP_AUIPC: res = pc + imm;
      default:  ;
    endcase
  end

  always @(posedge clk) begin
    if (rst) begin
      valid_out <= 1'b0;
      result <= 32'd0;
      branch_taken <= 1'b0;
      branch_target <= 32'd0;
    end else begin
      valid_out <= valid_in;
      result <= res;
      branch_taken <= valid_in && taken;
      branch_target <= target;
    end
  end
endmodule
