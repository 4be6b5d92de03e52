// Behind the guard: a wrong design (constant output) whose simulation writes a file outside its
// work folder (@OUTSIDE@, a folder of the test's). Scored by the simulation stage alone; nothing
// may appear there.
module toy(input wire clk, input wire rst, input wire en, output wire [3:0] q);
  assign q = 4'd0;
  integer f, i;
  initial begin
    f = $fopen("@OUTSIDE@/written.txt", "w");
    if (f != 0) begin
      for (i = 0; i < 1000; i = i + 1) $fdisplay(f, "written from the simulation, line %0d", i);
      $fclose(f);
    end
  end
endmodule
