"""On-demand measurements of the toolkit's speed; ``python -m benchmarks --quick`` runs them all (see README.md)."""
