"""What game cogs draw with, kept out of the cogs so each cog stays about commands and layout:
pictures (Trap's board), texts (Trap's move record) and GiftTRAP's paged private panel. They
draw from a game's typed view and change nothing."""
