"""The metrics: each returns an :class:`~ltr_teach.core.explanation.Explanation`.

- :mod:`.graded`: CG, DCG, IDCG, NDCG, ERR (graded relevance), with the zero rules;
- :mod:`.gains`: the gains and discounts, each with its exact and its NumPy form;
- :mod:`.binary`: RR, MRR, P@k, R@k, F-beta, AP, MAP, interpolated precision, 11-point AP, R-precision,
  success@k, bpref, judged@k, and trec_eval's recall-level rules;
- :mod:`.user_models`: rank-biased precision and its residual;
- :mod:`.roc`: the ROC curve and AUC (ties count 1/2);
- :mod:`.ctr`: click-through prediction: group AUC (GAUC) and log loss;
- :mod:`.pairs`: misordered pairs (1 − AUC), RankNet's pairwise loss, LambdaRank's |ΔNDCG| swap weights;
- :mod:`.sampled`: the expected HR@k / NDCG@k of ranking a held-out item among sampled negatives;
- :mod:`.agreement`: assessor agreement (Cohen's kappa);
- :mod:`.ordering`: from scores to a ranked list, and the tie rules of the tools;
- :mod:`.conventions`: the tools' presets (a plain table the metrics read);
- :mod:`.registry`: the one list of metric names that the CLI, the widgets and ``lt.evaluate`` read;
- :mod:`.compare`: one ranking under every preset (sits above the metrics it calls);
- :mod:`.confusion`: the confusion matrix of a ranking cut at k (TP, FP, FN, TN, accuracy);
- :mod:`.suite`: several metrics on the same rankings, one swap at a time, and how often two agree.
"""
