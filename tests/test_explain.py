"""`sysr explain CODE`: the full reference's explanation of every diagnostic code.

Each explanation is the code's row of the table (title, cause and fix), its examples from §9
and the sections the row names, whole; several codes share their sections once, within a size
limit; the command line prints them and refuses unknown codes.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from sysr import cli
from sysr.diagnostics import CODES
from sysr.explain import REFERENCE, examples, explain, explain_codes, reference_text, sections, see_sections

TEXT = reference_text()


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_is_explained(code):
    text = explain(code, TEXT)
    assert text.startswith(f"{code}: {CODES[code]}\n\nTypical cause and fix: ")
    for number in see_sections(TEXT, code):
        heading, body = sections(TEXT)[number]
        assert f"From the reference, {heading}:\n\n{body}" in text
    for ex in examples(TEXT, code):
        assert ex in text


def test_sections_take_their_subsections():
    secs = sections(TEXT)
    assert secs["4.3"][0] == "§4.3 Combinational logic"
    assert "### 4.3" in secs["4"][1] and "### 4.4" not in secs["4.3"][1]
    assert secs["10"][0] == "§10 Common mistakes"


def test_the_examples_are_the_expect_blocks_of_section_9():
    ex = examples(TEXT, "T003")
    assert ex == ["module m(a: in u8, y: out u9) { y = {a, 1}; }"]
    assert examples(TEXT, "V007") == []  # its example is in §6.3, which the row names


def test_several_codes_share_a_section_once():
    both = explain_codes(["A001", "A007", "A001"], TEXT)
    assert both.count("From the reference, §4.3 Combinational logic") == 1
    assert "(§4.3 Combinational logic: given above)" in both
    assert both.count("A001: not assigned on every path") == 1


def test_the_explanations_are_cut_at_the_limit():
    text = explain_codes(["V007", "T003", "A001"], TEXT, limit=3000)
    assert "V007: property is not inductive" in text
    assert "left out to keep this short: the explanation of" in text and "sysr explain CODE" in text
    assert explain_codes(["nonsense", "T003x"], TEXT) == ""


def test_the_command_line(capsys):
    assert cli.main(["explain", "t003", "T001"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("T003: literal needs a type") and "T001: type mismatch" in out
    assert out.count("From the reference, §3.1 Literal typing") == 1
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        assert cli.main(["explain", "X999"]) == 2
    assert "unknown diagnostic code(s) X999" in err.getvalue()


def test_a_missing_reference_is_a_clear_error(tmp_path, monkeypatch):
    import sysr.explain as ex
    monkeypatch.setattr(ex, "REFERENCE", tmp_path / "nowhere.md")
    monkeypatch.setattr(ex.reference_text, "__defaults__", (tmp_path / "nowhere.md",))
    err = io.StringIO()
    with redirect_stderr(err):
        assert cli.main(["explain", "T003"]) == 2
    assert "cannot read the reference" in err.getvalue() and "nowhere.md" in err.getvalue()
    assert REFERENCE.name == "reference.md"
