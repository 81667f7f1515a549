"""Hooks for the apps built on competitive play (tournaments). ``rivals`` never imports them."""

from django.dispatch import Signal

# Sent inside the transaction that appends ``RoundEnded``, exactly once per round, with
# ``round`` (the Round), ``match`` (the Match) and ``result`` (the RoundEnded data). Receivers'
# writes are atomic with the result; follow-up work belongs in ``transaction.on_commit``.
round_ended = Signal()
