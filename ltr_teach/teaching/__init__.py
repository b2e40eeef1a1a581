"""Teaching: the posts' worked examples and errata, the exercises, and the answer checker.

- :mod:`.examples`: the five posts' worked examples and errata, as data pinned by tests;
- :mod:`.answers`: reading what a student typed (a small parser; nothing is evaluated as code);
- :mod:`.hints`: the first hint per metric and the expected-value line;
- :mod:`.exercises`: the exercise registry and per-student variants;
- :mod:`.checker`: :func:`check`, which compares an answer with the exact value and names the slip;
- :mod:`.tables`: the posts' printed numbers beside the exact ones, and NDCG@k cut by cut.
"""
