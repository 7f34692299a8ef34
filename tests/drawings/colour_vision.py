"""Simulated colour blindness and colour difference, in plain Python (numpy is not a dependency).

``simulate(rgb, kind)`` applies Machado, Oliveira & Fernandes (2009) at full severity to linear sRGB;
``delta_e(a, b)`` is the CIE76 distance in CIE L*a*b* (D65). A ΔE of about 10 is plainly visible
side by side; 2.3 is the classic "just noticeable" step.
"""

from __future__ import annotations

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

# Machado et al. 2009, severity 1.0 (their table 1), on linear RGB.
MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
KINDS = ("normal", *MACHADO)


def _to_linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: RGB, kind: str) -> tuple[float, float, float]:
    """``rgb`` as seen with ``kind`` ("normal" returns it unchanged)."""
    if kind == "normal":
        return (float(rgb[0]), float(rgb[1]), float(rgb[2]))
    linear = [_to_linear(c) for c in rgb]
    m = MACHADO[kind]
    out = [sum(m[row][col] * linear[col] for col in range(3)) for row in range(3)]
    return (_to_srgb(out[0]), _to_srgb(out[1]), _to_srgb(out[2]))


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_to_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: RGB, b: RGB, kind: str = "normal") -> float:
    """CIE76 ΔE between ``a`` and ``b`` as a person with ``kind`` of vision sees them."""
    la, lb = lab(simulate(a, kind)), lab(simulate(b, kind))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def worst_pair(colours: dict[str, RGB]) -> tuple[float, str, str, str]:
    """The closest pair of distinct colours under any simulation: (ΔE, kind, name, name)."""
    worst = (float("inf"), "", "", "")
    names = list(colours)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if colours[first] == colours[second]:
                continue
            for kind in KINDS:
                d = delta_e(colours[first], colours[second], kind)
                worst = min(worst, (d, kind, first, second))
    return worst
