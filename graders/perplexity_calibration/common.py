"""Shared pieces of the perplexity-calibration graders: texts, case builders, random prediction sets.

Checkpoints 2 (``ece_brier``) and 3 (``reliability``) grade functions with one input contract: confidences in
[0, 1], right/wrong labels and a number of bins. One copy of the builders and the generators lives here, so a fix
lands in both checkpoints. Not a grader itself: no lesson.toml names this module.
"""

import numpy as np

from graders.engine.case import Case
from graders.engine.domain import Flag, Integer, Param, Real, Seq

#: Open cases the lesson's sources leave undecided, not generated (see each checkpoint's task): NaN and infinite
#: NLLs or confidences, booleans and floats as counts or bins, containers other than lists, tuples and arrays (a
#: generator too), numeric strings, and numbers too large for a float (upstream raises OverflowError there). Arrays of
#: more or fewer than one dimension are open in checkpoint 1 only (:data:`ONE_D_OPEN`): checkpoints 2 and 3 state that
#: they raise.
OPEN_FAMILIES = (
    "nan",
    "inf",
    "bool",
    "npbool",
    "float-int",
    "float-frac",
    "numeric-str",
    "huge",
    "huge-int",
    "complex",
    "container-set",
    "container-frozenset",
    "container-dict",
    "container-str",
    "container-none",
    "container-item",
    "container-iter",
    "container-nested",
    "ndarray-object",
    "ndarray-complex",
    "align-scalar",
    "type-*",
)
#: Checkpoint 1's task names lists, tuples and 1-D arrays and says nothing of other dimensions: not generated there.
ONE_D_OPEN = ("ndarray-2d", "ndarray-0d", "align-column", "align-2d-*", "align-0d")
#: The inner bin edges of 10 bins, where 0.3, 0.6 and 0.7 fall below the computed edge.
TEN_BIN_EDGES = tuple(float(e) for e in np.linspace(0.0, 1.0, 11)[1:-1])
CONFIDENCES = Seq(Real(0.0, 1.0, edges=TEN_BIN_EDGES), containers=("list", "tuple", "ndarray"))
LABELS = Seq(Flag(), containers=("list", "tuple", "ndarray"))
#: Any positive number of bins (the task states no upper limit): the large inputs (family "scale") pass thousands.
BINS = Param("bins", Integer(1), keyword=True, has_default=True)
#: What the domains with ``bins`` leave out besides OPEN_FAMILIES: the "large" family's 3 000 000 000 bins would make
#: the reference allocate that many (the "scale" inputs already pass bins far above the number of predictions).
BINS_SKIP = OPEN_FAMILIES + ("large",)


#: Bin counts some of whose computed edges are not ``k / bins`` or fall below ``k`` when multiplied by ``bins``
#: (with 7 bins ``edges[5] * 7`` is 4.999...): the edge grids (:func:`edge_grid`) of these tell the task's binning
#: from ``p * bins`` and ``np.arange(bins + 1) / bins`` at every bin count's edges, not only at those of 10 bins.
GRID_BINS = (7, 14, 17, 49)


def edge_grid(bins: int) -> tuple[list, list]:
    """``(confidences, correct)``: every computed edge of ``bins`` bins (0.0 and 1.0 included) as a confidence,
    labels 0 and 1 in turn."""
    edges = [float(edge) for edge in np.linspace(0.0, 1.0, bins + 1)]
    return edges, [place % 2 for place in range(len(edges))]


