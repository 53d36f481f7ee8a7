"""Speed and accuracy benchmarks. ``python -m benchmarks [AREA...]`` runs them (``make bench``)."""
