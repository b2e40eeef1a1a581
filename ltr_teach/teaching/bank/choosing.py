"""The choosing family's exercises: which metric fits which task (notebook 13)."""

from ...core.i18n import N_, _
from ...metrics.binary import recall_at_k, reciprocal_rank
from ...metrics.ctr import gauc
from ...metrics.roc import auc
from ...metrics.sampled import sampled_metric
from ..kinds import _e, choice, create, written

FAMILY = ("choosing", N_("Choosing a metric"))

# one ads log: user u1 sees many ads and clicks often, u2 and u3 rarely (the GAUC exercise's data)
_CTR_LABELS = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
_CTR_SCORES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.3, 0.25, 0.2, 0.35, 0.1]
_CTR_USERS = ["u1", "u1", "u1", "u1", "u1", "u2", "u2", "u2", "u3", "u3"]


def _gauc_task(d) -> str:
    """The impressions of a GAUC exercise, user by user."""
    users = {}
    for y, s, u in zip(d["labels"], d["scores"], d["groups"]):
        users.setdefault(u, []).append(f"{'+' if y else '−'}{s}")
    shown = "; ".join(f"{u}: {', '.join(items)}" for u, items in users.items())
    return _("Impressions by user (+ clicked, − not clicked, with the model's score): {shown}. Compute the GAUC: "
             "each user's AUC (a tie counts 1/2), weighted by the user's number of impressions.").format(shown=shown)


def _log_loss_task(d) -> str:
    """The impressions of a log-loss exercise."""
    shown = ", ".join(f"{'+' if y else '−'}{p}" for y, p in zip(d["labels"], d["probabilities"]))
    return _("A model predicts click probabilities (+ clicked, − not clicked): {shown}. Compute the log loss (natural "
             "log, mean over the impressions).").format(shown=shown)


def _gauc_variant(rng, data) -> dict:
    """New clicks and scores for the same users and impression counts; the one-impression user stays skipped."""
    groups = list(data["groups"])
    grid = [round(i / 10, 1) for i in range(1, 10)]
    while True:
        labels = [rng.randint(0, 1) for _ in groups]
        per_user = {}
        for y, u in zip(labels, groups):
            per_user.setdefault(u, set()).add(y)
        mixed = [u for u, classes in per_user.items() if len(classes) == 2]
        if len(mixed) >= 2 and len(mixed) < len(per_user):  # two users to average, one to skip
            return dict(data, labels=labels, scores=[rng.choice(grid) for _ in groups])


def _log_loss_variant(rng, data) -> dict:
    """New labels (both classes) and probabilities from 0.1 to 0.9 in tenths."""
    n = len(data["labels"])
    labels = [1, 0] + [rng.randint(0, 1) for _ in range(n - 2)]
    rng.shuffle(labels)
    return dict(data, labels=labels, probabilities=[rng.choice([0.1, 0.2, 0.25, 0.5, 0.75, 0.8, 0.9])
                                                    for _ in range(n)])


def _mrr_up_recall_down(pair):
    """Why a typed pair is not one where RR prefers A and recall@5 (3 relevant) prefers B, or None."""
    a, b = pair
    for name, ranking in (("A", a), ("B", b)):
        if any(g not in (0, 1) for g in ranking):
            return _("ranking {name} holds a grade other than 0 and 1").format(name=name)
        if len(ranking) < 5 or sum(ranking) > 3:
            return _("ranking {name} needs at least 5 items and at most 3 relevant ones").format(name=name)
    rr_a, rr_b = reciprocal_rank(a).exact, reciprocal_rank(b).exact
    rec_a, rec_b = recall_at_k(a, 5, n_relevant=3).exact, recall_at_k(b, 5, n_relevant=3).exact
    if not rr_a > rr_b:
        return _("RR(A) = {a} is not above RR(B) = {b}").format(a=rr_a, b=rr_b)
    if not rec_b > rec_a:
        return _("recall@5 of B = {b} is not above recall@5 of A = {a}").format(a=rec_a, b=rec_b)
    return None


