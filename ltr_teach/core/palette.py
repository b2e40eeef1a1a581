"""The one colour palette of every plot the library draws, and the second cue beside each colour.

Okabe and Ito's eight colours (*Color Universal Design*, 2008) stay distinct for the common forms of
colour blindness (red-green deuteranopia and protanopia, blue-yellow tritanopia); a light grey is added
for "not relevant / no change". Colour is never the only cue: a plot that tells two kinds of bar apart
also hatches one of them (:data:`HATCHES`), and its lines differ in marker and line style. It lives in
the core so that every layer's plots (the widgets', the class report's) read the same values;
:mod:`ltr_teach.interactive.plots` is where the plots use it.

>>> PALETTE["blue"], PALETTE["vermillion"]
('#0072B2', '#D55E00')
>>> sorted(HATCHES)
['loss', 'miss', 'tie']
"""

from __future__ import annotations

#: Okabe & Ito's colours by name, and a neutral grey.
PALETTE = {
    "black": "#000000", "orange": "#E69F00", "sky_blue": "#56B4E9", "bluish_green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "reddish_purple": "#CC79A7",
    "grey": "#BBBBBB",
}

#: The colour of each role a plot gives its artists.
COLORS = {
    "bar": PALETTE["blue"],            # a relevant item's bar, a value per rank or query
    "miss": PALETTE["grey"],           # a non-relevant item's bar (hatched too), a diagonal of chance
    "line": PALETTE["vermillion"],     # the running sum or the mean: circles, solid line
    "ideal": PALETTE["bluish_green"],  # the ideal's, or a third series: squares or diamonds, dashed or dotted
    "fill": PALETTE["sky_blue"],       # an area (AUC)
    "win": PALETTE["blue"], "loss": PALETTE["vermillion"], "tie": PALETTE["grey"],
    "text": PALETTE["black"],
}

#: The hatch that doubles a colour wherever two kinds of bar stand side by side.
HATCHES = {"miss": "//", "loss": "\\\\", "tie": ".."}

__all__ = ["COLORS", "HATCHES", "PALETTE"]
