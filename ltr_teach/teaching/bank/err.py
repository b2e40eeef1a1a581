"""The err family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

from ...core.i18n import N_
from ..kinds import _e
from ._compute import _err_data, _err_task, _persistent, _rbp_residual_task, _rbp_task

FAMILY = ("err", N_("ERR, the cascade model (预期倒数排名)"))

EXERCISES = [
    _e("err-lipstick", "err", "err", {"grades": [3, 2, 3, 1], "g_max": 3}, _err_task,
       [N_("R = 7/8, 3/8, 7/8, 1/8; P(reach rank 2) = 1/8.")], source="doc 000", randomize=_err_data,
       worked="000-err-lipstick"),
    _e("err-doc003", "err", "err", {"grades": [1, 2, 0, 2], "g_max": 2}, _err_task,
       [N_("R_i = (2^g − 1)/4: 1/4, 3/4, 0, 3/4.")],
       intro=N_("Document 003 defines ERR = Σ_r (1/r) R_r Π_{{i<r}} (1 − R_i) with R_i = (2^{{l_i}} − 1)/2^{{l_m}}."),
       source="doc 003", randomize=_err_data),
    _e("err-k3", "err", "err", {"grades": [1, 3, 0, 2, 3], "g_max": 3, "k": 3}, _err_task,
       [N_("Only ranks 1 to 3 count.")], randomize=_err_data),
    _e("err-gdeval", "err", "err", {"grades": [2, 4, 1, 0], "g_max": 4}, _err_task,
       [N_("gdeval fixes the maximum grade at 4: R_i = (2^g − 1)/16.")], randomize=_err_data),
    _e("rbp-half", "err", "rbp", {"grades": [1, 0, 1, 1, 0], "p": Fraction(1, 2)}, _rbp_task,
       [N_("Rank i is reached with probability p^(i-1); add those of the relevant ranks and multiply by 1 - p.")],
       randomize=_persistent),
    _e("rbp-residual", "err", "rbp_residual", {"grades": [1, 0, 1, 0], "p": Fraction(3, 4)}, _rbp_residual_task,
       [N_("Every rank below the list could be relevant: the user reaches them with probability p^d in all.")],
       randomize=_persistent),
]
