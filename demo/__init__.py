"""The demo world (``manage.py simulate``): solver-driven bots play through the real services on
a simulated clock, so that a fresh install shows a filled admin, rankings and tournament pages.

It imports ``rivals``, ``tournaments`` and ``rankings``; nothing imports it.
"""
