"""Bots that play seats from the server, and time limits that keep slow games moving.

A bot sees exactly what its seat's player would: the seat's view and options (the dict the
API returns for that seat's link), never the game's true state, and acts through
``Table.act`` like a player (version check, log, notifications). The driver subscribes to
the table's events (``app.table.events``) when the app starts; the table imports nothing of
this package. Pending bot turns and running clocks are rows, claimed by one server process
at a time, so they survive restarts and run exactly once with several processes.
"""
