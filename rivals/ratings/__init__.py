"""Skill ratings (R-41): every finished result rated once with the ``openskill`` package, the
ratings a projection of ``RatingsUpdated`` events, the public figure, the rating board; read by
matchmaking (R-42, ``rivals.matches.pairing``)."""
