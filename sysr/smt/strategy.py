"""The tactic that decides every one-shot query, so that its answer and its model depend on the
query alone: not on how much memory the process holds.

z3's own strategy for a solver made for QF_ABV (the combined solver's tactic, used for a query
without assumptions) bit-blasts a bit-vector goal and then simplifies the circuit as an and-inverter
graph only while z3's memory, counted over the whole process (every context, every thread), is
below 300 MB. Past that it hands the circuit to the SAT solver as it is, which usually gives a
different model, so a counterexample trace depended on what else the process held: garbage of
earlier checks not yet collected in the test suite, or a long language-server session. (In the
suite it changed which counterexample was shown; as induction drops the lemmas a counterexample
breaks, it could change a verdict too.)

`one_shot(ctx)` is that strategy built from z3's own tactics, step for step as z3 reports them
(`verbose` 10) for the z3-solver this project installs, with that one test replaced by one on the
bit-blasted goal itself: the AIG step runs when the goal has fewer than `AIG_MAX_EXPRS`
expressions (about 240 MB of z3 terms, so it is skipped only where z3 would skip it for the goal
alone). The preambles for arrays and for bit-vectors, the SAT solver for bit-vector goals and
the SMT core for goals with arrays are z3's; on the project's designs it is as fast as z3's
default. No step reads a clock or the process's memory, so the answer and the model depend on
the query alone (tests/test_determinism.py).
"""

from __future__ import annotations

import z3

AIG_MAX_EXPRS = 2_000_000  # expressions of the bit-blasted goal, about 120 bytes each


def one_shot(ctx: z3.Context) -> z3.Tactic:
    """The tactic for a satisfiability query without assumptions, in context `ctx`."""
    t = lambda name: z3.Tactic(name, ctx)  # noqa: E731

    def simplify(**params):
        return z3.With(t("simplify"), **params) if params else t("simplify")

    # Arrays and uninterpreted functions first (z3's QF_AUFBV preamble); what is left without
    # them is a bit-vector goal.
    arrays_preamble = z3.Then(
        simplify(), t("propagate-values"), t("solve-eqs"), t("elim-uncnstr"), t("bv-divrem-bounds"), t("reduce-bv-size"),
        simplify(som=True, pull_cheap_ite=True, push_ite_bv=False, local_ctx=True, local_ctx_limit=10_000_000),
        t("max-bv-sharing"), t("ackermannize_bv"), ctx=ctx)
    bv_preamble = z3.Then(
        simplify(), t("propagate-values"), z3.With(t("solve-eqs"), solve_eqs_max_occs=2), t("elim-uncnstr"),
        t("bv-divrem-bounds"), t("reduce-bv-size"),
        simplify(som=True, pull_cheap_ite=True, push_ite_bv=False, local_ctx=True, local_ctx_limit=10_000_000,
                 flat=True, hoist_mul=False),
        simplify(hoist_mul=True, som=False), t("max-bv-sharing"), t("ackermannize_bv"), ctx=ctx)
    small = z3.Probe("num-exprs", ctx) < AIG_MAX_EXPRS
    circuit = z3.Then(t("bit-blast"),
                      z3.When(small, z3.Then(z3.With(z3.Then(simplify(), t("solve-eqs"), ctx=ctx), local_ctx=True),
                                             t("aig"), ctx=ctx), ctx=ctx),
                      t("sat"), ctx=ctx)
    bv = z3.With(z3.Then(bv_preamble,
                         z3.Cond(z3.Probe("is-qfbv-eq", ctx), z3.Then(t("bv1-blast"), t("smt"),
                                                                    ctx=ctx),
                                 z3.Cond(z3.Probe("is-qfbv", ctx), circuit, t("smt"), ctx=ctx), ctx=ctx), ctx=ctx),
                 elim_and=True, push_ite_bv=True, blast_distinct=True)
    return z3.With(z3.Then(arrays_preamble, z3.Cond(z3.Probe("is-qfbv", ctx), bv, t("smt"), ctx=ctx), ctx=ctx),
                   elim_and=True, sort_store=True)
