"""Training the learnt evaluation (issue 17): self-play positions labelled by who won
(``selfplay``), a logistic regression fitted to them (``fit``) and the ``rebelspace train``
command (``command``). The model itself, and its inference, live in ``agents.value``."""
