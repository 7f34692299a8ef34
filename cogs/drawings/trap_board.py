"""Trap's board pictures: pure functions from an engine view (rules/trap.py) to PNG bytes.

No Discord here, so tests and tools can draw boards directly. The words it draws come in made
(cogs/drawings/trap_words.py ``board_words``, in the language being drawn): it runs in a worker
process, where no language is set. The image size depends only on the board
size: the grid with coordinates on the left, a side panel with the pieces each player has lost and the
status line at the bottom.

A player's panel draws the board alone (``render_panel_board``): square, no side panel and no
words but the coordinates, with thicker lines, so that at a phone's 360 px (where a picture is
about 234 CSS px wide) the points, arrows and coordinates still read; it rings what the player may
pick now (issue 33: the panel shows the board once, as a picture, and fits one phone screen).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from cogs.drawings.lettering import font

CELL = 96  # pixels between neighbouring points
MARGIN = 56  # around the grid, room for the coordinates
PANEL = 176  # the pieces each player has lost, right of the grid
STATUS = 44  # the prompt line under everything
PAWN_RADIUS = 20

BACKGROUND = (246, 240, 226)
GRID = (150, 140, 120)
ARROW = (60, 60, 60)
FLIPPED = (214, 120, 0)
TEXT = (40, 40, 40)
HIGHLIGHT = (255, 214, 64)
LAST_FROM = (140, 200, 255)
PLAYER_FILL = ((200, 40, 40), (40, 80, 200))
PLAYER_EDGE = ((110, 10, 10), (10, 30, 110))
KING_MARK = (255, 215, 0)
PICK = (20, 150, 60)  # the panel's marks: what the player may pick now

# The panel's board, square: room for the coordinates left and below, for a ring above and right.
PANEL_LEFT = 70
PANEL_BOTTOM = 70
PANEL_EDGE = 42
PANEL_PAWN = 26
PANEL_RING = PANEL_PAWN + 10


def image_size(size: int) -> tuple[int, int]:
    """The picture's (width, height) for a board of ``size`` points per side."""
    span = (size - 1) * CELL
    return 2 * MARGIN + span + PANEL, 2 * MARGIN + span + STATUS


def panel_image_size(size: int) -> tuple[int, int]:
    """The panel picture's (width, height): a square, the board and its coordinates only."""
    side = PANEL_LEFT + (size - 1) * CELL + PANEL_EDGE
    return side, PANEL_EDGE + (size - 1) * CELL + PANEL_BOTTOM


def _font(px: int) -> ImageFont.FreeTypeFont:
    # The cards' typeface (lettering.py), so Polish or German words draw on the board too.
    return font(px)


def _xy(size: int, point: str, left: int = MARGIN, top: int = MARGIN) -> tuple[int, int]:
    column = "abcdef".index(point[0])
    row = int(point[1:]) - 1
    # Row 1 at the bottom, as players read a board.
    return left + column * CELL, top + (size - 1 - row) * CELL


def _draw_arrow(
    draw: ImageDraw.ImageDraw,
    size: int,
    arrow: str,
    colour: tuple[int, int, int],
    *,
    origin: tuple[int, int] = (MARGIN, MARGIN),
    radius: int = PAWN_RADIUS,
    width: int = 4,
    back: int = 14,
    wing: int = 8,
) -> None:
    tail, head = arrow.split(">")
    (x0, y0), (x1, y1) = _xy(size, tail, *origin), _xy(size, head, *origin)
    dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
    # The shaft sits between the pawns so pieces never hide an arrow.
    start = (x0 + dx * (radius + 6), y0 + dy * (radius + 6))
    tip = (x1 - dx * (radius + 6), y1 - dy * (radius + 6))
    draw.line([start, tip], fill=colour, width=width)
    base = (tip[0] - dx * back, tip[1] - dy * back)
    left = (base[0] - dy * wing, base[1] + dx * wing)
    right = (base[0] + dy * wing, base[1] - dx * wing)
    draw.polygon([tip, left, right], fill=colour)


