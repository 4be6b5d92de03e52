"""placeholder"""
from pygments.lexer import RegexLexer
class SysrLexer(RegexLexer):
    name = "sysr"
    aliases = ["sysr"]
    tokens = {"root": []}
