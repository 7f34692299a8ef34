"""The table: the machinery every game plugs into. The game cogs at the top of ``cogs/`` draw a
game; everything here is the same for all five.

**What a new game provides** (besides its engine in ``rules/<game>/``): a cog ``cogs/<game>.py``
with a ``GameUI`` (the protocol in ``drawing.py``: the public table embed and buttons, each
seat's private panel, event lines, round and final summaries; optional extras are listed there),
a slash group whose ``new`` calls ``lifecycle.open_table_command`` and whose ``rules`` calls
``cogs.help.send_rules``, and a ``setup()`` that registers the UI with ``bot.referee.register``.
Buttons are ``buttons.ActionButton`` (an engine action at a state version) and
``buttons.TableButton`` (table verbs); nothing else is needed to get lobbies, timers, computer
players, restarts, pings and leaderboards.

**Where each part stands** (arrows point from caller to callee; no module imports one that
imports it back):

- ``referee.py``: the one object the bot holds (``bot.referee``); wires the parts below.
- ``entry.py``: every click and keyboard move: routing, seat and membership checks, answers.
- ``lifecycle.py``: open a table, leave, stop, resume after a restart, shut down.
- ``spine.py``: **the file that changes a table**: draft → version-checked commit → adopt →
  effects. Everything above calls it; it calls everything below.
- ``computers.py`` (with ``thinking.py``, the worker pool): computer seats.
- ``messages.py`` (the public message, its edit budget and the table's posts), ``panels.py``
  (private panels), ``pings.py`` (whom to ping), ``thread_line.py`` (a thread table's line in its
  parent channel); all of them land through ``effects.py``: the latest state wins, and Discord's
  "try later" is retried with backoff until the effect lands or its target is gone.
  ``budget.py``: the bot's own global rate budget, which every bot-token call takes a token from
  before discord.py sends it (results, posts and pings before table redraws).
- ``drawing.py`` (every drawing, and the ``GameUI`` protocol), ``layout.py`` (a drawing as the
  Components V2 layout that is sent, within Discord's limits; pictures with alt text),
  ``lobby.py`` (seat changes on a draft and the lobby drawing), ``results.py`` (each person's new
  rating under a finished game's results, and its Watch again button).
- ``model.py`` (a table in memory: seats, engine state, version, lock; its drafts),
  ``scheduler.py`` (the one clock), ``failures.py`` (every Discord failure classified once),
  ``buttons.py`` (the DynamicItems), ``common.py`` (refusals and private answers; names shown
  escaped or plain, and whom a message may ping),
  ``latest.py`` (the Latest lines as data, worded when drawn), ``tree.py`` (option checks for
  every slash command),
  ``journal.py`` (one log line per table event: opened, started, finished, ended).
"""
