"""Turn notifications: telling a seat that the game waits for it, by e-mail or any
Apprise URL (ntfy, Discord, Matrix, a JSON webhook…), when its page is not open.

How a message travels (each step in its own short transaction, never in the action's):

1. After an action commits, the table's event (``app.table.events``) names the seats that
   newly owe a decision (or says the game ended), and the notifier upserts one
   ``notify_pending`` row per seat that asked to be told, due after a short delay and never within the quiet
   period after the last message: a burst of steps is one row, so one message.
2. When a row is due, one process claims it (a conditional update) and writes the message
   from that seat's own view, if the seat still owes it and has no page open: one
   ``notify_outbox`` row per channel.
3. One process claims each outbox row and sends it with Apprise; a failure is retried with
   back-off and its error shown on that seat's page.

Modules: ``config`` (environment), ``channels`` (checking and naming URLs), ``tables``,
``messages`` (what a message says), ``notifier`` (the worker), ``hooks`` (where it meets
the app: the subscription to the table's events, and open pages).
"""
