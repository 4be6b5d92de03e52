"""Proofs with z3: `encode` turns the elaborated IR into bit-vector terms, `prove` runs the queries."""
