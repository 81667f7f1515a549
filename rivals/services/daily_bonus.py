"""Daily bonus (R-30…R-32) — built in the rankings work; see that module's docstring once filled."""
