"""What game cogs draw with, kept out of the cogs so each cog stays about commands and layout:
pictures (Trap's board; the card art of Zip Zap, Zap or Trap, Spy Trap and GiftTRAP in the
``*_cards`` modules, each returning PNG bytes and alt text from the same inputs), texts (Trap's move
record) and GiftTRAP's paged private panel. They draw from a game's typed view and change nothing.
``cache.PictureCache`` draws each distinct picture once, off the event loop."""