def _draw_pawn(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], owner: int, king: bool, radius: int = PAWN_RADIUS
) -> None:
    x, y = centre
    draw.ellipse(
        [x - radius, y - radius, x + radius, y + radius],
        fill=PLAYER_FILL[owner],
        outline=PLAYER_EDGE[owner],
        width=max(3, radius // 7),
    )
    if king:
        r = radius * 0.55
        crown = [(x - r, y + r * 0.5), (x - r, y - r * 0.4), (x - r * 0.5, y), (x, y - r * 0.7)]
        crown += [(x + r * 0.5, y), (x + r, y - r * 0.4), (x + r, y + r * 0.5)]
        draw.polygon(crown, fill=KING_MARK, outline=(90, 70, 0))


def render_board(view: dict[str, Any], words: Mapping[str, Any], *, highlight: Iterable[str] = ()) -> bytes:
    """Draw the view as a PNG, with ``words`` (a ``BoardWords``). ``highlight`` rings extra points (a
    selected pawn and its targets); the last move or drop is always marked, its flipped arrows drawn
    in orange."""
    size = int(view["size"])
    width, height = image_size(size)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, label = _font(16), _font(20)

    for line in view["lines"]:
        a, b = line.split("-")
        draw.line([_xy(size, a), _xy(size, b)], fill=GRID, width=2)
    for index in range(size):
        column = "abcdef"[index]
        x, _ = _xy(size, f"{column}1")
        draw.text((x, height - STATUS - MARGIN // 2), column, fill=TEXT, font=label, anchor="mm")
        _, y = _xy(size, f"a{index + 1}")
        draw.text((MARGIN // 2, y), str(index + 1), fill=TEXT, font=label, anchor="mm")

    last = view.get("last") or {}
    marked: list[tuple[str, tuple[int, int, int]]] = []
    if last.get("kind") == "move":
        marked += [(last["from"], LAST_FROM), (last["to"], HIGHLIGHT)]
    elif last.get("kind") == "drop":
        marked.append((last["point"], HIGHLIGHT))
    marked += [(point, HIGHLIGHT) for point in highlight]
    for point, colour in marked:
        x, y = _xy(size, point)
        r = PAWN_RADIUS + 9
        draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=5)
    for point in (c["point"] for c in last.get("captures", [])):
        x, y = _xy(size, point)
        draw.line([x - 14, y - 14, x + 14, y + 14], fill=FLIPPED, width=4)
        draw.line([x - 14, y + 14, x + 14, y - 14], fill=FLIPPED, width=4)

    flipped = set(last.get("flips", []))
    dropped = {f"{last['from']}>{last['to']}"} if last.get("kind") == "arrow" else set()
    for arrow in view["arrows"]:
        _draw_arrow(draw, size, arrow, FLIPPED if arrow in flipped | dropped else ARROW)

    for pawn in view["pawns"]:
        _draw_pawn(draw, _xy(size, pawn["point"]), pawn["owner"], pawn["king"])

    _draw_panel(draw, view, words, size, small, label)
    prompt = str(words["prompt"])
    draw.text((MARGIN // 2, height - STATUS // 2), prompt[:90], fill=TEXT, font=small, anchor="lm")

    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _draw_panel(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    words: Mapping[str, Any],
    size: int,
    small: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    label: ImageFont.FreeTypeFont | ImageFont.ImageFont,
) -> None:
    left = 2 * MARGIN + (size - 1) * CELL - 8
    top = MARGIN - 24
    for seat in (0, 1):
        y = top + seat * ((size - 1) * CELL // 2 + 24)
        _draw_pawn(draw, (left + 12, y + 10), seat, False, radius=10)
        text = words["players"][seat]
        draw.text((left + 30, y + 10), text, fill=TEXT, font=label, anchor="lm")
        if view.get("to_move") == seat:
            # Drawn, not typed: so it was under Pillow's built-in font, which had no arrow glyphs.
            end = left + 30 + draw.textlength(text, font=label) + 10
            draw.polygon([(end, y + 10), (end + 12, y + 3), (end + 12, y + 17)], fill=TEXT)
        draw.text((left + 4, y + 34), words["on_board"][seat], fill=TEXT, font=small, anchor="lm")
        lost = view.get("captured", [[], []])[seat]
        # Pieces this colour has lost ("captured" read as either taken or lost).
        draw.text((left + 4, y + 56), words["lost"][seat], fill=TEXT, font=small, anchor="lm")
        for index, piece in enumerate(lost[:12]):
            cx = left + 14 + (index % 6) * 26
            cy = y + 82 + (index // 6) * 26
            _draw_pawn(draw, (cx, cy), seat, bool(piece.get("king")), radius=10)
    result = view.get("result")
    if result:
        draw.text((left + 4, top + (size - 1) * CELL + 28), words["over"], fill=TEXT, font=label, anchor="lm")


def render_panel_board(
    view: dict[str, Any], *, pick: Iterable[str] = (), chosen: str | None = None, targets: Iterable[str] = ()
) -> bytes:
    """The board for a player's panel, as a PNG: square, coordinates its only words (so it needs
    no language), drawn big enough to read at a phone's width. Green rings mark the points the
    player may pick now (``pick``: the pawns that can move), a thick green ring the point picked
    (``chosen``) and green dots where it may go (``targets``); the last action is marked as on
    the table (yellow ring where it ended, blue where it started, orange arrows just flipped or
    dropped, an orange ✗ on a piece just captured)."""
    size = int(view["size"])
    width, height = panel_image_size(size)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    label = _font(34)
    origin = (PANEL_LEFT, PANEL_EDGE)

    def at(point: str) -> tuple[int, int]:
        return _xy(size, point, *origin)

    def ring(point: str, colour: tuple[int, int, int], thickness: int) -> None:
        x, y = at(point)
        r = PANEL_RING
        draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=thickness)

    for line in view["lines"]:
        a, b = line.split("-")
        draw.line([at(a), at(b)], fill=GRID, width=3)
    for index in range(size):
        x, _ = at(f"{'abcdef'[index]}1")
        draw.text((x, height - 20), "abcdef"[index], fill=TEXT, font=label, anchor="mm")
        _, y = at(f"a{index + 1}")
        draw.text((18, y), str(index + 1), fill=TEXT, font=label, anchor="mm")

    last = view.get("last") or {}
    if last.get("kind") == "move":
        ring(last["from"], LAST_FROM, 5)
        ring(last["to"], HIGHLIGHT, 6)
    elif last.get("kind") == "drop":
        ring(last["point"], HIGHLIGHT, 6)
    for point in pick:
        ring(point, PICK, 5)
    if chosen is not None:
        ring(chosen, PICK, 10)
    for point in (c["point"] for c in last.get("captures", [])):
        x, y = at(point)
        draw.line([x - 18, y - 18, x + 18, y + 18], fill=FLIPPED, width=6)
        draw.line([x - 18, y + 18, x + 18, y - 18], fill=FLIPPED, width=6)

    flipped = set(last.get("flips", []))
    dropped = {f"{last['from']}>{last['to']}"} if last.get("kind") == "arrow" else set()
    for arrow in view["arrows"]:
        colour = FLIPPED if arrow in flipped | dropped else ARROW
        _draw_arrow(draw, size, arrow, colour, origin=origin, radius=PANEL_PAWN, width=6, back=20, wing=11)

    for pawn in view["pawns"]:
        _draw_pawn(draw, at(pawn["point"]), pawn["owner"], pawn["king"], radius=PANEL_PAWN)
    for point in targets:
        x, y = at(point)
        # Beside an occupied point too (a move there swaps): a dot on its upper right.
        occupied = any(p["point"] == point for p in view["pawns"])
        cx, cy = (x + PANEL_PAWN - 2, y - PANEL_PAWN + 2) if occupied else (x, y)
        draw.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=PICK, outline=BACKGROUND, width=3)

    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
