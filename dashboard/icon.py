"""The dashboard's page icon: a paw print drawn here, so that the browser fetches it from
the dashboard itself (a ``:material/…:`` or emoji icon makes the browser fetch the picture
from a server outside the machine, which fails offline)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

SIZE = 64
GREEN = (46, 107, 62, 255)
PAD = (255, 248, 231, 255)


@lru_cache(maxsize=1)
def page_icon() -> Image.Image:
    """A 64×64 paw print on a green disc."""
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, SIZE - 1, SIZE - 1), fill=GREEN)
    draw.ellipse((20, 30, 44, 52), fill=PAD)  # the pad
    for x, y in ((11, 22), (21, 12), (35, 12), (45, 22)):  # the toes
        draw.ellipse((x, y, x + 9, y + 11), fill=PAD)
    return img