def edge_grid_explain(bins: int) -> dict:
    """What an edge grid case (:func:`edge_grid`) tests, in the three languages."""
    return t(
        f"Elke berekende rand van {bins} bakken, np.linspace(0, 1, {bins + 1}), is een zekerheid: elke hoort bij de "
        "bak die daar begint (1.0 bij de laatste). Met p * bins of k / bins komen sommige een bak te laag.",
        f"Every computed edge of {bins} bins, np.linspace(0, 1, {bins + 1}), is a confidence: each belongs to the bin "
        "that starts there (1.0 to the last). With p * bins or k / bins some of them land one bin too low.",
        f"كل حدّ محسوب لـ {bins} حاوية، np.linspace(0, 1, {bins + 1})، هو ثقة هنا: ينتمي كل منها إلى الحاوية التي "
        "تبدأ عنده (و1.0 إلى الأخيرة). مع p * bins أو k / bins يقع بعضها في حاوية أدنى بواحدة.",
    )


def prediction_params(with_bins: bool) -> tuple:
    """The parameters of the functions over (confidences, correct[, bins])."""
    params = (Param("confidences", CONFIDENCES), Param("correct", LABELS))
    return params + (BINS,) if with_bins else params


def t(nl, en, ar):
    """One text in the three interface languages."""
    return {"nl": nl, "en": en, "ar": ar}


def case_builder(call, default_hint):
    """A function that builds cases of ``call``: ``build(case_id, args, kwargs, explain, hint=default_hint, **extra)``.

    ``extra`` goes to :class:`Case` as it is (``forbid_warnings``, ``message``).
    """

    def build(case_id, args, kwargs, explain, hint=default_hint, **extra):
        """One case of the builder's call; without ``hint`` the checkpoint's usual advice is shown."""
        return Case(id=case_id, call=call, args=args, kwargs=kwargs, explain=explain, hint=hint, **extra)

    return build


def outside_unit_interval(shown):
    """The explanation of a case whose confidence ``shown`` (as printed, e.g. "1.5") lies outside [0, 1]."""
    return t(
        f"Zekerheid {shown} ligt buiten [0, 1]: ValueError.",
        f"Confidence {shown} lies outside [0, 1]: ValueError.",
        f"الثقة {shown} خارج [0, 1]: ValueError.",
    )


#: The explanation of a case with three confidences but only two labels.
THREE_CONFIDENCES_TWO_LABELS = t(
    "Drie zekerheden, twee labels: ValueError.",
    "Three confidences, two labels: ValueError.",
    "ثلاث ثقات مقابل تسميتين: ValueError.",
)


def confidence(rng, bins):
    """A confidence rounded to 3 decimals that is not exactly on an inner bin edge (0.0 and 1.0 are allowed)."""
    while True:
        roll = rng.random()
        if roll < 0.05:
            return 1.0
        if roll < 0.08:
            return 0.0
        value = round(rng.random(), 3)
        if value in (0.0, 1.0):
            continue
        if all(abs(value * bins - k) > 1e-6 for k in range(1, bins)):
            return value


def random_predictions(rng, bin_choices, max_size):
    """A random prediction set: ``(bins, size, args)`` with ``args = (confidences, labels)``.

    ``bins`` is drawn from ``bin_choices``; ``size`` is 0 (one time in twenty) or 1 to ``max_size``. Labels are
    1/0, a quarter of the time booleans, and both lists become numpy arrays three times in ten.
    """
    bins = rng.choice(bin_choices)
    size = 0 if rng.random() < 0.05 else rng.randint(1, max_size)
    conf = [confidence(rng, bins) for _ in range(size)]
    right = [1 if rng.random() < p * rng.uniform(0.6, 1.2) else 0 for p in conf]
    labels = [bool(y) for y in right] if rng.random() < 0.25 else right
    if rng.random() < 0.3:
        args = (np.array(conf, dtype=np.float64), np.array(labels))
    else:
        args = (conf, labels)
    return bins, size, args


def random_explain(size, bins):
    """The explanation of a random case with ``size`` predictions in ``bins`` bins."""
    return t(
        f"Willekeurige voorspellingen: {size} stuks in {bins} bak(ken).",
        f"Random predictions: {size} of them in {bins} bin(s).",
        f"تنبؤات عشوائية: عددها {size} في {bins} حاوية.",
    )
