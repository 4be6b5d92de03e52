"""Reading Verilog text, shared by the judge and mutation: `lex` (a linear tokenizer with line
numbers), `parse` (an outline of a module's always blocks and statements, for the Verilog
mutator) and `ports` (a module's ports as data, compared with an interface).

Pure functions over text and data: runs no tool (running Yosys is the judge's). May import
only the standard library.
"""
