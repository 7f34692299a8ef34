"""Ratings: the OpenSkill model, computer players' fixed strengths, and how a rating is shown.

People never see OpenSkill's μ and σ. They see one number on the familiar Elo scale, made by
``shown_rating`` and nothing else (the leaderboard, /stats, /history, the results message and the
CSV export all call it):

    rating = round(1500 + 40 × (μ − 25))        "1480?" while provisional

- **1500** is a newcomer (μ = 25 is OpenSkill's starting estimate), as on lichess.
- **40 points per μ point**: OpenSkill's own ``predict_win`` gives a settled player (σ 3–4) about
  10 to 1 against one 10 μ (400 points) below, which is what 400 points mean in Elo; and a
  newcomer's σ₀ = 8.33 comes to ±333 points, close to Glicko's starting deviation of 350.
- **μ, not the ordinal μ − 3σ**: the ordinal rises in a newcomer's first games even after a loss
  (σ shrinks faster than μ falls: coming 3rd of 4 against casual computers six games running
  takes it from 0 to +3.5),
  and "bob 1540 (+22)" after coming last is nonsense to a person. The caution the ordinal
  stood for is kept by the provisional mark and the leaderboard's order instead.
- **Provisional** ("1480?") until the person has played ``PROVISIONAL_GAMES`` rated games here,
  or sooner once OpenSkill is sure enough of them (σ below ``SETTLED_SIGMA``). Provisional players
  are listed after settled ones, so one lucky first game never tops a board.
- **Bounded, and a draw never costs** (``kept_mu``): OpenSkill's new μ is kept within
  ``MAX_SWING`` points of the old one, so a newcomer's first games (σ₀ is large, and a rating's
  movement grows with σ²) move it by at most ±150, where a 3-player game moved it by −188; and
  a person nobody finished ahead of (a draw, a shared first) never loses points, where a Trap
  draw against the easy computer cost 41: people read a draw as "nobody lost".
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

RATING_MODEL = PlackettLuce()
START_MU = RATING_MODEL.mu  # 25
START_SIGMA = RATING_MODEL.sigma  # 25 / 3

# The Elo-like scale (see the module docstring for why these numbers).
CENTRE = 1500
POINTS_PER_MU = 40

# Settled after this many rated games in a game, whatever σ says: ten games is what lichess and
# most ladders ask of a newcomer, and in six-player games σ falls so slowly (about 12 games to
# reach SETTLED_SIGMA with mixed results, simulated) that without it big-table players would stay
# "?" for weeks of game nights.
PROVISIONAL_GAMES = 10
# ... or sooner once σ is below this: 78% of a newcomer's σ₀, ±260 points. Reached after about 7
# two-player games and 9 four-player ones with mixed results (simulated), sooner for someone
# whose results are consistent: then the model, not the count, says the rating means something.
SETTLED_SIGMA = 6.5

# Computer players take part in a rated game at a fixed strength per level and are never re-rated,
# so beating a "sharp" computer is worth more than beating a "casual" one.
# Level names are each game's own (rules/*.py computer_levels); tests check every level is here and
# that within a game a stronger level rates higher.
COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "casual": (20.0, 3.0),  # Zip Zap, Zap or Trap, Spy Trap, GiftTRAP: shown as 1300
    "sharp": (28.0, 3.0),  # Zip Zap, Zap or Trap, Spy Trap: 1620
    "thoughtful": (28.0, 3.0),  # GiftTRAP: 1620
    "easy": (18.0, 3.0),  # Trap: 1220
    "medium": (24.0, 3.0),  # Trap: 1460
    "hard": (30.0, 3.0),  # Trap, alpha-beta search: 1700
}
# Only a level added to a game but not above would fall back to this.
DEFAULT_COMPUTER_RATING = (25.0, 3.0)

# The most one game moves a shown rating, either way. Only a provisional rating comes near it: a
# settled one (σ about 4) moves 10 to 40 points a game.
MAX_SWING = 150


def kept_mu(mu_before: float, mu_after: float, *, beaten: bool) -> float:
    """The μ a person keeps after a game: OpenSkill's ``mu_after``, at most ``MAX_SWING`` shown
    points from ``mu_before``, and never below it when nobody finished ahead of them
    (``beaten`` False: a draw or a shared first). OpenSkill lowers the higher-rated side of a
    draw, which is right for the estimate but reads as a penalty for not losing; σ is still
    OpenSkill's, so the game still counts as evidence."""
    reach = MAX_SWING / POINTS_PER_MU
    low = mu_before if not beaten else mu_before - reach
    return min(max(mu_after, low), mu_before + reach)


@dataclass(frozen=True)
class ShownRating:
    """A rating as people see it: a whole number, marked "?" while provisional."""

    value: int
    provisional: bool

    def __str__(self) -> str:
        return f"{self.value}?" if self.provisional else str(self.value)


def shown_rating(mu: float, sigma: float, rated_games: int) -> ShownRating:
    """THE mapping from OpenSkill's (μ, σ) and a person's rated games in that game to what they
    see. Every rating shown anywhere comes from here."""
    value = round(CENTRE + POINTS_PER_MU * (mu - START_MU))
    provisional = rated_games < PROVISIONAL_GAMES and sigma >= SETTLED_SIGMA
    return ShownRating(value, provisional)


def computer_rating(level: str) -> ShownRating:
    """A computer level's fixed rating, shown as a person's is (never provisional: it never
    moves), for the lobby to say what a computer seat is worth."""
    mu, sigma = COMPUTER_RATINGS.get(level, DEFAULT_COMPUTER_RATING)
    return shown_rating(mu, sigma, PROVISIONAL_GAMES)


def change_text(before: ShownRating, after: ShownRating) -> str:
    """ "+18", "−7" (a real minus sign), "±0"."""
    delta = after.value - before.value
    if delta == 0:
        return "±0"
    return f"+{delta}" if delta > 0 else f"−{-delta}"


# --- seasons ----------------------------------------------------------------------------------


def season_sigma(sigma: float) -> float:
    """A new season's σ: halfway back to a newcomer's σ₀ (μ, and so the shown number, is kept).

    Why: between seasons people practise, take breaks or get rusty, so the old estimate deserves
    less trust; a rating's movement per game grows with σ², so a settled player at σ 4 (→ 6.2)
    moves about 2.4 times as far per game for the first few games, and a changed skill shows
    within a handful of games. A full reset to σ₀ would throw away everything known and put last
    season's champion through another provisional run; μ is kept so the new season starts in last
    season's order rather than with everyone tied at 1500."""
    return min(START_SIGMA, (sigma + START_SIGMA) / 2)


__all__ = [
    "COMPUTER_RATINGS",
    "DEFAULT_COMPUTER_RATING",
    "MAX_SWING",
    "PROVISIONAL_GAMES",
    "RATING_MODEL",
    "SETTLED_SIGMA",
    "START_MU",
    "START_SIGMA",
    "ShownRating",
    "change_text",
    "computer_rating",
    "kept_mu",
    "season_sigma",
    "shown_rating",
]
