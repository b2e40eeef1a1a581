"""The exercise bank: one module per family (one exercise notebook each), in course order.

A module holds ``FAMILY = (key, N_(title))`` and ``EXERCISES = [...]``, built with ``_e`` (compute),
:func:`~ltr_teach.teaching.kinds.choice` and :func:`~ltr_teach.teaching.kinds.create`, imported from
:mod:`ltr_teach.teaching.kinds` (the registry :mod:`ltr_teach.teaching.exercises` imports this package,
so a bank module importing the registry would close a circle). A new family is a new module plus
one line in :data:`MODULES`.
"""

from . import choosing, collections, comparing, dcg_ndcg, err, learning_to_rank, mrr_map, precision_recall, roc_auc

#: The families in course order (the exercise notebooks' order).
MODULES = (precision_recall, mrr_map, dcg_ndcg, err, roc_auc, comparing, choosing, collections, learning_to_rank)