EXERCISES = [
    choice("choose-metric-qa", family="choosing", kind="evaluate",
           title=N_("One answer box"),
           question=N_("A question-answering system shows a list of candidate answers. Users read from the top and "
                       "stop at the first correct one; a second correct answer lower down is of no use to them. "
                       "Which metric fits best?"),
           options={"mrr": N_("MRR (or success@k)"), "ndcg": N_("NDCG@10 with graded relevance"),
                    "recall": N_("recall@100"), "auc": N_("AUC")},
           correct="mrr",
           why={"ndcg": N_("NDCG rewards every relevant answer, the second and third too; this user gains nothing "
                           "from them. It is the metric of a reader who scans many results of mixed quality."),
                "recall": N_("Recall counts how many of all correct answers appear in the top 100: a user who stops "
                             "at the first never sees the rest."),
                "auc": N_("AUC weighs every pair of a correct and a wrong answer alike, at rank 90 as at rank 1; the "
                          "user only sees the top.")},
           explanation=N_("The user model is 'read down to the first correct answer': the reciprocal rank 1/r scores "
                          "exactly that effort, and success@k asks whether it came within k. Averaged over questions: "
                          "MRR."),
           hints=(N_("Start from the user: what do they look at, and when do they stop?"),
                  N_("For each metric, ask what a second correct answer lower down adds to it."),
                  N_("The step students skip: count how many right answers a question has before you look "
                     "at the metrics."))),
    choice("choose-metric-bidding", family="choosing", kind="evaluate",
           title=N_("Probabilities that set a price"),
           question=N_("An ads system bids for each impression by its predicted click probability × the value of "
                       "a click. A new model ranks each user's ads exactly as the old one does, but all its "
                       "probabilities are twice as large. Which metric tells the two models apart?"),
           options={"auc": N_("AUC"), "gauc": N_("GAUC"), "logloss": N_("log loss"), "ndcg": N_("NDCG@10")},
           correct="logloss",
           why={"auc": N_("AUC depends only on the order of the scores; doubling every score keeps the order, so AUC "
                          "does not change."),
                "gauc": N_("GAUC averages per-user AUCs, and each depends only on the order within a user: unchanged."),
                "ndcg": N_("NDCG too depends only on the order, which doubling keeps.")},
           explanation=N_("Log loss scores the probabilities themselves (−ln of the probability given to what "
                          "happened): doubled probabilities are wrong by a factor of two and cost more. When "
                          "probabilities set prices, calibration matters, and only a proper scoring rule such as log "
                          "loss sees it."),
           hints=(N_("Which of these metrics read only the order of the scores, and which read their values?"),
                  N_("Double every score of a small example and recompute each metric in your head."),
                  N_("AUC compares scores pair by pair: s_p > s_n stays true when both are doubled."))),
    choice("choose-metric-prior-art", family="choosing", kind="evaluate",
           title=N_("Find them all"),
           question=N_("A patent examiner must find every earlier patent that could invalidate a claim, and reads "
                       "long result lists to do it; missing one is costly. Which metric fits best?"),
           options={"findall": N_("recall@k with a large k, or R-precision"), "p10": N_("P@10"),
                    "mrr": N_("MRR"), "err": N_("ERR")},
           correct="findall",
           why={"p10": N_("P@10 looks at the first page only and does not notice a relevant patent missed "
                          "entirely."),
                "mrr": N_("MRR stops at the first relevant patent; this user needs all of them."),
                "err": N_("ERR models a user who stops once satisfied, at the top; the examiner keeps reading.")},
           explanation=N_("A recall-oriented task is judged by the share of all relevant documents found: recall@k at "
                          "the depth the examiner reads, or R-precision, the precision at rank R (R = the number of "
                          "relevant documents), where precision and recall are equal."),
           hints=(N_("What does this user lose when one relevant document is missing?"),
                  N_("For each metric, ask whether a relevant document never retrieved lowers it."),
                  N_("A metric whose denominator counts every relevant document there is drops when one is missing."))),
    choice("sampled-predict-winner", family="choosing", kind="predict",
           title=N_("Which system wins the sampled evaluation?"),
           question=N_("A catalogue holds 10,000 items. System A puts 40 of 100 users' held-out items at rank 1 and "
                       "the other 60 at rank 5,000; system B puts every held-out item at rank 50. Each held-out item "
                       "is now ranked among 100 randomly sampled negatives instead of the whole catalogue. Which "
                       "system has the higher expected HR@10?"),
           options={"a": N_("System A"), "b": N_("System B"), "tie": N_("They tie")},
           correct="b",
           why={"a": N_("A keeps its 40 hits at rank 1, but its 60 far items stay far: about 50 of 100 sampled "
                        "negatives outrank an item at rank 5,000. B's items, though, climb into the sampled top 10."),
                "tie": N_("Sampling moves B's items far more than A's: an item at rank 50 has on average about half a "
                          "sampled negative above it.")},
           explanation=N_("An item at rank r has on average (r − 1)·100/9,999 sampled negatives above it: about 0.5 "
                          "for rank 50, so B hits almost every user, while A still hits only its 40. B wins the "
                          "sampled evaluation though it never reaches the real top 10: {b_sampled} against "
                          "{a_sampled}."),
           facts=lambda: {"a_sampled": sampled_metric([1] * 40 + [5000] * 60, 10_000).decimal_str,
                          "b_sampled": sampled_metric([50] * 100, 10_000).decimal_str},
           hints=(N_("Sampling keeps the order of any two items; it changes how many items compete."),
                  N_("For each system, estimate how many of the 100 sampled negatives land above its held-out "
                     "items."),
                  N_("Each other item is sampled with probability 100/9,999, about 1 %."))),
    choice("sampled-winner-flips", family="choosing", kind="analyse",
           title=N_("The winner changes with the sample"),
           question=N_("A catalogue holds 10,000 items. System A puts 40 of 100 users' held-out items at rank 1 and "
                       "the other 60 at rank 5,000; system B puts every held-out item at rank 50. On the whole "
                       "catalogue HR@10 is {a_full} for A and {b_full} for B. Ranked among 100 sampled negatives, the "
                       "expected HR@10 is {a_sampled} for A and {b_sampled} for B. Why does B win the sampled "
                       "evaluation?"),
           facts=lambda: {"a_full": sampled_metric([1] * 40 + [5000] * 60, 10_000).params["full"],
                          "b_full": sampled_metric([50] * 100, 10_000).params["full"],
                          "a_sampled": sampled_metric([1] * 40 + [5000] * 60, 10_000).decimal_str,
                          "b_sampled": sampled_metric([50] * 100, 10_000).decimal_str},
           options={"compress": N_("Sampling compresses ranks: an item at rank 50 of 10,000 has on average about "
                                   "half a sampled negative above it, so it lands near the top of 101"),
                    "noise": N_("It is random noise of the sample; another draw would reverse it"),
                    "bug": N_("B must be the better system; the full-catalogue numbers are wrong"),
                    "ties": N_("The sampled list has ties, which favour B")},
           correct="compress",
           why={"noise": N_("These are exact expectations over every possible sample, not one draw: no noise is "
                            "left in them."),
                "bug": N_("On the full catalogue B never reaches the top 10 for anyone, so its HR@10 is 0 there: the "
                          "full-catalogue numbers are right, and they are what users see."),
                "ties": N_("No scores tie here: each sampled negative is either above or below the held-out item.")},
           explanation=N_("Among 100 negatives drawn from 9,999 items, the expected number above an item at rank r "
                          "is (r − 1)·100/9,999: about 0.5 for rank 50, about 50 for rank 5,000. B's items almost "
                          "always land in the sampled top 10, A's far ones never do. The sampled metric rewards "
                          "'fairly good for everyone' over 'perfect for some', the opposite of HR@10 on the "
                          "catalogue (Krichene & Rendle 2020)."),
           hints=(N_("Sampling does not change the order of two items, only how many others are in the list."),
                  N_("Estimate how many of 100 random negatives outrank an item at rank 50 of 10,000."),
                  N_("Each other item is sampled with probability 100/9,999 ≈ 1%; 49 items are above rank 50."))),
    choice("global-or-group-auc", family="choosing", kind="analyse",
           title=N_("Global AUC or group AUC?"),
           question=N_("In one ads log, user u1 sees many ads and clicks often, u2 and u3 rarely. The model's global "
                       "AUC over all impressions is {auc}; its GAUC (each user's AUC, weighted by impressions) is "
                       "{gauc}. What does the global AUC count that GAUC does not?"),
           facts=lambda: {"auc": auc(_CTR_LABELS, _CTR_SCORES).decimal_str,
                          "gauc": gauc(_CTR_LABELS, _CTR_SCORES, _CTR_USERS).decimal_str},
           options={"cross": N_("Pairs of a click of one user and a non-click of another, which no page ever "
                                "ranks against each other"),
                    "calibration": N_("How well calibrated the probabilities are"),
                    "position": N_("The position at which each ad was shown"),
                    "skipped": N_("Users with no click, which GAUC counts twice")},
           correct="cross",
           why={"calibration": N_("Both AUCs read only the order of scores, never their values."),
                "position": N_("Neither AUC knows the display position; both see only labels and scores."),
                "skipped": N_("GAUC skips a user with one class only (no pair to order); it never counts one "
                              "twice.")},
           explanation=N_("The global AUC pairs every click with every non-click, across users: a model that simply "
                          "scores the heavy clicker u1 higher than everyone wins many such pairs without ordering "
                          "anyone's own page better. GAUC keeps only pairs within a user, the pairs a page really "
                          "ranks."),
           hints=(N_("AUC is a share of (click, non-click) pairs. Which pairs does each version form?"),
                  N_("List a pair the global AUC counts whose two impressions belong to different users."),
                  N_("u1's clicks score 0.9, 0.8 and 0.6; u3's non-clicks 0.35 and 0.1."))),
    _e("gauc-three-users", "choosing", "gauc",
       {"labels": [1, 0, 0, 1, 0, 1, 0, 0], "scores": [0.9, 0.8, 0.2, 0.3, 0.4, 0.1, 0.2, 0.5],
        "groups": ["u1", "u1", "u1", "u2", "u2", "u2", "u2", "u3"]}, _gauc_task,
       [N_("A user with one impression, or with only clicks or only non-clicks, has no pair to order: skip it.")],
       randomize=_gauc_variant),
    _e("log-loss-four", "choosing", "log_loss",
       {"labels": [1, 0, 1, 0], "probabilities": [0.8, 0.25, 0.5, 0.1]}, _log_loss_task,
       [N_("A clicked impression predicted at p costs −ln p; one not clicked costs −ln(1 − p).")],
       randomize=_log_loss_variant),
    create("mrr-prefers-a-recall-prefers-b", family="choosing",
           title=N_("Two metrics, two winners"),
           question=N_("The query has **3** relevant documents. Type two rankings A and B of 0/1 relevance (at least "
                       "5 items each, at most 3 relevant) such that the reciprocal rank prefers **A** but recall@5 "
                       "prefers **B**."),
           shape="pair", verify=_mrr_up_recall_down, example=[[1, 0, 0, 0, 0], [0, 1, 1, 1, 0]],
           explanation=N_("The reciprocal rank sees only the first relevant document; recall@5 counts all of them in "
                          "the top 5. A ranking with one early hit and nothing else beats one with a later first hit "
                          "but more hits on RR, and loses on recall."),
           hints=(N_("RR looks only at the first relevant document; recall@5 counts every relevant document in "
                     "the top 5."),
                  N_("Give A an early first hit; give B more hits in the top 5, starting later."),
                  N_("A = [1, 0, 0, 0, 0] has RR = 1; what must B's first two ranks look like?"))),
    written("choose-written-legal-review", family="choosing",
            title=N_("Find every relevant document"),
            question=N_("A law firm must find every document relevant to a case among 200,000; its reviewers read what "
                        "the system returns, in order, up to a budget of 5,000 documents. A vendor reports P@10 = 0.9 "
                        "and MRR = 1.0 for its system. In four or five sentences, explain why these numbers do not "
                        "answer the firm's question, which metric you would ask for instead, and what that metric needs "
                        "from the relevance judgments."),
            model=N_("The firm's task is recall-oriented: a relevant document the reviewers never reach is a loss, "
                     "however good the top of the list is. P@10 and MRR look only at the first ten results and the "
                     "first relevant one, a few documents out of a budget of 5,000. Ask for recall at the budget, "
                     "R@5000: the share of all relevant documents that fall within the 5,000 reviewed (AP or a "
                     "recall–effort curve add how early they come). Recall divides by the number of relevant "
                     "documents in the whole collection, so the judgments must reach beyond the top of a few runs: a "
                     "deep pool, or a random sample of the unjudged documents to estimate how many relevant ones "
                     "remain."),
            hints=(N_("Ask what the firm loses: a bad document at the top, or a relevant one never read?"),
                  N_("Compare how many documents P@10 and MRR look at with how many the reviewers read."),
                  N_("Then ask what a recall needs in its denominator.")),
            rubric=((1, N_("identifies the task as recall-oriented (a missed relevant document is the loss)")),
                    (1, N_("says that P@10 and MRR see only the top of the list")),
                    (1, N_("asks for recall at the review budget (R@5000), or AP / a recall–effort curve")),
                    (1, N_("notes that recall needs the total number of relevant documents, so judgments must go deep "
                           "or be sampled"))),
            level=3, about=("recall_at_k", "precision_at_k", "mrr")),
]
