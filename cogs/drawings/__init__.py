"""What game cogs draw with: pictures (Trap's board), texts (Trap's move record) and GiftTRAP's
paged private panel, kept out of
the cogs so each cog stays about commands and layout. Pure functions of a game's typed view."""
