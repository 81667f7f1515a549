"""Competitive play (R-9, R-12…R-20): the queue, Quick Match, Duel, Arena, and the rounds that
tournaments seat their tables in — with a clock that belongs to the server.

A round is 2–4 players, each on their own copy of one deal (a ``Game`` of the round's mode with
``round_id``: the solo board machinery, the Rivals ruleset with T-6a and R-13…R-16 scoring). The
round is the stream ``round-<id>`` (``RoundScheduled``, ``RoundEnded``), a match the stream
``match-<id>`` (``MatchCreated``, ``MatchFinished``), each player's board its ``game-<id>``.
"""
