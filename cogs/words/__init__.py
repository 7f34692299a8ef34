"""What each game says, in words: its events, its refusals and how it ended, worded from the
engine's data (kinds, codes, seat numbers, cards) in the language being drawn, one module per game
(``cogs/words/<game>.py``, in that game's catalog domain). The game's cog draws its table and
panels and hands the wording of what happened to its module here."""
