"""Spring Challenge 2021 beam search bot (run it with ``python -m bots.spring2021.beam``)."""
