"""Write side of tournaments and pot competitions: service functions ``<noun>_<verb>``.

* ``lifecycle`` — create, edit, cancel (operator actions, events with the operator as actor);
* ``registration`` — register / unregister, Champions eligibility (R-28);
* ``play`` — what time decides: start or cancel (R-22, R-29), seat waves (R-23), score tables
  (R-24, R-25), the tick / sweep that apply it three ways;
* ``finalize`` — final places, prizes, trophies (R-26, R-27, R-29), exactly once;
* ``schedules`` — recurring schedules in Romanian time;
* ``pots`` — pot competitions (P-5).
"""
