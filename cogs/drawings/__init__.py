"""What game cogs draw with: pictures (Trap's board) and texts (Trap's move record), kept out of
the cogs so each cog stays about commands and layout. Pure functions of a game's typed view."""
